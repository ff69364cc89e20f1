# Runs after 90-unexpected-panic crashed the shared guest: the harness must run it in a fresh one, where it passes.
# selftest-expect: pass
exit 0
