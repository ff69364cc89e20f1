# Checks 200 module insert/remove cycles (gbsim remove, gbsim eject, the kernel's eject attribute, removal mid-enumeration): nothing left behind in sysfs or debugfs, no kmalloc growth beyond a small tolerance, no kernel warning.
# timeout: 240
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests/test-vendor.mnfs
[ -r "$M" ] || fail "no $M in the guest"
D=/sys/bus/greybus/devices
S=$GBTEST_TMP/ctl.sock
LOG=$GBTEST_TMP/gbsim.log
CYCLES=${GB_CYCLES:-200}

load_gb greybus gb-vhd gb-test-protocol

c() {
	gbsim ctl -s "$S" "$@"
}

# until N CMD...: CMD every 20 ms until it succeeds, at most N tries
until_n() {
	local n=$1
	shift
	while ! "$@"; do
		n=$((n - 1))
		[ $n -le 0 ] && return 1
		usleep 20000
	done
}

bound() {
	[ "$(cat $D/1-2.2.1/test_result 2>/dev/null)" = ok ]
}

gone() {
	[ ! -e $D/1-2 ]
}

only_host_left() {
	[ "$(ls $D | tr '\n' ' ')" = "1-svc greybus1 " ]
}

gbsim --ctl "$S" --log "$LOG" 2>gbsim.err &
pid=$!
until_n 500 test -e $D/1-svc || fail "no 1-svc: $(cat gbsim.err)"
c -w 10 status >/dev/null || fail "no control socket"

kernel_eject=yes
cycle() {	# I: one cycle of kind I % 4
	local i=$1 kind=$(($1 % 4))
	c insert 2 "$M" || fail "cycle $i: insert failed"
	case $kind in
	3)
		# removal somewhere in enumeration, from before module
		# inserted is handled to after probe
		usleep $(( (i * 7 % 50) * 1000 ))
		c remove 2 || fail "cycle $i: remove failed"
		;;
	*)
		until_n 1000 bound || fail "cycle $i: module 2 did not bind: $(ls $D | tr '\n' ' ')"
		if [ $kind = 0 ]; then
			c remove 2 || fail "cycle $i: remove failed"
		elif [ $kind = 1 ]; then
			c eject 2 || fail "cycle $i: eject failed"
		elif [ $kernel_eject = yes ] && echo 1 2>/dev/null >$D/1-2/eject; then
			:
		else
			[ $kernel_eject = yes ] && info "writing 1-2/eject failed: the kernel-eject part is skipped"
			kernel_eject=no
			c remove 2 || fail "cycle $i: remove failed"
		fi
		;;
	esac
	until_n 1000 gone || fail "cycle $i (kind $kind): 1-2 still there: $(ls $D | tr '\n' ' ')"
}

[ -e $D/1-svc ] || fail "no svc"
# warm-up: the driver loaded, every path run once
for i in 0 1 2 3; do
	cycle $i
done
uevent_settle 20
until_n 500 only_host_left || fail "warm-up left: $(ls $D | tr '\n' ' ')"
echo 3 >/proc/sys/vm/drop_caches
kmalloc_snapshot slab.before

i=4
while [ $i -lt $((CYCLES + 4)) ]; do
	cycle $i
	i=$((i + 1))
done

# the same settling as before the cycles, then the same snapshot: the
# checks below read files and would make noise of their own
uevent_settle 20
until_n 500 only_host_left || fail "left after $CYCLES cycles: $(ls $D | tr '\n' ' ')"
echo 3 >/proc/sys/vm/drop_caches
kmalloc_snapshot slab.after

# every cycle ended with the module gone from gbsim and from the kernel
assert_eq "$(c status)" "svc=ready bus=1 modules=0" "gbsim status"
conns=/sys/kernel/debug/greybus/greybus1/connections
if [ -r $conns ]; then
	left=$(grep -v '^#' $conns | awk '$2 != 0')
	[ -z "$left" ] || fail "connections left in debugfs: $left"
else
	info "no $conns"
fi

# how each kind went, from gbsim's side
n_rm=$(grep -c 'INFO    module 2 unplugged' "$LOG")
n_ej=$(grep -c 'INFO    module 2 ejected' "$LOG")
n_kej=$(grep -c 'AP>SVC  cport 0 svc.intf_eject req' "$LOG")
info "gbsim: $n_rm removals, $n_ej ejects ($n_kej asked by the kernel)"
[ $((n_rm + n_ej)) = $((CYCLES + 4)) ] || fail "gbsim saw $((n_rm + n_ej)) departures, want $((CYCLES + 4))"
[ $kernel_eject = no ] || [ "$n_kej" -ge $(( (CYCLES + 4) / 4 )) ] ||
	fail "only $n_kej intf_eject requests from the kernel"

# memory: no kmalloc cache grew by an object a cycle.  The snapshots are
# exact but for less than kmalloc_noise_slabs slabs a cache (lib.sh): that
# much growth is tolerated (a leak of one object per cycle is still caught
# in caches of 64 bytes and more).
grew() {	# BEFORE AFTER: list what grew too much in slab.diff; 1 if any
	awk -v cycles=$CYCLES -v noise=$(kmalloc_noise_slabs) 'NR == FNR { before[$1] = $2; next }
		($1 in before) {
			d = $2 - before[$1]
			if (d)
				printf "%s %d -> %d (%+d, %d a slab)\n", $1, before[$1], $2, d, $3
			if (d >= cycles * 3 / 4 && d > noise * $3)
				bad = bad " " $1 "(" d ")"
		}
		END { if (bad != "") { print "GREW:" bad; exit 1 } }' "$1" "$2" >slab.diff
}
if [ -s slab.before ]; then
	if ! grew slab.before slab.after; then
		# transient allocations are gone a moment later, leaks are not
		cat slab.diff
		info "looking again in a second"
		sleep 1
		echo 3 >/proc/sys/vm/drop_caches
		kmalloc_snapshot slab.after2
		grew slab.before slab.after2
	fi
	rc=$?
	cat slab.diff
	[ $rc = 0 ] || fail "kmalloc caches grew: $(grep GREW slab.diff)"
else
	info "no /proc/slabinfo: memory not checked"
fi

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(tail -n 5 gbsim.err)"
until_n 500 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
exit 0
