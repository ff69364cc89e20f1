# Checks that a module that never answers the manifest request fails enumeration by timeout with clear log lines, stays visible as failed, is removed cleanly, works when inserted again without the fault, and that the other module keeps working.
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
CONNS=/sys/kernel/debug/greybus/greybus1/connections
export GBSIM_CTL=$GBTEST_TMP/ctl

# Module 3 is the bystander, module 5 the one that misbehaves; both carry
# the test-vendor bundle that gb-test-protocol drives.
gbsim --ctl "$GBSIM_CTL" -l log -m 3:$M/test-vendor.mnfs \
	-m 5:$M/test-vendor.mnfs >out 2>err &
pid=$!
wait_file_eq 20 $D/1-3.3.1/test_result ok || fail "module 3 not up: $(cat err)"
wait_file_eq 20 $D/1-5.5.1/test_result ok || fail "module 5 not up: $(cat err)"

# ping_ok BUNDLE: the bundle's test protocol still answers
ping_ok() {
	echo 1 >$D/$1/test_ping || fail "test_ping write to $1 failed"
	assert_file_eq $D/$1/test_result ok
}

# hd_cport INTF CPORT: the bridge CPort of the connection to INTF:CPORT
hd_cport() {
	awk -v c="$1:$2" '$3 == c { print $2 }' $CONNS
}

# n_dmesg TEXT: how many kernel log lines of this case contain TEXT
n_dmesg() {
	dmesg | grep -cF -- "$1"
}

# once TEXT: exactly one kernel log line contains TEXT (waits up to 5 s)
_gb_has_line() {
	[ "$(n_dmesg "$1")" -ge 1 ]
}
once() {
	wait_for 5 _gb_has_line "$1" || fail "no kernel log line: $1"
	sleep 0.2
	[ "$(n_dmesg "$1")" = 1 ] || fail "$(n_dmesg "$1") kernel log lines, not one: $1"
}

# stop: gbsim exits, the tree goes, nothing is left loaded
stop() {
	kill -TERM "$pid"
	wait "$pid"
	wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
	unload_all_gb
}

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
