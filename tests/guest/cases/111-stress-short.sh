# Checks insert/remove cycles of eight test modules with a random gbsim fault armed on each insertion (failed or delayed enumeration steps, short manifests), removals by unplug and eject, often mid-enumeration, while a loopback test runs on a ninth module: every step finishes within its timeout, no hung task, the loopback test sees no error, a clean insert of all eight binds afterwards, and memory is back where it was (STRESS_CYCLES, default 30; make guest-stress runs 1000).
# timeout: 400
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hardening.sh

need_tool gbsim
CYCLES=${STRESS_CYCLES:-30}
SEED=${STRESS_SEED:-$(( $(date +%s) % 100000 ))}
MF=/usr/share/greybus/manifests
M=$MF/test-vendor.mnfs
D=/sys/bus/greybus/devices
S=$GBTEST_TMP/ctl.sock
IDS="2 3 4 5 6 7 8 9"
LBI=12	# the loopback module's interface
LB=/sys/class/gb_loopback/gb_loopback0

load_gb greybus gb-vhd gb-test-protocol gb-loopback
hung_task_short

c() {	# every control command bounded
	timeout 20 /usr/bin/gbsim ctl -s "$S" "$@"
}

R=$SEED
rnd() {	# N: a number 0..N-1 in $r (an LCG: the same for the same seed)
	R=$(( (R * 1103515245 + 12345) % 2147483648 ))
	r=$(( (R / 65536) % $1 ))
}

bound() {	# IFID
	[ "$(cat $D/1-$1.$1.1/test_result 2>/dev/null)" = ok ]
}

all_bound() {
	local id
	for id in $IDS; do
		bound $id || return 1
	done
}

gone() {	# IFID
	! ls $D 2>/dev/null | grep -q "^1-$1\(\.\|$\)"
}

# the faults an insertion may meet: one enumeration step fails, is slow,
# answers short or twice (none blocks the kernel longer than its timeout)
FAULTS="none
none
none
type=control.get_manifest_size result=invalid
type=control.get_manifest short=5
type=svc.intf_activate result=invalid
type=svc.intf_device_id result=invalid
type=control.bundle_activate delay=300
type=control.connected result=invalid
type=control.get_manifest twice
type=control.version delay=200"
NF=$(echo "$FAULTS" | wc -l)

gbsim --ctl "$S" 2>gbsim.err &
pid=$!
c -w 10 status >/dev/null || fail "no control socket: $(cat gbsim.err)"
for id in $IDS; do
	c insert $id "$M" pid=0x0000000$id || fail "insert $id failed"
done
c insert $LBI $MF/loopback.mnfs || fail "insert of the loopback module failed"
wait_for 60 all_bound || fail "not all eight modules bound: $(ls $D | tr '\n' ' ')"
wait_for 20 test -e $LB/type || fail "no $LB"

# the load on the bystander: an endless synchronous transfer test
echo 0 >$LB/async
lb_patient $LB
echo 256 >$LB/size
echo 0 >$LB/iteration_max
# Memory is measured with the test stopped: its messages come and go
# from kmalloc-512 all the time, and the objects of a CPU's active slab
# count as used in /proc/slabinfo, so a running test moves that count
# by two slabs or more from one snapshot to the next.
echo 3 >$LB/type || fail "the loopback test did not start"
sleep 1
echo 0 >$LB/type || fail "the loopback test did not stop"
mem_snapshot before
echo 3 >$LB/type || fail "the loopback test did not start again"
lb0=$(cat $LB/iteration_count)

info "$CYCLES cycles, seed $SEED"
start=$(date +%s)
n_fault=0
n_eject=0
i=0
while [ $i -lt $CYCLES ]; do
	i=$((i + 1))
	# faults are kept (spent ones too) up to 256: start afresh now and then
	[ $((i % 50)) = 0 ] && { c fault clear || fail "cycle $i: fault clear failed"; }
	rnd 8
	id=$((r + 2))
	rnd 2
	if [ $r = 0 ]; then
		c remove $id >/dev/null || fail "cycle $i: remove $id failed"
	else
		c eject $id >/dev/null || fail "cycle $i: eject $id failed"
		n_eject=$((n_eject + 1))
	fi
	wait_for 20 gone $id || fail "cycle $i: module $id still there 20 s after it left: $(ls $D | grep "^1-$id" | tr '\n' ' ')"
	rnd $NF
	f=$(echo "$FAULTS" | sed -n "$((r + 1))p")
	if [ "$f" != none ]; then
		c fault add intf=$id $f once >/dev/null || fail "cycle $i: fault add intf=$id $f failed"
		n_fault=$((n_fault + 1))
	fi
	c insert $id "$M" pid=0x0000000$id || fail "cycle $i: insert $id failed"
	# the next cycle may pick this module again, mid-enumeration
	rnd 4
	usleep $((r * 100000))
done
secs=$(( $(date +%s) - start ))
lb1=$(cat $LB/iteration_count)
info "$CYCLES cycles in $secs s ($n_fault with a fault, $n_eject ejects); loopback: $((lb1 - lb0)) transfers meanwhile"

# every module once more, cleanly: all bind
c fault clear || fail "fault clear failed"
for id in $IDS; do
	c remove $id >/dev/null 2>&1
done
for id in $IDS; do
	wait_for 20 gone $id || fail "module $id still there after the last removal"
done
for id in $IDS; do
	c insert $id "$M" pid=0x0000000$id || fail "clean insert $id failed"
done
wait_for 60 all_bound || {
	for id in $IDS; do bound $id || info "module $id not bound: $(ls $D | grep "^1-$id" | tr '\n' ' ')"; done
	fail "not every module bound after the cycles"
}

# the loopback test ran all along, without an error
[ "$lb1" -gt "$lb0" ] || fail "the loopback test made no progress during the cycles"
assert_file_eq $LB/error 0
assert_file_eq $LB/requests_timedout 0
no_stuck_tasks

# the same state as before: eight modules bound, the loopback test stopped
timeout 10 sh -c "echo 0 >$LB/type" || fail "stopping the loopback test hangs or fails"
mem_snapshot after
info "memory: $(mem_report before after)"
mem_check before after $(( CYCLES * 3 / 4 ))

assert_eq "$(c status)" "svc=ready bus=1 modules=9" "gbsim status"
kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(tail -n 5 gbsim.err)"
wait_for 20 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
exit 0
