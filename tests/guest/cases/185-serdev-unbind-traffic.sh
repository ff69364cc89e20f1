# Checks the serdev link going away under traffic on the arm64 guest: with gb-loopback transfers running over the PL011 to gbsim's CC1352, unbinding gb-hdlc from the device-tree node removes the tree (SVC_STOP reaches the chip, the loopback device goes) and binding it again enumerates afresh; then gb-hdlc itself is removed with transfers running (the module unloads, the tree goes), and loading it binds the node again by itself and the traffic flows. No kernel warning anywhere.
# timeout: 150
# transport: none
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh
. /usr/lib/gbtest/serdev.sh
. /usr/lib/gbtest/hdlc.sh

serdev_here
need_tool gbsim
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
load_gb greybus gb-hdlc gb-loopback
cc1352_sim -m 2:$M/loopback.mnfs
on_fail() {
	tail -n 30 log
	cat err
	loopback_on_fail
}

# traffic: async transfers, many of them, left running
traffic() {
	wait_for 40 test -e $LB || fail "$1: no gb_loopback0: $(ls $GB_DEVS | tr '\n' ' ')"
	lb_patient $LB
	echo 200 >$LB/size
	echo 1 >$LB/async
	echo 4 >$LB/outstanding_operations_max
	echo 100000 >$LB/iteration_max
	echo 3 >$LB/type
	wait_for 20 sh -c "[ \$(cat $LB/iteration_count) -ge 5 ]" ||
		fail "$1: the transfers do not run"
}
_stops_past() { [ "$(grep -c 'SVC_STOP from the AP' log)" -gt "$1" ]; }

traffic "first bind"
stops=$(grep -c 'SVC_STOP from the AP' log)
serdev_unbind
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after unbind"
wait_for 10 sh -c "! ls $GB_DEVS | grep -q ." || fail "devices left after unbind: $(ls $GB_DEVS)"
wait_for 10 _stops_past "$stops" || fail "no SVC_STOP reached the chip at unbind"
serdev_bind
traffic "bound again"

# the module goes, traffic running
out=$(_gb_rmmod_bounded gb_hdlc 30) || fail "rmmod gb-hdlc with traffic running failed: $out"
grep -q '^gb_hdlc ' /proc/modules && fail "gb-hdlc still loaded"
wait_for 10 sh -c "! ls $GB_DEVS | grep -q ." || fail "devices left after rmmod: $(ls $GB_DEVS)"
modprobe gb-hdlc || fail "modprobe gb-hdlc failed"
wait_for 10 serdev_bound || fail "loading gb-hdlc did not bind the node"
traffic "module loaded again"
echo 0 >$LB/type

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
serdev_unbind
unload_all_gb
exit 0
