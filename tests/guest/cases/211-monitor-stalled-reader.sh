# Checks that a monitor reader that never reads loses records, counted and reported, while gb-loopback's transfers all complete without error or time-out, and that a second reader opened at the same time with a big ring sees every message.
# timeout: 240
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/monitor.sh
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
P=/sys/module/greybus/parameters

# A keen reader with a 16 MiB ring, then a stalled one with the
# smallest ring (128 KiB): each transfer of 1024 bytes is two records of
# 1104 bytes, so about 60 transfers fill it.
echo 16777216 >$P/monitor_ring_size
exec 4<$MON
echo 131072 >$P/monitor_ring_size
exec 3<$MON
echo 1048576 >$P/monitor_ring_size

N=400
echo 0 >$LB/async
echo 1024 >$LB/size
echo $N >$LB/iteration_max
echo 3 >$LB/type || fail "transfer refused"
wait_file_eq 200 $LB/type 0 || fail "transfers did not finish: $(cat $LB/iteration_count) done"

# The bus kept its pace: every transfer done, none failed or timed out
assert_file_eq $LB/iteration_count $N
assert_file_eq $LB/requests_completed $N
assert_file_eq $LB/error 0
assert_file_eq $LB/requests_timedout 0

monread -n <&4 >keen || fail "monread (keen) failed: $(tail -n 2 keen)"
monread -n <&3 >stalled || fail "monread (stalled) failed: $(tail -n 2 stalled)"
exec 3<&- 4<&-
info "keen: $(tail -n 1 keen); stalled: $(tail -n 1 stalled)"

# The keen reader lost nothing and saw each transfer both ways
grep -q '^end records=[0-9]* lost=0$' keen || fail "keen reader lost records: $(tail -n 1 keen)"
reqs=$(mon_count keen '^msg out req .* proto=0x11 .* type=0x03 .* len=1044 cap=1044 ')
resps=$(mon_count keen '^msg in resp .* proto=0x11 .* type=0x83 result=0x00 len=1044 cap=1044 ')
assert_eq "$reqs $resps" "$N $N" "transfer requests and responses the keen reader saw"
keen_n=$(sed -n 's/^end records=\([0-9]*\) .*/\1/p' keen)

# The stalled reader kept what fitted, then counted the rest lost, and
# the loss was reported in the stream: records + lost = every message
st_n=$(sed -n 's/^end records=\([0-9]*\) .*/\1/p' stalled)
st_lost=$(sed -n 's/^end records=[0-9]* lost=\([0-9]*\)$/\1/p' stalled)
[ "$st_lost" -gt 0 ] || fail "the stalled reader lost nothing: $(tail -n 1 stalled)"
# (monread's sum is of the stream's own counts: a lost record, or the
# lost field of a record that found room after the gap, a small one)
grep -qE '^lost |^msg .* lost=[1-9]' stalled || fail "no loss reported in the stalled reader's stream"
[ "$st_n" -lt "$keen_n" ] || fail "the stalled reader got $st_n records, the keen one $keen_n"
# (messages, not the lost record itself).  The keen reader was opened a
# moment earlier: an SVC message in between is one it has and the
# stalled one never saw, so its count bounds the sum from above.
st_msgs=$(mon_count stalled '^msg ')
all=$(mon_count keen '^msg ')
[ $((st_msgs + st_lost)) -ge $((2 * N)) ] && [ $((st_msgs + st_lost)) -le "$all" ] ||
	fail "stalled reader: $st_msgs records + $st_lost lost, not within [$((2 * N)), $all]"
# its ring was full: more than 100 of the 1104-byte records
[ "$st_msgs" -gt 100 ] || fail "the stalled reader kept only $st_msgs records"

kill $pid
wait $pid
exit 0
