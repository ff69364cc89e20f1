# Checks gb-loopback's error accounting with gbsim's loopback knobs: a corrupted echo counts as an error, an unanswered request as a timeout (sync and async), a delayed answer shows in the gbsim-measured firmware latency, and a module unplugged mid-test ends the test cleanly.
# timeout: 180
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh

need_tool gbsim
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
# _count_above N: the running test has done more than N iterations
_count_above() {
	[ "$(cat $LB/iteration_count)" -gt "$1" ]
}
load_gb greybus gb-vhd gb-loopback

# start_gbsim KNOBS: gbsim with GBSIM_LOOPBACK=KNOBS, up to gb_loopback0
start_gbsim() {
	GBSIM_LOOPBACK=$1 gbsim -l log -m 2:$M/loopback.mnfs 2>err &
	pid=$!
	wait_for 30 test -e $LB || fail "no gb_loopback0 (GBSIM_LOOPBACK=$1): $(cat err)"
	# a dropped answer times out after this long, but none answered does
	lb_patient $LB
}

stop_gbsim() {
	kill -TERM $pid
	wait $pid || fail "gbsim exited with $?: $(cat err)"
	wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
}

# lb_run TYPE ITERATIONS SIZE ASYNC
lb_run() {
	echo "$4" >$LB/async
	echo "$3" >$LB/size
	echo "$2" >$LB/iteration_max
	echo "$1" >$LB/type || fail "type $1 refused"
	wait_file_eq 60 $LB/type 0 || fail "type $1 x$2 did not finish: $(cat $LB/iteration_count) done"
	assert_file_eq $LB/iteration_count "$2"
}

# request 3 (the 3rd transfer) gets a corrupted echo, request 8 no answer
start_gbsim corrupt=3,drop=8
lb_run 3 5 64 0
assert_file_eq $LB/error 1
assert_file_eq $LB/requests_completed 4
assert_file_eq $LB/requests_timedout 0
grep -q 'loopback\.transfer id=0x[0-9a-f]*: echo data corrupted' log || fail "gbsim did not corrupt an echo"
expect_dmesg 'gb_loopback0: transfer id 0x[0-9a-f]*: the response does not echo the request \(64 bytes\)'
# requests 6, 7, 8: the last one is never answered
lb_run 2 3 0 0
assert_file_eq $LB/error 1
assert_file_eq $LB/requests_timedout 1
assert_file_eq $LB/requests_completed 2
grep -q 'loopback\.ping id=0x[0-9a-f]*: not answered' log || fail "gbsim did not drop a ping"
stop_gbsim

# a zero-byte transfer has no data to flip: its size field is wrong instead
start_gbsim corrupt=2
lb_run 3 3 0 1
assert_file_eq $LB/error 1
assert_file_eq $LB/requests_timedout 0
grep -q 'echo size corrupted' log || fail "gbsim did not corrupt the size field"
stop_gbsim

# async: the 4th of 10 sinks times out, the others complete
start_gbsim drop=4
echo 4 >$LB/outstanding_operations_max
lb_run 4 10 128 1
assert_file_eq $LB/error 1
assert_file_eq $LB/requests_timedout 1
assert_file_eq $LB/requests_completed 9
stop_gbsim

# every answer 30 ms late: it is in the round trip and in what gbsim reports
start_gbsim delay_ms=30
lb_run 3 4 16 0
assert_file_eq $LB/error 0
[ "$(cat $LB/latency_min)" -ge 30000 ] || fail "latency_min $(cat $LB/latency_min) us with 30 ms of delay"
[ "$(cat $LB/gbphy_firmware_latency_min)" -ge 30000 ] ||
	fail "gbphy_firmware_latency_min $(cat $LB/gbphy_firmware_latency_min) us with 30 ms of delay"
[ "$(cat $LB/apbridge_unipro_latency_min)" -ge "$(cat $LB/gbphy_firmware_latency_min)" ] ||
	fail "apbridge_unipro_latency_min below gbphy_firmware_latency_min"
stop_gbsim

# the module goes away in the middle of an endless async test
start_gbsim delay_ms=5
echo 1 >$LB/async
echo 8 >$LB/outstanding_operations_max
echo 0 >$LB/iteration_max
echo 3 >$LB/type || fail "endless transfer test refused"
wait_for 10 _count_above 5 || fail "the endless test does not run"
kill -KILL $pid
wait $pid 2>/dev/null
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim was killed"
unload_all_gb
exit 0
