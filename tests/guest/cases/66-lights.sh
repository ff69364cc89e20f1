# Checks gb-light: autoloaded for a lights bundle, its channel as /sys/class/leds/gbsim:red:notification with the module's max_brightness, brightness, hardware blink (timer trigger) and colour reaching gbsim, the flash channel skipped with a note, config events accepted, and malformed answers failing cleanly.
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

gbsim ctl request 2:1 lights.event 0001 >/dev/null || fail "ctl request failed"
gbsim ctl request 2:1 lights.event 0701 >/dev/null
expect_dmesg '1-2.2.1: event for unknown light 7'
wait_for 5 _has 'lights.get_channel_config req' || fail "no re-read"

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
