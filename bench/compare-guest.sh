# SPDX-License-Identifier: GPL-2.0
# The side-by-side benchmark, run inside the guest by `make bench-compare`
# (tests/run --compare). The same loopback and enumeration measurements
# on Linux's own Greybus stack (greybus.ko, gb-es2.ko, gb-loopback.ko
# from the kernel source package, packed in /usr/lib/gbtest/linux-greybus)
# and on ours, both over the same emulated ES2 bridge (gbsim on
# functionfs and dummy_hcd, docs/es2.md). Both gb-es2 drivers bind
# 18d1:1eaf, so only one stack is loaded at a time: each repetition
# loads one, measures, unloads it, then does the same with the other;
# which stack goes first alternates between repetitions, so that a
# drift of the host's load does not favour one of them.
#
# The loopback figures come from Linux's loopback_test (its porcelain
# output), the enumeration from the uevents (gbbench binds) against
# gbsim's log, the same way for both. Output, for bench/compare-report:
#   R REP STACK KEY VALUE     one measurement (STACK linux or ours)
#   M KEY VALUE               facts about the guest
#   L REP STACK KEY TEXT      the raw loopback_test report, one line
#   # ...                     progress notes
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/es2.sh

[ -r /etc/gbtest/bench.conf ] && . /etc/gbtest/bench.conf
REPS=${BENCH_REPS:-5}
M=/usr/share/greybus/manifests
LINUX_KO=/usr/lib/gbtest/linux-greybus
W=/tmp/compare
mkdir -p $W
cd $W || exit 1

PING_SYNC_N=5000
PING_ASYNC_N=10000
ENUM_N=8

note() {
	echo "# $*"
}

# The uevent daemon would modprobe our gb-es2 for the bridge while
# Linux's stack is loaded (and compete with the enumeration measured):
# every module is loaded here, explicitly.
kill $(pidof gbtest-ueventd) 2>/dev/null

echo "M kernel $(uname -r)"
echo "M cpus $(nproc)"
echo "M mem_kib $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
echo "M reps $REPS"
echo "M loopback_test $(command -v loopback_test)"

need_tool gbsim gbbench loopback_test
GB_ES2_NO_HOST=1 es2_setup || fail "cannot set up the emulated ES2 bridge"

# dump_why WHAT: the end of the kernel log and of gbsim's, then fail
dump_why() {
	echo "# --- dmesg:"
	dmesg | tail -n 60 | sed 's/^/#   /'
	for f in gbsim.err gbsim.log; do
		[ -s $f ] || continue
		echo "# --- $f:"
		grep -v 'svc\.ping' $f | tail -n 40 | sed 's/^/#   /'
	done
	fail "$*"
}

# Three modules a stack: the core, the ES2 host driver, gb-loopback;
# both loopback drivers keep the latency of each operation in a kfifo,
# which must hold one entry per iteration.
KFIFO=65536
load_stack() {
	local m
	case $1 in
	linux)
		insmod $LINUX_KO/greybus.ko || dump_why "insmod Linux's greybus failed"
		insmod $LINUX_KO/gb-es2.ko || dump_why "insmod Linux's gb-es2 failed"
		insmod $LINUX_KO/gb-loopback.ko kfifo_depth=$KFIFO ||
			dump_why "insmod Linux's gb-loopback failed"
		;;
	ours)
		load_gb greybus gb-es2
		modprobe gb-loopback kfifo_depth=$KFIFO || dump_why "modprobe gb-loopback failed"
		;;
	esac
	STACK=$1
}

unload_stack() {
	local m
	for m in gb_loopback gb_es2 greybus; do
		grep -q "^$m " /proc/modules || continue
		wait_for 10 rmmod $m || dump_why "$STACK: rmmod $m failed"
	done
}

# the loopback device's sysfs directory (the same class name for both)
LB=/sys/class/gb_loopback/gb_loopback0

start_lb_gbsim() {
	gbsim --transport es2 --mtu 2048 -m 2:$M/loopback.mnfs 2>gbsim.err &
	LB_PID=$!
	wait_for 60 test -e $LB/type || dump_why "$STACK: gb_loopback0 did not appear"
}

no_gb_devices() {
	[ -z "$(ls /sys/bus/greybus/devices)" ]
}

stop_gbsim() {	# PID...
	kill "$@" 2>/dev/null
	for p in "$@"; do
		wait "$p" 2>/dev/null
	done
	wait_for 30 no_gb_devices ||
		dump_why "$STACK: devices left after gbsim exited: $(ls /sys/bus/greybus/devices | tr '\n' ' ')"
}

# field TEXT LABEL KEY: the value of KEY=... on loopback_test's LABEL line
field() {
	echo "$1" | awk -v l="$2" -v k="$3" '{ s = $0; sub(/^[ \t]*/, "", s) } index(s, l) == 1 {
		n = split($0, w, /[ \t,]+/)
		for (i = 1; i <= n; i++) if (index(w[i], k "=") == 1) { print substr(w[i], length(k) + 2); exit }
	}'
}

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# lt REP KEY loopback_test-args...: one run in porcelain mode; its
# report kept in $OUT, the seconds it took in $WALL (/proc/uptime has
# 10 ms steps: a run lasts seconds)
lt() {
	local rep=$1 key=$2 t0
	shift 2
	t0=$(uptime_s)
	OUT=$(loopback_test "$@" -p -O 600 2>&1) || dump_why "$STACK: loopback_test $*: exit $?: $OUT"
	WALL=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')
	echo "$OUT" | grep -q 'Error running test' && dump_why "$STACK: loopback_test $*: $OUT"
	echo "$OUT" | grep -q 'errors:[[:space:]]*0$' || dump_why "$STACK: loopback_test $*: errors: $OUT"
	echo "$OUT" | tr '\t\n' '  ' | sed "s/^/L $rep $STACK $key /"
	echo
}

loopback() {	# REP
	local rep=$1 out
	start_lb_gbsim
	lt "$rep" ping_sync -t ping -i $PING_SYNC_N
	echo "R $rep $STACK ping_sync_lat_avg_us $(field "$OUT" ap-latency average)"
	echo "R $rep $STACK ping_sync_lat_min_us $(field "$OUT" ap-latency min)"
	echo "R $rep $STACK ping_sync_rps $(field "$OUT" 'requests per-sec' average)"
	echo "R $rep $STACK ping_sync_wall_us $(awk -v w="$WALL" -v n=$PING_SYNC_N 'BEGIN { printf "%.1f", w * 1e6 / n }')"
	for out in 8 32; do
		lt "$rep" ping_async$out -t ping -i $PING_ASYNC_N -x -c $out -o 2000000
		echo "R $rep $STACK ping_async${out}_rps $(field "$OUT" 'requests per-sec' average)"
		echo "R $rep $STACK ping_async${out}_wall_rps $(awk -v w="$WALL" -v n=$PING_ASYNC_N 'BEGIN { printf "%.1f", n / w }')"
		echo "R $rep $STACK ping_async${out}_lat_avg_us $(field "$OUT" ap-latency average)"
	done
	stop_gbsim $LB_PID
}

# enumerate REP [KEY]: ENUM_N loopback modules on one bridge; the time
# from gbsim's first module_inserted to the last bundle bound to the
# stack's loopback driver (its name differs: Linux's is "loopback").
enumerate() {
	local rep=$1 key=${2:-enum${ENUM_N}_ms} driver args= i=0 pid t0 t1 line
	case $STACK in
	linux) driver=loopback ;;
	ours) driver=gb-loopback ;;
	esac
	while [ $i -lt $ENUM_N ]; do
		args="$args -m $((i + 2)):$M/loopback.mnfs"
		i=$((i + 1))
	done
	gbbench binds --driver $driver --count $ENUM_N --timeout 300 >binds &
	bpid=$!
	wait_for 10 grep -q ready binds || fail "gbbench binds did not start"
	# shellcheck disable=SC2086
	gbsim --transport es2 --cports 64 -l gbsim.log $args 2>gbsim.err &
	pid=$!
	wait $bpid || dump_why "$STACK: enumerating $ENUM_N modules: $(cat binds)"
	line=$(grep '^binds ' binds)
	t1=$(echo "$line" | tr ' ' '\n' | sed -n 's/^last=//p')
	t0=$(grep -m 1 'SVC>AP  cport 0 svc.module_inserted req' gbsim.log | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
	[ -n "$t0" ] || dump_why "$STACK: no module_inserted in gbsim's log"
	echo "R $rep $STACK $key $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) * 1000 }')"
	stop_gbsim $pid
}

# Where the time goes, once per stack (kprobes, so a little slower than
# the figures above): the AP's bulk OUT submits (S: a request or a
# response leaving the stack) and the bulk IN data completions (R: a
# message the bridge delivers). With one vCPU the two sides take turns:
# the time up to an S is the stack's (it was producing that message),
# the time up to an R the bridge's (dummy_hcd with its 125 us microframe
# timer, functionfs, gbsim's threads and event loop: the same for both
# stacks). For a sync ping this is R - S for the bridge and S' - R for
# the stack: the completion, the core's receive path, waking the
# loopback thread, its accounting, the next operation and its submit.
# The pipe is at offset 80 of struct urb in this kernel (no randstruct).
T=/sys/kernel/tracing
trace_on() {
	echo mono >$T/trace_clock
	echo 16384 >$T/buffer_size_kb
	echo 'p:gbcmp/submit usb_submit_urb pipe=+80(%di):u32' >>$T/kprobe_events &&
		echo 'p:gbcmp/giveback usb_hcd_giveback_urb pipe=+80(%si):u32' >>$T/kprobe_events ||
		return 1
	echo >$T/trace
	echo 1 >$T/events/gbcmp/enable
}

trace_off() {	# FILE
	echo 0 >$T/events/gbcmp/enable
	cat $T/trace >"$1"
	echo >$T/trace
	echo '-:gbcmp/submit' >>$T/kprobe_events
	echo '-:gbcmp/giveback' >>$T/kprobe_events
}

# trace_parts FILE: "BRIDGE_MEDIAN STACK_MEDIAN CYCLES STACK_US BRIDGE_US
# SUBMITS" from a trace: the medians of the S -> R and R -> S' spans of
# one-at-a-time traffic, and the sums of the spans ending in S and in R
trace_parts() {
	# pipe: bits 30-31 type (3 bulk), 15-18 endpoint, 7 direction (in)
	awk '/ submit: / || / giveback: / {
		t = ""; p = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(/:$/, "", t) }
			if ($i ~ /^pipe=/) { p = substr($i, 6) + 0 }
		}
		if (t == "" || int(p / 1073741824) != 3) next
		dir_in = int(p / 128) % 2; ep = int(p / 32768) % 16
		if (/ submit: / && !dir_in) {
			if (r != "" && s != "") host[++nh] = (t - r) * 1e6
			s = t; r = ""
			if (last != "") stack += (t - last) * 1e6
			last = t; ns++
		} else if (/ giveback: / && dir_in && ep == 1) {
			if (s != "" && r == "") { r = t; bridge[++nb] = (t - s) * 1e6 }
			if (last != "") brsum += (t - last) * 1e6
			last = t
		}
	}
	function med(a, n,   i, j, x) {
		for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		return n ? a[int((n + 1) / 2)] : "?"
	}
	END { printf "%s %s %d %.1f %.1f %d\n", med(bridge, nb), med(host, nh), nh, stack, brsum, ns }' "$1"
}

breakdown() {
	local b h n st br ns
	trace_on || { note "no kprobe events: no breakdown"; return 0; }
	start_lb_gbsim
	lt 0 breakdown -t ping -i 2000
	trace_off bd.trace
	trace_parts bd.trace >bd.out
	read -r b h n st br ns <bd.out
	[ "$n" -gt 100 ] || { note "breakdown: only $n cycles in the trace:"; head -n 20 bd.trace | sed 's/^/#   /'; }
	echo "R 1 $STACK breakdown_bridge_us $b"
	echo "R 1 $STACK breakdown_stack_us $h"
	echo "M breakdown_cycles_$STACK $n"

	# an async window: the stack's and the bridge's time per operation
	trace_on || return 0
	lt 0 breakdown_async -t ping -i 2000 -x -c 32 -o 2000000
	trace_off bda.trace
	stop_gbsim $LB_PID
	trace_parts bda.trace >bda.out
	read -r b h n st br ns <bda.out
	echo "R 1 $STACK breakdown_async32_stack_us $(awk -v a="$st" -v n="$ns" 'BEGIN { if (n) printf "%.2f", a / n }')"
	echo "R 1 $STACK breakdown_async32_bridge_us $(awk -v a="$br" -v n="$ns" 'BEGIN { if (n) printf "%.2f", a / n }')"

	# enumeration: the stack's and the bridge's time over all modules
	trace_on || return 0
	enumerate 1 enum${ENUM_N}_traced_ms
	trace_off bde.trace
	trace_parts bde.trace >bde.out
	read -r b h n st br ns <bde.out
	echo "R 1 $STACK breakdown_enum${ENUM_N}_stack_ms $(awk -v a="$st" 'BEGIN { printf "%.2f", a / 1000 }')"
	echo "R 1 $STACK breakdown_enum${ENUM_N}_bridge_ms $(awk -v a="$br" 'BEGIN { printf "%.2f", a / 1000 }')"
	echo "M breakdown_enum_submits_$STACK $ns"
}

# What each stack asks of the bridge and the module during the
# enumeration of one repetition: operations and bridge events in
# gbsim's log, per type
enum_histogram() {
	sed -n 's/^\[[ 0-9.]*\] *//p' gbsim.log | awk -v st="$STACK" -v n=$ENUM_N '
		$1 ~ /^AP>(SVC|MOD)$/ { for (i = 2; i < NF; i++) if ($i ~ /\./ && $(i + 1) == "req") { c["op " $i]++; break } }
		$1 == "EVENT" { k = $0; sub(/^EVENT */, "", k); gsub(/[0-9]+/, "N", k); sub(/ [a-z_]+=.*/, "", k); c["event " k]++ }
		END { for (k in c) printf "H %s %s\t%.1f\n", st, k, c[k] / n }'
}

rep=1
while [ $rep -le "$REPS" ]; do
	if [ $((rep % 2)) = 1 ]; then
		order="linux ours"
	else
		order="ours linux"
	fi
	for s in $order; do
		note "repetition $rep of $REPS: $s"
		load_stack $s
		loopback $rep
		enumerate $rep
		if [ $rep = 1 ]; then
			enum_histogram
			breakdown
		fi
		unload_stack
	done
	rep=$((rep + 1))
done

echo "# done"
why=$(_gb_unload_all 10) || fail "$why"
exit 0
