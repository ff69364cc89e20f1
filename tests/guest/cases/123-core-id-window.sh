# Checks operation-id allocation with a full window: an async loopback test of pings gbsim never answers puts all 65535 ids of one connection in flight at once (debugfs shows 65535 pending and the 8 chunks of the id map), the next send is refused with -EBUSY at once (gb-loopback waits for a timeout to free an id), and stopping the test cancels them all (on a sanitizer kernel, where sends are too slow to fill the window before the first time-out, as many as fit: thousands in the map); no soft lockup, no warning, and a ping works afterwards, after which the idle connection frees its id map.
# Before ids were tracked in a bitmap, each allocation walked the list of
# operations in flight for every id it tried, with interrupts off: the
# send after a full window tried all 65535 ids (about 4e9 list steps),
# which the soft-lockup detector reports; before that, each send walked
# the whole list, and the window did not fill before the first pings
# timed out.
# The window must fill before the first ping's 40 s timeout: on the
# host's clock that is a race the guest loses when the host is loaded
# (sending slows, the timeout does not), so the guest's clock counts its
# instructions.
# timeout: 400
# mem: 1G
# clock: icount
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh

need_tool gbsim
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
CONNS=/sys/kernel/debug/greybus/greybus1/connections
export GBSIM_CTL=$GBTEST_TMP/ctl
load_gb greybus gb-vhd gb-loopback

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/loopback.mnfs >out 2>err &
pid=$!
wait_for 30 test -e $LB || fail "no gb_loopback0: $(cat err)"
test -r $CONNS || fail "no $CONNS"

# pending: the pending column (the 12th) of the loopback connection (protocol 0x11)
pending() {
	awk '$4 == "0x11" { print $12 }' $CONNS
}
# chunks: its id_chunks column (the 13th), the chunks of its id map
chunks() {
	awk '$4 == "0x11" { print $13 }' $CONNS
}
# counters: its sent/received/responses/errors/timeouts/dropped columns
counters() {
	awk '$4 == "0x11" { print "sent " $6 ", received " $7 ", responses " $8 ", errors " $9 ", timeouts " $10 ", dropped " $11 }' $CONNS
}
on_fail() {
	loopback_on_fail
	echo "connection: $(counters)"
	gbsim ctl fault list 2>&1
	echo "gbsim log, last lines:"
	tail -n 5 log 2>&1
	cat err 2>&1
}
info "connections: $(grep -v '^#' $CONNS | tr '\n' ';')"
[ -n "$(pending)" ] || fail "no loopback connection in $CONNS: $(cat $CONNS)"

gbsim ctl fault add intf=2 type=loopback.ping drop sticky >/dev/null || fail "fault add"
echo 1 >$LB/async
echo 0 >$LB/outstanding_operations_max
# paced so that gbsim keeps up: with the host's queue full gb-loopback
# waits for an operation to end, here a timeout 40 s later
echo 200 >$LB/us_wait
echo "$(cat $LB/timeout_max)" >$LB/timeout
echo 65600 >$LB/iteration_max
echo 2 >$LB/type || fail "type 2 refused"

_full() { [ "$(pending)" = 65535 ]; }
if [ "$GB_TSCALE" -gt 1 ]; then
	# A sanitizer kernel (check-debug) spends about 660 us of guest time
	# on a send, and gb-loopback's longest time-out is 10000 jiffies
	# (10 s at its HZ of 1000): the first pings time out with some 15000
	# in flight, and the window never fills. What fits is checked there,
	# under KASAN and lockdep: thousands of ids in the map and its
	# chunks, freed as they time out; the full window, on the release
	# kernels.
	_timed_out() { [ "$(awk '$4 == "0x11" { print $10 }' $CONNS)" -gt 0 ]; }
	wait_for 120 _timed_out || fail "no ping timed out: $(counters)"
	p=$(pending)
	info "slow kernel: $p pending, $(chunks) id map chunks at the first time-out ($(counters))"
	[ "$p" -gt 8192 ] || fail "only $p pings in flight at the first time-out"
	[ "$(chunks)" -ge 2 ] || fail "$p pings in flight in $(chunks) id map chunks"
else
	_t=0
	while ! _full && [ $_t -lt 30 ]; do
		sleep 10
		_t=$((_t + 1))
		info "$(pending) pending after ${_t}0 s ($(counters); iterations $(cat $LB/iteration_count))"
	done
	_full || fail "the window did not fill: $(pending) pending"
	info "65535 pings in flight"
	# the whole id map is allocated: 8 chunks of 8192 ids (8 ids in near
	# slots)
	assert_eq "$(chunks)" 8 "id map chunks with every id in flight"
	# the next send gets -EBUSY at once, which gb-loopback takes for
	# backpressure: it waits for an operation to end (the first time out
	# 40 s after they went) and sends again into the id that freed
fi

echo 0 >$LB/type
wait_file_eq 120 $LB/type 0 || fail "the test did not stop"
_empty() { [ "$(pending)" = 0 ]; }
wait_for 60 _empty || fail "$(pending) still pending after the stop"

# the connection still works: one answered ping
gbsim ctl fault clear >/dev/null
echo 0 >$LB/async
echo 0 >$LB/us_wait
echo 1 >$LB/iteration_max
echo 1000000 >$LB/timeout
echo 2 >$LB/type
wait_file_eq 30 $LB/type 0 || fail "a ping after the window did not finish"
assert_file_eq $LB/iteration_count 1
assert_file_eq $LB/requests_completed 1
# and, idle, its time-out scan gives the whole map back
_no_map() { [ "$(chunks)" = 0 ]; }
wait_for 60 _no_map || fail "the idle connection still holds $(chunks) id map chunks"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
unload_all_gb
exit 0
