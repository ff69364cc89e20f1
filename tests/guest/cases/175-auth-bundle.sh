# Checks bundle authorization on a vhd host (gbsim --authorized-default 0): held bundles exist with their class, CPorts and AUTHORIZED=0 in the uevent but no driver and no connection; writing 1 binds them (a gpiochip, a loopback), writing 0 unbinds them cleanly while a GPIO line is requested and while a loopback test runs, and 1 binds again; gbsim, holding the host, authorizes and deauthorizes through gb-vhd's AUTHORIZE (a missing bundle refused); bogus writes are refused; an unauthorized module unplugs cleanly.
# transport: vhd
# timeout: 180
# tools: gpiodetect gpiomon
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim gpiodetect gpiomon
load_gb greybus gb-vhd gb-gbphy gb-gpio gb-loopback gb-hid
M=/usr/share/greybus/manifests
DEV=/sys/bus/greybus/devices
export GBSIM_CTL=$GBTEST_TMP/ctl

gbsim --ctl "$GBSIM_CTL" -l log --authorized-default 0 \
	-m 2:$M/gbphy-bridge.mnfs -m 3:$M/loopback.mnfs \
	-m 4:$M/keyboard.mnfs >out 2>err &
pid=$!
wait_for 30 test -e $DEV/1-4.4.1/authorized ||
	fail "bundles did not appear: $(ls $DEV 2>&1 | tr '\n' ' ') $(cat err)"
uevent_settle 10

assert_file_eq $DEV/greybus1/authorized_default 0
for b in 1-2.2.1 1-3.3.1 1-4.4.1; do
	assert_file_eq $DEV/$b/authorized 0
	test -e $DEV/$b/driver && fail "$b bound while not authorized"
	grep -qx AUTHORIZED=0 $DEV/$b/uevent || fail "$b uevent: $(cat $DEV/$b/uevent)"
done
grep -qx BUNDLE_CLASS=0a $DEV/1-2.2.1/uevent || fail "uevent: $(cat $DEV/1-2.2.1/uevent)"
grep -qx GREYBUS_ID=00000001/00000001 $DEV/1-2.2.1/uevent ||
	fail "uevent: $(cat $DEV/1-2.2.1/uevent)"
assert_file_eq $DEV/1-2.2.1/bundle_class 0x0a
assert_eq "$(head -n 2 $DEV/1-2.2.1/cports | tr '\n' ' ')" "1 0x02 2 0x03 " "cports of 1-2.2.1"
assert_file_eq $DEV/1-4.4.1/cports "1 0x05"
grep -q 'vhd bundle 2.1 class 0x0a authorized=0' log || fail "gbsim heard of no bundle 2.1"
# no connection: no bundle was activated, no CPort beyond the control ones
gbphy_gpiochip >/dev/null && fail "a gpiochip without authorization"
test -e /sys/class/gb_loopback/gb_loopback0 && fail "a loopback without authorization"
grep -q 'bundle activate' log && fail "a bundle activated without authorization: $(grep 'bundle activate' log)"

# bogus writes change nothing
for v in 2 yes "
" 01 " 1" -1 0x1 "1 1"; do
	printf '%s' "$v" >$DEV/1-2.2.1/authorized 2>/dev/null &&
		fail "authorized accepted '$v'"
	printf '%s' "$v" >$DEV/greybus1/authorized_default 2>/dev/null &&
		fail "authorized_default accepted '$v'"
done
assert_file_eq $DEV/1-2.2.1/authorized 0
assert_file_eq $DEV/greybus1/authorized_default 0

# authorized: the driver binds before the write returns
echo 1 >$DEV/1-2.2.1/authorized || fail "authorizing 1-2.2.1 failed"
assert_file_eq $DEV/1-2.2.1/authorized 1
test -e $DEV/1-2.2.1/driver || fail "1-2.2.1 not bound once authorized"
grep -qx AUTHORIZED=1 $DEV/1-2.2.1/uevent || fail "uevent: $(cat $DEV/1-2.2.1/uevent)"
wait_for 20 gbphy_gpiochip >/dev/null || fail "no gpiochip once authorized"
CH=$(gbphy_gpiochip)

# deauthorized while a line is requested: unbound cleanly, the chip goes
gpiomon $CH 3 >mon.out 2>mon.err &
mon=$!
_irq_enabled() {
	grep -q 'line 3: active=1 .* irq=unmasked' log
}
wait_for 10 held_open /dev/$CH || fail "gpiomon did not open its chip"
wait_for 10 _irq_enabled || fail "gpiomon's line was not requested: $(cat mon.err)"
echo 0 >$DEV/1-2.2.1/authorized || fail "deauthorizing 1-2.2.1 failed"
test -e $DEV/1-2.2.1/driver && fail "1-2.2.1 still bound after deauthorization"
_no_chip() {
	! gbphy_gpiochip >/dev/null
}
wait_for 20 _no_chip || fail "the gpiochip stayed after deauthorization"
kill $mon 2>/dev/null
wait $mon 2>/dev/null
# and back
echo 1 >$DEV/1-2.2.1/authorized || fail "authorizing 1-2.2.1 again failed"
wait_for 20 gbphy_gpiochip >/dev/null || fail "no gpiochip once authorized again"

# a loopback test running when deauthorized
echo 1 >$DEV/1-3.3.1/authorized || fail "authorizing 1-3.3.1 failed"
LB=/sys/class/gb_loopback/gb_loopback0
wait_for 20 test -e $LB/type || fail "no gb_loopback0 once authorized"
echo 2000000 >$LB/timeout
echo 0 >$LB/size
echo 1000000 >$LB/iteration_max
echo 2 >$LB/type || fail "loopback ping refused"
_lb_running() {
	[ "$(cat $LB/iteration_count 2>/dev/null || echo 0)" -gt 10 ]
}
wait_for 30 _lb_running || fail "loopback did not run"
echo 0 >$DEV/1-3.3.1/authorized || fail "deauthorizing a running loopback failed"
test -e $LB && fail "gb_loopback0 still there after deauthorization"
test -e $DEV/1-3.3.1/driver && fail "1-3.3.1 still bound"

# the process holding the host authorizes through gb-vhd (AUTHORIZE):
# bound afterwards, on the core's workqueue; a bundle it lacks is refused
gbsim ctl authorize 4 1 1 || fail "gbsim ctl authorize 4 1 1 failed"
wait_for 20 test -e $DEV/1-4.4.1/driver || fail "1-4.4.1 not bound once authorized through vhd"
assert_file_eq $DEV/1-4.4.1/authorized 1
gbsim ctl authorize 4 9 1 >ctl.out 2>&1 && fail "authorize of a bundle that does not exist succeeded"
grep -q 'no bundle 4.9 on this host' ctl.out || fail "authorize 4 9: $(cat ctl.out)"
gbsim ctl authorize 4 1 0 || fail "gbsim ctl authorize 4 1 0 failed"
wait_for 20 test ! -e $DEV/1-4.4.1/driver || fail "1-4.4.1 still bound once deauthorized through vhd"
assert_file_eq $DEV/1-4.4.1/authorized 0

# the held keyboard unplugs cleanly
gbsim ctl remove 4 || fail "gbsim ctl remove 4 failed"
wait_for 20 test ! -e $DEV/1-4 || fail "module 4 still there"
test -e $DEV/1-2.2.1/driver || fail "1-2.2.1 lost its driver when module 4 went"

# the default back to 1: a module plugged now binds by itself
echo 1 >$DEV/greybus1/authorized_default || fail "authorized_default 1 refused"
gbsim ctl insert 4 $M/keyboard.mnfs || fail "gbsim ctl insert 4 failed"
wait_for 30 test -e $DEV/1-4.4.1/driver || fail "1-4.4.1 not bound with authorized_default 1"
assert_file_eq $DEV/1-4.4.1/authorized 1

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $DEV/greybus1 || fail "greybus1 still there after gbsim exited"
exit 0
