# A failing bundle activation with runtime PM: when Control bundle_activate fails, probe fails and gives back the interface's runtime-PM reference, so the interface still suspends after each failed bind (at insertion and by hand); once the module activates the bundle it binds and suspends normally.
# timeout: 90
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
B=$D/1-3.3.1
I=$D/1-3.3
DRV=/sys/bus/greybus/drivers/gb-test-protocol
export GBSIM_CTL=$GBTEST_TMP/ctl

gbsim --ctl "$GBSIM_CTL" -l log >out 2>err &
pid=$!
wait_for 10 test -S "$GBSIM_CTL" || fail "no control socket: $(cat err)"
wait_for 10 test -e $D/1-svc || fail "no SVC: $(cat err)"
gbsim ctl fault add intf=3 type=control.bundle_activate result=invalid sticky >/dev/null ||
	fail "fault add failed"
gbsim ctl insert 3 $M/test-vendor.mnfs || fail "insert failed"
wait_file_eq 20 $I/status enabled || fail "interface 3 not enabled"
wait_for 10 test -e $B || fail "bundle not registered"
uevent_settle
[ -e $B/driver ] && fail "bundle bound although bundle_activate fails"

echo 300 >$I/power/autosuspend_delay_ms
wait_file_eq 10 $I/power/runtime_status suspended ||
	fail "interface held awake after the failed activation at insertion"
for i in 1 2 3; do
	if echo 1-3.3.1 >$DRV/bind 2>/dev/null; then
		fail "bind succeeded while bundle_activate fails"
	fi
	wait_file_eq 10 $I/power/runtime_status suspended ||
		fail "interface held awake after failed bind $i"
done
# Unbound: runtime PM off for the bundle (docs/power.md)
assert_file_eq $B/power/runtime_status unsupported

gbsim ctl fault clear || fail "fault clear failed"
echo 1-3.3.1 >$DRV/bind || fail "bind failed once the module activates"
assert_file_eq $B/test_result ok
echo 200 >$B/power/autosuspend_delay_ms
wait_file_eq 10 $B/power/runtime_status suspended || fail "bound bundle did not suspend"
wait_file_eq 10 $I/power/runtime_status suspended || fail "interface did not suspend"

kill -TERM $pid
wait $pid
unload_all_gb
