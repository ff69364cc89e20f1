# Checks SVC interface oops (0x2a): the interface is disabled, deactivated and marked failed without another message to it, the log names interface and reason, short and unknown-interface requests change nothing, the bystander keeps working, and remove + re-insert brings the module back.
# timeout: 60
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

c() {
	gbsim ctl "$@"
}
# rsp_result ID: the result of the AP's response to our request ID
rsp_result() {
	grep "AP>SVC  cport 0 svc.intf_oops rsp id=$1 " log | sed -n 's/.* result=\([^ ]*\).*/\1/p'
}
_has_rsp() {
	[ -n "$(rsp_result "$1")" ]
}

# Too short: refused with the invalid result, nothing changes
id=$(c request svc svc.intf_oops 05 | sed -n 's/^id=//p')
[ -n "$id" ] || fail "no id for the short request"
wait_for 5 _has_rsp "$id" || fail "no response to the short oops"
assert_eq "$(rsp_result "$id")" invalid "result of a 1-byte oops"
assert_file_eq $D/1-5.5/status enabled
ping_ok 1-5.5.1

# An interface that does not exist: a warning, nothing else
id=$(c request svc svc.intf_oops 0901 | sed -n 's/^id=//p')
wait_for 5 _has_rsp "$id" || fail "no response to the oops for interface 9"
assert_eq "$(rsp_result "$id")" success "result of an oops for interface 9"
once 'greybus 1-svc: unexpected interface-oops event for interface 9'

# Interface 5 crashes, reason 0x07
mark=$(wc -l <log)
id=$(c request svc svc.intf_oops 0507 | sed -n 's/^id=//p')
wait_for 5 _has_rsp "$id" || fail "no response to the oops for interface 5"
assert_eq "$(rsp_result "$id")" success "result of the oops for interface 5"
once 'greybus 1-svc: interface 5 oops, reason 0x07'
wait_file_eq 10 $D/1-5.5/status failed || fail "interface 5 not failed after its oops"
wait_for 10 test ! -e $D/1-5.5.1 || fail "bundle 1-5.5.1 still there"
wait_for 10 test ! -e $D/1-5.5.ctrl || fail "control device 1-5.5.ctrl still there"
[ -e $D/1-5 ] || fail "module 1-5 went away on its own"
# Nothing was said to the crashed interface (the SVC still powered it off)
sleep 0.5
tail -n +$((mark + 1)) log >after
if grep -E 'AP>MOD .*intf 5:' after; then
	fail "messages sent to interface 5 after its oops"
fi
grep -q 'AP>SVC  cport 0 svc.intf_vsys_disable req .*intf=5' after ||
	fail "interface 5 not powered off: $(grep 'AP>SVC' after | tail -n 5)"
c list | grep -q '^  intf 5 active=0' || fail "gbsim says interface 5 is still active: $(c list)"

# The bystander is fine
ping_ok 1-3.3.1
assert_file_eq $D/1-3.3/status enabled

# A second oops for the dead interface changes nothing harmful
id=$(c request svc svc.intf_oops 0501 | sed -n 's/^id=//p')
wait_for 5 _has_rsp "$id" || fail "no response to the second oops"
assert_file_eq $D/1-5.5/status failed

# Removal and re-insert bring it back
c remove 5 || fail "remove 5 failed"
wait_for 10 test ! -e $D/1-5 || fail "module 5 still there after removal"
c insert 5 $M/test-vendor.mnfs || fail "insert 5 failed"
wait_file_eq 20 $D/1-5.5.1/test_result ok || fail "module 5 not back after re-insert"
assert_file_eq $D/1-5.5/status enabled
ping_ok 1-5.5.1
ping_ok 1-3.3.1

stop
