# Panics on purpose with '# expect-panic:': the harness must pass it.
# expect-panic: sysrq triggered crash
# selftest-expect: pass
echo c >/proc/sysrq-trigger
sleep 10
