# Hangs on purpose: the per-case timeout must kill it and fail it.
# timeout: 5
# selftest-expect: fail
# selftest-reason: timed out after 5 s
sleep 1000
