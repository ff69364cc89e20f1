# Checks gbnet's latency with a node that writes as greybus-zephyr does (gbsim --personality zephyr: CPort prefix and message in two send()s, Nagle on, so each answer waits for gbnet's ACK of its prefix): with TCP_QUICKACK re-armed after every read (gbnet's default) the median gb-loopback ping stays far below Linux's 40 ms delayed ACK; with --no-quickack it does not (the cost the option removes). Latencies are gb-loopback's own, on the guest clock.
# timeout: 180
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/loopback.sh

need_tool gbsim gbnet
load_gb greybus gb-vhd gb-loopback
LB=/sys/class/gb_loopback/gb_loopback0
D=/sys/kernel/debug/gb_loopback

# ping_median N: N synchronous pings; the median latency in microseconds
ping_median() {
	local raw
	wait_for 30 test -e $LB/type || fail "no gb_loopback0: $(gbnet_tail)"
	echo 0 >$LB/async
	echo 0 >$LB/size
	echo "$1" >$LB/iteration_max
	echo 2 >$LB/type || fail "ping refused"
	wait_file_eq 120 $LB/type 0 || fail "pings did not finish: $(cat $LB/iteration_count) done"
	assert_file_eq $LB/error 0
	raw=$(ls $D/raw_latency_*-*.*.* 2>/dev/null | head -n 1)
	[ -n "$raw" ] || fail "no raw latencies in $D"
	sort -n "$raw" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

node_start 2 loopback.mnfs --personality zephyr
grep -q 'personality zephyr' "$GBTEST_TMP/node2.log" || fail "gbsim: no zephyr personality"

gbnet_start --no-quickack --node 127.0.0.2
slow=$(ping_median 40)
info "median ping, delayed ACKs (--no-quickack): $slow us"
kill $gbnet_pid
wait $gbnet_pid
wait_for 30 test ! -e $LB || fail "gb_loopback0 still there after gbnet stopped"

gbnet_start --node 127.0.0.2
fast=$(ping_median 40)
info "median ping, TCP_QUICKACK after every read: $fast us"

# the model reproduces the cost: at least most of the 40 ms delayed ACK
[ "$slow" -ge 30000 ] || fail "split writes without quick ACKs: median $slow us (expected >= 30 ms)"
# and quick ACKs remove it: generous for a busy TCG guest
[ "$fast" -lt 20000 ] || fail "with TCP_QUICKACK: median $fast us (expected < 20 ms; without: $slow us)"
exit 0
