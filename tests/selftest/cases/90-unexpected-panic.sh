# Crashes the shared guest: this case must fail as the one the guest died in.
# selftest-expect: fail
# selftest-reason: died or hung during this case: kernel panic
echo c >/proc/sysrq-trigger
sleep 10
