# Checks that gbnet keeps a greybus-zephyr node's own limits (gbsim --personality zephyr: a 2 KB heap that hangs the node on a message over 2016 bytes or on more than 16 requests read at once): 64 asynchronous gb-loopback pings outstanding go through gbnet's window of 8 requests in flight without stalling the node; a transfer over the node MTU (1024) fails at once, refused by gbnet with GB_OP_OVERFLOW and one line, and the node keeps working; with a larger --node-mtu the same transfer reaches the node and hangs it (why the MTU is there).
# transport: vhd
# timeout: 240
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/loopback.sh

need_tool gbsim gbnet
load_gb greybus gb-vhd gb-loopback
LB=/sys/class/gb_loopback/gb_loopback0

# lb TYPE ITERATIONS SIZE ASYNC SECONDS: one test, waited for
lb() {
	echo "$4" >$LB/async
	[ "$4" = 1 ] && echo 64 >$LB/outstanding_operations_max
	echo "$3" >$LB/size || fail "size $3 refused"
	echo "$2" >$LB/iteration_max
	echo "$1" >$LB/type || fail "type $1 refused"
	wait_file_eq "$5" $LB/type 0 || fail "type $1 x$2 did not finish: $(cat $LB/iteration_count) done, $(gbnet ctl list)"
}

node_start 2 loopback.mnfs --personality zephyr
gbnet_start --node 127.0.0.2
wait_for 40 test -e $LB/type || fail "no gb_loopback0: $(gbnet_tail)"

# 64 outstanding: the node sees at most 8 at once
lb 2 300 0 1 120
assert_file_eq $LB/error 0
grep -q 'the node stalls\|the node hangs' "$GBTEST_TMP/node2.log" &&
	fail "the node stalled: $(grep 'node stalls\|node hangs' "$GBTEST_TMP/node2.log")"

# a transfer of 1500 bytes: a 1512-byte request, over the node MTU
lb 3 3 1500 0 60
[ "$(cat $LB/error)" -ge 1 ] || fail "transfer over the node mtu did not fail"
assert_file_eq $LB/requests_timedout 0
grep -q "over the node's mtu 1024: refused (GB_OP_OVERFLOW)" "$GBTEST_TMP/gbnet.log" ||
	fail "no refusal line: $(gbnet_tail)"
grep -q 'loopback.transfer req.* 1512 ' "$GBTEST_TMP/node2.log" &&
	fail "the refused transfer reached the node"
# the node still answers
lb 2 5 0 0 60
assert_file_eq $LB/error 0
kill $gbnet_pid
wait $gbnet_pid
wait_for 30 test ! -e $LB || fail "gb_loopback0 still there after gbnet stopped"

# without the MTU, a 2 KB message hangs the node
gbnet_start --node 127.0.0.2 --node-mtu 2048
wait_for 40 test -e $LB/type || fail "no gb_loopback0 again: $(gbnet_tail)"
echo 2 >$LB/timeout 2>/dev/null
echo 0 >$LB/async
echo 2028 >$LB/size
echo 1 >$LB/iteration_max
echo 3 >$LB/type
wait_for 30 grep -q 'the node hangs' "$GBTEST_TMP/node2.log" ||
	fail "a 2 KB message did not hang the zephyr node: $(tail -5 "$GBTEST_TMP/node2.log")"
exit 0
