# Runs in a fresh guest after 96-stuck-child: no task of 96 and no module of ours is left.
# selftest-expect: pass
. /usr/lib/gbtest/lib.sh
[ -e /sys/module/gbselftest_dev ] && fail "gbselftest_dev is still loaded: the wedged guest was reused"
pidof cat && fail "the cat of 96-stuck-child is still running"
exit 0
