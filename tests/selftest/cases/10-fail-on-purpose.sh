# Fails on purpose: the harness must report a case that calls fail.
# selftest-expect: fail
# selftest-reason: failing on purpose
. /usr/lib/gbtest/lib.sh
echo "some output before failing"
fail "failing on purpose"
