# Promises a panic and does not panic: the harness must fail it.
# expect-panic: sysrq triggered crash
# selftest-expect: fail
# selftest-reason: no kernel panic
exit 0
