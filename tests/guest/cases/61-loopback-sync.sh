# Checks synchronous gb-loopback tests against gbsim: ping, transfer (0 to 2028 bytes) and sink each give iteration_count == iteration_max with no error, consistent statistics, gbsim-measured latencies and one raw latency per operation.
# timeout: 180
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh

need_tool gbsim
M=/usr/share/greybus/manifests
load_gb greybus gb-vhd gb-loopback
gbsim -l log -m 2:$M/loopback.mnfs 2>err &
pid=$!
wait_for 30 test -e /sys/class/gb_loopback/gb_loopback0 ||
	fail "no gb_loopback0: $(cat err)"
LB=/sys/class/gb_loopback/gb_loopback0
lb_patient $LB
RAW=/sys/kernel/debug/gb_loopback/raw_latency_1-2.2.1

# lb_run TYPE ITERATIONS SIZE: one synchronous test, to its end
lb_run() {
	echo 0 >$LB/async
	echo "$3" >$LB/size || fail "size $3 refused"
	echo "$2" >$LB/iteration_max
	echo "$1" >$LB/type || fail "type $1 refused"
	wait_file_eq 120 $LB/type 0 || fail "type $1 x$2 did not finish: $(cat $LB/iteration_count) done"
}

# lb_check WHAT ITERATIONS: the counters and statistics of a clean run
lb_check() {
	local v
	assert_file_eq $LB/iteration_count "$2"
	assert_file_eq $LB/requests_completed "$2"
	assert_file_eq $LB/error 0
	assert_file_eq $LB/requests_timedout 0
	[ "$(cat $LB/latency_min)" -le "$(cat $LB/latency_max)" ] ||
		fail "$1: latency_min $(cat $LB/latency_min) > latency_max $(cat $LB/latency_max)"
	[ "$(cat $LB/latency_max)" -gt 0 ] || fail "$1: latency_max is 0"
	for v in requests_per_second throughput; do
		[ "$(cat $LB/${v}_min)" -gt 0 ] || fail "$1: ${v}_min is 0"
		[ "$(cat $LB/${v}_min)" -le "$(cat $LB/${v}_max)" ] || fail "$1: ${v}_min > ${v}_max"
	done
	case $(cat $LB/latency_avg) in
	[0-9]*.[0-9][0-9][0-9][0-9][0-9][0-9]) ;;
	*) fail "$1: latency_avg '$(cat $LB/latency_avg)' is not N.NNNNNN" ;;
	esac
	# one raw latency per successful operation, all within [min, max]
	cat $RAW >raw || fail "$1: reading $RAW failed"
	assert_eq "$(wc -l <raw | tr -d ' ')" "$2" "$1: raw latencies"
	awk -v lo="$(cat $LB/latency_min)" -v hi="$(cat $LB/latency_max)" \
		'$1 < lo || $1 > hi { bad++ } END { exit bad > 0 }' raw ||
		fail "$1: raw latencies outside [latency_min, latency_max]"
	cat $RAW >/dev/null 2>&1 && fail "$1: raw_latency not drained by a read"
	true
}

lb_run 2 100 0
lb_check ping 100
# ping carries no loopback header: no latency fields from the module
assert_file_eq $LB/gbphy_firmware_latency_avg 0.000000
assert_file_eq $LB/apbridge_unipro_latency_avg 0.000000
assert_eq "$(grep -c 'AP>MOD .* loopback\.ping req' log)" 100 "ping requests gbsim saw"

t=0
for size in 0 1 100 512 2028; do
	lb_run 3 20 $size
	lb_check "transfer $size" 20
	t=$((t + 20))
	# gbsim's measurements: the time in gbsim includes the model's time
	[ "$(cat $LB/apbridge_unipro_latency_min)" -ge "$(cat $LB/gbphy_firmware_latency_min)" ] ||
		fail "transfer $size: apbridge_unipro_latency_min < gbphy_firmware_latency_min"
	[ "$(cat $LB/apbridge_unipro_latency_max)" -ge "$(cat $LB/gbphy_firmware_latency_max)" ] ||
		fail "transfer $size: apbridge_unipro_latency_max < gbphy_firmware_latency_max"
	[ "$(cat $LB/latency_max)" -ge "$(cat $LB/apbridge_unipro_latency_max)" ] ||
		fail "transfer $size: the module's latency exceeds the round trip"
	# 2 x (8-byte header + 12-byte loopback header + size) per operation
	tp=$(cat $LB/throughput_max)
	rps=$(cat $LB/requests_per_second_max)
	[ "$tp" -ge $(( rps * 2 * (20 + size) * 9 / 10 )) ] && [ "$tp" -le $(( rps * 2 * (20 + size) * 11 / 10 + 1 )) ] ||
		fail "transfer $size: throughput_max $tp B/s for $rps requests/s"
done
assert_eq "$(grep -c 'AP>MOD .* loopback\.transfer req' log)" $t "transfer requests gbsim saw"
grep -q 'MOD>AP .* loopback\.transfer rsp .*result=success size=2028 unipro_us=[0-9]* firmware_us=[0-9]*' log ||
	fail "gbsim log shows no 2028-byte echo with its latencies"

lb_run 4 50 1024
lb_check "sink 1024" 50
assert_eq "$(grep -c 'AP>MOD .* loopback\.sink req .*size=1024' log)" 50 "sink requests gbsim saw"

# us_wait spaces the operations out
echo 20000 >$LB/us_wait
lb_run 2 5 0
lb_check "ping with us_wait" 5
echo 0 >$LB/us_wait

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
unload_all_gb
exit 0
