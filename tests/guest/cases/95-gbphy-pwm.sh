# Checks gb-pwm: the bridge module's PWMs appear as a pwmchip with npwm from the module, export/period/duty_cycle/polarity/enable through /sys/class/pwm reach gbsim's model, error answers fail the sysfs write, and a module removed under an open attribute leaves the write failing cleanly.
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim
load_gb greybus gb-vhd gb-gbphy gb-pwm

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
c() {
	gbsim ctl "$@"
}

# pwm_log TEXT: wait up to 5 s for gbsim to log a PWM state line with TEXT
_has_state() {
	grep "INFO    pwm cport [0-9]* pwm $1" log | tail -n 1 | grep -q -- "$2"
}
state() {
	wait_for 5 _has_state "$1" "$2" ||
		fail "gbsim's pwm $1 is not '$2': $(grep 'pwm cport' log | tail -n 1)"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/gbphy-bridge.mnfs >out 2>err &
pid=$!
wait_for 20 gbphy_pwmchip >/dev/null || fail "no gbphy pwmchip: $(cat err)"
CH=$(gbphy_pwmchip)
info "chip $CH"
assert_file_eq $CH/npwm 2

# export activates, the settings reach the module, enable starts it
echo 0 >$CH/export || fail "export 0 failed"
P=$CH/pwm0
wait_for 5 test -e $P/enable || fail "pwm0 not exported"
state 0 "active=1 enabled=0"
echo 1000000 >$P/period || fail "period write failed"
echo 250000 >$P/duty_cycle || fail "duty_cycle write failed"
echo inversed >$P/polarity || fail "polarity write failed"
echo 1 >$P/enable || fail "enable failed"
state 0 "active=1 enabled=1 duty=250000 period=1000000 polarity=inversed"
assert_file_eq $P/enable 1
assert_file_eq $P/duty_cycle 250000

# a new duty cycle while running
echo 500000 >$P/duty_cycle || fail "duty_cycle change failed"
state 0 "enabled=1 duty=500000 period=1000000"
echo 0 >$P/enable || fail "disable failed"
state 0 "active=1 enabled=0"
echo normal >$P/polarity || fail "polarity back to normal failed"
state 0 "polarity=normal"

# the second output, and unexport deactivates
echo 1 >$CH/export || fail "export 1 failed"
state 1 "active=1"
echo 1 >$CH/unexport || fail "unexport 1 failed"
state 1 "active=0"

# an error answer and no answer at all fail the write, nothing else
c fault add intf=2 proto=0x09 type=0x07 result=invalid >/dev/null ||
	fail "fault add failed"
if echo 1 >$P/enable 2>/dev/null; then
	fail "enable succeeded although gbsim refused it"
fi
expect_dmesg 'pwm operation 0x07 failed: -'
assert_file_eq $P/enable 0
echo 1 >$P/enable || fail "enable failed after the fault"
state 0 "enabled=1"
c fault add intf=2 proto=0x09 type=0x05 drop >/dev/null ||
	fail "fault add failed"
if echo 200000 >$P/duty_cycle 2>/dev/null; then
	fail "duty_cycle write succeeded although gbsim never answered"
fi
expect_dmesg 'pwm operation 0x05 failed: -110'
assert_file_eq $P/duty_cycle 500000
echo 300000 >$P/duty_cycle || fail "duty_cycle write failed after the faults"
state 0 "enabled=1 duty=300000"

# the module leaves while a writer holds duty_cycle open
exec 3>$P/duty_cycle
c remove 2 || fail "remove failed"
wait_for 10 sh -c '! ls -d /sys/class/pwm/pwmchip* 2>/dev/null | grep -q .' ||
	wait_for 10 sh -c "! test -e $CH" || fail "pwmchip still there"
if echo 300000 >&3 2>/dev/null; then
	fail "a write to a removed pwm succeeded"
fi
exec 3>&-

kill -TERM $pid
wait $pid
unload_all_gb
