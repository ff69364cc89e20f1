# Leaves a module of ours in use: the post-case cleanup must fail the case.
# guest: own
# selftest-expect: fail
# selftest-reason: post-case cleanup: module gbselftest_dev still in use
. /usr/lib/gbtest/lib.sh
load_gb gbselftest_dev
echo 1 >/sys/kernel/debug/gbselftest/pin
exit 0
