# Checks asynchronous gb-loopback tests against gbsim: ping, transfer and sink with 1, 8 and 32 (and unlimited) operations outstanding give iteration_count == iteration_max with no error.
# timeout: 180
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh

need_tool gbsim
M=/usr/share/greybus/manifests
load_gb greybus gb-vhd gb-loopback
gbsim -m 2:$M/loopback.mnfs 2>err &
pid=$!
wait_for 30 test -e /sys/class/gb_loopback/gb_loopback0 ||
	fail "no gb_loopback0: $(cat err)"
LB=/sys/class/gb_loopback/gb_loopback0
# _count_above N: the running test has done more than N iterations
_count_above() {
	[ "$(cat $LB/iteration_count)" -gt "$1" ]
}
RAW=/sys/kernel/debug/gb_loopback/raw_latency_1-2.2.1

# lb_run TYPE ITERATIONS SIZE OUTSTANDING: one asynchronous test, to its end
lb_run() {
	echo 1 >$LB/async
	lb_patient $LB
	echo "$4" >$LB/outstanding_operations_max
	echo "$3" >$LB/size
	echo "$2" >$LB/iteration_max
	echo "$1" >$LB/type || fail "type $1 refused"
	wait_file_eq 120 $LB/type 0 || fail "type $1 x$2 ($4 outstanding) did not finish: $(cat $LB/iteration_count) done"
	assert_file_eq $LB/iteration_count "$2"
	assert_file_eq $LB/requests_completed "$2"
	assert_file_eq $LB/error 0
	assert_file_eq $LB/requests_timedout 0
	[ "$(cat $LB/requests_per_second_min)" -gt 0 ] || fail "type $1 ($4 outstanding): requests_per_second_min is 0"
	assert_eq "$(wc -l <$RAW | tr -d ' ')" "$2" "type $1 ($4 outstanding): raw latencies"
	info "type $1 size $3 outstanding $4: $(cat $LB/requests_per_second_avg) requests/s"
}

for out in 1 8 32; do
	lb_run 2 200 0 $out
	lb_run 3 100 512 $out
	lb_run 4 100 512 $out
done
# 0: no limit of the driver's own. A serial link queues at most 256
# frames for the port and refuses more with -ENOBUFS (docs/hdlc.md), so
# over it the window stays below that whatever the timing.
if [ "$GB_TRANSPORT" = hdlc ]; then
	lb_run 3 200 64 0
else
	lb_run 3 300 64 0
fi

# a test replaces the one running; a configuration write waits for its end.
# Synchronous: the asynchronous settings left by the last lb_run would
# keep an unlimited window of pings in flight for as long as the test
# runs, more than the emulated ES2 bridge drains within their timeout,
# with the SVC watchdog's ping queued behind them.
echo 0 >$LB/async
echo 0 >$LB/iteration_max
echo 2 >$LB/type || fail "an endless ping test refused"
wait_for 10 _count_above 10 || fail "the endless test does not run"
echo 8 >$LB/size 2>/dev/null && fail "size changed while a test runs"
assert_file_eq $LB/type 2
echo 50 >$LB/iteration_max 2>/dev/null && fail "iteration_max changed while a test runs"
echo 0 >$LB/type || fail "stopping the test failed"
assert_file_eq $LB/type 0
n=$(cat $LB/iteration_count)
sleep 0.5
assert_file_eq $LB/iteration_count "$n"
assert_file_eq $LB/error 0

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
unload_all_gb
exit 0
