# Checks the SVC watchdog over the emulated ES2 bridge, whose host driver cannot reset the network: an SVC that stops answering pings makes the watchdog bite and turn itself off, but no module is removed (nothing could bring them back); once the SVC answers again both modules still work, and the watchdog turned on again pings without biting.
# transport: es2
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

S=$D/1-svc
# n_log TEXT: lines of gbsim's log with TEXT
n_log() {
	grep -cF -- "$1" log
}
_pings() {
	[ "$(n_log 'AP>SVC  cport 0 svc.ping req')" -ge "$1" ]
}

readlink -f $D/greybus1 | grep -q '/gb-es2\|usb' ||
	fail "not over ES2: $(readlink -f $D/greybus1)"
wait_for 10 _pings 1 || fail "no SVC ping in 10 s"

# Silence the SVC's answers to pings: the watchdog bites, and stays off
gbsim ctl fault add intf=svc type=svc.ping drop sticky >out || fail "fault add failed"
expect_dmesg 'greybus 1-svc: watchdog: ping failed: -110; the host driver cannot reset the network, so it stays as it is' 10
gbsim ctl fault clear || fail "fault clear failed"
assert_file_eq $S/watchdog 0
[ "$(n_dmesg 'resetting the Greybus network')" = 0 ] ||
	fail "the network was torn down: $(dmesg | grep -m 1 'resetting the Greybus network')"
[ "$(n_dmesg 'interface removed')" = 0 ] || fail "a module was removed: $(dmesg | grep 'interface removed')"
grep -q 'host reset requested' log && fail "gbsim was asked to reset the network"

# Both modules still there and answering
ping_ok 1-3.3.1
ping_ok 1-5.5.1

# On again: pings answered, no second bite
n0=$(n_log 'svc.ping req')
echo 1 >$S/watchdog || fail "watchdog <- 1 refused after the bite"
wait_for 10 _pings $((n0 + 2)) || fail "no two pings after re-enabling"
[ "$(n_dmesg 'watchdog: ping failed')" = 1 ] || fail "the watchdog bit again"
grep -q 'SVC>AP  cport 0 svc.ping rsp .*result=success' log || fail "no ping answered"
ping_ok 1-3.3.1

stop
