# Checks that gbnet disconnects a node that breaks the TCP stream, with the reason in gbnet ctl list, and takes it back when it reconnects, while another node stays up throughout: a message cut by a close, half a header then silence, a size field beyond the data sent, a size over the MTU, a CPort no connection reaches; a stalled node times its operation out and works again after; a flood leaves gbnet small and both nodes working.
# transport: vhd
# timeout: 330
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh
. /usr/lib/gbtest/gbnet.sh

need_tool gbsim gbnet
load_gb greybus gb-vhd gb-loopback gb-log
node_start 2 loopback.mnfs
node_start 3 log.mnfs
gbnet_start --node 127.0.0.2 --node 127.0.0.3 --backoff-max 500 --frame-timeout 1000
wait_for 40 node_is 2 up && wait_for 40 node_is 3 up ||
	fail "nodes not up: $(gbnet ctl list)"
B=$(gbnet_bus) || fail "no host device"
I3=$(node_intf 3)

lb() {
	ls -d /sys/class/gb_loopback/gb_loopback* 2>/dev/null | head -n 1 | grep .
}
field() {	# NODE KEY
	node_field "$@"
}
_lb_idle() {
	[ "$(cat $1/type 2>/dev/null || echo 0)" = 0 ]
}
# one loopback ping, whatever its outcome; a stalled node's ping times
# out after lb_patient's time, an answered one does not
ping_once() {
	local l
	l=$(lb) || fail "no loopback device: $(gbnet ctl list)"
	lb_patient $l
	echo 1 >$l/iteration_max
	echo 2 >$l/type 2>/dev/null
	wait_for 60 _lb_idle $l
}
# the other node is still there
other_ok() {
	assert_eq "$(node_state 3)" up "the other node's state ($1)"
	test -e "$DEV/$B-$I3.$I3.1/driver" || fail "the other node's bundle lost its driver ($1)"
}
# reason_seen REASON LINE0: gbnet's last error for the node is REASON,
# or its log says so after line LINE0.  A node stalled by half-header or
# long-size refuses gbnet's reconnection until it is resumed (one client
# at a time, as a Zephyr node), and that refusal ("Connection reset by
# peer") can become the last error before this check reads it: the
# check polls (the reason stays the last error for gbnet's 250 ms
# backoff at least) and falls back on the log (rate-limited: five lines
# in 5 s a node).
reason_seen() {
	gbnet ctl list | grep '^127.0.0.2 ' | grep -q "last_error=\".*$1" ||
		tail -n +"$(($2 + 1))" "$GBTEST_TMP/gbnet.log" | grep -q -F "node 127.0.0.2: down: $1"
}
# fault ACTION REASON [resume]: the node's next message suffers ACTION;
# gbnet must drop it for REASON, then take it back
fault() {
	local c0 e0 l0
	c0=$(field 2 connects)
	e0=$(field 2 errors)
	l0=$(wc -l <"$GBTEST_TMP/gbnet.log")
	wait_for 30 lb >/dev/null || fail "no loopback device before $1: $(gbnet_tail)"
	node_ctl 2 tcp 2 "$1" || fail "node ctl tcp $1"
	ping_once
	wait_for 10 node_above 2 errors "$e0" ||
		fail "$1: node not dropped: $(gbnet ctl list)"
	wait_for 10 reason_seen "$2" "$l0" ||
		fail "$1: reason: $(gbnet ctl list | grep '^127.0.0.2 ') $(gbnet_tail)"
	[ "${3:-}" = resume ] && node_ctl 2 tcp 2 resume
	wait_for 20 node_above 2 connects "$c0" && wait_for 20 node_is 2 up ||
		fail "$1: node not back: $(gbnet ctl list)"
	other_ok "$1"
}

fault cut "closed mid-message"
fault half-header "message incomplete after 1000 ms (6 bytes" resume
fault long-size "message incomplete after 1000 ms" resume
fault over-mtu "bad framing: size over the maximum"
fault bad-cport "message for cport 65520, which no connection reaches"

# a stalled node: its operation times out, it stays, it works again.
# Its bundle is held awake first: one that autosuspended (2 s after its
# last use, which a slow or loaded guest reaches before the ping) would
# need a resume the stalled node cannot answer, and the ping would never
# be sent (seen on the debug kernel: requests_timedout 0)
wait_for 30 lb >/dev/null || fail "no loopback device before the stall"
LBB=$(lb)/device
echo on >$LBB/power/control || fail "cannot hold the loopback bundle awake"
assert_file_eq $LBB/power/runtime_status active
c0=$(field 2 connects)
node_ctl 2 tcp 2 stall || fail "stall"
ping_once
assert_file_eq "$(lb)/requests_timedout" 1
other_ok stall
node_ctl 2 tcp 2 resume || fail "resume"
ping_once
assert_file_eq "$(lb)/error" 0
assert_eq "$(field 2 connects)" "$c0" "connects after a stall"
echo auto >$LBB/power/control

# a flood: 200000 unidirectional requests; nobody falls over
node_ctl 2 tcp 2 flood 200000 >out || fail "flood: $(cat out)"
info "flood: $(cat out) messages queued"
# every message reaches the kernel now (gbnet stops reading the node while
# its queue to the kernel is full, instead of refusing): the flood goes at
# the kernel's pace
wait_for 150 node_above 2 msgs_in 199999 ||
	fail "flood not through: $(gbnet ctl list)"
rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$gbnet_pid/status)
info "gbnet VmRSS after the flood: $rss kB"
[ "$rss" -lt 16384 ] || fail "gbnet grew to $rss kB"
other_ok flood
wait_for 30 node_is 2 up || fail "node 2 not up after the flood"
wait_for 30 lb >/dev/null || fail "no loopback device after the flood"
ping_once
kill -0 $gbnet_pid || fail "gbnet died: $(gbnet_tail)"
exit 0
