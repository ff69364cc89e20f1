# SPDX-License-Identifier: GPL-2.0
# The benchmark, run inside the guest by 'make bench' (tests/run --bench).
# Prints one line per measurement,
#   R REP KEY VALUE
# plus "M KEY VALUE" facts about the guest and "# ..." progress notes;
# bench/report turns them into the table. docs/performance.md explains
# every measurement.
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

[ -r /etc/gbtest/bench.conf ] && . /etc/gbtest/bench.conf
REPS=${BENCH_REPS:-5}
# BENCH_ONLY: the parts to run (tcp tls loopback sdio enum breakdown hdlc
# profile), blank-separated; all but profile when empty
ONLY=${BENCH_ONLY:-}
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
W=/tmp/bench
mkdir -p $W
cd $W || exit 1

note() {
	echo "# $*"
}

# part NAME: whether part NAME runs
part() {
	[ -z "$ONLY" ] && [ "$1" != profile ] && return 0
	case " $ONLY " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# The netlink uevent daemon of the test guest forks a modprobe per
# event, which would compete with the enumeration being measured: the
# drivers are loaded here instead.
kill $(pidof gbtest-ueventd) 2>/dev/null

echo "M kernel $(uname -r)"
echo "M cpus $(nproc)"
echo "M mem_kib $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
echo "M reps $REPS"
[ -n "$ONLY" ] && echo "M only $ONLY"

load_gb greybus gb-vhd gb-test-protocol gb-gbphy gb-sdio
modprobe mmc_block || fail "modprobe mmc_block failed"
. /usr/lib/gbtest/gbphy.sh
modprobe gb-loopback kfifo_depth=65536 || fail "modprobe gb-loopback failed"

# BENCH_MONITOR=1: a kernel-monitor reader (docs/gbmon.md) drains every
# message throughout, so that a run with it against one without gives
# the monitor's cost per message
if [ -n "${BENCH_MONITOR:-}" ]; then
	monread /sys/kernel/debug/greybus/monitor >/dev/null &
	MON_PID=$!
	echo "M monitor_reader 1"
fi

# kv KEY LINE: the value of KEY=VALUE in LINE
kv() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

start_lb_gbsim() {	# [GBSIM_LOOPBACK knobs]
	GBSIM_LOOPBACK=${1:-} gbsim --mtu 4096 -m 2:$M/loopback.mnfs 2>gbsim.err &
	LB_PID=$!
	wait_for 60 test -e $LB/type || fail "gb_loopback0 did not appear: $(cat gbsim.err)"
}

stop_gbsim() {	# PID...
	kill "$@" 2>/dev/null
	for p in "$@"; do
		wait "$p" 2>/dev/null
	done
	wait_for 30 test -z "$(ls /sys/bus/greybus/devices)" ||
		fail "devices left after gbsim exited: $(ls /sys/bus/greybus/devices | tr '\n' ' ')"
}

# lb REP KEY gbbench-loopback-args...: one test, its line kept as $LINE
lb() {
	local rep=$1 key=$2
	shift 2
	LINE=$(gbbench loopback -d $LB "$@") || fail "gbbench loopback $*: $LINE"
	[ "$(kv errors "$LINE")" = 0 ] || fail "gbbench loopback $*: errors: $LINE"
	echo "L $rep $key $LINE"
}

# echo_raw REP KEY SIZE [--two-process]: the transport's own round trip
# (with a second process answering: the same crossing between processes
# as a Greybus operation, without the Greybus layers)
echo_raw() {
	local line
	line=$(vhdtest echo --count 2000 --warmup 50 --size "$3" ${4:+"$4"}) ||
		fail "vhdtest echo --size $3 $4 failed"
	echo "L $1 $2 $line"
	echo "R $1 $2_min_us $(kv min_us "$line")"
	echo "R $1 $2_median_us $(kv median_us "$line")"
	echo "R $1 $2_p99_us $(kv p99_us "$line")"
}

slab_kib() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '/^Slab:/ { print $2 }' /proc/meminfo
}

# used_snapshot FILE: the objects in use of every slab cache, as exactly
# as lib.sh's kmalloc_snapshot can count them ("name active per_slab size")
used_snapshot() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	kmalloc_snapshot "$1" all
}

# used_kib BEFORE AFTER: KiB more in objects in use in AFTER
used_kib() {
	awk 'NR == FNR { b += $2 * $4; next } { a += $2 * $4 } END { printf "%.1f", (a - b) / 1024 }' "$1" "$2"
}

# the caches whose objects in use grew most from used.before to
# used.after (enumerate's files of the 64 loopback modules), per module
slab_growth() {	# N
	awk -v n="$1" 'NR == FNR { b[$1] = $2 * $4; next }
		{ d = $2 * $4 - b[$1]; if (d > 0) printf "%s %.2f\n", $1, d / 1024 / n }' used.64.before used.64.after |
		sort -k2 -n -r | head -n 12 | while read -r c k; do
			echo "S $c $k"
		done
}

# maps_idle: no module connection (interface id not 0: the SVC's is
# pinged by the watchdog) of any host device holds an operation id map
# (debugfs id_chunks, the 13th field, 0)
maps_idle() {
	awk '!/^#/ && $3 !~ /^0:/ && $13 != "0" { busy = 1 } END { exit busy }' \
		/sys/kernel/debug/greybus/*/connections
}

SIZES="0 128 512 1024 2048"
ENUM_NS="1 8 32 64"
PER_HOST=16

# enumerate REP N [MANIFEST DRIVER KEY]: N modules (loopback ones bound
# to gb-loopback by default), PER_HOST per host device (a UniPro network
# has device ids 2..31 only), the hosts one after another. Time from each
# host's first module_inserted to its last bundle bound, summed; slab
# growth with all N modules idle.
enumerate() {
	local rep=$1 n=$2 left=$2 h=0 m i args pids= span_us=0 s0 s1 t0 t1 line
	local mnfs=${3:-loopback} driver=${4:-gb-loopback} key=${5:-enum}
	local used=used.$n
	[ "$key" = enum ] || used=used.$key.$n
	used_snapshot $used.before
	s0=$(slab_kib)
	while [ "$left" -gt 0 ]; do
		m=$left
		[ "$m" -gt $PER_HOST ] && m=$PER_HOST
		args=
		i=0
		while [ $i -lt "$m" ]; do
			args="$args -m $((i + 2)):$M/$mnfs.mnfs"
			i=$((i + 1))
		done
		gbbench binds --driver "$driver" --count "$m" --timeout 300 >binds.$h &
		bpid=$!
		wait_for 10 grep -q ready binds.$h || fail "gbbench binds did not start"
		# shellcheck disable=SC2086
		gbsim --cports 64 -l enum.$h.log $args 2>gbsim.$h.err &
		pids="$pids $!"
		wait $bpid || fail "enumerating $m modules: $(cat binds.$h) $(tail -n 3 gbsim.$h.err)"
		line=$(grep '^binds ' binds.$h)
		t1=$(kv last "$line")
		t0=$(grep -m 1 'SVC>AP  cport 0 svc.module_inserted req' enum.$h.log | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
		[ -n "$t0" ] || fail "no module_inserted in gbsim's log"
		span_us=$(awk -v a="$t0" -v b="$t1" -v s="$span_us" 'BEGIN { printf "%d", s + (b - a) * 1e6 }')
		left=$((left - m))
		h=$((h + 1))
	done
	# Idle for good: past the bundles' and interfaces' autosuspend (2 and
	# 3 s after their last use; suspending them sends control operations),
	# then each module connection frees its operation id map at the first
	# time-out scan after its last operation (docs/performance.md).  A
	# sleep on the guest's clock: reading every power/runtime_status
	# instead would add sysfs inodes to what is measured.
	sleep 4
	wait_for 60 maps_idle || fail "module connections still hold id maps: $(grep -h -v '^#' /sys/kernel/debug/greybus/*/connections | tr '\n' ';')"
	used_snapshot $used.after
	s1=$(slab_kib)
	if [ "$n" = 1 ] && [ "$rep" = 1 ]; then
		# kernfs nodes (sysfs directories, files, links) of one module
		echo "M sysfs_nodes_${key}_module $(find "$(readlink -f /sys/bus/greybus/devices/1-2)" | wc -l)"
	fi
	# shellcheck disable=SC2086
	stop_gbsim $pids
	echo "R $rep ${key}_${n}_total_ms $(awk -v u="$span_us" 'BEGIN { printf "%.2f", u / 1000 }')"
	echo "R $rep ${key}_${n}_per_module_ms $(awk -v u="$span_us" -v n="$n" 'BEGIN { printf "%.3f", u / 1000 / n }')"
	echo "R $rep ${key}_${n}_hosts $h"
	echo "R $rep mem_${key}_${n}_per_module_kib $(awk -v a="$s0" -v b="$s1" -v n="$n" 'BEGIN { printf "%.1f", (b - a) / n }')"
	echo "R $rep used_${key}_${n}_per_module_kib $(awk -v k="$(used_kib $used.before $used.after)" -v n="$n" 'BEGIN { printf "%.2f", k / n }')"
}

# TCP through gbnet (docs/gbnet.md): gbsim nodes on 127.0.0.1, the
# first at port 4242, and one gbnet in front of them; beside a raw TCP
# echo (tcpecho) of the same bytes: CPort prefix + message
TCP_SIZES="0 512 2048"
TCP_ENUM_NS="1 8 28"

echo_tcp() {	# REP KEY SIZE
	local line
	line=$(tcpecho ping 127.0.0.1 5000 "$3" 2000) || fail "tcpecho ping $3 failed"
	echo "L $1 $2 $line"
	echo "R $1 $2_median_us $(kv median_us "$line")"
	echo "R $1 $2_p99_us $(kv p99_us "$line")"
}

# tcp_enumerate REP N: N loopback nodes (one gbsim, ports 4242..) behind
# one gbnet: from gbnet's first module_inserted to the last bundle bound
tcp_enumerate() {
	local rep=$1 n=$2 i=0 args= nodes= line t0 t1 npid gpid
	while [ $i -lt "$n" ]; do
		args="$args -m $((i + 2)):$M/loopback.mnfs"
		nodes="$nodes --node 127.0.0.1:$((4242 + i))"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	gbsim --node tcp:127.0.0.1:4242 $args 2>node.err &
	npid=$!
	gbbench binds --driver gb-loopback --count "$n" --timeout 300 >binds.tcp &
	bpid=$!
	wait_for 10 grep -q ready binds.tcp || fail "gbbench binds did not start"
	# shellcheck disable=SC2086
	gbnet -l tcpenum.log $nodes 2>gbnet.err &
	gpid=$!
	wait $bpid || fail "enumerating $n TCP nodes: $(cat binds.tcp) $(tail -n 3 gbnet.err)"
	t1=$(kv last "$(grep '^binds ' binds.tcp)")
	t0=$(grep -m 1 'SVC>AP  cport 0 svc.module_inserted req' tcpenum.log | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
	[ -n "$t0" ] || fail "no module_inserted in gbnet's log"
	stop_gbsim $gpid $npid
	echo "R $rep tcp_enum_${n}_total_ms $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) * 1000 }')"
	echo "R $rep tcp_enum_${n}_per_node_ms $(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.3f", (b - a) * 1000 / n }')"
}

tcp_bench() {	# REP
	local rep=$1 te npid gpid
	tcpecho serve 127.0.0.1 5000 >tcpecho.out 2>&1 &
	te=$!
	wait_for 10 grep -q ready tcpecho.out || fail "tcpecho did not start"
	echo_tcp $rep tcp_raw_ping 10
	for s in $TCP_SIZES; do
		echo_tcp $rep tcp_raw_transfer_$s $((2 + 20 + s))
	done
	kill $te
	wait $te 2>/dev/null

	gbsim --mtu 4096 --node tcp:127.0.0.1:4242 -m 2:$M/loopback.mnfs 2>node.err &
	npid=$!
	gbnet --mtu 4096 --node-mtu 4096 --node 127.0.0.1:4242 2>gbnet.err &
	gpid=$!
	wait_for 60 test -e $LB/type || fail "no gb_loopback0 through gbnet: $(cat gbnet.err)"
	lb $rep tcp_ping_sync -t ping -i 2000
	echo "R $rep tcp_ping_sync_median_us $(kv lat_median "$LINE")"
	echo "R $rep tcp_ping_sync_p99_us $(kv lat_p99 "$LINE")"
	echo "R $rep tcp_ping_sync_ops $(kv ops_per_s "$LINE")"
	for s in $TCP_SIZES; do
		lb $rep tcp_transfer_sync_$s -t transfer -s $s -i 1000
		echo "R $rep tcp_transfer_sync_${s}_median_us $(kv lat_median "$LINE")"
	done
	lb $rep tcp_transfer_async32_2048 -t transfer -s 2048 -i 2000 -a 32 -o 2000000
	echo "R $rep tcp_transfer_async32_2048_MBps $(awk -v b="$(kv bytes_per_s "$LINE")" 'BEGIN { printf "%.3f", b / 1e6 }')"
	stop_gbsim $gpid $npid
	for n in $TCP_ENUM_NS; do
		tcp_enumerate $rep $n
	done
}

# tls_lb_run REP PREFIX GBNET-NODE GBSIM-NODE [GBSIM-ARGS...]: ping and
# throughput of a loopback node through gbnet, keys PREFIX_*
tls_lb_run() {
	local rep=$1 pre=$2 gnode=$3 snode=$4 npid gpid
	shift 4
	gbsim --mtu 4096 --node "$snode" -m 2:$M/loopback.mnfs "$@" 2>node.err &
	npid=$!
	gbnet --mtu 4096 --node-mtu 4096 $TLS_GBNET --node "$gnode" 2>gbnet.err &
	gpid=$!
	wait_for 60 test -e $LB/type || fail "no gb_loopback0 through gbnet ($gnode): $(cat gbnet.err node.err)"
	lb $rep ${pre}_ping_sync -t ping -i 2000
	echo "R $rep ${pre}_ping_sync_median_us $(kv lat_median "$LINE")"
	lb $rep ${pre}_transfer_sync_2048 -t transfer -s 2048 -i 1000
	echo "R $rep ${pre}_transfer_sync_2048_median_us $(kv lat_median "$LINE")"
	lb $rep ${pre}_transfer_async8_2048 -t transfer -s 2048 -i 2000 -a 8 -o 2000000
	echo "R $rep ${pre}_transfer_async8_2048_MBps $(awk -v b="$(kv bytes_per_s "$LINE")" 'BEGIN { printf "%.3f", b / 1e6 }')"
	stop_gbsim $gpid $npid
}

# tls REP: the same loopback node (gbsim's strict personality: the zephyr
# one hangs on 2 KB messages) over plain TCP and over TLS (1.3, AES-GCM,
# EC P-256 certificates, client certificate required), keys made here
tls_bench() {	# REP
	local rep=$1 k=$W/pki
	export OPENSSL_CONF=/dev/null
	if [ ! -e $k/host.pem ]; then
		mkdir -p $k
		openssl ecparam -name prime256v1 -genkey -noout -out $k/ca.key &&
		openssl req -x509 -new -key $k/ca.key -subj /CN=bench-ca -days 30 \
			-addext basicConstraints=critical,CA:TRUE -out $k/ca.pem 2>/dev/null ||
			fail "openssl: CA"
		for c in node host; do
			openssl ecparam -name prime256v1 -genkey -noout -out $k/$c.key &&
			openssl req -new -key $k/$c.key -subj /CN=$c -out $k/$c.csr 2>/dev/null &&
			printf 'subjectAltName=DNS:%s\n' $c >$k/$c.ext &&
			openssl x509 -req -in $k/$c.csr -CA $k/ca.pem -CAkey $k/ca.key -CAcreateserial \
				-days 30 -extfile $k/$c.ext -out $k/$c.pem 2>/dev/null || fail "openssl: $c"
		done
	fi
	TLS_GBNET=
	tls_lb_run $rep tlsbench_tcp 127.0.0.1:4242 tcp:127.0.0.1:4242
	TLS_GBNET="--tls-ca $k/ca.pem --tls-cert $k/host.pem --tls-key $k/host.key"
	tls_lb_run $rep tlsbench_tls "tls:127.0.0.1:4242 name=node" tls:127.0.0.1:4242 \
		--tls-cert $k/node.pem --tls-key $k/node.key --tls-ca $k/ca.pem \
		--tls-name host
}

# sdio REP: sequential O_DIRECT throughput of gbsim's SD card through
# gb-sdio and mmc_block (coreutils dd, which the cases pack), MTU 4096
# as for the loopback figures: 7 blocks of 512 bytes per TRANSFER
SDIO_MB=16
sdio() {
	local rep=$1 pid b out
	GBSIM_SDIO=size_mb=$((SDIO_MB + 4)) gbsim --mtu 4096 -m 2:$M/sdio-card.mnfs 2>gbsim.err &
	pid=$!
	wait_for 60 gbphy_mmcblk >/dev/null || fail "no mmcblk: $(cat gbsim.err)"
	b=/dev/$(gbphy_mmcblk)
	wait_for 10 test -b $b || fail "no $b"
	for dir in write read; do
		if [ $dir = write ]; then
			out=$(dd if=/dev/zero of=$b bs=512k count=$((SDIO_MB * 2)) oflag=direct 2>&1) ||
				fail "sdio write: $out"
		else
			out=$(dd if=$b of=/dev/null bs=512k count=$((SDIO_MB * 2)) iflag=direct 2>&1) ||
				fail "sdio read: $out"
		fi
		echo "L $rep sdio_$dir $(echo "$out" | tail -n 1)"
		echo "R $rep sdio_${dir}_MBps $(echo "$out" | awk -v n=$((SDIO_MB * 1048576)) '
			/copied/ { for (i = 2; i <= NF; i++) if ($i == "s,") printf "%.3f", n / $(i - 1) / 1e6 }')"
	done
	stop_gbsim $pid
}

# The serial link (docs/hdlc.md): gb-hdlc on a pty whose other end
# gbsim plays, paced as a UART at HDLC_BAUD; links of 256-byte messages
# (set by hand: gbsim's full personality takes them, gb-hdlc's default is
# a CC1352's 250), so 236 data bytes is the largest transfer. The wire
# bytes are the link's own counters, both ways; the payload of a message
# is what follows its 8-byte header (12 bytes of loopback header + data
# for a transfer, nothing for a ping).
HDLC_BAUD=115200
HDLC_SIZES="0 64 128 236"

# hdlc_lb REP KEY gbbench-loopback-args...: lb, and the bytes the link
# carried both ways as $HDLC_WIRE
hdlc_lb() {
	local tx0 rx0
	tx0=$(hdlc_stat tx_bytes)
	rx0=$(hdlc_stat rx_bytes)
	lb "$@"
	HDLC_WIRE=$(($(hdlc_stat tx_bytes) - tx0 + $(hdlc_stat rx_bytes) - rx0))
}

# hdlc_rate REP KEY PAYLOAD: payload bytes per second each way, and that
# over the line rate, from $LINE
hdlc_rate() {
	local bps
	bps=$(awk -v n="$(kv completed "$LINE")" -v p="$3" -v t="$(kv seconds "$LINE")" \
		'BEGIN { printf "%.1f", n * p / t }')
	echo "R $1 $2_Bps $bps"
	echo "R $1 $2_line $(awk -v b="$bps" -v r=$((HDLC_BAUD / 10)) 'BEGIN { printf "%.4f", b / r }')"
}

hdlc_bench() {	# REP
	local rep=$1 pid s n
	HDLC_MTU=256 hdlc_setup
	gbsim --pty --attach --baud $HDLC_BAUD -m 2:$M/loopback.mnfs >hdlc.out 2>hdlc.err &
	pid=$!
	wait_for 60 test -e $LB/type || fail "no gb_loopback0 over the serial link: $(cat hdlc.err)"
	hdlc_lb $rep hdlc_ping_sync -t ping -i 200
	echo "R $rep hdlc_ping_sync_median_us $(kv lat_median "$LINE")"
	echo "R $rep hdlc_ping_sync_p99_us $(kv lat_p99 "$LINE")"
	echo "R $rep hdlc_ping_wire $(awk -v w=$HDLC_WIRE -v n="$(kv completed "$LINE")" 'BEGIN { printf "%.1f", w / n }')"
	echo "R $rep hdlc_ping_eff 0"
	for s in $HDLC_SIZES; do
		hdlc_lb $rep hdlc_transfer_sync_$s -t transfer -s $s -i 50
		n=$(kv completed "$LINE")
		echo "R $rep hdlc_transfer_sync_${s}_median_us $(kv lat_median "$LINE")"
		echo "R $rep hdlc_transfer_${s}_wire $(awk -v w=$HDLC_WIRE -v n="$n" 'BEGIN { printf "%.1f", w / n }')"
		echo "R $rep hdlc_transfer_${s}_eff $(awk -v w=$HDLC_WIRE -v n="$n" -v s="$s" 'BEGIN { printf "%.4f", n * 2 * (12 + s) / w }')"
	done
	# throughput: 8 operations in flight keep the line busy
	hdlc_lb $rep hdlc_transfer_async8_236 -t transfer -s 236 -i 200 -a 8 -o 5000000
	hdlc_rate $rep hdlc_transfer_async8_236 248
	hdlc_rate $rep hdlc_transfer_async8_236_data 236
	echo "R $rep hdlc_transfer_async8_236_busy $(awk -v w=$HDLC_WIRE -v t="$(kv seconds "$LINE")" -v r=$((HDLC_BAUD / 10)) \
		'BEGIN { printf "%.4f", w / 2 / t / r }')"
	hdlc_lb $rep hdlc_sink_async8_236 -t sink -s 236 -i 200 -a 8 -o 5000000
	hdlc_rate $rep hdlc_sink_async8_236 248
	stop_gbsim $pid
}

rep=1
while [ $rep -le "$REPS" ]; do
	if part tcp; then
		note "repetition $rep of $REPS: TCP through gbnet"
		tcp_bench $rep
	fi
	if part tls; then
		note "repetition $rep of $REPS: TLS beside TCP through gbnet"
		tls_bench $rep
	fi
	if part hdlc; then
		note "repetition $rep of $REPS: serial link at $HDLC_BAUD baud"
		hdlc_bench $rep
	fi
	if part loopback; then
		note "repetition $rep of $REPS: loopback"
		# the transport alone: an ECHO of what one ping puts in a SEND event
		# (4-byte vhd message head + 8-byte operation header), and of each
		# transfer (+ 12-byte loopback header + data)
		echo_raw $rep raw_ping 12
		echo_raw $rep raw2_ping 12 --two-process
		for s in $SIZES; do
			echo_raw $rep raw_transfer_$s $((24 + s))
		done

		start_lb_gbsim
		# timeout_min is one jiffy
		[ $rep = 1 ] && echo "M hz $((1000000 / $(cat $LB/timeout_min)))"
		lb $rep ping_sync -t ping -i 5000
		echo "R $rep ping_sync_min_us $(kv lat_min "$LINE")"
		echo "R $rep ping_sync_median_us $(kv lat_median "$LINE")"
		echo "R $rep ping_sync_p99_us $(kv lat_p99 "$LINE")"
		echo "R $rep ping_sync_ops $(kv ops_per_s "$LINE")"
		for s in $SIZES; do
			lb $rep transfer_sync_$s -t transfer -s $s -i 1000
			echo "R $rep transfer_sync_${s}_median_us $(kv lat_median "$LINE")"
			echo "R $rep transfer_sync_${s}_p99_us $(kv lat_p99 "$LINE")"
		done
		for t in sink transfer; do
			lb $rep ${t}_sync_2048 -t $t -s 2048 -i 2000
			echo "R $rep ${t}_sync_2048_MBps $(awk -v b="$(kv bytes_per_s "$LINE")" 'BEGIN { printf "%.3f", b / 1e6 }')"
			lb $rep ${t}_async32_2048 -t $t -s 2048 -i 4000 -a 32 -o 2000000
			echo "R $rep ${t}_async32_2048_MBps $(awk -v b="$(kv bytes_per_s "$LINE")" 'BEGIN { printf "%.3f", b / 1e6 }')"
		done
		for out in 1 8 32; do
			lb $rep ping_async_$out -t ping -i 10000 -a $out -o 2000000
			echo "R $rep ping_async${out}_ops $(kv ops_per_s "$LINE")"
			echo "R $rep ping_async${out}_median_us $(kv lat_median "$LINE")"
		done
		stop_gbsim $LB_PID
	fi

	if part sdio; then
		note "repetition $rep of $REPS: sd card"
		sdio $rep
	fi

	if part enum; then
		note "repetition $rep of $REPS: enumeration"
		for n in $ENUM_NS; do
			enumerate $rep $n
		done
		# the same without gb-loopback's class device: the core's own cost
		enumerate $rep 1 test-vendor gb-test-protocol tv
		enumerate $rep 64 test-vendor gb-test-protocol tv
		[ $rep = 1 ] && slab_growth 64
	fi
	rep=$((rep + 1))
done

if part profile; then
	. /usr/lib/gbtest/profile.sh
	profile_bench
fi

if part breakdown; then
	# Where a ping's time goes (once, with gbsim's log on, so slower than the
	# figures above): kernel send -> gbsim has it -> gbsim answers -> kernel
	# receives -> the driver's callback. Tracepoints and gbsim's log share
	# CLOCK_MONOTONIC.
	note "latency breakdown"
	T=/sys/kernel/tracing
	echo mono >$T/trace_clock
	echo 16384 >$T/buffer_size_kb
	echo >$T/trace
	echo 1 >$T/events/greybus/gb_message_send/enable
	echo 1 >$T/events/greybus/gb_message_recv_response/enable
	GBSIM_LOOPBACK= gbsim --mtu 4096 -l bd.log -m 2:$M/loopback.mnfs 2>gbsim.err &
	pid=$!
	wait_for 60 test -e $LB/type || fail "gb_loopback0 did not appear: $(cat gbsim.err)"
	echo >$T/trace
	lb 0 breakdown -t ping -i 1000
	cat /sys/kernel/debug/gb_loopback/raw_latency_1-2.2.1 >/dev/null 2>&1
	echo 0 >$T/events/greybus/gb_message_send/enable
	echo 0 >$T/events/greybus/gb_message_recv_response/enable
	cat $T/trace >bd.trace
	stop_gbsim $pid
	# per operation id of the loopback ping: the four timestamps
	awk '
		/gb_message_send: .* type=0x02 / { match($0, /id=0x[0-9a-f]+/); id = substr($0, RSTART + 3, RLENGTH - 3)
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(/:$/, "", t) }
			ks[id] = t; order[++n] = id }
		/gb_message_recv_response: .* type=0x82 / { match($0, /id=0x[0-9a-f]+/); id = substr($0, RSTART + 3, RLENGTH - 3)
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(/:$/, "", t) }
			kr[id] = t }
		FILENAME ~ /bd.log$/ && /loopback\.ping req/ { match($0, /id=0x[0-9a-f]+/); id = substr($0, RSTART + 3, RLENGTH - 3)
			t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t); gi[id] = t }
		FILENAME ~ /bd.log$/ && /loopback\.ping rsp/ { match($0, /id=0x[0-9a-f]+/); id = substr($0, RSTART + 3, RLENGTH - 3)
			t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t); go[id] = t }
		END {
			for (k = 1; k <= n; k++) {
				id = order[k]
				if (!(id in kr) || !(id in gi) || !(id in go)) continue
				printf "%.1f %.1f %.1f %.1f\n", (gi[id] - ks[id]) * 1e6, (go[id] - gi[id]) * 1e6,
					(kr[id] - go[id]) * 1e6, (kr[id] - ks[id]) * 1e6
			}
		}' bd.trace bd.log >bd.stages
	total=$(wc -l <bd.stages)
	[ "$total" -gt 100 ] || note "only $total operations matched in the breakdown"
	col=1
	for stage in to_gbsim in_gbsim to_kernel send_to_recv; do
		med=$(cut -d' ' -f$col bd.stages | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
		echo "R 0 breakdown_${stage}_median_us ${med:-?}"
		col=$((col + 1))
	done
	echo "R 0 breakdown_total_median_us $(kv lat_median "$LINE")"
	echo "R 0 breakdown_ops $total"

fi
echo "# done"
# an open reader pins greybus.ko
if [ -n "${MON_PID:-}" ]; then
	kill "$MON_PID"
	wait "$MON_PID"
fi
# not unload_all_gb: it waits for the uevent daemon stopped above
why=$(_gb_unload_all 10) || fail "$why"
exit 0
