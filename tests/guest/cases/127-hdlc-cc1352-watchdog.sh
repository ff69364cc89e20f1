# Checks gb-hdlc against the CC1352 firmware's receive ring, which can hold the frame it wraps in until the AP sends another byte (gbsim's cc1352 personality, fault "hdlc stall"): with gb-hdlc's idle flag after a burst (the default), a watchdog ping caught in the wrap is answered in time and nothing bites; without it, the ping stays held, the SVC watchdog bites, and gb-hdlc's network reset (SVC_STOP, SVC_START) brings the module back on the same host device, with no re-attach.
# timeout: 150
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
CTL=$GBTEST_TMP/ctl
hdlc_setup
load_gb gb-loopback
cc1352_start --ctl $CTL -m 2:$M/loopback.mnfs
on_fail() {
	grep -n 'hdlc\|svc.ping' log | tail -n 40
	cat err
}
wait_for 30 test -e $LB || fail "no gb_loopback0: $(cat err)"
bus=$(hdlc_bus) || fail "no host device"
b=${bus#greybus}
assert_file_eq "$GB_DEVS/$b-svc/watchdog" 1
_pings() { grep -c 'svc.ping' log; }
_pings_past() { [ "$(_pings)" -ge "$1" ]; }
[ "$(_pings)" -ge 0 ] || fail "no ping lines in gbsim's log"

# the idle flag after the ping releases it: the pings go on, no bite
wait_for 20 _pings_past 1 || fail "no watchdog ping reached gbsim"
gbsim ctl -s $CTL hdlc stall || fail "gbsim ctl hdlc stall failed"
wait_for 20 grep -q 'ring: wrap inside a frame' log || fail "the ring never wrapped"
wait_for 10 grep -q 'ring: .* held bytes released' log || fail "the held frame stayed held"
# two more pings, each a request and a response in gbsim's log
n=$(_pings)
wait_for 20 _pings_past $((n + 5)) || fail "the watchdog pings stopped after the stall"
dmesg | grep -q 'watchdog: ping failed' && fail "the watchdog bit with the idle flag on"

# no idle flag: the held ping times out, the watchdog bites, the reset
# brings the network back
echo 0 >/sys/module/gb_hdlc/parameters/idle_flag_ms
n=$(grep -c 'ring: wrap inside a frame' log)
gbsim ctl -s $CTL hdlc stall || fail "gbsim ctl hdlc stall failed"
_wraps_past() { [ "$(grep -c 'ring: wrap inside a frame' log)" -gt "$1" ]; }
wait_for 20 _wraps_past "$n" || fail "the ring never wrapped again"
expect_dmesg "$b-svc: watchdog: ping failed" 20
expect_dmesg "pts[0-9]*: resetting the peer's SVC" 10
wait_for 30 test -e "$GB_DEVS/$b-2.2.1" || fail "the module did not come back after the reset"
wait_for 10 test -e $LB || fail "no gb_loopback0 after the reset"
assert_eq "$(hdlc_bus)" "$bus" "the host device after the reset"
grep -q 'SVC_STOP from the AP' log || fail "gbsim saw no SVC_STOP"
echo 16 >$LB/size
echo 10 >$LB/iteration_max
echo 2 >$LB/type
wait_file_eq 20 $LB/type 0 || fail "pings after the reset did not finish"
assert_file_eq $LB/error 0

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 sh -c "! ls $GB_DEVS | grep -q ." || fail "devices left: $(ls $GB_DEVS)"
unload_all_gb
exit 0
