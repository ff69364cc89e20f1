# A module that refuses to suspend (gbsim ctl pm ... refuse: Control answers BUSY) keeps the bundle or the interface active and fully usable, with a rate-limited note in the kernel log and no runtime-PM error; once it accepts, the next idle period suspends as usual.
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/pm.sh

# The bundle refuses
gbsim ctl pm 3 1 refuse || fail "pm refuse failed"
echo 200 >$B/power/autosuspend_delay_ms
echo 300 >$I/power/autosuspend_delay_ms
echo 1 >$B/test_ping
wait_for 10 sh -c 'gbsim ctl log | grep -q "bundle_suspend rsp.*status=2"' ||
	fail "no refused bundle_suspend on the wire"
sleep 1
assert_file_eq $B/power/runtime_status active
assert_file_eq $I/power/runtime_status active
expect_dmesg "1-3.3.1: suspend refused"
echo 1 >$B/test_ping || fail "ping after a refused suspend failed"
assert_file_eq $B/test_result ok
gbsim ctl pm 3 >pm
grep -q "bundle 1 state=active" pm || fail "gbsim sees the bundle as: $(cat pm)"

# It accepts again: the next idle period suspends it
gbsim ctl pm 3 1 accept || fail "pm accept failed"
echo 1 >$B/test_ping
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend once accepted"
wait_file_eq 10 $I/power/runtime_status suspended || fail "interface did not suspend"

# The interface refuses intf_suspend_prepare: it stays active, the
# bundle may still suspend, and everything works
gbsim ctl pm 3 refuse || fail "pm refuse (interface) failed"
echo 1 >$B/test_ping || fail "ping failed"
wait_for 10 sh -c 'gbsim ctl log | grep -q "intf_suspend_prepare rsp.*status=1"' ||
	fail "no refused intf_suspend_prepare on the wire"
sleep 1
assert_file_eq $I/power/runtime_status active
gbsim ctl pm 3 >pm
grep -q "hibernated=0" pm || fail "interface hibernated although it refused: $(cat pm)"
echo 1 >$B/test_ping || fail "ping with a refusing interface failed"
assert_file_eq $B/test_result ok
if gbsim ctl log | grep -q "to suspended bundle\|to hibernated interface"; then
	fail "gbsim saw an operation while suspended"
fi
dmesg | grep -q "runtime PM trying\|Unbalanced pm_runtime" && fail "runtime PM complained: $(dmesg | grep 'runtime PM\|pm_runtime' | head -n 3)"

gbsim ctl pm 3 accept
kill -TERM $pid
wait $pid
unload_all_gb
