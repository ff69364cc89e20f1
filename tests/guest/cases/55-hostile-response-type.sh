# Checks that a response whose type does not match its request (and one of the wrong size) fails only that operation, with one log line naming the connection, and that both modules keep working.
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

T=/sys/module/gb_test_protocol/parameters/ping_timeout_ms
C=$(hd_cport 5 1)
[ -n "$C" ] || fail "no connection to 5:1: $(cat $CONNS)"

# fault_id N: the operation id (hex, 4 digits) of the request fault N caught
fault_id() {
	gbsim ctl log | sed -n "s/.*INFO *fault $1: .* req id=0x\([0-9a-f]*\).*/\1/p" | tail -n 1
}
_fault_hit() {
	[ -n "$(fault_id "$1")" ]
}

# The module swallows the next echo request; the ping waits up to 20 s,
# long enough to answer it by hand with the wrong type (0x83 for 0x02).
echo 20000 >$T || fail "cannot set ping_timeout_ms"
f=$(gbsim ctl fault add intf=5 type=test.echo drop) || fail "fault add failed"
f=${f#fault }
echo 1 >$D/1-5.5.1/test_ping &
writer=$!
wait_for 10 _fault_hit "$f" || fail "the echo request was not caught: $(gbsim ctl faults)"
id=$(fault_id "$f")
lo=${id#??}
hi=${id%??}
gbsim ctl send "$C" 0c00 $lo$hi 83 00 0000 70696e67 || fail "gbsim ctl send failed"
wait "$writer" || fail "test_ping write failed"
once "greybus greybus1: $C/5:1: response id 0x$id has type 0x83, request had 0x02"
assert_file_eq $D/1-5.5.1/test_result "error -71"
[ "$(n_dmesg "unexpected response id 0x$id")" = 0 ] ||
	fail "the mismatched response was also taken as unexpected"

# A response of the right type with 2 payload bytes instead of 4
echo 0 >$T
gbsim ctl fault add intf=5 type=test.echo short=2 >/dev/null || fail "fault add failed"
echo 1 >$D/1-5.5.1/test_ping || fail "test_ping write failed"
assert_file_eq $D/1-5.5.1/test_result "error -90"
expect_dmesg "greybus greybus1: $C/5:1: response id 0x[0-9a-f]{4} of type 0x82 has wrong size \\(2 bytes, expected 4\\)"

ping_ok 1-5.5.1
ping_ok 1-3.3.1
assert_file_eq $D/1-5.5/status enabled
stop
exit 0
