# TimeSync on runtime resume: an interface that hibernated resumes with a synchronous resync (SVC intf_resume, then a strobe series) that completes within 50 ms of guest time from the request to the state active (best of 3 rounds, up to 8 on an overloaded host, printed; a 1 s start delay would fail it); a synchronous request that finds the machine pinging reports success (gbsim holds the ping's answer, debugfs shows the state it saw).
# transport: vhd
# timeout: 150
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/timesync.sh

ts_start -m 2:$M/timesync.mnfs -m 3:$M/timesync.mnfs
ts_enabled 2
ts_enabled 3
echo on >$D/1-3.3/power/control
ts_wait_state 10 active

I=$D/1-2.2
echo 100 >$I/power/autosuspend_delay_ms
best=
r=0
# 50 ms on Debian's kernel; a sanitizer kernel (GB_TSCALE > 1) runs
# everything several times slower, and still stays far below the 1 s
# start delay this case must catch
LIMIT=$((50000 * GB_TSCALE))
# Best of 3; on a host so loaded that none of them made it, up to 8
while [ $r -lt 3 ] || { [ "$best" -ge $LIMIT ] && [ $r -lt 8 ]; }; do
	r=$((r + 1))
	echo auto >$I/power/control
	wait_file_eq 10 $I/power/runtime_status suspended || fail "round $r: interface 2 did not suspend"
	lines=$(gbsim ctl log | wc -l)
	echo on >$I/power/control	# resumes now, and waits for it
	assert_file_eq $I/power/runtime_status active
	ts_wait_state 5 active
	case $(ts_field synchronous) in
	"result 0 tries 1 state ping" | "result 0 tries 1 state active") ;;
	*) fail "round $r: synchronous request: $(ts_field synchronous)" ;;
	esac
	us=$(ts_field last_sync_us)
	info "round $r: resume resync took $us us (request to active)"
	[ -z "$best" ] || [ "$us" -lt "$best" ] && best=$us
	gbsim ctl log | tail -n +$((lines + 1)) >wire
	res=$(grep -n 'svc.intf_resume' wire | head -n 1 | cut -d: -f1)
	ser=$(grep -n 'timesync series' wire | head -n 1 | cut -d: -f1)
	[ -n "$res" ] && [ -n "$ser" ] && [ "$res" -lt "$ser" ] ||
		fail "round $r: no intf_resume ($res) then strobe series ($ser) on the wire"
	grep -q '^member 1-2.2: id 2 synced 1' $TS || fail "round $r: interface 2 not synced: $(cat $TS)"
done
info "best resume resync: $best us (limit $LIMIT)"
[ "$best" -lt $LIMIT ] || fail "resume resync took $best us, not under $((LIMIT / 1000)) ms"
dmesg | grep -q 'failed to restore TimeSync' && fail "a resume resync failed: $(dmesg | grep 'restore TimeSync' | head -n 1)"

# The request is served once the FrameTime is handed out; the
# check ping (held 500 ms by gbsim) is still running when it returns
gbsim ctl timesync ping-delay 500 || fail "ctl timesync ping-delay failed"
echo sync >$TS || fail "synchronous resync during the ping failed"
assert_eq "$(ts_field synchronous)" "result 0 tries 1 state ping" "synchronous request during the ping"
gbsim ctl timesync ping-delay 0 || fail "ctl timesync ping-delay 0 failed"
ts_wait_state 5 active

kill -TERM $pid
wait $pid
unload_all_gb
