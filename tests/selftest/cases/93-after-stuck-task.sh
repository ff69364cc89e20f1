# Runs in a fresh guest after 92-stuck-task wedged the shared one: no module of ours is left loaded.
# selftest-expect: pass
. /usr/lib/gbtest/lib.sh
[ -e /sys/module/gbselftest_dev ] && fail "gbselftest_dev is still loaded: the wedged guest was reused"
exit 0
