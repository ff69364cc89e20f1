# SPDX-License-Identifier: GPL-2.0
# The setup the vibrator cases (85-87) share, sourced after lib.sh: gbsim
# with a vibrator module at interface 3, its control socket in
# $GBSIM_CTL, gb-vibrator bound, and helpers that time the motor on the
# guest kernel's clock.

need_tool gbsim
load_gb greybus gb-vhd

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
B=$D/1-3.3.1
export GBSIM_CTL=$GBTEST_TMP/ctl
TR=/sys/kernel/tracing

gbsim --ctl "$GBSIM_CTL" -l log -m 3:$M/vibrator.mnfs >out 2>err &
pid=$!
wait_for 30 test -e /sys/class/vibrator/vibrator0/timeout ||
	fail "no vibrator0 (gb-vibrator not bound?): $(cat err)"
V=/sys/class/vibrator/vibrator0
echo 200 >$B/power/autosuspend_delay_ms
echo 300 >$D/1-3.3/power/autosuspend_delay_ms

# The motor's runs are timed from the greybus tracepoint's record of ON
# and OFF leaving the core, not from their arrival in gbsim: on a loaded
# machine gbsim may see ON late and OFF on time, a run shorter than the
# one the driver timed.  The trace clock is CLOCK_MONOTONIC, so that a
# program's own clock_gettime() (ffrumble's "played at") compares with it.
[ -d $TR/events/greybus/gb_message_send ] || skip "no greybus tracepoints"
vib_cport=$(awk '$4 == "0x10" { print $2; exit }' /sys/kernel/debug/greybus/greybus*/connections 2>/dev/null)
[ -n "$vib_cport" ] || fail "no vibrator connection in debugfs"
echo 0 >$TR/tracing_on
vib_clock0=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $TR/trace_clock)
echo mono >$TR/trace_clock || fail "no mono trace clock"
echo "hd_cport_id == $vib_cport" >$TR/events/greybus/gb_message_send/filter
echo 1 >$TR/events/greybus/gb_message_send/enable
echo >$TR/trace
echo 1 >$TR/tracing_on

# vib_trace_off: the tracepoint and trace clock as the next case expects
vib_trace_off() {
	echo 0 >$TR/events/greybus/gb_message_send/enable
	echo 0 >$TR/events/greybus/gb_message_send/filter
	echo "${vib_clock0:-local}" >$TR/trace_clock
}

# vib_wire: "SECONDS on|off" for each ON and OFF request the core sent
vib_wire() {
	sed -n 's/.* \([0-9]*\.[0-9]*\): gb_message_send: .* type=0x0\([23]\) .*/\1 \2/p' $TR/trace |
		sed -e 's/ 2$/ on/' -e 's/ 3$/ off/'
}

# n_off: how many times gbsim saw the motor stop
n_off() {
	gbsim ctl log | grep -c "vibrator 3: motor off" || true
}
_gb_more_offs() {
	[ "$(n_off)" -gt "$1" ] && [ "$(vib_wire | grep -c ' off$')" -gt "$1" ]
}
# wait_off N SECS [SINCE]: the motor stops for the (N+1)th time; prints
# how long it ran in ms on the kernel's clock: from SINCE (seconds on
# CLOCK_MONOTONIC) or else from the last ON sent before that OFF
wait_off() {
	wait_for "$2" _gb_more_offs "$1" || fail "motor not turned off (off count still $1)"
	vib_wire | awk -v n="$(($1 + 1))" -v since="${3:-}" '
		$2 == "on" { on = $1 }
		$2 == "off" && ++offs == n {
			from = since != "" ? since : on
			printf "%d\n", ($1 - from) * 1000 + 0.5
			exit
		}'
}
# ran_between MS LOW HIGH: a run time within bounds.  The kernel's clock
# makes the lower bound exact: the driver arms its timer after ON, and
# ff-memless after the play a client timed.  The upper bound only says
# that OFF came.
ran_between() {
	[ "$1" -ge "$2" ] && [ "$1" -le "$3" ] || fail "motor ran $1 ms, expected $2..$3"
	info "motor ran $1 ms"
}
