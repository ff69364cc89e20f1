# Checks the SVC watchdog: N-svc/watchdog and watchdog_action defaults and junk, periodic pings, and a silenced SVC that makes the watchdog reset the network, after which both modules come back and the watchdog stays off until re-enabled.
# transport: vhd
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

S=$D/1-svc
c() {
	gbsim ctl "$@"
}
uptime_s() {
	cut -d' ' -f1 /proc/uptime
}
# n_log TEXT: lines of gbsim's log with TEXT
n_log() {
	grep -cF -- "$1" log
}

assert_file_eq $S/watchdog 1
assert_file_eq $S/watchdog_action reset

# Junk is refused and changes nothing; a valid word works with or
# without a newline
for j in x resetx panic2 ' reset' RESET 'reset panic'; do
	if { echo "$j" >$S/watchdog_action; } 2>err; then
		fail "watchdog_action <- '$j' accepted"
	fi
	grep -q 'Invalid argument' err || fail "watchdog_action <- '$j': $(cat err)"
done
for j in 2 x -1 yes on 10; do
	if { echo "$j" >$S/watchdog; } 2>err; then
		fail "watchdog <- '$j' accepted"
	fi
	grep -q 'Invalid argument' err || fail "watchdog <- '$j': $(cat err)"
done
assert_file_eq $S/watchdog 1
assert_file_eq $S/watchdog_action reset
printf panic >$S/watchdog_action || fail "watchdog_action <- panic (no newline) refused"
assert_file_eq $S/watchdog_action panic
echo reset >$S/watchdog_action || fail "watchdog_action <- reset refused"
assert_file_eq $S/watchdog_action reset

# The pings, every 2 s, answered
_pings() {
	[ "$(n_log 'AP>SVC  cport 0 svc.ping req')" -ge "$1" ]
}
wait_for 10 _pings 2 || fail "no two SVC pings in 10 s"
grep -q 'SVC>AP  cport 0 svc.ping rsp .*result=success' log || fail "no ping answered"

# Off: no more pings; on again: they resume
echo 0 >$S/watchdog || fail "watchdog <- 0 refused"
assert_file_eq $S/watchdog 0
sleep 2.5
n0=$(n_log 'svc.ping req')
sleep 4.5
assert_eq "$(n_log 'svc.ping req')" "$n0" "pings while the watchdog is off"
echo 1 >$S/watchdog || fail "watchdog <- 1 refused"
wait_for 5 _pings $((n0 + 1)) || fail "no ping after the watchdog was turned on again"

# Silence the SVC's answers to pings: the watchdog bites and resets
n_hello=$(n_log 'svc.svc_hello req')
c fault add intf=svc type=svc.ping drop sticky >out || fail "fault add failed"
expect_dmesg 'greybus 1-svc: watchdog: ping failed: -110, resetting the Greybus network' 10
t0=$(uptime_s)
once 'greybus 1-svc: resetting the Greybus network'
c fault clear || fail "fault clear failed"
assert_file_eq $S/watchdog 0

# gbsim was asked to reset, said hello again and re-inserted both modules
_rehello() {
	[ "$(n_log 'svc.svc_hello req')" -gt "$n_hello" ]
}
wait_for 10 _rehello || fail "gbsim did not say hello again: $(tail -n 5 log)"
grep -q 'EVENT .*host reset requested' log || fail "no host reset request in gbsim's log"
wait_file_eq 30 $D/1-3.3.1/test_result ok || fail "module 3 not back after the reset"
wait_file_eq 30 $D/1-5.5.1/test_result ok || fail "module 5 not back after the reset"
t1=$(uptime_s)
info "watchdog bite to full re-enumeration: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f s", b - a }')"
[ -e $S ] || fail "1-svc is gone"
ping_ok 1-3.3.1
ping_ok 1-5.5.1

# Off since the bite: no pings until re-enabled
n0=$(n_log 'svc.ping req')
sleep 4.5
assert_eq "$(n_log 'svc.ping req')" "$n0" "pings after the bite"
echo 1 >$S/watchdog || fail "watchdog <- 1 refused after the bite"
wait_for 5 _pings $((n0 + 1)) || fail "no ping after re-enabling"
sleep 2.5
[ "$(n_dmesg 'watchdog: ping failed')" = 1 ] || fail "the watchdog bit again"
ping_ok 1-3.3.1

stop
