# Skips: a case needing a tool the host does not have is reported skipped.
# tools: gbselftest-no-such-tool
# selftest-expect: skip
# selftest-reason: gbselftest-no-such-tool
. /usr/lib/gbtest/lib.sh
need_tool gbselftest-no-such-tool
fail "need_tool did not skip"
