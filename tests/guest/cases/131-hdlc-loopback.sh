# Checks gb-loopback over the serial link: Linux's loopback_test runs ping and transfers, sync and async, without an error; a transfer whose messages are exactly the link's default 250 bytes (a CC1352's) goes through, and one byte more is refused before anything reaches the wire (the host device declares the link's limit to the core).
# timeout: 120
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach loopback_test
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
hdlc_setup
load_gb gb-loopback
gbsim --pty --attach -l log -m 2:$M/loopback.mnfs >out 2>err &
pid=$!
wait_for 30 test -e $LB || fail "no gb_loopback0: $(cat err)"
lb_patient $LB

# lt ARGS...: loopback_test in porcelain mode, no error
lt() {
	/usr/bin/loopback_test "$@" -p -O 60 >lt.out 2>&1 || fail "loopback_test $*: exit $?: $(cat lt.out)"
	cat lt.out
	grep -q 'Error running test' lt.out && fail "loopback_test $*: $(cat lt.out)"
	grep -q 'errors:[[:space:]]*0$' lt.out || fail "loopback_test $*: errors reported"
}
lt -t ping -i 100
assert_file_eq $LB/iteration_count 100
lt -t transfer -s 128 -i 50
lt -t transfer -s 64 -i 100 -x -c 8 -o $(lb_patient_us $LB)
assert_file_eq $LB/iteration_count 100

# 12 bytes of transfer header and 8 of message header: 230 is the most
assert_eq "$(hdlc_stat mtu)" 250 "the link's default limit"
before=$(hdlc_stat tx_frames)
echo 230 >$LB/size || fail "a transfer of 230 bytes (250-byte messages) refused"
echo 0 >$LB/async
echo 10 >$LB/iteration_max
echo 3 >$LB/type
wait_file_eq 30 $LB/type 0 || fail "the 230-byte transfers did not finish"
assert_file_eq $LB/iteration_count 10
assert_file_eq $LB/error 0
after=$(hdlc_stat tx_frames)
[ $((after - before)) -ge 10 ] || fail "only $((after - before)) frames sent for 10 transfers"
if echo 231 >$LB/size 2>/dev/null; then
	fail "a transfer of 231 bytes (251-byte messages) was accepted"
fi
assert_file_eq $LB/size 230
for s in rx_crc_errors rx_oversize rx_dropped tx_errors; do
	assert_eq "$(hdlc_stat $s)" 0 "$s"
done

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
unload_all_gb
exit 0
