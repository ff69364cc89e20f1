# Checks gb-light against an LED controller that lies (gbsim's lights knobs and faults): no lights, too many, more than it has, no channels, too many, more than it has, light and channel configurations too short or too long, a short light count; each fails the probe with a clear kernel log line, registers no LED, and a bystander LED controller keeps working throughout.
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
BY=/sys/class/leds/gbsim:red:notification
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

load_gb greybus gb-vhd gb-light
gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 4:$M/lights.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -e $BY/brightness || fail "no bystander LED: $(ls /sys/class/leds) $(cat gbsim.err)"
readlink $BY | grep -q '/1-4\.4\.1/' || fail "$BY is not the bystander's: $(readlink $BY)"

# the bystander still answers: brightness reaches gbsim
level=10
bystander_ok() {
	level=$((level + 1))
	echo $level >$BY/brightness || fail "bystander: write refused ($1)"
	_got() { grep -q "light 0 channel 0 brightness=$level\$" "$LOG"; }
	wait_for 5 _got || fail "bystander: gbsim did not get brightness $level ($1)"
	assert_file_eq $BY/brightness $level
	assert_file_eq $BY/max_brightness 255
}
liar_left() { ls -l /sys/class/leds | grep '/1-5\.5\.1/'; }
LIAR_MNFS=$M/lights.mnfs
LIAR_DEFAULTS="lights set defaults"
. /usr/lib/gbtest/liar.sh

bad "no lights" 'module has 0 lights \(1\.\.8 supported\)' lights set lights=0
bad "nine lights" 'module has 9 lights \(1\.\.8 supported\)' lights set lights=9
bad "two lights, one there" 'light 1: no config: -22' lights set lights=2
bad "short light count" 'cannot get lights: -90' \
	fault add intf=5 type=lights.get_lights short=0 sticky
bad "no channels" 'light 0: 0 channels \(1\.\.8 supported\)' lights set channels=0
bad "nine channels" 'light 0: 9 channels \(1\.\.8 supported\)' lights set channels=9
bad "three channels, two there" 'light 0 channel 2: no config: -22' lights set channels=3
bad "short light config" 'light 0: no config: -90' lights set light_len=20
bad "long light config" 'light 0: no config: -90' lights set light_len=40
bad "short channel config" 'light 0 channel 0: no config: -90' lights set channel_len=10
bad "long channel config" 'light 0 channel 0: no config: -90' lights set channel_len=80
bad "channel config refused" 'light 0 channel 0: no config: -84' \
	fault add intf=5 type=lights.get_channel_config result=malfunction
# the size mismatches are the core's lines
dmesg_since_case | grep -qE 'response id 0x[0-9a-f]+ of type 0x83 has wrong size \(40 bytes, expected 33\)' ||
	fail "no wrong-size line for the long light config"
dmesg_since_case | grep -qE 'response id 0x[0-9a-f]+ of type 0x84 has wrong size \(10 bytes, expected 77\)' ||
	fail "no wrong-size line for the short channel config"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
wait_for 10 test ! -e $BY || fail "bystander LED still there after gbsim exited"
unload_all_gb
exit 0
