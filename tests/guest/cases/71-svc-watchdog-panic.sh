# Checks that with watchdog_action "panic" a silenced SVC panics the kernel with "SVC is not responding".
# guest: own
# expect-panic: SVC is not responding
# timeout: 60
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

echo panic >$D/1-svc/watchdog_action || fail "watchdog_action <- panic refused"
assert_file_eq $D/1-svc/watchdog_action panic
gbsim ctl fault add intf=svc type=svc.ping drop sticky >/dev/null || fail "fault add failed"
sleep 20
fail "no panic 20 s after the SVC stopped answering pings"
