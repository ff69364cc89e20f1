# Checks that stock tools work on nodes reached over TCP through gbnet: Linux's loopback_test pings and transfers on a loopback node without errors, and on a bridge node gpioget/gpioset read and drive the node's GPIO lines and i2cget/i2ctransfer read and write its EEPROM, as the node's log shows.
# transport: vhd
# timeout: 150
# tools: gpiodetect gpioget gpioset i2cget i2cset i2ctransfer
# kmods: i2c-dev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh
. /usr/lib/gbtest/gbnet.sh

need_tool gbsim gbnet loopback_test gpiodetect gpioget gpioset i2cget i2ctransfer
need_kmod i2c-dev
load_gb greybus gb-vhd gb-loopback gb-gbphy gb-gpio gb-i2c
modprobe i2c-dev || fail "modprobe i2c-dev"
node_start 2 loopback.mnfs
node_start 3 gbphy-bridge.mnfs
gbnet_start --node 127.0.0.2 --node 127.0.0.3

wait_for 40 test -e /sys/class/gb_loopback/gb_loopback0 ||
	fail "no gb_loopback0: $(gbnet ctl list) $(gbnet_tail)"
lb_patient /sys/class/gb_loopback/gb_loopback0
for t in ping transfer; do
	loopback_test -t $t -s 128 -i 200 -p -O 60 >out 2>&1 ||
		fail "loopback_test $t: exit $?: $(cat out)"
	grep -q 'Error running test' out && fail "loopback_test $t: $(cat out)"
	grep -q 'errors:[[:space:]]*0$' out || fail "loopback_test $t: errors: $(cat out)"
	grep -q 'requests per-sec:[[:space:]]*min=[1-9]' out || fail "loopback_test $t: $(cat out)"
done
grep -q 'loopback.transfer req' "$GBTEST_TMP/node2.log" ||
	fail "the node saw no transfer: $(tail -n 5 "$GBTEST_TMP/node2.log")"

# GPIO over TCP
wait_for 40 gbphy_gpiochip >/dev/null || fail "no gbphy gpiochip: $(gbnet_tail)"
CH=$(gbphy_gpiochip)
node_ctl 3 gpio 2:1 3 1 || fail "node ctl gpio"
assert_eq "$(gpioget $CH 3)" 1 "gpioget line 3 at level 1"
node_ctl 3 gpio 2:1 3 0 || fail "node ctl gpio"
assert_eq "$(gpioget $CH 3)" 0 "gpioget line 3 at level 0"
gpioset $CH 5=1 || fail "gpioset 5=1"
wait_for 5 grep -q 'line 5: active=1 dir=out value=1' "$GBTEST_TMP/node3.log" ||
	fail "the node did not see gpioset: $(grep 'gpio' "$GBTEST_TMP/node3.log" | tail -n 3)"

# I2C over TCP
wait_for 30 gbphy_i2c_bus >/dev/null || fail "no gbphy i2c adapter"
BUS=$(gbphy_i2c_bus)
wait_for 10 test -c /dev/i2c-$BUS || fail "no /dev/i2c-$BUS"
assert_eq "$(i2cget -y $BUS 0x50 0x00)" 0x67 "eeprom[0]"
i2ctransfer -y $BUS w3@0x50 0x60 0x11 0x22 || fail "i2ctransfer write"
assert_eq "$(i2ctransfer -y $BUS w1@0x50 0x60 r2)" "0x11 0x22" "i2ctransfer read back"
grep -q 'i2c: eeprom\[0x60\]=0x11' "$GBTEST_TMP/node3.log" || fail "the node did not store the write"
exit 0
