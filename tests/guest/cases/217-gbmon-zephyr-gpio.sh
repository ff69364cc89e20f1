# Checks docs/gbmon.md's worked example over TCP: a node that writes as greybus-zephyr does (gbsim --personality zephyr) with gbsim's bridge module (eight GPIO lines) behind gbnet; line 3 driven high, then low, with gpioset shows in gbmon on the AP (activate, direction_out with its value, deactivate, each matched) and the enumeration in gbnet's --capture of the link. Both captures go to the host, where tshark with our dissector names the enumeration's and the GPIO's operations, none malformed (tests/host/dissect). The lines are printed for the document.
# transport: vhd
# timeout: 120
# host: dissect
# tools: gpiodetect gpioset
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim gbnet gbmon gpiodetect gpioset
load_gb greybus gb-vhd gb-gbphy gb-gpio
T=$GBTEST_TMP

gbmon -w $T/ap.pcapng >$T/ap.txt 2>$T/gbmon.err &
mon=$!
wait_for 20 sh -c "ls -l /proc/$mon/fd 2>/dev/null | grep -q greybus/monitor" ||
	fail "gbmon did not open the monitor: $(cat $T/gbmon.err)"
node_start 2 gbphy-bridge.mnfs --personality zephyr
grep -q 'personality zephyr' $T/node2.log || fail "gbsim: no zephyr personality"
gbnet_start --node 127.0.0.2 --capture $T/net.pcapng
wait_for 30 node_is 2 up || fail "node not up: $(gbnet ctl list) $(gbnet_tail)"
wait_for 30 gbphy_gpiochip >/dev/null || fail "no gbphy gpiochip: $(gbnet_tail)"
CH=$(gbphy_gpiochip)

gpioset $CH 3=1 || fail "gpioset 3=1 failed"
gpioset $CH 3=0 || fail "gpioset 3=0 failed"
# shown once the response to the last deactivate is back
shown() {
	grep ' gpio\.' $T/ap.txt | grep -A1 'gpio.direction_out id=0x[0-9a-f]* which=3 value=0 -> success' |
		grep -q 'gpio.deactivate id=0x[0-9a-f]* which=3 -> success'
}
wait_for 20 shown || fail "no direction_out of line 3 to 0, then deactivate, in: $(grep ' gpio\.' $T/ap.txt)"
# the bridge's other functions' drivers (gb-i2c, gb-spi, ...) autoloaded
# before the node goes
uevent_settle 60
kill $mon
wait $mon
rc=$?
assert_eq "$rc" 0 "gbmon's exit status ($(cat $T/gbmon.err))"
# gbnet closes its capture whole when stopped
kill $gbnet_pid
wait $gbnet_pid
# both captures to the host's tshark (kept there if a check below fails)
for c in ap net; do
	printf '%s\n' svc.svc_hello svc.module_inserted svc.intf_activate svc.conn_create \
		control.get_manifest control.bundle_activate >$T/$c.pcapng.expect
	[ $c = net ] || printf '%s\n' gpio.line_count gpio.activate gpio.direction_out \
		gpio.deactivate >>$T/$c.pcapng.expect
	export_file $c.pcapng
	export_file $c.pcapng.expect
done

grep ' gpio\.' $T/ap.txt >$T/gpio.txt
while read -r l; do info "$l"; done <$T/gpio.txt
grep -qE 'greybus[0-9]+ > intf 2\.1 cport [0-9]+ gpio.direction_out id=0x[0-9a-f]{4} which=3 value=1 -> success \([0-9]+ us\)$' $T/gpio.txt ||
	fail "no direction_out of line 3 to 1"
grep -E 'no response|not seen|malformed|lost' $T/ap.txt &&
	fail "unmatched or malformed operations (above)"

# gbnet's capture of the link: the enumeration matched as the AP saw it
# (gbnet names the node's own CPorts' messages by number only: it does
# not read the node's manifest, so they are not compared)
gbmon -r $T/net.pcapng >$T/net.txt 2>&1 || fail "gbmon -r of gbnet's capture: $(cat $T/net.txt)"
for op in svc.svc_hello svc.module_inserted svc.intf_activate svc.conn_create \
	control.get_manifest control.bundle_activate; do
	grep -qE "greybus0 [<>] .* $op id=0x[0-9a-f]{4}.* -> success" $T/net.txt ||
		fail "no matched $op in gbnet's capture: $(head -n 30 $T/net.txt)"
done

exit 0
