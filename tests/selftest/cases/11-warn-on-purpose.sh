# Exits 0 after a kernel WARN_ON: the kernel log scan must fail it.
# selftest-expect: fail
# selftest-reason: kernel log: WARNING:
. /usr/lib/gbtest/lib.sh
load_gb gbselftest_warn
exit 0
