# Leaves a child in D state behind when the timeout ends the case: the cleanup must fail the case as one with a task that cannot be killed, and the guest be given up.
# timeout: 5
# selftest-expect: fail
# selftest-reason: a task of the case cannot be killed
. /usr/lib/gbtest/lib.sh
load_gb gbselftest_dev
cat /sys/kernel/debug/gbselftest/stuck
exit 0
