# Checks that a module that never answers the manifest request fails enumeration by timeout with clear log lines, stays visible as failed, is removed cleanly, works when inserted again without the fault, and that the other module keeps working.
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

gbsim ctl fault add intf=7 type=control.get_manifest drop sticky >/dev/null ||
	fail "fault add failed"
gbsim ctl insert 7 $M/test-vendor.mnfs >/dev/null || fail "insert 7 failed"
expect_dmesg "greybus 1-7.7: failed to get manifest: -110" 10
once "greybus 1-7: failed to enable interface 7: -110"
expect_dmesg "greybus greybus1: [0-9]+/7:0: synchronous operation id 0x[0-9a-f]{4} of type 0x04 failed: -110"
wait_file_eq 5 $D/1-7.7/status failed || fail "interface 1-7.7 not failed"
assert_file_eq $D/1-7.7/interface_type greybus
[ -e $D/1-7.7.ctrl ] && fail "control device of a failed interface"
ls -d $D/1-7.7.* 2>/dev/null && fail "bundles of a failed interface"
grep -q 'control.get_manifest req .*dropped by hook' log ||
	grep -q 'INFO *fault 1: drop on cport [0-9]* control.get_manifest req' log ||
	fail "gbsim did not drop get_manifest: $(grep get_manifest log)"

# The rest of the network did not wait for it
ping_ok 1-3.3.1
ping_ok 1-5.5.1

# Removal of the failed module, and everything of it goes
gbsim ctl remove 7 >/dev/null || fail "remove 7 failed"
wait_for 10 test ! -e $D/1-7 || fail "module 1-7 not removed"
grep -q ' 7:' $CONNS && fail "connections to interface 7 left: $(cat $CONNS)"

# Without the fault the same module enumerates at once
gbsim ctl fault clear >/dev/null
gbsim ctl insert 7 $M/test-vendor.mnfs >/dev/null || fail "insert 7 again failed"
wait_file_eq 20 $D/1-7.7.1/test_result ok || fail "module 7 did not come up the second time"
assert_file_eq $D/1-7.7/status enabled
gbsim ctl remove 7 >/dev/null || fail "remove 7 failed"
wait_for 10 test ! -e $D/1-7 || fail "module 1-7 not removed the second time"

ping_ok 1-3.3.1
stop
exit 0
