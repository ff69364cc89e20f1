# Checks gbsim's control socket against the kernel: run-time insert, list, status, remove and eject, clear errors for bad commands, and a dropped get_manifest that stalls a module until it is removed.
# timeout: 90
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests/test-vendor.mnfs
[ -r "$M" ] || fail "no $M in the guest"
D=/sys/bus/greybus/devices
S=$GBTEST_TMP/ctl.sock
LOG=$GBTEST_TMP/gbsim.log

load_gb greybus gb-vhd

c() {
	gbsim ctl -s "$S" "$@"
}

# c_fails WHAT ARGS...: the command must fail with status 1 and a message
c_fails() {
	local what=$1 rc
	shift
	c "$@" >out 2>err
	rc=$?
	[ $rc = 1 ] || fail "$what: 'gbsim ctl $*' exited $rc, want 1 ($(cat out err))"
	grep -q '^gbsim ctl: ..*' err || fail "$what: no 'gbsim ctl: MESSAGE' on stderr: $(cat err)"
	[ -s out ] && fail "$what: output on stdout: $(cat out)"
	info "$what: $(cat err)"
}

bound() {	# IFID: its bundle 1 is bound to the test driver, whose echo worked
	[ "$(cat $D/1-$1.$1.1/test_result 2>/dev/null)" = ok ] &&
		[ "$(basename "$(readlink $D/1-$1.$1.1/driver)")" = gb-test-protocol ]
}

gone() {	# IFID: no module device, nothing under it
	! ls $D | grep -q "^1-$1\(\.\|$\)"
}

# insert before the host device exists: queued
gbsim --ctl "$S" --log "$LOG" 2>gbsim.err &
pid=$!
c -w 10 insert 2 "$M" || fail "insert before the SVC is up failed: $(cat gbsim.err)"
wait_for 20 bound 2 || fail "module 2 (inserted at start-up) did not bind: $(ls $D | tr '\n' ' ')"
assert_eq "$(c status)" "svc=ready bus=1 modules=1" "status"

# run-time insert of a second module, with its own identity
c insert 4 "$M" vid=0x0000abcd pid=0x00001234 || fail "insert 4 failed"
wait_for 20 bound 4 || fail "module 4 did not bind"
assert_file_eq $D/1-4.4/vendor_id 0x0000abcd
assert_eq "$(c status)" "svc=ready bus=1 modules=2" "status with two modules"
c list >list || fail "list failed"
info "list:"
cat list
grep -qx "module 2 intfs=1 state=inserted manifest=$M" list || fail "list: no line for module 2"
grep -qx "module 4 intfs=1 state=inserted manifest=$M" list || fail "list: no line for module 4"
grep -qE '^  intf 4 active=1 device_id=[0-9]+ vid=0x0000abcd pid=0x00001234$' list ||
	fail "list: intf 4 not active with its ids"

# bad commands: a clear error each, and gbsim goes on
c_fails "unknown command" frobnicate
c_fails "insert without manifest" insert 6
c_fails "missing manifest" insert 6 /nonexistent.mnfs
c_fails "taken interface" insert 4 "$M"
c_fails "bad key" insert 6 "$M" colour=blue
c_fails "no such module" remove 9
c_fails "not a number" eject two
c_fails "bad hex" send 1 xyz
c_fails "no connection" request 9:1 test.echo 70696e67
c_fails "bad fault" fault add intf=2 explode
gbsim ctl -s "$GBTEST_TMP/nothing.sock" status 2>err
rc=$?
[ $rc = 2 ] || fail "no socket: exit $rc, want 2"
gbsim ctl 2>err
[ $? = 2 ] || fail "no command: want exit 2"
assert_eq "$(c status)" "svc=ready bus=1 modules=2" "status after bad commands"

# surprise removal: the module goes, the other one keeps working
c remove 2 || fail "remove 2 failed"
wait_for 10 gone 2 || fail "module 2 still there after remove: $(ls $D | grep '^1-2' | tr '\n' ' ')"
grep -q 'INFO    module 2 unplugged' "$LOG" || fail "log: no 'module 2 unplugged'"
grep -q 'SVC>AP  cport 0 svc.module_removed req id=0x[0-9a-f]* intf=2' "$LOG" || fail "log: no module_removed for 2"
n=$(grep -c 'test.echo rsp .*result=success' "$LOG")
echo 1 >$D/1-4.4.1/test_ping || fail "test_ping of module 4 failed"
more_echoes() {
	[ "$(grep -c 'test.echo rsp .*result=success' "$LOG")" -gt "$n" ]
}
wait_for 10 more_echoes || fail "module 4 did not echo after module 2 was removed"

# eject from the SVC's side
c eject 4 || fail "eject 4 failed"
wait_for 10 gone 4 || fail "module 4 still there after eject"
grep -q 'INFO    module 4 ejected' "$LOG" || fail "log: no 'module 4 ejected'"
assert_eq "$(c status)" "svc=ready bus=1 modules=0" "status after remove and eject"
[ -z "$(c list)" ] || fail "list not empty: $(c list)"

# re-insert at a freed interface works at once
c insert 2 "$M" || fail "re-insert 2 failed"
wait_for 20 bound 2 || fail "re-inserted module 2 did not bind"

# the manifest request of module 6 is never answered
f=$(c fault add intf=6 type=control.get_manifest drop sticky) || fail "fault add failed"
case $f in
"fault "[0-9]*) ;;
*) fail "fault add printed '$f'" ;;
esac
fid=${f#fault }
c insert 6 "$M" || fail "insert 6 failed"
dropped() {
	grep -q "INFO    fault $fid: drop on cport [0-9]* control.get_manifest req" "$LOG"
}
wait_for 20 dropped || fail "log: the get_manifest of module 6 was not dropped: $(grep 'intf 6' "$LOG" | tail -n 5)"
grep -q "AP>MOD  cport [0-9]* intf 6:0 control.get_manifest req" "$LOG" || fail "log: no get_manifest request from the AP"
grep -q "MOD>AP  cport [0-9]* intf 6:0 control.get_manifest rsp" "$LOG" && fail "log: get_manifest of module 6 was answered"
c faults >faults || fail "faults failed"
grep -qE "^fault $fid intf=6 proto=control type=get_manifest dir=req drop remaining=sticky hits=[1-9]" faults ||
	fail "faults: $(cat faults)"
[ -e $D/1-6.6.1 ] && fail "module 6 got a bundle without a manifest"
info "kernel, with the manifest unanswered: $(ls $D | grep '^1-6' | tr '\n' ' ')"
# whatever the kernel made of it, removal cleans it up
c remove 6 || fail "remove 6 failed"
wait_for 20 gone 6 || fail "module 6 left behind after remove: $(ls $D | grep '^1-6' | tr '\n' ' ')"
bound 2 || fail "module 2 was disturbed by module 6"
c fault clear || fail "fault clear failed"
c insert 6 "$M" || fail "insert 6 again failed"
wait_for 20 bound 6 || fail "module 6 did not bind once its manifest was answered"

c log >ctl.log || fail "log failed"
grep -q 'INFO    ctl: insert 6 ' ctl.log || fail "ctl log has no 'ctl: insert 6'"
grep -q 'svc.svc_hello req' ctl.log || fail "ctl log has no svc hello"

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(cat gbsim.err)"
[ -e "$S" ] && fail "control socket left behind"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
exit 0
