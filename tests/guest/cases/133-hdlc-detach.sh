# Checks every way the serial link goes away or starts over: gbattach killed with modules present and a loopback test running (SVC_STOP reaches gbsim, the tree goes, gbattach exits 0), attached again (a new host device enumerates the same modules), killed with a bridged-PHY UART's /dev/ttyGB open (its reader is hung up; the link's tty and the UART's tty nest no locks, which a lockdep kernel would report), detached in the middle of enumeration, the peer resetting (a new SVC hello: the tree comes back), and the tty hung up under the discipline (gbsim closes the pty: gbattach exits by itself with status 3); in the end every module unloads.
# timeout: 200
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
CTL=$GBTEST_TMP/ctl
hdlc_setup
load_gb gb-loopback
gbsim --pty --ctl $CTL -l log -m 2:$M/loopback.mnfs -m 3:$M/log.mnfs \
	-m 4:$M/gbphy-bridge.mnfs >out 2>err &
gpid=$!
wait_for 10 grep -q '^pty ' out || fail "gbsim printed no pty: $(cat err)"
pty=$(sed -n 's/^pty //p' out)
on_fail() {
	tail -n 30 log
	ls $GB_DEVS
}

# attach: gbattach in the foreground, in the background of the case
attach() {
	gbattach --foreground "$pty" >attach.out 2>attach.err &
	apid=$!
}
detach() {
	kill -TERM $apid
	wait $apid || fail "gbattach exited with $? ($1): $(cat attach.err)"
}
# tree_up WHEN: both modules enumerated on the link's host device
_tree() {
	local b
	b=$(hdlc_bus) || return 1
	b=${b#greybus}
	test -e "$GB_DEVS/$b-2.2.1" -a -e "$GB_DEVS/$b-3.3.1"
}
tree_up() {
	wait_for 30 _tree ||
		fail "modules did not enumerate ($1): $(ls $GB_DEVS | tr '\n' ' ')"
}
# link_gone WHEN: no host device, nothing under it
link_gone() {
	wait_for 15 sh -c "! ls $GB_DEVS | grep -q ." ||
		fail "devices left ($1): $(ls $GB_DEVS | tr '\n' ' ')"
}

attach
tree_up "first attach"
wait_for 10 test -e $LB || fail "no gb_loopback0"
grep -q '^greybus1$' attach.out || fail "gbattach did not name greybus1: $(cat attach.out)"

# detach while a loopback test runs
echo 1 >$LB/async
echo 4 >$LB/outstanding_operations_max
echo 64 >$LB/size
echo 100000 >$LB/iteration_max
echo 3 >$LB/type
wait_for 10 sh -c "[ \$(cat $LB/iteration_count) -gt 0 ]" || fail "the loopback test did not get going"
detach "with a test running"
link_gone "gbattach exited"
wait_for 10 grep -q 'SVC_STOP from the AP' log || fail "gbsim saw no SVC_STOP"
expect_dmesg 'pts[0-9]*: Greybus link down'

# attach again: a new host device, the same modules
attach
tree_up "second attach"

# detach while the bridge's UART is open: the line discipline's close
# holds the link tty's locks, the UART's removal hangs its own tty up
wait_for 30 gbphy_tty >/dev/null || fail "no ttyGB on the link: $(ls /sys/class/tty | grep GB)"
t=/dev/$(gbphy_tty)
cat $t >/dev/null 2>&1 &
cpid=$!
wait_for 10 held_open $t || fail "nothing holds $t open"
detach "with $t open"
link_gone "second detach"
wait_for 10 sh -c "! kill -0 $cpid 2>/dev/null" || fail "the reader of $t was not hung up"
wait $cpid
for d in 0.05 0.2 0.4; do
	attach
	sleep $d
	detach "after $d s"
	link_gone "$d s into enumeration"
done

# the peer starts over: a new hello, the tree comes back
attach
tree_up "before the reset"
gbsim ctl -s $CTL hdlc reset || fail "gbsim ctl hdlc reset failed"
wait_for 10 grep -q 'svc: resetting the network' log || fail "gbsim did not reset"
expect_dmesg "pts[0-9]*: the peer's SVC started over: restarting the link" 10
wait_for 10 test "$(grep -c 'SVC_START from the AP' log)" -ge 7 ||
	fail "no new SVC_START after the reset: $(grep -c 'SVC_START from the AP' log)"
tree_up "after the peer's reset"

# the pty goes away under the discipline: gbsim exits, the tty hangs up
kill -TERM $gpid
wait $gpid || fail "gbsim exited with $?: $(cat err)"
link_gone "after the hangup"
wait $apid
assert_eq "$?" 3 "gbattach's exit status after the hangup"
grep -q 'hung up: the port went away' attach.err ||
	fail "gbattach did not say the port hung up: $(cat attach.err)"
unload_all_gb
exit 0
