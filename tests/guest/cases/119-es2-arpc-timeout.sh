# Checks ARPCs the emulated ES2 bridge never answers (gbsim's es2 arpc_silent): at an insertion the AP's wait for the first one ends by its timeout (one kernel log line with -110, ETIMEDOUT), that interface fails to enable and is not enumerated and its removal is clean; with the answers back the same module enumerates and its loopback works; an unanswered ARPC in a removal delays it by the 1 s timeout but the removal completes; no hang, no warning, the bystander keeps working, every module unloads.
# timeout: 180
# kmods: configfs libcomposite usb_f_fs dummy_hcd
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/es2.sh

need_tool gbsim
need_kmod configfs libcomposite usb_f_fs dummy_hcd
M=/usr/share/greybus/manifests
DEV=/sys/bus/greybus/devices
S=$GBTEST_TMP/ctl.sock
TIMEDOUT='(arpc 0x[0-9a-f]+|quiesce) failed: -110'
c() {
	gbsim ctl -s "$S" "$@"
}
n_timedout() {
	dmesg_since_case | grep -cE "$TIMEDOUT"
}
# lb_ok N: a short synchronous loopback test on gb_loopbackN passes
lb_ok() {
	local lb=/sys/class/gb_loopback/gb_loopback$1
	lb_patient $lb
	echo 0 >$lb/async
	echo 0 >$lb/size
	echo 5 >$lb/iteration_max
	echo 2 >$lb/type || fail "gb_loopback$1: type refused"
	wait_file_eq 60 $lb/type 0 || fail "gb_loopback$1: the test did not finish"
	assert_file_eq $lb/iteration_count 5
	assert_file_eq $lb/error 0
}
# the loopback device of interface $1
lb_of() {
	ls -d $DEV/1-$1.*/gb_loopback/gb_loopback* 2>/dev/null | sed 's/.*gb_loopback//'
}
# has_lb IFID: interface IFID has its loopback device (looked at each try)
has_lb() {
	[ -n "$(lb_of $1)" ]
}

es2_setup || fail "cannot set up the ES2 gadget"
load_gb greybus gb-es2 gb-loopback
gbsim --transport es2 --ctl "$S" -l log -m 2:$M/loopback.mnfs 2>err &
pid=$!
wait_for 60 has_lb 2 || fail "no bystander loopback: $(cat err) $(tail -n 5 log)"
BY=$(lb_of 2)

# 1. the first ARPC of an insertion goes unanswered
c es2 set arpc_silent=1 >/dev/null || fail "es2 set refused"
c insert 3 $M/loopback.mnfs >/dev/null || fail "insert 3"
expect_dmesg "$TIMEDOUT" 20
grep -q 'es2: arpc type 0x[0-9a-f]* id [0-9]* left unanswered' log ||
	fail "gbsim did not withhold an answer: $(grep 'es2: arpc' log | tail -n 3)"
sleep 2
has_lb 3 && fail "interface 3 enumerated although its ARPC timed out"
assert_eq "$(n_timedout)" 1 "ARPC timeouts after the insertion"
expect_dmesg '1-3: failed to enable interface 3: -110'
info "insertion: $(dmesg_since_case | grep -E '1-3|-110' | head -n 4 | tr '\n' ' ')"
c remove 3 >/dev/null || fail "remove 3"
wait_for 20 test ! -e $DEV/1-3 || fail "interface 3 still there after its removal"
lb_ok $BY

# 2. answers back: the same module enumerates and works
c insert 3 $M/loopback.mnfs >/dev/null || fail "insert 3 again"
wait_for 60 has_lb 3 || fail "interface 3 did not enumerate with the answers back"
lb_ok $(lb_of 3)

# 3. the first ARPC of a removal goes unanswered: the removal waits for
# its timeout and goes on
c es2 set arpc_silent=1 >/dev/null || fail "es2 set refused"
t0=$(cut -d' ' -f1 /proc/uptime)
c remove 3 >/dev/null || fail "remove 3 (silent)"
wait_for 30 test ! -e $DEV/1-3 || fail "interface 3 still there after a removal with a silent ARPC"
t1=$(cut -d' ' -f1 /proc/uptime)
took=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
info "removal with one ARPC unanswered took $took s"
# the ARPC's timeout is 1 s: the removal waited for it, then went on
echo "$took" | awk '{ exit !($1 >= 1.0) }' || fail "the removal did not wait for the ARPC ($took s)"
expect_dmesg "$TIMEDOUT" 10
assert_eq "$(n_timedout)" 2 "ARPC timeouts after the removal"
c es2 set defaults >/dev/null
lb_ok $BY
dmesg_since_case | grep -q 'still not complete after cancel' && fail "an operation outlived its cancel"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 20 test ! -e $DEV/greybus1 || fail "greybus1 still there after gbsim exited"
unload_all_gb
exit 0
