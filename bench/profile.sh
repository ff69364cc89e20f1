# SPDX-License-Identifier: GPL-2.0
# bench/profile.sh: the function-level profile of `make bench
# BENCH_ONLY=profile` (docs/performance.md, "Profiling in the guest").
# Sourced by bench/guest.sh in the guest, after lib.sh. Debian's kernels
# have no function profiler (CONFIG_FUNCTION_PROFILER is unset) and the
# guest no perf, so this is function_graph on a narrow set_ftrace_filter
# (PROF_FUNCS): each call of a listed function is one trace entry with
# its duration, children included; prof_stop sums them per function.
#
# Output, for bench/report (which ignores it) and for reading:
#   P PATH FUNC CALLS CALLS_PER_OP US_PER_OP SELF_US_PER_OP KIDS_PER_OP
#   P PATH @ops OPS (the operations run while tracing)
# US_PER_OP is inclusive (a listed function called from another listed
# one counts in both), SELF_US_PER_OP the same less the listed calls
# directly inside it (KIDS_PER_OP of them per operation). Both are
# inflated by the tracer's own entry and exit
# work on every traced call, so read them as shares, not as absolute
# costs; the same run without tracing gives the untraced time per
# operation (PATH_untraced_us) to set them against.

TRACING=/sys/kernel/tracing

# The path of an operation, from the driver down to the transport and
# back; the kernel's timer, allocator and wakeup calls beside it; the
# system calls of the user-space side (gbsim, gbnet, tcpecho). Names a
# kernel lacks (inlined statics, other releases' names) are skipped.
PROF_FUNCS="
gb_loopback_op_done gb_loopback_send
gb_operation_create_flags gb_operation_request_send
gb_operation_request_send_sync_timeout gb_operation_put
greybus_data_rcvd gb_connection_recv_response greybus_message_sent
gb_vhd_read gb_vhd_write gb_vhd_message_send gb_vhd_poll
gb_es2_message_send gb_es2_out_complete gb_es2_cport_in_complete
usb_submit_urb usb_hcd_giveback_urb
mod_timer del_timer del_timer_sync timer_delete timer_delete_sync
__kmalloc kmalloc_trace __kmalloc_noprof __kmalloc_cache_noprof
kmem_cache_alloc kmem_cache_alloc_noprof kfree kmem_cache_free
try_to_wake_up complete
__x64_sys_read __x64_sys_write __x64_sys_writev __x64_sys_readv
__x64_sys_ppoll __x64_sys_poll __x64_sys_epoll_wait __x64_sys_epoll_pwait
__x64_sys_sendto __x64_sys_recvfrom __x64_sys_sendmsg __x64_sys_recvmsg
__x64_sys_setsockopt
tcp_sendmsg tcp_recvmsg tcp_v4_rcv __tcp_transmit_skb tcp_ack
"

# prof_start: function_graph on PROF_FUNCS, an empty buffer
prof_start() {
	local f
	echo 0 >$TRACING/tracing_on
	echo nop >$TRACING/current_tracer
	: >$TRACING/set_ftrace_filter
	for f in $PROF_FUNCS; do
		echo "$f" >>$TRACING/set_ftrace_filter 2>/dev/null
	done
	# an empty filter would trace every function
	grep -q . $TRACING/set_ftrace_filter || fail "profile: no function of PROF_FUNCS is traceable"
	echo 1 >$TRACING/options/funcgraph-tail
	echo 1 >$TRACING/options/funcgraph-proc
	echo 32768 >$TRACING/buffer_size_kb
	echo function_graph >$TRACING/current_tracer
	echo >$TRACING/trace
	echo 1 >$TRACING/tracing_on
}

# prof_stop PATH OPS: the P lines of what was traced since prof_start
prof_stop() {
	local path=$1 ops=$2 overrun
	echo 0 >$TRACING/tracing_on
	overrun=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' $TRACING/per_cpu/cpu*/stats)
	echo "P $path @ops $ops"
	echo "P $path @overrun $overrun"
	# what the lines look like, for whoever reads the output
	grep -v '^#' $TRACING/trace | head -n 3 | sed "s/^/P $path @line /"
	# With funcgraph-proc a line is " 0)  task-12  |  1.234 us  |  f();",
	# or "f() {" without a duration and later "} /* f */" with it; a
	# module's functions print as "f [module]". Each task has its own
	# stack of open calls (a task that sleeps in one resumes it later);
	# a traced call's self time is its duration less that of the traced
	# calls directly inside it (kids). A call longer than 1 ms is a
	# process blocked in it (a read() that waits for the whole run):
	# counted in @blocked, left out.
	awk -v p="$path" -v ops="$ops" -F'|' '
	NF >= 2 {
		task = NF >= 3 ? $(NF - 2) : "-"
		sub(/^ *[0-9]+\) */, "", task)
		gsub(/ /, "", task)
		d = -1
		if (match($(NF - 1), /[0-9.]+ us/))
			d = substr($(NF - 1), RSTART, RLENGTH - 3) + 0
		s = $NF
		if (match(s, /[A-Za-z0-9_.]+( \[[A-Za-z0-9_]+\])?\(\) \{/)) {
			f = substr(s, RSTART, RLENGTH)
			sub(/[ (].*/, "", f)
			k = ++depth[task]
			stk[task, k] = f
			ch[task, k] = 0
			nk[task, k] = 0
			next
		}
		if (d < 0)
			next
		kids = 0
		if (match(s, /[A-Za-z0-9_.]+( \[[A-Za-z0-9_]+\])?\(\);/)) {
			f = substr(s, RSTART, RLENGTH)
			self = d
		} else if (match(s, /\/\* [A-Za-z0-9_.]+( \[[A-Za-z0-9_]+\])? \*\//)) {
			f = substr(s, RSTART + 3, RLENGTH)
			sub(/[ (].*/, "", f)
			k = depth[task]
			self = d
			if (k > 0 && stk[task, k] == f) {
				self = d - ch[task, k]
				kids = nk[task, k]
				depth[task]--
			}
		} else
			next
		sub(/[ (].*/, "", f)
		k = depth[task]
		if (k > 0) {
			ch[task, k] += d
			nk[task, k]++
		}
		if (d > 1000) {
			blocked++
			next
		}
		n[f]++
		t[f] += d
		sf[f] += self
		kf[f] += kids
		calls++
	}
	END {
		printf "P %s @traced_calls_per_op %.2f\n", p, calls / ops
		printf "P %s @blocked %d\n", p, blocked
		for (f in n)
			printf "P %s %s %d %.2f %.3f %.3f %.2f\n", p, f, n[f],
				n[f] / ops, t[f] / ops, sf[f] / ops, kf[f] / ops
	}' $TRACING/trace | sort -k7,7 -g -r
	echo nop >$TRACING/current_tracer
	: >$TRACING/set_ftrace_filter
	echo 1408 >$TRACING/buffer_size_kb
}

# prof_lb PATH OPS gbbench-loopback-args: the loopback run untraced (its
# time per operation), then traced
prof_lb() {
	local path=$1 ops=$2 line
	shift 2
	line=$(gbbench loopback -d $LB "$@") || fail "gbbench loopback $*: $line"
	echo "P $path @untraced_us_per_op $(awk -v r="$(kv ops_per_s "$line")" 'BEGIN { printf "%.2f", 1e6 / r }')"
	prof_start
	line=$(gbbench loopback -d $LB "$@") || fail "gbbench loopback $* (traced): $line"
	prof_stop "$path" "$ops"
	echo "P $path @traced_us_per_op $(awk -v r="$(kv ops_per_s "$line")" 'BEGIN { printf "%.2f", 1e6 / r }')"
}

# prof_tcpecho: a raw TCP echo of a ping's bytes through gbnet's hop
# (2-byte length + 8-byte header), untraced then traced
prof_tcpecho() {
	local n=2000 te line
	tcpecho serve 127.0.0.1 5000 >tcpecho.out 2>&1 &
	te=$!
	wait_for 10 grep -q ready tcpecho.out || fail "tcpecho did not start"
	line=$(tcpecho ping 127.0.0.1 5000 10 $n) || fail "tcpecho ping failed"
	echo "P tcp_raw @untraced_median_us $(kv median_us "$line")"
	prof_start
	line=$(tcpecho ping 127.0.0.1 5000 10 $n) || fail "tcpecho ping failed (traced)"
	prof_stop tcp_raw $n
	echo "P tcp_raw @traced_median_us $(kv median_us "$line")"
	kill $te
	wait $te 2>/dev/null
}

profile_bench() {
	local npid gpid pid
	note "profile: sync and async-32 pings over gb-vhd"
	start_lb_gbsim
	prof_lb vhd_sync 2000 -t ping -i 2000
	prof_lb vhd_async32 4000 -t ping -i 4000 -a 32 -o 2000000
	stop_gbsim $LB_PID

	note "profile: a ping through gbnet, and the raw TCP echo"
	prof_tcpecho
	gbsim --mtu 4096 --node tcp:127.0.0.1:4242 -m 2:$M/loopback.mnfs 2>node.err &
	npid=$!
	gbnet --mtu 4096 --node-mtu 4096 --node 127.0.0.1:4242 2>gbnet.err &
	gpid=$!
	wait_for 60 test -e $LB/type || fail "no gb_loopback0 through gbnet: $(cat gbnet.err)"
	prof_lb gbnet_sync 2000 -t ping -i 2000
	stop_gbsim $gpid $npid
	# the same without TCP_QUICKACK (gbnet sets it after every read for
	# nodes that send with Nagle's algorithm on; gbsim's node does not)
	gbsim --mtu 4096 --node tcp:127.0.0.1:4242 -m 2:$M/loopback.mnfs 2>node.err &
	npid=$!
	gbnet --mtu 4096 --node-mtu 4096 --no-quickack --node 127.0.0.1:4242 2>gbnet.err &
	gpid=$!
	wait_for 60 test -e $LB/type || fail "no gb_loopback0 through gbnet --no-quickack: $(cat gbnet.err)"
	prof_lb gbnet_noquickack_sync 2000 -t ping -i 2000
	stop_gbsim $gpid $npid

	note "profile: a sync ping over the emulated ES2 bridge"
	. /usr/lib/gbtest/es2.sh
	es2_setup || fail "cannot set up the emulated ES2 bridge"
	gbsim --transport es2 --mtu 2048 -m 2:$M/loopback.mnfs 2>gbsim.err &
	pid=$!
	wait_for 60 test -e $LB/type || fail "no gb_loopback0 over ES2: $(cat gbsim.err)"
	prof_lb es2_sync 2000 -t ping -i 2000
	prof_lb es2_async32 4000 -t ping -i 4000 -a 32 -o 2000000
	stop_gbsim $pid
}
