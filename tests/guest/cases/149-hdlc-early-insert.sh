# Checks that module-inserted events the SVC sends between its version request and its hello (BeaglePlay's CC1352 firmware does with static node lists; gbsim --early-insert with the cc1352 personality) are held by the core and handled once hello has come: both modules enumerate, nothing is refused as out of order, and the loopback module works.
# timeout: 90
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
hdlc_setup
load_gb gb-loopback
cc1352_start --early-insert -m 2:$M/loopback.mnfs -m 3:$M/log.mnfs
wait_for 10 grep -q 'svc: module 3 inserted before hello' log ||
	fail "gbsim did not send its modules before hello"
wait_for 30 test -e "$GB_DEVS/1-2.2.1" -a -e "$GB_DEVS/1-3.3.1" ||
	fail "the modules inserted before hello did not enumerate: $(ls $GB_DEVS | tr '\n' ' ')"
# both answered with success, before the hello went out
n=$(grep -c 'svc.module_inserted rsp .*result=success\|svc.module_inserted rsp .*result=0' log)
[ "$n" -ge 2 ] || info "(gbsim's log shows $n successful module-inserted answers)"
dmesg_since_case | grep -q 'unexpected request of type' &&
	fail "the core refused a request as out of order: $(dmesg_since_case | grep -m 1 'unexpected request')"
dmesg_since_case | grep -q 'before the SVC.s hello' &&
	fail "the core refused an early insert: $(dmesg_since_case | grep -m 1 "before the SVC's hello")"

wait_for 10 test -e $LB || fail "no gb_loopback0"
echo 16 >$LB/size
echo 10 >$LB/iteration_max
echo 2 >$LB/type
wait_file_eq 20 $LB/type 0 || fail "pings did not finish"
assert_file_eq $LB/error 0

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 sh -c "! ls $GB_DEVS | grep -q ." || fail "devices left: $(ls $GB_DEVS)"
unload_all_gb
exit 0
