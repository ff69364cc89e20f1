# TimeSync retries and enable unwinding: with gbsim dropping the first 3 strobe series a synchronous resync succeeds on the 4th try; failing authoritative answers are retried too; with every series dropped an interface's enable fails after exactly 5 series (gbsim's log) with -ETIMEDOUT, its control device removed, and the next enable of the module works with no duplicate-name warning.
# transport: vhd
# timeout: 150
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/timesync.sh

ts_start -m 2:$M/timesync.mnfs
ts_enabled 2
echo on >$D/1-2.2/power/control
ts_wait_state 10 active
# Exact counts of gbsim's lines below: no watchdog pings in between
echo 0 >$D/1-svc/watchdog || fail "1-svc/watchdog <- 0 refused"

# Three series lost: the 4th try works
n0=$(ts_series)
gbsim ctl timesync drop 3 || fail "ctl timesync drop failed"
echo sync >$TS || fail "resync with 3 series dropped failed: $(dmesg | tail -n 3)"
n1=$(ts_series)
assert_eq $((n1 - n0)) 4 "series for 3 dropped + 1 good"
assert_eq "$(ts_field synchronous | cut -d" " -f1-4)" "result 0 tries 4" "synchronous request"
ts_wait_state 5 active
assert_eq "$(gbsim ctl log | grep -c 'timesync series [0-9]* dropped')" 3 "dropped series"

# Two failed authoritative answers: the 3rd try works
gbsim ctl timesync fail-auth 2 || fail "ctl timesync fail-auth failed"
echo sync >$TS || fail "resync with 2 failed authoritative answers failed"
# On the sanitizer kernel (GB_TSCALE > 1) one more try without a logged
# failure was seen: a try that reads the state while the machine is
# already on its next run gets -EAGAIN and counts; not seen on Debian's
case $(ts_field synchronous) in
"result 0 tries 3 "*) ;;
"result 0 tries "[45]" "*) [ "$GB_TSCALE" -gt 1 ] ||
	fail "after 2 failed authoritative answers: $(ts_field synchronous)"
	info "slow kernel: $(ts_field synchronous)" ;;
*) fail "after 2 failed authoritative answers: $(ts_field synchronous)" ;;
esac
ts_wait_state 5 active

# Every series lost: module 3 alone (2 leaves, so no other member
# resyncs behind our back) fails its enable after 5 tries
gbsim ctl remove 2 || fail "remove 2 failed"
wait_for 10 test ! -e $D/1-2.2 || fail "interface 2 still there"
ts_wait_state 5 inactive
gbsim ctl timesync drop 1000000 || fail "ctl timesync drop failed"
n0=$(ts_series)
gbsim ctl insert 3 $M/timesync.mnfs || fail "insert 3 failed"
wait_file_eq 60 $D/1-3.3/status failed || fail "interface 3 did not fail its enable"
expect_dmesg '1-3.3: failed to add to timesync: -110'
[ -e $D/1-3.3.ctrl ] && fail "control device 1-3.3.ctrl left behind"
ls $D | grep -q '^1-3\.3\.[0-9]' && fail "a bundle of 1-3.3 left behind"
n1=$(ts_series)
assert_eq $((n1 - n0)) 5 "series of the failed enable"
assert_eq "$(ts_field synchronous)" "result -110 tries 5 state invalid" "synchronous request"
sleep 0.5
assert_eq $(( $(ts_series) - n0 )) 5 "series after the failure"
ts_wait_state 5 inactive

# The next enable: no duplicate control device, TimeSync works again
gbsim ctl timesync drop 0 || fail "ctl timesync drop 0 failed"
gbsim ctl remove 3 || fail "remove 3 failed"
wait_for 10 test ! -e $D/1-3.3 || fail "interface 3 still there"
gbsim ctl insert 3 $M/timesync.mnfs || fail "insert 3 again failed"
ts_enabled 3
[ -e $D/1-3.3.ctrl ] || fail "no control device after the re-enable"
dmesg | grep -q 'duplicate\|failed to register control' &&
	fail "duplicate name on re-enable: $(dmesg | grep 'duplicate\|failed to register' | head -n 1)"
echo on >$D/1-3.3/power/control
ts_wait_state 10 active
assert_eq "$(ts_members)" "1-3.3 " "members"

kill -TERM $pid
wait $pid
unload_all_gb
