# Checks that a frame gb-hdlc cuts short costs the CC1352 nothing more (gbsim's cc1352 personality keeps its escape state across a flag, as the firmware does): with gbsim not reading, the pty fills up in the middle of a large frame, whose operation then times out and is cancelled; once gbsim reads again it sees that frame aborted, and the next frame, a loopback ping, arrives whole and is answered (an escape and a flag alone would leave the escape set and corrupt it).
# timeout: 150
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
CTL=$GBTEST_TMP/ctl
# frames far larger than the peer takes fill the pty with few of them
HDLC_MTU=2048 hdlc_setup
load_gb gb-loopback
cc1352_start --ctl $CTL -m 2:$M/loopback.mnfs
on_fail() {
	grep -n 'hdlc' log | tail -n 30
	cat err
}
wait_for 30 test -e $LB || fail "no gb_loopback0: $(cat err)"
bus=$(hdlc_bus) || fail "no host device"
# no watchdog ping may be the frame after the abort
echo 0 >"$GB_DEVS/${bus#greybus}-svc/watchdog"
_cancelled() { [ "$(hdlc_stat tx_cancelled)" -gt 0 ]; }

# the pty fills up; the operations time out, the one half written too
gbsim ctl -s $CTL hdlc hold on || fail "gbsim ctl hdlc hold failed"
echo 1 >$LB/async
echo 32 >$LB/outstanding_operations_max
echo 500000 >$LB/timeout
echo 2000 >$LB/size
echo 64 >$LB/iteration_max
echo 3 >$LB/type
wait_file_eq 60 $LB/type 0 || fail "the transfers did not end"
_cancelled || fail "no message was cancelled"
grep -q 'aborted frame from the AP' log && fail "gbsim read while holding"

# gbsim reads again: the cut frame is aborted, the next one arrives whole
gbsim ctl -s $CTL hdlc hold off || fail "gbsim ctl hdlc hold off failed"
wait_for 20 grep -q 'aborted frame from the AP dropped' log ||
	fail "gbsim saw no aborted frame"
echo 0 >$LB/async
echo 16 >$LB/size
echo 5 >$LB/iteration_max
echo 2 >$LB/type
wait_file_eq 20 $LB/type 0 || fail "the pings after the abort did not finish"
assert_file_eq $LB/iteration_count 5
assert_file_eq $LB/error 0
grep -q 'bad FCS frame from the AP' log && fail "a frame after the abort was corrupted"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
unload_all_gb
exit 0
