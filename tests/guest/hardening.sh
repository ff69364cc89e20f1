# SPDX-License-Identifier: GPL-2.0
# Helpers of the hardening cases 110 (gbsim fuzz) and 111 (stress), after
# lib.sh:
#   hung_task_short         report tasks blocked for 10 s (restored on exit)
#   no_stuck_tasks          fail if a task sits in D state 2 s without being
#                           scheduled, or the kernel reported a hung task
#   mem_snapshot NAME       drop caches, then NAME.slab (kmalloc caches:
#                           name, active objects, objects a slab) and
#                           NAME.mem (Slab, SUnreclaim, MemAvailable kB,
#                           loaded modules)
#   mem_report A B          one line: how the figures went from A to B
#   mem_check A B LIMIT     fail if a kmalloc cache grew by LIMIT objects or
#                           more (and by more than kmalloc_noise_slabs
#                           slabs, lib.sh), or if
#                           SUnreclaim grew by more than 8 MB + LIMIT kB;
#                           a case that counted the objects in use exactly
#                           (kmalloc_sites into A.sites, non-empty) has
#                           judged the caches itself: their active objects,
#                           which a CPU's slab inflates, are not compared

HT=/proc/sys/kernel/hung_task_timeout_secs
_ht_old=
hung_task_short() {
	[ -w $HT ] || return 0
	_ht_old=$(cat $HT)
	echo 10 >$HT
	trap '[ -n "$_ht_old" ] && echo "$_ht_old" >$HT' EXIT
}

# PID:SWITCHES of every task in D state, SWITCHES its context switches
_d_tasks() {
	local p
	for p in /proc/[0-9]*; do
		awk -v pid=${p#/proc/} '/^State:/ { s = $2 } /ctxt_switches:/ { n += $2 }
			END { if (s == "D") print pid ":" n }' $p/status 2>/dev/null
	done
}

# A task waiting for an answer (a loopback worker's synchronous
# operation) is in D state most of the time; stuck means in D state at
# both samples and not scheduled once in between.
no_stuck_tasks() {
	local first t p stuck=
	first=$(_d_tasks)
	if [ -n "$first" ]; then
		sleep 2
		for t in $(_d_tasks); do
			echo "$first" | grep -qx "$t" || continue
			p=${t%%:*}
			stuck="$stuck $(cat /proc/$p/comm 2>/dev/null)[$p]: $(head -n 3 /proc/$p/stack 2>/dev/null | tr '\n' ' ')"
		done
	fi
	[ -z "$stuck" ] || fail "tasks stuck in the kernel: $stuck"
	dmesg_since_case | grep -q 'blocked for more than' && fail "hung task reported"
	return 0
}

_meminfo() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

mem_snapshot() {
	uevent_settle 30
	echo 3 >/proc/sys/vm/drop_caches
	kmalloc_snapshot $1.slab
	echo "$(_meminfo Slab) $(_meminfo SUnreclaim) $(_meminfo MemAvailable) $(wc -l </proc/modules)" >$1.mem
}

mem_report() {
	local a b
	a=$(cat $1.mem)
	b=$(cat $2.mem)
	set -- $a $b
	echo "Slab $1 -> $5 kB ($(( $5 - $1 ))), SUnreclaim $2 -> $6 kB ($(( $6 - $2 ))), MemAvailable $3 -> $7 kB ($(( $7 - $3 ))), modules $4 -> $8"
}

_mem_grew() {	# A B LIMIT
	awk -v n=$3 -v noise=$(kmalloc_noise_slabs) 'NR == FNR { before[$1] = $2; next }
		($1 in before) {
			d = $2 - before[$1]
			if (d)
				printf "%s %d -> %d (%+d, %d a slab)\n", $1, before[$1], $2, d, $3
			if (d >= n && d > noise * $3)
				bad = bad " " $1 "(" d ")"
		}
		END { if (bad != "") { print "GREW:" bad; exit 1 } }' "$1.slab" "$2.slab" >$2.diff
}

mem_check() {
	local rc a b
	if [ -s $1.sites ]; then
		info "kmalloc caches: counted exactly by the case ($1.sites), active objects not compared"
	elif [ -s $1.slab ]; then
		if ! _mem_grew "$1" "$2" "$3"; then
			# transient allocations (deferred work, RCU) are gone
			# within seconds even on a loaded host, leaks are not
			cat $2.diff
			info "looking again for up to 10 s"
			_mem_settled() {
				sleep 2
				mem_snapshot $2
				_mem_grew "$1" "$2" "$3"
			}
			wait_for 10 _mem_settled "$1" "$2" "$3"
		fi
		rc=$?
		cat $2.diff
		[ $rc = 0 ] || fail "kmalloc caches grew: $(grep GREW $2.diff)"
	else
		info "no /proc/slabinfo: kmalloc caches not checked"
	fi
	a=$(cut -d ' ' -f 2 $1.mem)
	b=$(cut -d ' ' -f 2 $2.mem)
	[ $((b - a)) -lt $((8192 + $3)) ] || fail "unreclaimable slab grew by $((b - a)) kB"
	return 0
}
