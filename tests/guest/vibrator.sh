# SPDX-License-Identifier: GPL-2.0
# The setup the vibrator cases (85-87) share, sourced after lib.sh: gbsim
# with a vibrator module at interface 3, its control socket in
# $GBSIM_CTL, gb-vibrator bound, and helpers that read the motor's
# history from gbsim's log.

need_tool gbsim
load_gb greybus gb-vhd

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
B=$D/1-3.3.1
export GBSIM_CTL=$GBTEST_TMP/ctl

gbsim --ctl "$GBSIM_CTL" -l log -m 3:$M/vibrator.mnfs >out 2>err &
pid=$!
wait_for 30 test -e /sys/class/vibrator/vibrator0/timeout ||
	fail "no vibrator0 (gb-vibrator not bound?): $(cat err)"
V=/sys/class/vibrator/vibrator0
echo 200 >$B/power/autosuspend_delay_ms
echo 300 >$D/1-3.3/power/autosuspend_delay_ms

# n_off: how many times gbsim saw the motor stop
n_off() {
	gbsim ctl log | grep -c "vibrator 3: motor off" || true
}
_gb_more_offs() {
	[ "$(n_off)" -gt "$1" ]
}
# wait_off N SECS: the motor stops for the (N+1)th time; prints its run time
wait_off() {
	wait_for "$2" _gb_more_offs "$1" || fail "motor not turned off (off count still $1)"
	gbsim ctl log | sed -n 's/.*vibrator 3: motor off after \([0-9]*\) ms.*/\1/p' | tail -n 1
}
# ran_between MS LOW HIGH: a run time within bounds (the host may be slow:
# only the lower bound is tight).  gbsim times the run from ON's arrival;
# on a sanitizer kernel (GB_TSCALE > 1) ON can arrive late while OFF stays
# on time, so the lower bound gives 30 ms per step of the scale.
ran_between() {
	local low=$(( $2 - (GB_TSCALE - 1) * 30 ))
	[ "$1" -ge "$low" ] && [ "$1" -le "$3" ] || fail "motor ran $1 ms, expected $low..$3"
	info "motor ran $1 ms"
}
