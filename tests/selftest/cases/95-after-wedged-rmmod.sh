# Runs in a fresh guest after 94-wedged-rmmod: the module loads and unloads again.
# selftest-expect: pass
. /usr/lib/gbtest/lib.sh
[ -e /sys/module/gbselftest_dev ] && fail "gbselftest_dev is still loaded: the wedged guest was reused"
load_gb gbselftest_dev
unload_all_gb
exit 0
