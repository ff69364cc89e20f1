# Checks removal of a bridge module while tools keep using it: an i2cget loop and an i2ctransfer loop on its adapter (their transfers slowed by gbsim so that one is in flight) and a loop writing its PWM's duty_cycle all end with an error once the module is gone, nothing stays bound, every node goes, and a new module works again.
# timeout: 120
# tools: i2cget i2ctransfer
# kmods: i2c-dev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim
need_tool i2cget
need_tool i2ctransfer
need_kmod i2c-dev
load_gb greybus gb-vhd gb-gbphy gb-i2c gb-pwm
modprobe i2c-dev || fail "modprobe i2c-dev"

M=/usr/share/greybus/manifests/gbphy-bridge.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
c() {
	gbsim ctl "$@"
}
n_lines() {
	wc -l <"$1" 2>/dev/null | tr -d ' '
}
_grew() {
	[ "$(n_lines "$1")" -gt "${2:-0}" ]
}

# setup: wait for both drivers, export pwm0 and enable it
setup() {
	wait_for 20 gbphy_i2c_bus >/dev/null || fail "no gbphy i2c adapter: $(cat err)"
	BUS=$(gbphy_i2c_bus)
	wait_for 10 test -c /dev/i2c-$BUS || fail "no /dev/i2c-$BUS"
	wait_for 20 gbphy_pwmchip >/dev/null || fail "no gbphy pwmchip"
	CH=$(gbphy_pwmchip)
	echo 0 >$CH/export || fail "export failed"
	wait_for 5 test -e $CH/pwm0/enable || fail "pwm0 not exported"
	echo 1000000 >$CH/pwm0/period || fail "period failed"
	echo 1 >$CH/pwm0/enable || fail "enable failed"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M >out 2>err &
pid=$!
setup
info "i2c-$BUS, $CH"

# three loops, each logging one line per successful use
( while i2cget -y $BUS 0x50 0x00 >>get.ok 2>get.err; do :; done; echo end >get.end ) &
( while i2ctransfer -y $BUS w1@0x50 0x10 r4 >>xfer.ok 2>xfer.err; do :; done; echo end >xfer.end ) &
(
	d=100000
	while echo $d 2>pwm.err >$CH/pwm0/duty_cycle; do
		echo $d >>pwm.ok
		d=$(( d % 900000 + 1000 ))
	done
	echo end >pwm.end
) &
for f in get.ok xfer.ok pwm.ok; do
	wait_for 20 _grew $f || fail "loop $f made no progress"
done
assert_eq "$(tail -n 1 get.ok)" 0x67 "i2cget in the loop"

# slow transfers from now on, so that the removal finds one in flight;
# well inside gb-i2c's 1 s timeout even on a loaded host (700 ms was not)
c fault add intf=2 proto=0x03 type=0x05 delay=400 sticky >/dev/null ||
	fail "fault add failed"
n=$(n_lines get.ok)
wait_for 20 _grew get.ok "$n" || fail "the i2cget loop stopped"
c remove 2 || fail "remove failed"
for f in get xfer pwm; do
	wait_for 15 test -e $f.end || fail "the $f loop did not end"
	info "$f loop: $(n_lines $f.ok) good, then: $(cat $f.err)"
	[ -s $f.err ] || fail "the $f loop ended without an error message"
done
wait_for 10 sh -c "! test -e /dev/i2c-$BUS" || fail "/dev/i2c-$BUS still there"
wait_for 10 sh -c "! test -e $CH" || fail "$CH still there"
wait_for 10 gbphy_none || fail "gbphy devices left: $(ls /sys/bus/gbphy/devices)"

# a new module: both work again
c fault clear >/dev/null || fail "fault clear failed"
c insert 2 $M >/dev/null || fail "insert failed"
setup
assert_eq "$(i2cget -y $BUS 0x50 0x00)" 0x67 "i2cget on the new module"
echo 500000 >$CH/pwm0/duty_cycle || fail "duty_cycle on the new module"
wait_for 5 sh -c "grep 'INFO    pwm cport' log | tail -n 1 | grep -q 'duty=500000'" ||
	fail "gbsim did not see the new duty cycle"

kill -TERM $pid
wait $pid
unload_all_gb
