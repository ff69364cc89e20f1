# The vibrator's timeout attribute: 100 ms gives ON then OFF about 100 ms later, timed on the AP side; a new write re-arms; 0 stops at once; bad values are refused; a failed ON leaves nothing held; the bundle is resumed before ON and suspends again after OFF (seeds 005, 011).
# timeout: 90
# kmods: ff-memless evdev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/vibrator.sh

wait_file_eq 10 $B/power/runtime_status suspended || fail "idle vibrator bundle did not suspend"

# A pulse
lines=$(gbsim ctl log | wc -l)
echo 100 >$V/timeout || fail "timeout write failed"
ms=$(wait_off 0 10)
ran_between "$ms" 95 3000
gbsim ctl log | tail -n +$((lines + 1)) >wire
r=$(grep -n "control.bundle_resume req" wire | head -n 1 | cut -d: -f1)
on=$(grep -n "vibrator.on req" wire | head -n 1 | cut -d: -f1)
[ -n "$r" ] && [ -n "$on" ] && [ "$r" -lt "$on" ] || fail "no bundle_resume before ON (resume line $r, on line $on)"
grep -q "vibrator.on req.* len=\|vibrator.on req id=0x[0-9a-f]*$" wire || true
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after OFF"
gbsim ctl log | tail -n +$((lines + 1)) >wire
off=$(grep -n "vibrator.off req" wire | head -n 1 | cut -d: -f1)
s=$(grep -n "control.bundle_suspend req" wire | tail -n 1 | cut -d: -f1)
[ -n "$off" ] && [ -n "$s" ] && [ "$off" -lt "$s" ] || fail "no bundle_suspend after OFF (off line $off, suspend line $s)"

# Re-arming extends the pulse: 2 s, re-armed at least 200 ms in -> 2.2 s
# or more.  The pulse is long so that the re-arm comes before its end
# even when the shell is slow to wake from the sleep.
echo 2000 >$V/timeout
sleep 0.2
echo 2000 >$V/timeout
ms=$(wait_off 1 20)
ran_between "$ms" 2200 10000
[ "$(gbsim ctl log | grep -c 'vibrator 3: motor on')" = 2 ] || fail "re-arming turned the motor on twice"

# 0 stops at once: long before the 20 s pulse would end
echo 20000 >$V/timeout
sleep 0.3
echo 0 >$V/timeout
ms=$(wait_off 2 10)
ran_between "$ms" 300 15000

# Bad values
for v in -1 abc 65536 99999999999 ""; do
	if echo "$v" >$V/timeout 2>/dev/null; then
		fail "timeout accepted '$v'"
	fi
done
[ "$(n_off)" = 3 ] || fail "a refused write changed the motor"

# ON fails: the writer gets an error, the bundle still suspends
gbsim ctl fault add intf=3 type=vibrator.on result=invalid once >/dev/null || fail "fault add failed"
if echo 100 >$V/timeout 2>/dev/null; then
	fail "timeout write succeeded while ON failed"
fi
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after a failed ON"
echo 50 >$V/timeout || fail "vibrator unusable after a failed ON"
wait_off 3 10 >/dev/null

if gbsim ctl log | grep -q "to suspended bundle\|to hibernated interface"; then
	fail "gbsim saw an operation while suspended"
fi

vib_trace_off
kill -TERM $pid
wait $pid
unload_all_gb
