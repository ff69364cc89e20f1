# SPDX-License-Identifier: GPL-2.0
# Helpers for guest test cases; source it first: . /usr/lib/gbtest/lib.sh
#
# Runs under busybox ash (no bash). A case exits 0 to pass, 4 to skip
# (kselftest convention) and anything else to fail. fail/skip/assert_*
# and expect_dmesg end the case; wait_for and wait_file_eq only return
# non-zero, so a case decides what a timeout means.
#
# Environment set by the runner for every case:
#   GBTEST_CASE  case name (file name without .sh)
#   GBTEST_TMP   an empty scratch directory of this case (tmpfs)
# docs/testing.md describes the whole harness.

GBTEST_DIR=/usr/lib/gbtest
# Real programs (kmod's modprobe, client tools) over busybox's applets.
[ -r $GBTEST_DIR/commands.sh ] && . $GBTEST_DIR/commands.sh
GB_KVER=$(uname -r)
GB_EXTRA=/lib/modules/$GB_KVER/extra
: "${GBTEST_TMP:=/tmp/gbtest/scratch}"
: "${GBTEST_CASE:=interactive}"

# The kernel log lines that fail whichever case was running (grep -E).
GB_HEALTH_RE='WARNING:|BUG:|Oops|general protection|possible recursive locking|circular locking|KASAN|gbtest: kmemleak: unreferenced|UBSAN|refcount_t:|list_add corruption|list_del corruption|Call [Tt]race:|unreferenced object|inconsistent lock state|suspicious RCU'

info() {
	echo "$*"
}

# fail MSG: end the case as failed; MSG becomes the TAP reason.  A case
# that defines on_fail() gets it called first, to print what helps to
# understand the failure (counters, state); once, even if it fails.
fail() {
	echo "FAIL: $*"
	mkdir -p "$GBTEST_TMP" && echo "$*" >"$GBTEST_TMP/.reason"
	if [ -z "${_GB_IN_ON_FAIL:-}" ] && command -v on_fail >/dev/null 2>&1; then
		_GB_IN_ON_FAIL=1
		on_fail 2>&1 | sed 's/^/on_fail: /'
	fi
	exit 1
}

# skip MSG: end the case as skipped (exit 4); MSG becomes the SKIP reason.
skip() {
	echo "SKIP: $*"
	mkdir -p "$GBTEST_TMP" && echo "$*" >"$GBTEST_TMP/.reason"
	exit 4
}

# Centiseconds since boot, without forking.
_gb_now_cs() {
	local up
	read -r up _ </proc/uptime
	echo $(( ${up%.*} * 100 + 1${up#*.} - 100 ))
}

# SECONDS (integer or decimal) as centiseconds.
_gb_secs_cs() {
	local int=${1%%.*} frac=
	case $1 in
	*.*) frac=${1#*.} ;;
	esac
	frac=${frac}00
	frac=${frac%"${frac#??}"}
	echo $(( ${int:-0} * 100 + ${frac#0} ))
}

# On a slow (sanitizer) kernel tests/run passes gbtest.tscale=N; every
# case timeout and every wait_for deadline is then N times longer.
GB_TSCALE=$(sed -n 's/.*gbtest\.tscale=\([0-9]*\).*/\1/p' /proc/cmdline 2>/dev/null)
GB_TSCALE=${GB_TSCALE:-1}

# wait_for TIMEOUT CMD [ARG...]: run CMD every 0.1 s until it succeeds.
# Returns 0 as soon as it does, 1 if TIMEOUT seconds pass first (times
# GB_TSCALE). CMD may be a shell function.
wait_for() {
	local deadline
	deadline=$(( $(_gb_now_cs) + $(_gb_secs_cs "$1") * GB_TSCALE ))
	shift
	while :; do
		"$@" && return 0
		[ "$(_gb_now_cs)" -ge "$deadline" ] && return 1
		sleep 0.1
	done
}

# lb_patient LB: give the gb-loopback device LB (its class directory) an
# operation timeout that a loaded machine does not reach: 10 s times
# GB_TSCALE, or the device's timeout_max if that is less.  For tests that
# assert no error or timeout: the default 1 s is the core's, and an
# emulated module or bridge starved of CPU for a second (other guests and
# builds on the host) answers later than that.  lb_patient_us LB prints
# the value (for loopback_test -o).
lb_patient_us() {
	local us max
	us=$((10000000 * GB_TSCALE))
	max=$(cat "$1/timeout_max" 2>/dev/null) || max=$us
	[ "$us" -le "$max" ] || us=$max
	echo "$us"
}
lb_patient() {
	lb_patient_us "$1" >"$1/timeout" || fail "lb_patient: $1/timeout refused $(lb_patient_us "$1")"
}

_gb_file_is() {
	[ -r "$1" ] && [ "$(cat "$1" 2>/dev/null)" = "$2" ]
}

# wait_file_eq TIMEOUT PATH VALUE: wait until PATH reads exactly VALUE
# (trailing newline ignored). Returns 1, with a note of the last value
# seen, on timeout.
wait_file_eq() {
	wait_for "$1" _gb_file_is "$2" "$3" && return 0
	if [ -e "$2" ]; then
		echo "wait_file_eq: $2 is '$(cat "$2" 2>&1)' after $1 s, want '$3'" >&2
	else
		echo "wait_file_eq: $2 does not exist after $1 s, want '$3'" >&2
	fi
	return 1
}

# assert_eq ACTUAL EXPECTED [WHAT]: fail unless the two strings are equal.
assert_eq() {
	[ "$1" = "$2" ] || fail "${3:-assert_eq}: got '$1', want '$2'"
}

# assert_file_eq PATH VALUE: fail unless PATH reads exactly VALUE.
assert_file_eq() {
	[ -e "$1" ] || fail "assert_file_eq: $1 does not exist"
	assert_eq "$(cat "$1" 2>&1)" "$2" "$1"
}

# held_open PATH: some process has PATH open. Asking a pid of $! does
# not do: for a program of commands.sh (a function over the real one)
# $! is the shell that forked it.
held_open() {
	ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q " -> $1\$"
}

# proc_ended PID: process PID has ended: gone, or a zombie its parent
# has not reaped yet (a case's background job until it is waited for)
proc_ended() {
	[ ! -e "/proc/$1" ] || grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

# dmesg_since_case: the kernel log since this case started. The runner
# clears the syslog read position before each case; cases must not call
# 'dmesg -c' themselves.
dmesg_since_case() {
	dmesg
}

_gb_dmesg_has() {
	dmesg | grep -Eq -- "$1"
}

# expect_dmesg PATTERN [TIMEOUT]: wait up to TIMEOUT seconds (default 5)
# for a kernel log line of this case matching PATTERN (grep -E); fail
# the case if none appears.
expect_dmesg() {
	wait_for "${2:-5}" _gb_dmesg_has "$1" ||
		fail "expect_dmesg: no kernel log line matching '$1' within ${2:-5} s"
}

# export_file NAME [FILE]: hands FILE (default $GBTEST_TMP/NAME) to the
# host, which puts it at $OUT/export/CASE/NAME after the guest has ended,
# for the case's '# host:' check (docs/testing.md, "Files for the host").
# NAME: letters, digits, '.', '_', '-'. Written in base64 on the export
# channel (gbtest.export=TTY, default ttyS2) at once: call it from the
# case's own shell, not from two processes at a time.
export_file() {
	local name=$1 f=${2:-$GBTEST_TMP/$1} dev
	case $name in
	''|[!A-Za-z0-9]*|*[!A-Za-z0-9._-]*) fail "export_file: bad name '$name'" ;;
	esac
	[ -f "$f" ] && [ -r "$f" ] || fail "export_file: cannot read $f"
	dev=/dev/$(sed -n 's/.*gbtest\.export=\([a-zA-Z0-9]*\).*/\1/p' /proc/cmdline)
	[ "$dev" = /dev/ ] && dev=/dev/ttyS2
	[ -c "$dev" ] || fail "export_file: no export channel $dev"
	{
		echo "@@gbexport: begin $GBTEST_CASE $name $(wc -c <"$f")"
		base64 "$f"
		echo "@@gbexport: end $GBTEST_CASE $name"
	} >"$dev" || fail "export_file: cannot write $dev"
}

# need_tool NAME...: skip the case unless every NAME is a real program in
# the guest, not just a busybox applet (tools of the '# tools:' directive
# are packed only when the host has them).
need_tool() {
	local t p
	for t in "$@"; do
		type "$t" 2>/dev/null | grep -q function && continue
		p=$(command -v "$t" 2>/dev/null)
		case $p in
		/*) [ "$(readlink -f "$p")" != /bin/busybox ] && continue ;;
		esac
		skip "tool '$t' is not in the guest"
	done
}

# need_kmod NAME...: skip the case unless modprobe can find every module
# (loadable or built in).
need_kmod() {
	local m
	for m in "$@"; do
		modprobe -n -q "$m" 2>/dev/null || skip "kernel module '$m' is not in the guest"
	done
}

# gb_modules: names (underscore form) of every module we built, i.e.
# everything installed below /lib/modules/VER/extra.
gb_modules() {
	find "$GB_EXTRA" -name '*.ko*' 2>/dev/null |
		sed -e 's,.*/,,' -e 's,\.ko.*,,' -e 's,-,_,g' | sort -u
}

# gb_loaded: those of gb_modules that are loaded now.
gb_loaded() {
	local ours
	ours=$(gb_modules)
	[ -n "$ours" ] || return 0
	awk -v ours="$ours" 'BEGIN { n = split(ours, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		want[$1] { print $1 }' /proc/modules
}

# load_gb MOD...: modprobe each of our modules and check that the copy
# that got loaded is ours (from /lib/modules/VER/extra).
load_gb() {
	local m file
	for m in "$@"; do
		file=$(modinfo -F filename "$m" 2>/dev/null)
		case $file in
		"$GB_EXTRA"/*) ;;
		"") fail "load_gb: no module '$m' in the guest" ;;
		*) fail "load_gb: '$m' resolves to $file, not to our build" ;;
		esac
		modprobe "$m" || fail "load_gb: modprobe $m failed"
	done
}

# _gb_rmmod_bounded MODULE SECONDS: rmmod MODULE, but give up waiting
# after SECONDS: a module whose exit blocks for good (a work item that
# never ends, a reference never dropped) would otherwise hang whoever
# unloads it. On giving up, prints the stuck rmmod's kernel stack and
# returns 2; the rmmod stays behind, in the kernel.
_gb_rmmod_bounded() {
	local pid p
	# Not holding the caller's stdout, which may be a $(...) waiting for
	# EOF: rmmod is a function of commands.sh, and ash keeps a copy of
	# the old stdout in a backgrounded function it redirects; a subshell
	# redirected from outside keeps none.
	(rmmod "$1") </dev/null >/dev/null 2>&1 &
	pid=$!
	if wait_for "$2" proc_ended "$pid"; then
		wait "$pid"
		return $?
	fi
	echo "rmmod $1 has not returned after $2 s"
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = rmmod ] || continue
		echo "    rmmod[${p#/proc/}] is in state $(awk '/^State:/ { print $2 }' "$p/status" 2>/dev/null), kernel stack:"
		sed 's/^/        /' "$p/stack" 2>/dev/null
	done
	return 2
}

# _gb_unload_all [TIMEOUT]: rmmod every loaded module of ours, users
# first. A module whose reference count does not drop to zero within
# TIMEOUT seconds (default 5) is reported on stdout; returns 1 then. An
# rmmod that does not return within 30 s is reported too; returns 2 then
# (the kernel is wedged: nothing else can be unloaded).
_gb_unload_all() {
	local deadline loaded m victims
	deadline=$(( $(_gb_now_cs) + $(_gb_secs_cs "${1:-5}") ))
	while :; do
		loaded=$(gb_loaded)
		[ -z "$loaded" ] && return 0
		# Removable now: no module depends on it and nobody holds it.
		victims=$(awk -v l="$loaded" 'BEGIN { n = split(l, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
			want[$1] && $3 == 0 && ($4 == "-" || $4 == "") { print $1 }' /proc/modules)
		for m in $victims; do
			_gb_rmmod_bounded "$m" 30 || [ $? != 2 ] || return 2
		done
		[ -n "$victims" ] && continue
		if [ "$(_gb_now_cs)" -ge "$deadline" ]; then
			awk -v l="$loaded" 'BEGIN { n = split(l, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
				want[$1] { printf "module %s still in use (refcount %s, used by %s)\n", $1, $3, $4 }' /proc/modules
			return 1
		fi
		sleep 0.1
	done
}

# unload_all_gb: rmmod every loaded module of ours in reverse dependency
# order; fail the case if one stays in use for 5 s. Waits for the uevent
# handler first: a modprobe it still has queued would load a driver again
# behind our back.
unload_all_gb() {
	local why
	uevent_settle 60 || fail "unload_all_gb: uevent handler still behind after 60 s"
	why=$(_gb_unload_all 5) || fail "unload_all_gb: $(echo "$why" | head -n 1)"
}

# uevent_settle [TIMEOUT]: wait (default 5 s) until the uevent handler
# (which modprobes drivers for MODALIAS) has processed every uevent the
# kernel has sent so far. Returns 1 on timeout.
_gb_uevents_done() {
	local sent done=0
	read -r sent </sys/kernel/uevent_seqnum
	[ -r /run/gbtest/uevent.seq ] && read -r done </run/gbtest/uevent.seq
	[ "${done:-0}" -ge "$sent" ]
}
uevent_settle() {
	wait_for "${1:-5}" _gb_uevents_done
}

# kmalloc_snapshot FILE [all]: each kmalloc cache (with "all", every slab
# cache) as "name active_objects objects_per_slab object_size" in FILE
# (nothing if there is no /proc/slabinfo), for the cases that look for
# leaks and the benchmark's memory figure.  SLUB counts as active every object of
# the slabs a CPU holds: its active slab and its per-CPU partial list
# (up to cpu_partial objects: 120 for kmalloc-96 on 6.1, six slabs).
# Shrinking a cache flushes them, but the frees and allocations of each
# CPU that follow (a sysfs file opened takes a 72-byte kmalloc-96 object
# on 6.1) fill them again, and a snapshot that shrinks every cache and
# then reads /proc/slabinfo counted several slabs of free objects as
# active.  That error only ever adds, so each cache is read right after
# its own shrink, with the per-CPU partial lists off (cpu_partial 0,
# restored after), three times, and the least count is kept: never below
# the objects in use, so a leak cannot hide, and what noise is left (a
# CPU's active slab) stays under kmalloc_noise_slabs slabs.
kmalloc_snapshot() {
	local c f saved= caches
	: >"$1"
	[ -r /proc/slabinfo ] || return 0
	if [ "${2:-}" = all ]; then
		caches=$(awk 'NR > 2 { print $1 }' /proc/slabinfo | while read -r f; do
			[ -w "/sys/kernel/slab/$f/shrink" ] && echo "$f"
		done)
	else
		caches=$(cd /sys/kernel/slab && ls -d kmalloc-* 2>/dev/null)
	fi
	for c in $caches; do
		f=/sys/kernel/slab/$c/cpu_partial
		[ -w "$f" ] || continue
		saved="$saved $f=$(cat "$f")"
		echo 0 2>/dev/null >"$f"
	done
	awk 'BEGIN {
		for (r = 0; r < 3; r++)
			for (i = 1; i < ARGC; i++) {
				c = ARGV[i]
				f = "/sys/kernel/slab/" c "/shrink"
				printf "1\n" >f
				close(f)
				while ((getline l <"/proc/slabinfo") > 0) {
					split(l, w, " ")
					if (w[1] != c)
						continue
					if (!(c in n) || w[2] + 0 < n[c])
						n[c] = w[2] + 0
					per[c] = w[5]
					size[c] = w[4]
				}
				close("/proc/slabinfo")
			}
		for (i = 1; i < ARGC; i++)
			if (ARGV[i] in n)
				print ARGV[i], n[ARGV[i]], per[ARGV[i]], size[ARGV[i]]
		exit
	}' $caches >"$1"
	for f in $saved; do
		echo "${f#*=}" 2>/dev/null >"${f%=*}"
	done
}

# kmalloc_sites FILE: the objects in use in each kmalloc cache that
# slub_debug keeps the allocating site of (U), as "cache count site" lines
# in FILE, from /sys/kernel/debug/slab/CACHE/alloc_traces (nothing for a
# cache without U).  Unlike kmalloc_snapshot's active objects these are
# exact: SLUB flushes every CPU's slabs before it walks the cache and
# counts only the objects that are not free, so no slab a CPU holds adds
# noise, and a cache that grew says which call sites keep the objects.
# The first open of a debugfs file allocates its debugfs_fsdata
# (kmalloc-64 on 6.1), kept as long as the file: every file is opened
# once before any is read, or the first snapshot misses those objects.
# KASAN's quarantine holds freed objects as allocated until it is
# reduced, so on a KASAN kernel the counts are not exact: nothing then.
kmalloc_sites() {
	local d
	: >"$1"
	grep -q ' kasan_quarantine_reduce$' /proc/kallsyms 2>/dev/null && return 0
	for d in /sys/kernel/debug/slab/kmalloc-*; do
		[ -r "$d/alloc_traces" ] && : <"$d/alloc_traces"
	done
	for d in /sys/kernel/debug/slab/kmalloc-*; do
		[ -r "$d/alloc_traces" ] || continue
		awk -v c="${d##*/}" '$1 ~ /^[0-9]+$/ && NF > 1 {
			print c, $1, $2 }' "$d/alloc_traces" >>"$1"
	done
}

# kmalloc_sites_grown A B N: the caches of kmalloc_sites files A and B
# that hold N objects or more in B than in A, "cache A -> B (site +d, ...)"
# a line, the sites that gained objects first
kmalloc_sites_grown() {
	awk -v n="$3" 'NR == FNR { a[$1] += $2; s[$1 " " $3] -= $2; next }
		{ b[$1] += $2; s[$1 " " $3] += $2 }
		END {
			for (c in b) {
				if (b[c] - a[c] < n)
					continue
				l = ""
				for (k in s) {
					split(k, w, " ")
					if (w[1] == c && s[k] > 0)
						l = l (l == "" ? "" : ", ") w[2] " +" s[k]
				}
				print c, a[c] + 0, "->", b[c], "(" l ")"
			}
		}' "$1" "$2"
}

# kmalloc_noise_slabs: by how many slabs two kmalloc_snapshot's of a
# cache may differ with no object more in use: one a CPU, at least two
kmalloc_noise_slabs() {
	local n
	n=$(grep -c '^processor' /proc/cpuinfo 2>/dev/null)
	[ "${n:-0}" -ge 2 ] || n=2
	echo "$n"
}

# GB_TRANSPORT=es2: every gbsim of the case reaches the AP through the
# emulated ES2 USB bridge instead of gb-vhd (tests/guest/es2.sh); with
# GB_TRANSPORT=hdlc, over a serial link on a pty (tests/guest/hdlc.sh); with
# GB_TRANSPORT=serdev (the arm64 guest), over the UART the device tree
# gives a CC1352, gbsim playing the chip (tests/guest/serdev.sh). Set by
# es2_rerun, or for the whole suite by `make check GB_TRANSPORT=es2`
# (gbtest.transport= on the kernel command line). Only a case is
# concerned, not the runner that sources this file too; a case whose
# header says "# transport: vhd" (it drives /dev/greybus-vhd itself, or
# needs what only gb-vhd does) is skipped over another transport, one
# that says "none" (it starts no gbsim) runs as it is.
[ -n "${GB_TRANSPORT:-}" ] ||
	GB_TRANSPORT=$(sed -n 's/.*gbtest\.transport=\([a-z0-9]*\).*/\1/p' /proc/cmdline 2>/dev/null)
GB_TRANSPORT=${GB_TRANSPORT:-vhd}
case $0 in
*/cases/*.sh)
	_gb_transports=$(sed -n '/^[^#]/q; s/^#[ \t]*transport:[ \t]*//p' "$0")
	case " ${_gb_transports:-$GB_TRANSPORT} " in
	" none "|*" $GB_TRANSPORT "*) ;;
	*) skip "runs over ${_gb_transports} only, not $GB_TRANSPORT" ;;
	esac
	if [ "$GB_TRANSPORT" = es2 ] && [ "$_gb_transports" != none ]; then
		. $GBTEST_DIR/es2.sh
		es2_use
	fi
	if [ "$GB_TRANSPORT" = hdlc ] && [ "$_gb_transports" != none ]; then
		. $GBTEST_DIR/hdlc.sh
		hdlc_use
	fi
	if [ "$GB_TRANSPORT" = serdev ] && [ "$_gb_transports" != none ]; then
		. $GBTEST_DIR/serdev.sh
		serdev_use
	fi
	;;
esac
