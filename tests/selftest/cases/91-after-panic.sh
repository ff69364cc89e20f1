# Never runs (the guest died in 90-unexpected-panic): must be reported failed.
# selftest-expect: fail
# selftest-reason: not run: the guest died or hung earlier
exit 0
