# Checks that greybus_kunit's KUnit suites (manifest checks, operation ids, result codes, message sizes, TimeSync clock arithmetic) all pass with the expected number of tests, in the kernel log and in debugfs; skips on a kernel without KUnit (greybus_kunit.ko is built only where CONFIG_KUNIT is set).
. /usr/lib/gbtest/lib.sh

[ -n "$(find "$GB_EXTRA" -name 'greybus_kunit.ko*' 2>/dev/null)" ] ||
	skip "greybus_kunit.ko not built (kernel $GB_KVER has no CONFIG_KUNIT)"
need_kmod kunit

# SUITE TESTS: what kernel/testing/greybus_kunit.c defines
EXPECTED="greybus-manifest 16
greybus-operation-id 12
greybus-result-codes 5
greybus-message-size 8
greybus-timesync-clock 6"

modprobe kunit || fail "modprobe kunit failed"
# The suites run while the module loads
load_gb greybus_kunit

# KTAP lines of this case's kernel log, without the timestamps
dmesg_since_case | sed 's/^\[[^]]*\] \{0,1\}//' |
	grep -E '^ *(KTAP version|# |ok |not ok |1\.\.)' >ktap.txt
cat ktap.txt

grep -q '^ *not ok ' ktap.txt && fail "a KUnit test failed: $(grep -m 1 '^ *not ok ' ktap.txt)"
total=0
nsuites=0
while read -r suite n; do
	grep -Eq "^ok [0-9]+ (- )?$suite\$" ktap.txt ||
		fail "suite $suite did not report ok"
	grep -qx "# $suite: pass:$n fail:0 skip:0 total:$n" ktap.txt ||
		fail "suite $suite: want pass:$n of $n, got '$(grep "^# $suite:" ktap.txt)'"
	r=/sys/kernel/debug/kunit/$suite/results
	[ -r "$r" ] || fail "no $r"
	last=$(tail -n 1 "$r")
	[ "$last" = "ok 1 $suite" ] || fail "$r ends with '$last'"
	total=$((total + n))
	nsuites=$((nsuites + 1))
done <<EOF
$EXPECTED
EOF
[ "$total" -gt 0 ] || fail "no tests ran"
info "greybus_kunit: $total tests in $nsuites suites passed"
exit 0
