# Checks that a hostile or noisy peer on the serial link is dropped and counted, never believed: bit flips (bad FCS), garbage, lone flags and escapes (abort), an over-long frame, a truncated one, a header whose size disagrees with the frame, a CPort the bridge lacks and an unknown address each move their own counter; debug text is logged; a dropped answer only times its operation out; writes split at random boundaries still frame right; and the module on the link keeps working throughout.
# timeout: 120
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
CTL=$GBTEST_TMP/ctl
hdlc_setup
load_gb gb-loopback
gbsim --pty --attach --ctl $CTL -l log -m 2:$M/loopback.mnfs >out 2>err &
pid=$!
wait_for 30 test -e $LB || fail "no gb_loopback0: $(cat err)"
# a lost answer times out after this long, but none answered does
lb_patient $LB
ctl() {
	gbsim ctl -s $CTL "$@" || fail "gbsim ctl $*: failed"
}

# lb_ok N: N pings, every one answered
lb_ok() {
	echo 0 >$LB/async
	echo 16 >$LB/size
	echo "$1" >$LB/iteration_max
	echo 2 >$LB/type
	wait_file_eq 30 $LB/type 0 || fail "pings did not finish ($2)"
	assert_file_eq $LB/iteration_count "$1"
	assert_file_eq $LB/error 0
}
# stat_is NAME VALUE
stat_is() {
	wait_for 5 test "$(hdlc_stat $1)" = "$2" ||
		fail "$1 is $(hdlc_stat $1), want $2 ($3)"
}

lb_ok 5 "before any fault"
# lb_lossy: 3 pings of which one answer is lost on the link
lb_lossy() {
	echo 3 >$LB/iteration_max
	echo 2 >$LB/type
	wait_file_eq 30 $LB/type 0 || fail "pings with a lost answer did not finish ($1)"
	assert_file_eq $LB/requests_timedout 1
	assert_file_eq $LB/requests_completed 2
}
# a bit flipped in an answer: a bad FCS, that operation times out
ctl hdlc flip 1
lb_lossy "bit flip"
stat_is rx_crc_errors 1 "one flipped frame"

ctl hdlc garbage 100
ctl hdlc noise
ctl hdlc oversize
ctl hdlc truncated
ctl hdlc badsize
ctl hdlc badcport
ctl hdlc address
ctl hdlc debug "hello from the peer"
stat_is rx_oversize 1 "over-long frame"
stat_is rx_aborts 1 "escape then flag"
stat_is rx_debug 1 "debug text"
# truncated, mis-sized, bad cport, unknown address
stat_is rx_dropped 4 "malformed frames"
[ "$(hdlc_stat rx_crc_errors)" -ge 2 ] || [ "$(hdlc_stat rx_short)" -ge 1 ] ||
	fail "the garbage was counted nowhere"
expect_dmesg 'pts[0-9]*: peer: hello from the peer'
expect_dmesg "header size is not the frame's"
expect_dmesg 'no such cport'
lb_ok 5 "after the bad frames"

# a dropped answer: one ping times out, the next ones work
ctl hdlc drop 1
lb_lossy "dropped frame"

# writes split into random pieces still make whole frames
ctl hdlc split on
lb_ok 50 "split writes"
ctl hdlc split off

assert_eq "$(hdlc_stat tx_errors)" 0 tx_errors
[ -e "$GB_DEVS/1-2.2.1" ] || fail "the bundle went away"
kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
unload_all_gb
exit 0
