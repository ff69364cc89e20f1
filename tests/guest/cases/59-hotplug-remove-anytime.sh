# Checks that removing a module mid-enumeration, mid-probe and with an operation in flight ends it at once (the caller gets -ESHUTDOWN, nothing waits for a timeout), that an eject does the same to a stalled enumeration, that re-insertion at the same id works right after, and that the other module keeps working.
# timeout: 150
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

T=/sys/module/gb_test_protocol/parameters/ping_timeout_ms
gone() {
	[ ! -e $D/1-5 ]
}
fault_hit() {	# N: fault N caught something
	gbsim ctl faults | grep -q "^fault $1 .* hits=[1-9]"
}
fault() {	# ARGS: add a fault, print its number
	local f
	f=$(gbsim ctl fault add "$@") || fail "fault add $* failed"
	echo "${f#fault }"
}
reinsert() {	# module 5 back, enabled and driven
	gbsim ctl insert 5 $M/test-vendor.mnfs >/dev/null || fail "insert 5 failed"
	wait_file_eq 20 $D/1-5.5.1/test_result ok || fail "module 5 did not come back ($1)"
}
no_timeouts() {	# WHAT: nothing timed out on interface 5
	dmesg | grep -E '/5:[0-9]+: .* failed: -110|1-5(\.5)?: .*-110' &&
		fail "$1: something waited for a timeout"
	return 0
}

# 1. An operation in flight: the ping waits up to 20 s for an echo the
# module swallowed; removing the module ends it at once with -ESHUTDOWN.
echo 20000 >$T
f=$(fault intf=5 type=test.echo drop)
echo 1 >$D/1-5.5.1/test_ping &
writer=$!
wait_for 10 fault_hit "$f" || fail "the echo was not caught"
gbsim ctl remove 5 >/dev/null || fail "remove 5 failed"
wait_for 10 gone || fail "module 5 not removed with a ping in flight"
wait "$writer" || fail "test_ping write failed"
expect_dmesg "gb-test-protocol 1-5.5.1: ping failed: -108"
no_timeouts "ping in flight"
reinsert "after a ping in flight"

# 2. Mid-probe: the probe's own ping is swallowed
gbsim ctl remove 5 >/dev/null
wait_for 10 gone || fail "module 5 not removed"
gbsim ctl fault clear >/dev/null
f=$(fault intf=5 type=test.echo drop)
gbsim ctl insert 5 $M/test-vendor.mnfs >/dev/null || fail "insert 5 failed"
wait_for 20 fault_hit "$f" || fail "the probe's echo was not caught"
gbsim ctl remove 5 >/dev/null || fail "remove 5 failed"
wait_for 10 gone || fail "module 5 not removed mid-probe"
no_timeouts "mid-probe"
reinsert "after mid-probe"

# 3. Mid-enumeration: the manifest request is swallowed for good
gbsim ctl remove 5 >/dev/null
wait_for 10 gone || fail "module 5 not removed"
gbsim ctl fault clear >/dev/null
echo 0 >$T
f=$(fault intf=5 type=control.get_manifest drop sticky)
gbsim ctl insert 5 $M/test-vendor.mnfs >/dev/null || fail "insert 5 failed"
wait_for 20 fault_hit "$f" || fail "get_manifest was not caught"
gbsim ctl remove 5 >/dev/null || fail "remove 5 failed"
wait_for 10 gone || fail "module 5 not removed mid-enumeration"
[ "$(n_dmesg 'failed to get manifest')" = 0 ] || fail "the removed module's manifest request timed out"

# 4. The same stall ended by an eject
gbsim ctl insert 5 $M/test-vendor.mnfs >/dev/null || fail "insert 5 failed"
_stalled() {
	gbsim ctl faults | grep -q "^fault $f .* hits=[2-9]"
}
wait_for 20 _stalled || fail "get_manifest was not caught the second time"
echo 1 >$D/1-5/eject || fail "eject of a stalled module failed"
wait_for 10 gone || fail "module 5 not removed by eject mid-enumeration"
[ "$(n_dmesg 'failed to get manifest')" = 0 ] || fail "the ejected module's manifest request timed out"
gbsim ctl fault clear >/dev/null
reinsert "after eject mid-enumeration"

# 5. Removal at any moment, then re-insertion at once, many times
i=0
while [ $i -lt 16 ]; do
	gbsim ctl remove 5 >/dev/null || fail "round $i: remove 5 failed"
	gbsim ctl insert 5 $M/test-vendor.mnfs >/dev/null || fail "round $i: insert 5 failed"
	usleep $(( (i * 37 % 16) * 15000 ))
	i=$((i + 1))
done
wait_file_eq 20 $D/1-5.5.1/test_result ok || fail "module 5 not up after the removals"
assert_file_eq $D/1-5.5/status enabled
n=$(ls $D | grep -c '^1-5')
assert_eq "$n" 4 "devices of module 5"

ping_ok 1-5.5.1
ping_ok 1-3.3.1
stop
exit 0
