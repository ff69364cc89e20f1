# Checks the AP against gbsim's fuzzer of the module side (gbsim ctl fuzz: mutated answers, unsolicited hostile messages on every connection) over six modules of different protocols while modules come and go: no kernel splat or hung task, every operation bounded, a clean insert of every module binds its driver afterwards, and no kmalloc cache grows with the number of messages.
# timeout: 150
# kmods: hid hid-generic evdev ff-memless ledtrig-timer
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hardening.sh

need_tool gbsim
# GBSIM_FUZZ_N mutated messages (make guest-fuzz sets it for the long run)
N=${GBSIM_FUZZ_N:-6000}
SEED=${GBSIM_FUZZ_SEED:-$(( $(date +%s) * 7919 % 1000000007 ))}
MF=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
S=$GBTEST_TMP/ctl.sock
# interface:manifest, one protocol family each
MODS="2:loopback 3:gbphy-bridge 4:keyboard 5:battery 6:lights 7:vibrator"

load_gb greybus gb-vhd

hung_task_short

c() {	# every control command bounded
	timeout 20 /usr/bin/gbsim ctl -s "$S" "$@"
}

bound() {	# IFID: bundle 1 has a driver
	[ -n "$(readlink $D/1-$1.$1.1/driver 2>/dev/null)" ]
}

all_bound() {
	local m
	for m in $MODS; do
		bound ${m%%:*} || return 1
	done
}

only_host_left() {
	[ "$(ls $D | tr '\n' ' ')" = "1-svc greybus1 " ]
}

insert_all() {
	local m
	for m in $MODS; do
		c insert ${m%%:*} $MF/${m#*:}.mnfs || fail "insert $m failed"
	done
}

remove_all() {
	local m
	for m in $MODS; do
		c remove ${m%%:*} 2>/dev/null
	done
}

gbsim --ctl "$S" 2>gbsim.err &
pid=$!
c -w 10 status >/dev/null || fail "no control socket: $(cat gbsim.err)"
wait_for 10 test -e $D/1-svc || fail "no 1-svc"
insert_all
wait_for 60 all_bound || fail "not all modules bound before fuzzing: $(ls $D | tr '\n' ' ')"
mem_snapshot before

# The AP's own traffic for the fuzzer to mutate the answers of: an
# endless asynchronous transfer test on the loopback module
LB=/sys/class/gb_loopback/gb_loopback0
wait_for 10 test -e $LB/type || fail "no $LB"
echo 1 >$LB/async
echo 500000 >$LB/timeout
echo 4 >$LB/outstanding_operations_max
echo 64 >$LB/size
echo 0 >$LB/iteration_max
echo 3 >$LB/type || fail "the loopback test did not start"

info "fuzzing: $N messages, seed $SEED"
c fuzz start seed=$SEED count=$N rate=30 interval=2 burst=1 || fail "fuzz start failed"
start=$(date +%s)
# While it runs, modules leave and come back (each one in turn; the
# enumeration of the new one meets the fuzzer too); the loopback module
# stays, with its test running.
set -- ${MODS#* }
churn=0
while c fuzz >fuzz.status && grep -q '^fuzz running=1' fuzz.status; do
	[ $(( $(date +%s) - start )) -lt $(( (60 + N / 100) * GB_TSCALE )) ] ||
		fail "the fuzzer is not done after $(( $(date +%s) - start )) s: $(head -n 1 fuzz.status)"
	m=$1
	shift
	set -- "$@" "$m"
	c remove ${m%%:*} >/dev/null 2>&1
	usleep 100000
	c insert ${m%%:*} $MF/${m#*:}.mnfs >/dev/null || fail "insert $m during fuzzing failed"
	churn=$((churn + 1))
	usleep 400000
done
secs=$(( $(date +%s) - start ))
timeout 10 sh -c "echo 0 >$LB/type" || fail "stopping the loopback test hangs or fails"
info "loopback under the fuzzer: $(cat $LB/iteration_count) iterations, $(cat $LB/error) errors, $(cat $LB/requests_timedout) timed out"
cat fuzz.status
sent=$(sed -n 's/^fuzz running=0 .* sent=\([0-9]*\) .*/\1/p' fuzz.status)
[ -n "$sent" ] || fail "no fuzz summary: $(cat fuzz.status)"
[ "$sent" -ge "$N" ] || fail "the fuzzer sent $sent mutated messages, wanted $N"
info "fuzz: $sent mutated messages in $secs s, $churn module re-insertions, seed $SEED"
grep -q "^fuzz running=0 seed=0x0*$(printf '%x' "$SEED") " fuzz.status ||
	fail "the status does not name seed $SEED"

# Everything leaves: bounded, nothing stays behind
remove_all
wait_for 30 only_host_left || fail "left after removing every module: $(ls $D | tr '\n' ' ')"

# A clean insert binds every driver again
insert_all
wait_for 60 all_bound || {
	for m in $MODS; do
		bound ${m%%:*} || info "module $m not bound: $(ls $D | grep "^1-${m%%:*}" | tr '\n' ' ')"
	done
	fail "not every module bound after the fuzzing"
}
assert_eq "$(c status)" "svc=ready bus=1 modules=6" "gbsim status"

no_stuck_tasks

# Memory: the same modules bound as before the fuzzing; a leak of one
# object every ten messages is caught
mem_snapshot after
info "memory: $(mem_report before after)"
mem_check before after $((N / 10))

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(tail -n 5 gbsim.err)"
wait_for 20 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
exit 0
