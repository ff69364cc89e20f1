# TimeSync membership under churn: a member removed while a synchronisation runs (waiting for its strobes, or in the middle of its operations) never hangs the removal nor the synchronous request, and leaves the state consistent: active again with exactly the remaining members, which re-insertion restores; an interface with the TimeSync feature at id 40 (beyond the 32-bit strobe mask) is refused with -ERANGE and left without control device.
# transport: vhd
# timeout: 240
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/timesync.sh

ts_start -m 2:$M/timesync.mnfs -m 3:$M/timesync.mnfs -m 4:$M/timesync.mnfs
for i in 2 3 4; do
	ts_enabled $i
	echo on >$D/1-$i.$i/power/control
done
ts_wait_state 10 active
assert_eq "$(ts_members)" "1-2.2 1-3.3 1-4.4 " "members"

sync_done() {
	! kill -0 $bg 2>/dev/null
}
r=0
for pause in 0 0.05 0.1 0.2 0 0.05 0.1 0.2; do
	r=$((r + 1))
	# Odd rounds: the run waits for strobes that never come (dropped);
	# even rounds: gbsim is slow before each series
	if [ $((r % 2)) -eq 1 ]; then
		gbsim ctl timesync drop 1 >/dev/null || fail "ctl timesync drop failed"
	else
		gbsim ctl timesync late 100000 >/dev/null || fail "ctl timesync late failed"
	fi
	(echo sync >$TS) 2>/dev/null &
	bg=$!
	sleep $pause
	t0=$(_gb_now_cs)
	gbsim ctl remove 4 || fail "round $r: remove 4 failed"
	wait_for 20 test ! -e $D/1-4.4 || fail "round $r: interface 4 still there after 20 s (hung?)"
	wait_for 40 sync_done || fail "round $r: the synchronous resync hangs"
	wait $bg
	info "round $r (pause $pause s): removal took $(( $(_gb_now_cs) - t0 ))0 ms"
	gbsim ctl timesync late 0 >/dev/null
	gbsim ctl timesync drop 0 >/dev/null
	ts_wait_state 10 active
	assert_eq "$(ts_members)" "1-2.2 1-3.3 " "round $r: members after the removal"
	gbsim ctl insert 4 $M/timesync.mnfs >/dev/null || fail "round $r: insert 4 failed"
	ts_enabled 4
	echo on >$D/1-4.4/power/control
	ts_wait_state 10 active
	assert_eq "$(ts_members)" "1-2.2 1-3.3 1-4.4 " "round $r: members after re-insertion"
	grep -q '^member 1-4.4: id 4 synced 1' $TS || fail "round $r: interface 4 not synced: $(cat $TS)"
done
cat $FT >/dev/null || fail "ping after the churn failed"

# Interface id 40: the strobe mask has 32 bits
gbsim ctl insert 40 $M/timesync.mnfs || fail "insert 40 failed"
wait_file_eq 30 $D/1-40.40/status failed || fail "interface 40 was not refused"
expect_dmesg '1-40.40: interface id 40 beyond the TimeSync strobe mask'
expect_dmesg '1-40.40: failed to add to timesync: -34'
[ -e $D/1-40.40.ctrl ] && fail "control device of interface 40 left behind"
assert_eq "$(ts_members)" "1-2.2 1-3.3 1-4.4 " "members with interface 40 refused"
# Without the feature id 40 is fine
gbsim ctl remove 40 || fail "remove 40 failed"
wait_for 10 test ! -e $D/1-40.40 || fail "interface 40 still there"
gbsim ctl insert 40 $M/loopback.mnfs || fail "insert 40 (loopback) failed"
ts_enabled 40

kill -TERM $pid
wait $pid
unload_all_gb
