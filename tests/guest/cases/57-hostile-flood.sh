# Checks that a flood of requests on one connection keeps at most 64 queued, answers the rest at once with retry and a rate-limited log line, handles the queued ones once the handler goes on, and that both modules keep working.
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

HOLD=/sys/module/gb_test_protocol/parameters/hold_requests
C=$(hd_cport 5 1)
conn_field() {
	awk -v c="5:1" -v f="$1" '$3 == c { print $f }' $CONNS
}
r0=$(conn_field 7)
d0=$(conn_field 11)

# gb-test-protocol's handler waits while hold_requests is 1: the first
# request sits in the handler, the next 64 in the queue, and the core
# must refuse everything after that.
echo 1 >$HOLD || fail "cannot hold requests"
gbsim ctl request 5:1 test.echo 66 count=200 >ids || fail "gbsim ctl request failed"
[ "$(grep -c '^id=' ids)" = 200 ] || fail "gbsim sent $(grep -c '^id=' ids) requests, not 200"
expect_dmesg "greybus greybus1: $C/5:1: request 0x[0-9a-f]{4} of type 0x02 refused: 64 requests pending"

_refused() {
	[ "$(grep -c 'AP>MOD .*intf 5:1 test.echo rsp .*result=retry' log)" -ge 135 ]
}
wait_for 5 _refused || fail "only $(grep -c 'result=retry' log) requests refused"
refused=$(grep -c 'AP>MOD .*intf 5:1 test.echo rsp .*result=retry' log)
[ "$(grep -c 'AP>MOD .*intf 5:1 test.echo rsp .*result=success' log)" = 0 ] ||
	fail "a request was answered while the handler was held"

echo 0 >$HOLD || fail "cannot release requests"
_all_answered() {
	[ "$(grep -c 'AP>MOD .*intf 5:1 test.echo rsp' log)" -ge 200 ]
}
wait_for 10 _all_answered || fail "$(grep -c 'AP>MOD .*intf 5:1 test.echo rsp' log) of 200 requests answered"
handled=$(grep -c 'AP>MOD .*intf 5:1 test.echo rsp .*result=success' log)
info "$handled handled, $refused refused"
case $handled in
64|65) ;;
*) fail "$handled requests handled, not 64 or 65" ;;
esac
assert_eq $((handled + refused)) 200 "answers"
assert_eq "$(conn_field 7)" $((r0 + handled)) "requests received on 5:1"
assert_eq "$(conn_field 11)" $((d0 + refused)) "requests dropped on 5:1"
grep -q 'ERROR' log && fail "gbsim logged an error: $(grep -m 1 ERROR log)"

ping_ok 1-5.5.1
ping_ok 1-3.3.1
stop
exit 0
