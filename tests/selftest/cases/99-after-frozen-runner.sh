# Runs in a fresh guest after 98-frozen-runner: must pass there.
# selftest-expect: pass
exit 0
