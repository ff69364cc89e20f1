# Runtime PM of a bound bundle and its interface: after the idle delay the bundle suspends (Control bundle_suspend) and then the interface (intf_suspend_prepare, hibernate); the next operation resumes both first (SVC intf_resume, bundle_resume) and never reaches a suspended bundle; power/runtime_status follows.
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/pm.sh

# Defaults as documented (docs/power.md)
assert_file_eq $B/power/autosuspend_delay_ms 2000
assert_file_eq $I/power/autosuspend_delay_ms 3000

echo 200 >$B/power/autosuspend_delay_ms
echo 300 >$I/power/autosuspend_delay_ms
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend"
wait_file_eq 10 $I/power/runtime_status suspended || fail "interface did not suspend"
wait_file_eq 5 $D/1-3/power/runtime_status suspended || fail "module did not follow"
wait_file_eq 5 $D/greybus1/power/runtime_status suspended || fail "host device did not follow"

sim_pm_has "hibernated=1" "gbsim does not see the interface hibernated"
sim_pm_has "bundle 1 state=suspended" "gbsim does not see the bundle suspended"

# In order on the wire: bundle suspend, interface suspend, hibernate
gbsim ctl log >log1
grep -n "bundle_suspend\|intf_suspend_prepare\|set_pwrm\|intf_resume\|bundle_resume\|test.*ping" log1 >seq1 || true
info "wire after idling:"
cat seq1 | while read -r l; do info "  $l"; done
n_bs=$(grep -c "bundle_suspend" seq1) || true
[ "$n_bs" -ge 1 ] || fail "no bundle_suspend in gbsim's log"
grep -q "intf_suspend_prepare" seq1 || fail "no intf_suspend_prepare in gbsim's log"

# Slow the next suspend down so that "active" can be seen, then ping
echo 5000 >$B/power/autosuspend_delay_ms
lines=$(wc -l <log1)
ping_works "of a suspended bundle"
assert_file_eq $B/power/runtime_status active
assert_file_eq $I/power/runtime_status active
assert_file_eq $D/greybus1/power/runtime_status active
gbsim ctl log | tail -n +$((lines + 1)) >log2
info "wire for the ping:"
grep "intf_resume\|bundle_resume\|ping\|refused" log2 | while read -r l; do info "  $l"; done
r=$(grep -n "intf_resume" log2 | head -n 1 | cut -d: -f1)
b=$(grep -n "bundle_resume" log2 | head -n 1 | cut -d: -f1)
p=$(grep -n "test.*ping\|ping.*test" log2 | head -n 1 | cut -d: -f1)
[ -n "$r" ] && [ -n "$b" ] && [ -n "$p" ] || fail "missing intf_resume ($r), bundle_resume ($b) or the ping ($p) on the wire"
[ "$r" -lt "$b" ] && [ "$b" -lt "$p" ] || fail "wrong order: intf_resume line $r, bundle_resume $b, ping $p"

# Suspends again after the (shortened) delay; a second round trip works
echo 200 >$B/power/autosuspend_delay_ms
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend again"
wait_file_eq 10 $I/power/runtime_status suspended || fail "interface did not suspend again"
ping_works "a second time"

# Never an operation to a suspended bundle or a hibernated interface
gbsim ctl log >logall
if grep -q "to suspended bundle\|to hibernated interface" logall; then
	fail "gbsim saw an operation while suspended: $(grep 'to suspended bundle\|to hibernated' logall | head -n 3)"
fi

# Removed while suspended: clean
wait_file_eq 10 $I/power/runtime_status suspended || fail "interface did not suspend a third time"
gbsim ctl remove 3 || fail "remove failed"
wait_for 10 test ! -e $I || fail "interface still there after removal"

kill -TERM $pid
wait $pid
unload_all_gb
