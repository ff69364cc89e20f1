# Checks unplugging the emulated ES2 bridge (unbinding its gadget from the UDC) mid-transfer and at points of enumeration: the USB device, greybus1 and everything under it go without a kernel warning, gbsim reports the host lost, the bridge plugs in again, and every module unloads.
# timeout: 300
# kmods: configfs libcomposite usb_f_fs dummy_hcd
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/es2.sh

need_tool gbsim
need_kmod configfs libcomposite usb_f_fs dummy_hcd
M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
LB=/sys/class/gb_loopback/gb_loopback0

es2_setup || fail "cannot set up the ES2 gadget"
load_gb greybus gb-es2 gb-loopback

bus_empty() {
	[ -z "$(ls $D)" ]
}
usb_present() {
	grep -qs 1eaf /sys/bus/usb/devices/*/idProduct
}
usb_gone() {
	! usb_present
}
gbsim_gone() {
	! kill -0 "$pid" 2>/dev/null
}

# 1. mid-transfer: async 2028-byte transfers, 8 outstanding
gbsim --transport es2 -l log -m 2:$M/loopback.mnfs -m 4:$M/loopback.mnfs 2>err &
pid=$!
wait_for 60 test -e $LB || fail "no gb_loopback0: $(cat err) $(tail -n 5 log)"
echo 2028 >$LB/size
echo 1 >$LB/async
echo 8 >$LB/outstanding_operations_max
echo 1000000 >$LB/iteration_max
echo 3 >$LB/type
wait_for 60 sh -c "[ \$(cat $LB/iteration_count) -gt 100 ]" ||
	fail "the transfer test did not get going: $(cat $LB/iteration_count)"
es2_unplug
wait_for 20 bus_empty || fail "left after the unplug: $(ls $D | tr '\n' ' ')"
wait_for 20 usb_gone || fail "the USB device is still there"
wait_for 20 gbsim_gone || fail "gbsim still running after the unplug"
wait "$pid"
rc=$?
[ $rc = 1 ] || fail "gbsim exited with $rc after the unplug, want 1: $(cat err)"
grep -q 'host device lost' log || fail "gbsim did not report the host lost: $(tail -n 3 log)"

# 2. at points of enumeration, 0 to 1.4 s after the USB device appeared
i=0
while [ $i -lt 8 ]; do
	gbsim --transport es2 -l log.$i -m 2:$M/loopback.mnfs -m 3:$M/test-vendor.mnfs >/dev/null 2>&1 &
	pid=$!
	wait_for 60 usb_present || fail "round $i: no USB device"
	usleep $((i * 200000))
	es2_unplug
	wait_for 20 bus_empty || fail "round $i: left $(ls $D | tr '\n' ' ')"
	wait_for 20 usb_gone || fail "round $i: the USB device is still there"
	wait_for 20 gbsim_gone || fail "round $i: gbsim still running"
	wait "$pid"
	rc=$?
	[ $rc = 1 ] || fail "round $i: gbsim exited with $rc after the unplug, want 1: $(tail -n 3 log.$i)"
	grep -q 'host device lost' log.$i ||
		fail "round $i: gbsim did not report the host lost: $(tail -n 3 log.$i)"
	i=$((i + 1))
done

# 3. plugged in again, it enumerates as before
gbsim --transport es2 -l log.again -m 2:$M/loopback.mnfs 2>err &
pid=$!
wait_for 60 test -e $LB || fail "no gb_loopback0 after plugging in again: $(cat err)"
lb_patient $LB
echo 0 >$LB/async
echo 100 >$LB/size
echo 10 >$LB/iteration_max
echo 3 >$LB/type
wait_file_eq 60 $LB/type 0 || fail "the transfer test did not finish"
assert_file_eq $LB/iteration_count 10
assert_file_eq $LB/error 0
kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 20 bus_empty || fail "left after gbsim exited: $(ls $D | tr '\n' ' ')"

[ -z "$(ls /sys/kernel/debug/greybus 2>/dev/null | grep -vx -e gb-test-protocol -e monitor)" ] ||
	fail "debugfs left: $(ls /sys/kernel/debug/greybus | tr '\n' ' ')"
unload_all_gb
exit 0
