# Checks gb-loopback over the emulated ES2 bridge: transfers whose messages are 20, exactly 512 (ended by a zero-length packet) and 2048 bytes (the bridge's maximum) come back intact sync and async, a corrupted echo counts as an error and an unanswered request as a timeout, and connecting and removing the module sends the latency-tag requests, the ARPCs (connected, flush, quiesce, clear) and the cport reset to the bridge.
# timeout: 300
# kmods: configfs libcomposite usb_f_fs dummy_hcd
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/es2.sh

need_tool gbsim
need_kmod configfs libcomposite usb_f_fs dummy_hcd
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
S=$GBTEST_TMP/ctl.sock

es2_setup || fail "cannot set up the ES2 gadget"
load_gb greybus gb-es2 gb-loopback

start_gbsim() {
	GBSIM_LOOPBACK=$1 gbsim --transport es2 --ctl "$S" -l log -m 2:$M/loopback.mnfs 2>err &
	pid=$!
	wait_for 60 test -e $LB || fail "no gb_loopback0 (GBSIM_LOOPBACK=$1): $(cat err) $(tail -n 5 log)"
	# a dropped answer times out after this long, but none answered does
	lb_patient $LB
}

stop_gbsim() {
	kill -TERM $pid
	wait $pid || fail "gbsim exited with $?: $(cat err)"
	wait_for 20 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
	wait_for 20 test ! -e /sys/bus/greybus/devices/greybus1 || fail "greybus1 still there after gbsim exited"
}

# lb_run TYPE ITERATIONS SIZE ASYNC
lb_run() {
	echo "$4" >$LB/async
	echo "$3" >$LB/size
	echo "$2" >$LB/iteration_max
	echo "$1" >$LB/type || fail "type $1 refused"
	wait_file_eq 120 $LB/type 0 || fail "type $1 x$2 did not finish: $(cat $LB/iteration_count) done"
	[ "$(cat $LB/iteration_count)" = "$2" ] ||
		fail "type $1 x$2 size $3: $(cat $LB/iteration_count) done: $(grep -v 'svc\.ping' log | tail -n 25)"
}

start_gbsim ""
# 8 + 12 + size bytes a message; 492 makes 512, 2028 the bridge's 2048
for size in 0 492 2028; do
	lb_run 3 20 $size 0
	assert_file_eq $LB/error 0
	echo 8 >$LB/outstanding_operations_max
	lb_run 3 50 $size 1
	assert_file_eq $LB/error 0
done
lb_run 2 100 0 1
assert_file_eq $LB/error 0
grep -q 'loopback\.transfer rsp .*result=success size=2028' log ||
	fail "gbsim log shows no 2028-byte echo: $(grep -m 2 'transfer rsp' log)"
grep -q 'loopback\.transfer rsp .*result=success size=492' log ||
	fail "gbsim log shows no 492-byte echo"
grep -q 'cport [0-9]* connected' log || fail "no CPORT_CONNECTED arpc in the gbsim log"
grep -q 'cport [1-9][0-9]* latency tag on' log || fail "gb-loopback did not ask for latency tags"

# removing the module tears its connections down through the bridge
c() {
	gbsim ctl -s "$S" "$@"
}
c remove 2 || fail "gbsim ctl remove failed"
wait_for 20 test ! -e $LB || fail "gb_loopback0 still there after the module was removed"
for ev in 'latency tag off' flush 'quiesce peer_space=' clear disable; do
	grep -q "cport [1-9][0-9]* $ev" log || fail "no cport $ev from the AP in the gbsim log: $(grep 'EVENT' log | tail -n 8)"
done
grep -q '^\[.*\] ERROR' log && fail "gbsim logged an error: $(grep -m 1 ERROR log)"
stop_gbsim

# request 3 (the 3rd transfer) gets a corrupted echo, request 8 no answer
start_gbsim corrupt=3,drop=8
lb_run 3 5 2028 0
assert_file_eq $LB/error 1
assert_file_eq $LB/requests_completed 4
grep -q 'loopback\.transfer id=0x[0-9a-f]*: echo data corrupted' log || fail "gbsim did not corrupt an echo"
expect_dmesg 'gb_loopback0: transfer id 0x[0-9a-f]*: the response does not echo the request \(2028 bytes\)'
lb_run 2 3 0 0
assert_file_eq $LB/requests_timedout 1
grep -q 'loopback\.ping id=0x[0-9a-f]*: not answered' log || fail "gbsim did not drop a ping"
# the bridge still carries traffic after the fault
lb_run 3 10 2028 1
assert_file_eq $LB/error 0
stop_gbsim
exit 0
