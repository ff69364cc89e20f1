# Checks docs/gbmon.md's worked example on the suite's transport (case 217 runs it over TCP): a GPIO line of gbsim's bridge module driven with gpioset shows in gbmon -p gpio (activate, direction_out with each value, deactivate) with the line and value decoded and matched, and nothing of other protocols; the lines are printed for the document. The capture (every record: the enumeration's SVC and control operations too) goes to the host, where tshark with our dissector names them, none malformed (tests/host/dissect).
# timeout: 120
# host: dissect
# tools: gpiodetect gpioset
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim gbmon gpiodetect gpioset
load_gb greybus gb-vhd gb-gbphy gb-gpio
M=/usr/share/greybus/manifests
T=$GBTEST_TMP

gbmon -p gpio -w $T/gpio.pcapng >$T/gpio.txt 2>$T/gbmon.err &
mon=$!
wait_for 20 sh -c "ls -l /proc/$mon/fd 2>/dev/null | grep -q greybus/monitor" ||
	fail "gbmon did not open the monitor: $(cat $T/gbmon.err)"
gbsim -l $T/log -m 2:$M/gbphy-bridge.mnfs >$T/out 2>$T/err &
sim=$!
wait_for 30 gbphy_gpiochip >/dev/null || fail "no gbphy gpiochip: $(cat $T/err)"
CH=$(gbphy_gpiochip)

gpioset $CH 3=1 || fail "gpioset 3=1 failed"
gpioset $CH 3=0 || fail "gpioset 3=0 failed"
# gpioset requests the line as an output with its value, then releases it:
# shown once the response to the last deactivate is back
shown() {
	grep -A1 'gpio.direction_out id=0x[0-9a-f]* which=3 value=0 -> success' $T/gpio.txt |
		grep -q 'gpio.deactivate id=0x[0-9a-f]* which=3 -> success'
}
wait_for 20 shown || fail "no direction_out of line 3 to 0, then deactivate, in: $(cat $T/gpio.txt)"
# the bridge's other functions' drivers (gb-i2c, gb-spi, ...) autoloaded
# before the module goes
uevent_settle 60
kill $mon
wait $mon
kill $sim
wait $sim

while read -r l; do info "$l"; done <$T/gpio.txt
grep -qE 'greybus1 > intf 2\.1 cport [0-9]+ gpio.line_count id=0x[0-9a-f]{4} -> success count=7 \([0-9]+ us\)$' $T/gpio.txt ||
	fail "no line_count with count=7 (the highest line number: 8 lines)"
grep -qE 'gpio.direction_out id=0x[0-9a-f]{4} which=3 value=1 -> success \([0-9]+ us\)$' $T/gpio.txt ||
	fail "no direction_out of line 3 to 1"
grep -v ' gpio\.' $T/gpio.txt | grep . && fail "lines of other protocols with -p gpio (above)"
gbmon -r $T/gpio.pcapng -p gpio >$T/replay.txt || fail "gbmon -r failed"
cmp -s $T/gpio.txt $T/replay.txt || fail "the capture reads back otherwise"

printf '%s\n' svc.svc_hello svc.intf_activate svc.conn_create control.get_manifest \
	control.bundle_activate gpio.line_count gpio.activate gpio.direction_out \
	gpio.deactivate >$T/gpio.pcapng.expect
export_file gpio.pcapng
export_file gpio.pcapng.expect
exit 0
