# A module that refuses to suspend (gbsim ctl pm ... refuse: Control answers BUSY) keeps the bundle or the interface active and fully usable, with a rate-limited note in the kernel log and no runtime-PM error; once it accepts, the next idle period suspends as usual. A bundle suspend whose answer comes after the AP's timeout (the module did suspend) is followed by a resume, so both ends agree the bundle is active and its traffic still goes through; a late intf_suspend_prepare answer is followed by intf_hibernate_abort.
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
ping_works "after a refused suspend"
sim_pm_has "bundle 1 state=active" "gbsim sees the bundle as"

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
sim_pm_has "hibernated=0" "interface hibernated although it refused"
ping_works "with a refusing interface"
no_traffic_while_suspended
dmesg | grep -q "runtime PM trying\|Unbalanced pm_runtime" && fail "runtime PM complained: $(dmesg | grep 'runtime PM\|pm_runtime' | head -n 3)"

# The module suspends the bundle but its answer comes after the AP gave
# up: the AP resumes the bundle, so both ends agree it is active and its
# traffic still goes through; the next idle period suspends as usual
gbsim ctl pm 3 accept || fail "pm accept (interface) failed"
echo 1 >$B/test_ping || fail "ping failed"
wait_file_eq 10 $I/power/runtime_status suspended || fail "interface did not suspend"
gbsim ctl fault add intf=3 proto=control type=bundle_suspend late=3000 >/dev/null ||
	fail "fault add failed"
n0=$(gbsim ctl log | grep -c 'bundle_resume rsp.*status=0')
# the ping resumes the bundle, the idle suspend is lost, and then?
echo 1 >$B/test_ping || fail "ping failed"
expect_dmesg "1-3.3.1: suspend refused \(-110\)" 10
wait_for 10 sh -c "[ \$(gbsim ctl log | grep -c 'bundle_resume rsp.*status=0') -ge $((n0 + 2)) ]" ||
	fail "the AP did not resume the bundle after the lost suspend: $(gbsim ctl log | grep bundle_ | tail -n 4)"
assert_file_eq $B/power/runtime_status active
sim_pm_has "bundle 1 state=active" "gbsim sees the bundle as"
ping_works "after the lost suspend"
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after the lost suspend"
sim_pm_has "bundle 1 state=suspended" "gbsim sees the bundle as"
no_traffic_while_suspended

# The same for the interface: an intf_suspend_prepare answered too late
# is called off with intf_hibernate_abort, and the interface stays
# active and usable
gbsim ctl fault add intf=3 proto=control type=intf_suspend_prepare late=3000 >/dev/null ||
	fail "fault add failed"
echo 1 >$B/test_ping || fail "ping failed"
expect_dmesg "1-3.3: suspend refused \(-110\)" 10
wait_for 10 sh -c 'gbsim ctl log | grep -q "intf_hibernate_abort rsp"' ||
	fail "no intf_hibernate_abort after the lost suspend prepare: $(gbsim ctl log | grep 'intf_' | tail -n 4)"
assert_file_eq $I/power/runtime_status active
sim_pm_has "hibernated=0" "interface hibernated after the lost suspend prepare"
ping_works "after the lost suspend prepare"

kill -TERM $pid
wait $pid
unload_all_gb
