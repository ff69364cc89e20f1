# Checks that a '# host:' check that finds the exported file wrong fails its own TAP line (the guest case passes).
# host: selftest-export
# selftest-expect: pass
# selftest-host-expect: fail
# selftest-host-reason: bytes.bin differs
. /usr/lib/gbtest/lib.sh
printf 'not the bytes' >$GBTEST_TMP/bytes.bin
export_file bytes.bin
exit 0
