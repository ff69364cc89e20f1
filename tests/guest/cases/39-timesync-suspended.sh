# TimeSync leaves suspended members alone: a resync while interface 3 hibernates sends it nothing and does not wake it (runtime PM and gbsim agree), it is marked unsynced and sits out the pings; its resume synchronises it again; stray strobes (none expected) are counted, and gb-vhd refuses a TIMESYNC_STROBE from the future (vhdtest abuse's directed checks).
# transport: vhd
# timeout: 150
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/timesync.sh

ts_start -m 2:$M/timesync.mnfs -m 3:$M/timesync.mnfs
ts_enabled 2
ts_enabled 3
echo on >$D/1-2.2/power/control
I=$D/1-3.3
echo 100 >$I/power/autosuspend_delay_ms
wait_file_eq 20 $I/power/runtime_status suspended || fail "interface 3 did not suspend"
gbsim ctl pm 3 | grep -q 'hibernated=1' || fail "gbsim does not see interface 3 hibernated: $(gbsim ctl pm 3)"
ts_wait_state 10 active

lines=$(gbsim ctl log | wc -l)
echo sync >$TS || fail "resync with a suspended member failed"
ts_wait_state 5 active
assert_file_eq $I/power/runtime_status suspended
gbsim ctl log | tail -n +$((lines + 1)) >wire
grep -q 'intf 3:0 control.timesync' wire &&
	fail "the suspended interface got TimeSync traffic: $(grep 'intf 3:0' wire | head -n 1)"
grep -q 'svc.intf_resume' wire && fail "the resync woke an interface"
grep -q 'intf 2:0 control.timesync_authoritative' wire || fail "interface 2 was not synchronised"
grep -q 'mask 0x00000004' wire || fail "strobe mask is not interface 2 alone: $(grep 'timesync series' wire)"
grep -q '^member 1-3.3: id 3 synced 0' $TS || fail "interface 3 still marked synced: $(cat $TS)"
cat $FT >ft || fail "frame_time failed"
grep -q '^1-3.3 ' ft && fail "the suspended interface answered a ping"
grep -q '^1-2.2 ' ft || fail "interface 2 missing from the ping: $(cat ft)"

# Its resume brings it back in
echo on >$I/power/control
ts_wait_state 5 active
grep -q '^member 1-3.3: id 3 synced 1' $TS || fail "interface 3 not synced after its resume: $(cat $TS)"
cat $FT >ft || fail "frame_time after the resume failed"
grep -q '^1-3.3 ' ft || fail "interface 3 missing from the ping after its resume: $(cat ft)"
assert_eq "$(ts_field stray_strobes)" 0 "stray strobes"
dmesg | grep -q 'failed to restore TimeSync' && fail "a resume resync failed"

kill -TERM $pid
wait $pid

# The vhd event: 8 bytes, a time already past (1 ns is; the far future is refused)
vhdtest abuse --iterations 0 >out 2>&1 || fail "vhdtest abuse: $(grep -m 1 FAIL out || tail -n 1 out)"
expect_dmesg 'timesync strobe [0-9]* ns in the future, refused'
unload_all_gb
