# Checks that a TCP node killed while an operation waits for it takes its module away at once: the pending loopback request fails within seconds (not after its 30 s timeout) and nothing leaks; another node stays; the node coming back gets the same interface id and works again.
# transport: vhd
# timeout: 120
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh
. /usr/lib/gbtest/gbnet.sh

need_tool gbsim gbnet
load_gb greybus gb-vhd gb-loopback gb-log
# the node never answers its third loopback request
export GBSIM_LOOPBACK=drop=3
node_start 2 loopback.mnfs
unset GBSIM_LOOPBACK
node_start 3 log.mnfs
gbnet_start --node 127.0.0.2 --node 127.0.0.3 --backoff-max 1000
wait_for 40 node_is 2 up && wait_for 40 node_is 3 up ||
	fail "nodes not up: $(gbnet ctl list)"
I2=$(node_intf 2)
I3=$(node_intf 3)
B=$(gbnet_bus) || fail "no host device"
LB=/sys/class/gb_loopback/gb_loopback0
wait_for 40 test -e $LB || fail "no gb_loopback0: $(gbnet_tail)"
wait_for 20 test -e "$DEV/$B-$I3.$I3.1/driver" || fail "log node not bound"

echo 30000000 >$LB/timeout
echo 0 >$LB/async
echo 10 >$LB/iteration_max
echo 2 >$LB/type || fail "ping test refused"
wait_for 10 grep -q 'loopback.ping id=0x[0-9a-f]*: not answered' "$GBTEST_TMP/node2.log" ||
	fail "the node did not hold a ping: $(tail -n 5 "$GBTEST_TMP/node2.log")"
t0=$(date +%s)
kill -KILL $node_pid_2
wait_for 10 test ! -e "$DEV/$B-$I2" || fail "module $B-$I2 still there: $(gbnet ctl list)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there"
t1=$(date +%s)
[ $((t1 - t0)) -le 20 ] || fail "took $((t1 - t0)) s, not at once"
assert_eq "$(node_state 2)" down "state of the dead node"
# it is tried again, and refused
wait_for 10 node_above 2 errors 0 ||
	fail "no failed attempt counted: $(gbnet ctl list)"
gbnet ctl list | grep -q '^127.0.0.2 .*last_error=".*Connection refused' ||
	fail "last error: $(gbnet ctl list)"
# the other node did not notice
test -e "$DEV/$B-$I3.$I3.1/driver" || fail "log node gone with the other"
assert_eq "$(node_state 3)" up "state of the other node"

# it comes back: same interface id, working
node_start 2 loopback.mnfs
wait_for 30 node_is 2 up || fail "node 2 did not come back: $(gbnet ctl list)"
assert_eq "$(node_intf 2)" "$I2" "interface id of the node back"
wait_for 40 test -e $LB || fail "no gb_loopback0 after the node came back: $(gbnet_tail)"
echo 3 >$LB/iteration_max
echo 2 >$LB/type || fail "ping test refused"
wait_file_eq 30 $LB/type 0 || fail "ping test did not finish"
assert_file_eq $LB/error 0
gbnet ctl list | grep -q '^127.0.0.2 .*connects=2' || fail "connects: $(gbnet ctl list)"
exit 0
