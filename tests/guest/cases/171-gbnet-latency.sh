# Checks gbnet's latency with a node that writes as greybus-zephyr does (gbsim --personality zephyr: CPort prefix and message in two send()s, Nagle on, so each answer waits for gbnet's ACK of its prefix): with TCP_QUICKACK re-armed after every read (gbnet's default) no ping waits for a delayed ACK; with --no-quickack most do (the cost the option removes). The verdict counts the kernel's delayed ACKs (TcpExt DelayedACKs), which load cannot change; the medians (gb-loopback's own, guest clock) are reported, and only compared with each other.
# transport: vhd
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

# delayed_acks: the guest's count of ACKs sent by the delayed-ACK timer
delayed_acks() {
	awk '/^TcpExt:/ { if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
		for (i = 2; i <= NF; i++) if (n[i] == "DelayedACKs") print $i }' /proc/net/netstat
}

node_start 2 loopback.mnfs --personality zephyr
grep -q 'personality zephyr' "$GBTEST_TMP/node2.log" || fail "gbsim: no zephyr personality"

gbnet_start --no-quickack --node 127.0.0.2
d0=$(delayed_acks)
slow=$(ping_median 40)
slow_acks=$(( $(delayed_acks) - d0 ))
info "--no-quickack: median ping $slow us, $slow_acks delayed ACKs in 40 pings"
kill $gbnet_pid
wait $gbnet_pid
wait_for 30 test ! -e $LB || fail "gb_loopback0 still there after gbnet stopped"

gbnet_start --node 127.0.0.2
d0=$(delayed_acks)
fast=$(ping_median 40)
fast_acks=$(( $(delayed_acks) - d0 ))
info "TCP_QUICKACK after every read: median ping $fast us, $fast_acks delayed ACKs in 40 pings"

[ -n "$d0" ] || fail "no TcpExt DelayedACKs in /proc/net/netstat"
# the model reproduces the cost: most pings wait for a delayed ACK (each
# such wait is at least Linux's 40 ms minimum: load only lengthens it)
[ "$slow_acks" -ge 20 ] || fail "split writes without quick ACKs: $slow_acks delayed ACKs in 40 pings (expected >= 20)"
[ "$slow" -ge 30000 ] || fail "split writes without quick ACKs: median $slow us (expected >= 30 ms)"
# and quick ACKs remove it
[ "$fast_acks" -le $(( slow_acks / 4 )) ] ||
	fail "with TCP_QUICKACK: $fast_acks delayed ACKs in 40 pings (without: $slow_acks)"
[ "$fast" -lt "$slow" ] || fail "with TCP_QUICKACK: median $fast us, not below $slow us without"
exit 0
