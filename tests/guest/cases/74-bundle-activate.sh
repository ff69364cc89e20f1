# Checks bundle activation errors: when Control bundle_activate fails the probe fails, the bundle stays unbound (at insertion and on a manual bind), and it binds through the driver's bind file once the module answers again; the bystander keeps working.
# timeout: 60
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

DRV=/sys/bus/greybus/drivers/gb-test-protocol
c() {
	gbsim ctl "$@"
}
bound() {
	[ "$(basename "$(readlink $D/$1/driver 2>/dev/null)")" = gb-test-protocol ]
}
# bind_fails BUNDLE: a bind write that must fail
bind_fails() {
	if { echo "$1" >$DRV/bind; } 2>err; then
		fail "bind of $1 succeeded while bundle_activate fails"
	fi
	info "bind of $1 refused: $(cat err)"
	bound "$1" && fail "$1 bound after a failed bind"
	return 0
}
n_act() {
	grep -c "MOD>AP  cport .* intf 5:0 control.bundle_activate rsp .*result=$1" log
}

# Already active is no error: unbind, bind again, twice
for i in 1 2; do
	echo 1-5.5.1 >$DRV/unbind || fail "unbind of 1-5.5.1 failed"
	bound 1-5.5.1 && fail "1-5.5.1 still bound after unbind"
	echo 1-5.5.1 >$DRV/bind || fail "bind of 1-5.5.1 failed"
	bound 1-5.5.1 || fail "1-5.5.1 not bound after bind"
	ping_ok 1-5.5.1
done

# A manual bind while the module refuses to activate the bundle
echo 1-5.5.1 >$DRV/unbind || fail "unbind of 1-5.5.1 failed"
c fault add intf=5 type=control.bundle_activate result=invalid sticky >/dev/null ||
	fail "fault add failed"
bind_fails 1-5.5.1
expect_dmesg 'greybus 1-5\.5\.ctrl: failed to send bundle 1 activate: -'
[ "$(n_act invalid)" -ge 1 ] || fail "no refused bundle_activate in gbsim's log"
bind_fails 1-5.5.1
assert_file_eq $D/1-5.5/status enabled
ping_ok 1-3.3.1

# The fault gone, the same bundle binds
c fault clear || fail "fault clear failed"
echo 1-5.5.1 >$DRV/bind || fail "bind of 1-5.5.1 failed after fault clear"
bound 1-5.5.1 || fail "1-5.5.1 not bound after fault clear"
ping_ok 1-5.5.1

# At insertion: the interface comes up, its bundle stays unbound
c remove 5 || fail "remove 5 failed"
wait_for 10 test ! -e $D/1-5 || fail "module 5 still there"
c fault add intf=5 type=control.bundle_activate result=invalid sticky >/dev/null ||
	fail "fault add failed"
c insert 5 $M/test-vendor.mnfs || fail "insert 5 failed"
wait_file_eq 20 $D/1-5.5/status enabled || fail "interface 5 not enabled"
wait_for 10 test -e $D/1-5.5.1 || fail "bundle 1-5.5.1 not registered"
uevent_settle
_refused() {
	[ "$(n_act invalid)" -ge 3 ]
}
wait_for 10 _refused || fail "the bundle's activation at insertion was not refused"
sleep 0.5
bound 1-5.5.1 && fail "1-5.5.1 bound although its activation failed"
[ -e $D/1-5.5.1/test_result ] && fail "the test driver's attributes exist"
ping_ok 1-3.3.1
c fault clear || fail "fault clear failed"
echo 1-5.5.1 >$DRV/bind || fail "bind of 1-5.5.1 failed after fault clear"
bound 1-5.5.1 || fail "1-5.5.1 not bound"
ping_ok 1-5.5.1
ping_ok 1-3.3.1

stop
