# Checks that the guest is usable after a hang and the hung processes are gone.
# selftest-expect: pass
. /usr/lib/gbtest/lib.sh
pidof sleep && fail "the sleep of 12-hang-on-purpose is still running"
assert_eq "$(echo ok)" ok
[ -z "$(dmesg_since_case | grep 'gbselftest_warn\|WARNING')" ] ||
	fail "the kernel log of an earlier case leaked into this one"
exit 0
