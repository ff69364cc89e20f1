# Checks eight modules on one host (four from the command line, four inserted at run time): all enumerate with distinct device ids, each bundle gets gb-test-protocol through autoload, and they tear down by remove, eject, the kernel's eject and gbsim's exit.
# timeout: 90
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests/test-vendor.mnfs
[ -r "$M" ] || fail "no $M in the guest"
D=/sys/bus/greybus/devices
S=$GBTEST_TMP/ctl.sock
LOG=$GBTEST_TMP/gbsim.log
IDS="2 3 4 5 6 7 8 9"

load_gb greybus gb-vhd
grep -q '^gb_test_protocol ' /proc/modules && fail "gb-test-protocol loaded before any bundle appeared"

c() {
	gbsim ctl -s "$S" "$@"
}

bound() {	# IFID
	[ "$(cat $D/1-$1.$1.1/test_result 2>/dev/null)" = ok ] &&
		[ "$(basename "$(readlink $D/1-$1.$1.1/driver)")" = gb-test-protocol ]
}

all_bound() {
	local id
	for id in $IDS; do
		bound $id || return 1
	done
}

gone() {	# IFID
	! ls $D | grep -q "^1-$1\(\.\|$\)"
}

gbsim --ctl "$S" --log "$LOG" \
	-m 2:$M -m 3:$M,vid=0x00000126,pid=0x00000003 -m 4:$M -m 5:$M \
	2>gbsim.err &
pid=$!
for id in 6 7 8 9; do
	c -w 10 insert $id "$M" pid=0x0000000$id || fail "insert $id failed: $(cat gbsim.err)"
done
wait_for 60 all_bound || {
	for id in $IDS; do bound $id || info "module $id not bound: $(ls $D | grep "^1-$id" | tr '\n' ' ')"; done
	fail "not all eight modules bound"
}
grep -q '^gb_test_protocol ' /proc/modules || fail "gb-test-protocol is bound but not loaded"
assert_eq "$(c status)" "svc=ready bus=1 modules=8" "status"
[ "$(ls $D | grep -c '^1-[0-9]*\.[0-9]*\.1$')" = 8 ] || fail "not eight bundles: $(ls $D | tr '\n' ' ')"
c list >list || fail "list failed"
[ "$(grep -c '^module [0-9]* intfs=1 state=inserted ' list)" = 8 ] || fail "list: $(cat list)"
ndev=$(sed -n 's/^  intf [0-9]* active=1 device_id=\([0-9]*\) .*/\1/p' list | sort -u | grep -c .)
assert_eq "$ndev" 8 "distinct device ids of active interfaces"
assert_file_eq $D/1-3.3/product_id 0x00000003
assert_file_eq $D/1-7.7/product_id 0x00000007
grep -q 'svc.svc_hello req' "$LOG" || fail "log: no hello"
[ "$(grep -c 'SVC>AP  cport 0 svc.module_inserted req' "$LOG")" = 8 ] || fail "log: not eight module_inserted"

# tear down by every way there is
c remove 3 || fail "remove 3 failed"
c eject 6 || fail "eject 6 failed"
if ! echo 1 2>/dev/null >$D/1-8/eject; then
	info "the kernel's eject is not writable: module 8 is removed instead"
	c remove 8 || fail "remove 8 failed"
fi
wait_for 20 gone 3 || fail "module 3 still there"
wait_for 20 gone 6 || fail "module 6 still there"
wait_for 20 gone 8 || fail "module 8 still there"
for id in 2 4 5 7 9; do
	bound $id || fail "module $id lost its driver when others left"
done
assert_eq "$(c status)" "svc=ready bus=1 modules=5" "status after three left"

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(tail -n 5 gbsim.err)"
tree_gone() {
	[ -z "$(ls $D)" ]
}
wait_for 20 tree_gone || fail "left after gbsim exited: $(ls $D | tr '\n' ' ')"
[ -e /sys/kernel/debug/greybus/greybus1 ] && fail "debugfs greybus1 left"
exit 0
