# Blocks the case's own shell in D state, where neither the timeout's SIGTERM nor its SIGKILL ends it: the runner's watch must give the guest up, and the case fail.
# timeout: 5
# selftest-expect: fail
# selftest-reason: died or hung during this case: stopped by the harness after its runner gave up: 92-stuck-task cannot be killed
. /usr/lib/gbtest/lib.sh
load_gb gbselftest_dev
read -r x </sys/kernel/debug/gbselftest/stuck
exit 0
