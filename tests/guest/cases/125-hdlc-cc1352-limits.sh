# Checks the message limits against gbsim's cc1352 personality, the firmware's 256-byte receive block: by default gb-hdlc declares 250 bytes toward the peer, so a loopback transfer of 250-byte messages goes through (the peer takes them, no overflow) and one of 251 is refused before the wire; with the limit raised to 256 by hand, a 251-byte message reaches the peer, which drops it with its "HDLC RX Buffer Overflow" log line, and that line, coloured as Zephyr prints it, reaches the kernel log without its ANSI escape sequences.
# timeout: 150
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
hdlc_setup
load_gb gb-loopback

# run_sim: gbsim playing the cc1352 over a pty gbattach attaches
run_sim() {
	cc1352_start -m 2:$M/loopback.mnfs
	wait_for 30 test -e $LB || fail "no gb_loopback0 ($1): $(cat err)"
}
# transfers SIZE N: N sync transfers of SIZE bytes; the error count
transfers() {
	echo "$1" >$LB/size || return 1
	echo 0 >$LB/async
	echo "$2" >$LB/iteration_max
	echo 3 >$LB/type
	wait_file_eq 60 $LB/type 0 || fail "the $1-byte transfers did not finish"
}

run_sim "default limit"
assert_eq "$(hdlc_stat mtu)" 250 "gb-hdlc's limit toward the peer"
assert_eq "$(hdlc_stat mru)" 256 "gb-hdlc's limit from the peer"
# 12 bytes of transfer header and 8 of message header: 230 is the most
transfers 230 10 || fail "a transfer of 230 bytes (250-byte messages) refused"
assert_file_eq $LB/iteration_count 10
assert_file_eq $LB/error 0
if echo 231 >$LB/size 2>/dev/null; then
	fail "a transfer of 231 bytes (251-byte messages) was accepted"
fi
grep -q 'HDLC RX Buffer Overflow' log && fail "the peer overflowed at the default limit"
kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"

# a limit set by hand over the peer's: the peer drops what it cannot hold
HDLC_MTU=256 hdlc_setup
run_sim "mtu 256"
assert_eq "$(hdlc_stat mtu)" 256 "the limit set by hand"
echo 500000 >$LB/timeout
transfers 231 1 || fail "a transfer of 231 bytes refused at mtu 256"
assert_file_eq $LB/error 1
grep -q 'cc1352: HDLC RX Buffer Overflow' log || fail "the peer did not log its overflow"
expect_dmesg 'pts[0-9]*: peer: \[[0-9:.,]*\] <err> hdlc_rx: HDLC RX Buffer Overflow$' 10
dmesg | grep -q "$(printf '\033')" && fail "an ANSI escape reached the kernel log"
kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
unload_all_gb
exit 0
