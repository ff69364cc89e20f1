# Checks that a response completes its operation from the receive path when nothing needs process context: 200 synchronous gb-loopback pings (callback flagged GB_OPERATION_FLAG_CALLBACK_ATOMIC) all succeed with no greybus_completion work item queued (workqueue_queue_work tracepoint), while a ping gbsim drops still times out through the work item.
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
T=/sys/kernel/tracing
[ -d $T/events/workqueue/workqueue_queue_work ] ||
	skip "no workqueue_queue_work tracepoint"
load_gb greybus gb-vhd gb-loopback

# the 201st ping is never answered
GBSIM_LOOPBACK=drop=201 gbsim -l log -m 2:$M/loopback.mnfs 2>err &
pid=$!
wait_for 30 test -e $LB || fail "no gb_loopback0: $(cat err)"
lb_patient $LB

# lb_pings N: N synchronous pings, to the end of the test
lb_pings() {
	echo 0 >$LB/async
	echo "$1" >$LB/iteration_max
	echo 2 >$LB/type || fail "type 2 refused"
	wait_file_eq 60 $LB/type 0 || fail "$1 pings did not finish: $(cat $LB/iteration_count) done"
}

# trace_works CMD...: runs CMD; $n: the completion work items queued
trace_works() {
	echo >$T/trace
	echo 1 >$T/events/workqueue/workqueue_queue_work/enable
	"$@"
	echo 0 >$T/events/workqueue/workqueue_queue_work/enable
	n=$(grep -c 'function=gb_operation_work' $T/trace)
}

trace_works lb_pings 200
assert_file_eq $LB/iteration_count 200
assert_file_eq $LB/requests_completed 200
assert_file_eq $LB/error 0
assert_eq "$n" 0 "completion work items for 200 answered pings"

echo $((200000 * GB_TSCALE)) >$LB/timeout
trace_works lb_pings 1
assert_file_eq $LB/requests_timedout 1
grep -q 'loopback\.ping id=0x[0-9a-f]*: not answered' log || fail "gbsim did not drop a ping"
[ "$n" -ge 1 ] || fail "the timed-out ping was not completed by a work item ($n queued)"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
