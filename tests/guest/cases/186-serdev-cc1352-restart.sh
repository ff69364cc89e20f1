# Checks the CC1352 of the arm64 guest's device tree restarting under a bound link (gbsim --personality cc1352 on the PL011's far end): its SVC starting over (a new version request and hello: `gbsim ctl hdlc reset`) makes gb-hdlc start the link again and the node enumerates afresh; the chip booting again (`gbsim ctl hdlc boot`: its firmware silent until the next SVC_START) is noticed by the SVC watchdog, whose network reset sends SVC_STOP and SVC_START, and after the firmware's first hello (5 s after a boot) the node is back; loopback traffic flows after each.
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
CTL=$GBTEST_TMP/ctl
LB=/sys/class/gb_loopback/gb_loopback0
load_gb greybus gb-hdlc gb-loopback
cc1352_sim --ctl "$CTL" -m 2:$M/loopback.mnfs
on_fail() {
	tail -n 30 log
	cat err
	loopback_on_fail
}

# pings: 10 of them, no error
pings() {
	wait_for 60 test -e $LB || fail "$1: no gb_loopback0: $(ls $GB_DEVS | tr '\n' ' ')"
	lb_patient $LB
	echo 0 >$LB/async
	echo 10 >$LB/iteration_max
	echo 2 >$LB/type
	wait_file_eq 30 $LB/type 0 || fail "$1: the pings did not finish"
	assert_file_eq $LB/iteration_count 10
	assert_file_eq $LB/error 0
}
_starts_past() { [ "$(grep -c 'SVC_START from the AP' log)" -gt "$1" ]; }
# the node's interface (its bus is the link's host device of the
# moment: a restarted link has a new one), told apart from an earlier
# one by its sysfs inode
intf_id() {
	local b
	b=$(hdlc_bus) && stat -L -c %i "$GB_DEVS/${b#greybus}-2" 2>/dev/null
}
_new_lb() { [ -e $LB ] && [ -n "$(intf_id)" ] && [ "$(intf_id)" != "$1" ]; }

pings "first enumeration"

# the SVC starts over: version and hello again
before=$(intf_id)
starts=$(grep -c 'SVC_START from the AP' log)
gbsim ctl -s "$CTL" hdlc reset || fail "gbsim ctl hdlc reset failed"
wait_for 20 _starts_past "$starts" || fail "gb-hdlc did not start the link again after the peer's new hello"
wait_for 40 _new_lb "$before" || fail "the node did not enumerate afresh after the SVC restart"
pings "after the SVC restart"

# the chip boots again: silent until STOP and START
before=$(intf_id)
starts=$(grep -c 'SVC_START from the AP' log)
gbsim ctl -s "$CTL" hdlc boot || fail "gbsim ctl hdlc boot failed"
wait_for 60 _starts_past "$starts" || fail "no SVC_START reached the rebooted chip"
grep -q 'cc1352: first start since its boot: hello in 5000 ms' log ||
	fail "gbsim did not play the boot's first hello"
wait_for 60 _new_lb "$before" || fail "the node did not come back after the chip's reboot"
pings "after the chip's reboot"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
serdev_unbind
unload_all_gb
exit 0
