# Checks the AP against gbsim's fuzzer of the module side (gbsim ctl fuzz: mutated answers, unsolicited hostile messages on every connection) over six modules of different protocols while modules come and go: no kernel splat or hung task, every operation bounded, a clean insert of every module binds its driver afterwards, and no kmalloc cache grows with the number of messages.
# timeout: 150
# kmods: hid hid-generic evdev ff-memless ledtrig-timer
. /usr/lib/gbtest/lib.sh

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

# A task blocked for 10 s is reported (and fails the case through the
# kernel log scan); the default 120 s would outlast the case.
HT=/proc/sys/kernel/hung_task_timeout_secs
ht_old=
if [ -w $HT ]; then
	ht_old=$(cat $HT)
	echo 10 >$HT
fi
restore() {
	[ -n "$ht_old" ] && echo "$ht_old" >$HT
}
trap restore EXIT

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

slabs() {
	[ -r /proc/slabinfo ] || return 0
	for f in /sys/kernel/slab/kmalloc-*/shrink; do
		echo 1 2>/dev/null >"$f"
	done
	awk '$1 ~ /^kmalloc-/ { print $1, $2, $5 }' /proc/slabinfo
}

meminfo() {	# KEY: its kB
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

settle() {
	uevent_settle 30
	echo 3 >/proc/sys/vm/drop_caches
}

gbsim --ctl "$S" 2>gbsim.err &
pid=$!
c -w 10 status >/dev/null || fail "no control socket: $(cat gbsim.err)"
wait_for 10 test -e $D/1-svc || fail "no 1-svc"
insert_all
wait_for 60 all_bound || fail "not all modules bound before fuzzing: $(ls $D | tr '\n' ' ')"
settle
slabs >slab.before
slab0=$(meminfo Slab)
sunr0=$(meminfo SUnreclaim)
avail0=$(meminfo MemAvailable)

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
	[ $(( $(date +%s) - start )) -lt $(( 60 + N / 100 )) ] ||
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

# No task stuck in the kernel
stuck=
for p in /proc/[0-9]*; do
	[ "$(awk '/^State:/ { print $2 }' $p/status 2>/dev/null)" = D ] &&
		stuck="$stuck $(cat $p/comm)[${p#/proc/}]"
done
[ -z "$stuck" ] || { sleep 2; info "tasks in D state:$stuck (looking again)"; }
stuck=
for p in /proc/[0-9]*; do
	[ "$(awk '/^State:/ { print $2 }' $p/status 2>/dev/null)" = D ] &&
		stuck="$stuck $(cat $p/comm)[${p#/proc/}]: $(head -n 3 $p/stack 2>/dev/null | tr '\n' ' ')"
done
[ -z "$stuck" ] || fail "tasks stuck in the kernel:$stuck"
dmesg_since_case | grep -q 'blocked for more than' && fail "hung task reported"

# Memory: the same modules bound as before the fuzzing
settle
slabs >slab.after
slab1=$(meminfo Slab)
sunr1=$(meminfo SUnreclaim)
avail1=$(meminfo MemAvailable)
info "memory: Slab $slab0 -> $slab1 kB, SUnreclaim $sunr0 -> $sunr1 kB, MemAvailable $avail0 -> $avail1 kB"
# a leak of one object every ten messages is caught; two slabs of noise
grew() {
	awk -v n=$N 'NR == FNR { before[$1] = $2; next }
		($1 in before) {
			d = $2 - before[$1]
			if (d)
				printf "%s %d -> %d (%+d, %d a slab)\n", $1, before[$1], $2, d, $3
			if (d >= n / 10 && d > 2 * $3)
				bad = bad " " $1 "(" d ")"
		}
		END { if (bad != "") { print "GREW:" bad; exit 1 } }' "$1" "$2" >slab.diff
}
if [ -s slab.before ]; then
	if ! grew slab.before slab.after; then
		cat slab.diff
		info "looking again in 2 s"
		sleep 2
		settle
		slabs >slab.after
		grew slab.before slab.after
	fi
	rc=$?
	cat slab.diff
	[ $rc = 0 ] || fail "kmalloc caches grew: $(grep GREW slab.diff)"
fi
[ $((sunr1 - sunr0)) -lt $((8192 + N / 10)) ] ||
	fail "unreclaimable slab grew by $((sunr1 - sunr0)) kB"

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(tail -n 5 gbsim.err)"
wait_for 20 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
exit 0
