# Checks that gbattach notices its port hanging up, as when a USB-serial adapter is unplugged: with a module enumerated and a loopback test running over the link, the pty's master closes (gbsim exits); gbattach exits by itself with status 3 and a message saying the port went away, the host device and its tree go, and every module unloads.
# timeout: 90
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
cd "$GBTEST_TMP" || fail "no scratch directory"
hdlc_setup
load_gb gb-loopback

gbsim --pty -l log -m 2:$M/loopback.mnfs >out 2>err &
gpid=$!
on_fail() {
	cat err attach.err 2>/dev/null
	tail -n 20 log
	ls $GB_DEVS
}
wait_for 10 grep -q '^pty ' out || fail "gbsim printed no pty: $(cat err)"
pty=$(sed -n 's/^pty //p' out)

# gbattach's exit status lands in attach.rc when it ends by itself
( gbattach --foreground "$pty" >attach.out 2>attach.err; echo $? >attach.rc ) &
wait_for 30 test -e "$GB_DEVS/1-2.2.1" ||
	fail "the module did not enumerate: $(ls $GB_DEVS | tr '\n' ' ')"
wait_for 10 test -e $LB || fail "no gb_loopback0"
echo 64 >$LB/size
echo 100000 >$LB/iteration_max
echo 3 >$LB/type
wait_for 10 sh -c "[ \$(cat $LB/iteration_count) -gt 0 ]" ||
	fail "the loopback test did not start"

# the master side closes under the discipline
kill -TERM $gpid
wait $gpid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test -e attach.rc || fail "gbattach still running after its port hung up"
assert_eq "$(cat attach.rc)" 3 "gbattach's exit status after a hangup"
grep -q "^gbattach: $pty: hung up: the port went away" attach.err ||
	fail "no hangup message: $(cat attach.err)"
wait_for 15 sh -c "! ls $GB_DEVS | grep -q ." ||
	fail "devices left after the hangup: $(ls $GB_DEVS | tr '\n' ' ')"
expect_dmesg 'pts[0-9]*: Greybus link down'
unload_all_gb
exit 0
