# Checks that '# cmdline:' and '# mem:' give the case a guest of its own.
# cmdline: gbselftest_marker=1
# mem: 768M
# selftest-expect: pass
. /usr/lib/gbtest/lib.sh
grep -qw gbselftest_marker=1 /proc/cmdline || fail "extra command line missing: $(cat /proc/cmdline)"
kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
[ "$kb" -gt 600000 ] || fail "MemTotal is only $kb kB"
exit 0
