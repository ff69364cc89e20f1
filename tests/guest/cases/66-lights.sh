# Checks gb-light: autoloaded for a lights bundle, its channel as /sys/class/leds/gbsim:red:notification with the module's max_brightness, brightness, hardware blink (timer trigger) and colour reaching gbsim, the flash channel skipped with a note, a config event from the module updating max_brightness and colour in sysfs (and clamping brightness), and malformed answers failing cleanly.
# timeout: 120
# kmods: ledtrig-timer
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
L=/sys/class/leds/gbsim:red:notification
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

load_gb greybus gb-vhd
gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 2:$M/lights.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -e $L/brightness || fail "no $L: $(ls /sys/class/leds) $(cat gbsim.err)"
grep -q '^gb_light ' /proc/modules || fail "gb-light not autoloaded"
assert_file_eq $L/max_brightness 255
expect_dmesg '1-2.2.1: gbsim:white:flash: flash channel skipped'
ls /sys/class/leds | grep -q flash && fail "a flash channel was registered"

echo 77 >$L/brightness || fail "brightness write refused"
_has() { grep -q "$1" "$LOG"; }
wait_for 5 _has 'light 0 channel 0 brightness=77$' || fail "gbsim did not get brightness 77"
assert_file_eq $L/brightness 77

assert_file_eq $L/color 0xff0000
echo 0x00ff80 >$L/color || fail "color write refused"
wait_for 5 _has 'light 0 channel 0 color=0x00ff80$' || fail "gbsim did not get the colour"
assert_file_eq $L/color 0x00ff80
echo 0x1000000 >$L/color 2>/dev/null && fail "a colour above 0xffffff was accepted"

if modprobe ledtrig-timer 2>/dev/null; then
	echo timer >$L/trigger || fail "timer trigger refused"
	echo 300 >$L/delay_on
	echo 200 >$L/delay_off
	wait_for 5 _has 'light 0 channel 0 blink on=300 off=200$' ||
		fail "gbsim did not get blink 300/200: $(grep blink "$LOG")"
	echo none >$L/trigger
else
	info "ledtrig-timer not in the guest: blink not checked"
fi

# a config event: the module's new max brightness and colour show in
# sysfs, and a brightness above the new maximum comes down to it
echo 200 >$L/brightness || fail "brightness 200 refused"
wait_for 5 _has 'light 0 channel 0 brightness=200$' || fail "gbsim did not get brightness 200"
n_cfg() { grep -c 'lights.get_channel_config req' "$LOG"; }
_reread() { [ "$(n_cfg)" -ge "$1" ]; }
n=$(n_cfg)
gbsim ctl lights set max=100 color=0x0000ff >/dev/null || fail "lights set"
gbsim ctl request 2:1 lights.event 0001 >/dev/null || fail "ctl request failed"
wait_for 5 _reread $((n + 2)) || fail "no re-read of both channels after the event"
wait_file_eq 5 $L/max_brightness 100 || fail "max_brightness did not follow the config event"
wait_file_eq 5 $L/color 0x0000ff || fail "colour did not follow the config event"
wait_file_eq 5 $L/brightness 100 || fail "brightness not clamped to the new maximum"
wait_for 5 _has 'light 0 channel 0 brightness=100$' || fail "gbsim was not told of the clamped brightness"
grep -Eq 'lights.event rsp .*result=success' "$LOG" || fail "the AP did not accept the event"
# an event without the config bit re-reads nothing
gbsim ctl lights set max=50 >/dev/null
n=$(n_cfg)
gbsim ctl request 2:1 lights.event 0000 >/dev/null
sleep 1
assert_eq "$(n_cfg)" "$n" "channel configs read after an event without LIGHT_CONFIG"
assert_file_eq $L/max_brightness 100
# and back
gbsim ctl lights set defaults >/dev/null
gbsim ctl request 2:1 lights.event 0001 >/dev/null
wait_file_eq 5 $L/max_brightness 255 || fail "max_brightness did not come back"
wait_file_eq 5 $L/color 0xff0000 || fail "colour did not come back"
gbsim ctl request 2:1 lights.event 0701 >/dev/null
expect_dmesg '1-2.2.1: event for unknown light 7'

# a failing set: an error to the writer, no crash
gbsim ctl fault add intf=2 type=lights.set_brightness result=invalid >/dev/null
echo 3 >$L/brightness
expect_dmesg '1-2.2.1: operation 0x06 failed: '
gbsim ctl fault clear >/dev/null

gbsim ctl remove 2 >/dev/null || fail "remove failed"
wait_for 10 test ! -e $L || fail "$L still there after removal"

gbsim ctl fault add intf=2 type=lights.get_channel_config short=5 sticky >/dev/null
gbsim ctl insert 2 $M/lights.mnfs >/dev/null || fail "insert failed"
expect_dmesg 'light 0 channel 0: no config: ' 20
test -e $L && fail "a channel with a short config was registered"
gbsim ctl remove 2 >/dev/null
gbsim ctl fault clear >/dev/null

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
