# Checks gb-gpio against a misbehaving module: error results, short and missing answers make gpioget/gpioset fail with the driver's error logged, bad IRQ events (wrong size, a line that does not exist, an unknown request) are refused and later events still arrive, a failed unmask leaves gpiomon running without events, and unplugging the module while gpiomon waits ends gpiomon with an error and while gpioset holds a line leaves nothing in use and no irq of the driver behind.
# timeout: 180
# tools: gpiodetect gpioinfo gpioget gpioset gpiomon
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim gpiodetect gpioget gpioset gpiomon
load_gb greybus gb-vhd gb-gbphy gb-gpio

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
c() {
	gbsim ctl "$@"
}
fault() {
	c fault add intf=2 proto=gpio "$@" >/dev/null || fail "fault add $* failed"
}
level() {
	c gpio 2:1 "$1" "$2" || fail "gbsim ctl gpio $1 $2 failed"
}
mark() {
	MARK=$(wc -l <log)
}
_since() {
	tail -n +$((MARK + 1)) log | grep -q -- "$1"
}
since() {
	wait_for 5 _since "$1" ||
		fail "gbsim logged no '$1': $(tail -n +$((MARK + 1)) log | grep 'gpio cport' | tail -n 3)"
}
_lines() {
	test "$(wc -l <"$1")" -ge "$2"
}
gone() {
	! kill -0 "$1" 2>/dev/null
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/gbphy-bridge.mnfs >out 2>err &
pid=$!
wait_for 30 gbphy_gpiochip >/dev/null || fail "no gbphy gpiochip: $(cat err)"
CH=$(gbphy_gpiochip)

# get_value: an error result, a short answer, no answer
fault type=get_value result=invalid
if gpioget $CH 1 >/dev/null 2>&1; then
	fail "gpioget succeeded although gbsim refused get_value"
fi
expect_dmesg 'gpio operation 0x08 failed: -'
fault type=get_value short=0
if gpioget $CH 1 >/dev/null 2>&1; then
	fail "gpioget succeeded on a short get_value answer"
fi
fault type=get_value drop
if gpioget $CH 1 >/dev/null 2>&1; then
	fail "gpioget succeeded although gbsim never answered"
fi
expect_dmesg 'gpio operation 0x08 failed: -110'
level 1 1
assert_eq "$(gpioget $CH 1)" 1 "gpioget after the faults"

# activate and direction_out refused: gpioset fails, the line is free
fault type=activate result=invalid
if gpioset $CH 4=1 2>/dev/null; then
	fail "gpioset succeeded although gbsim refused activate"
fi
expect_dmesg 'gpio operation 0x03 failed: -'
fault type=direction_out result=malfunction
if gpioset $CH 4=1 2>/dev/null; then
	fail "gpioset succeeded although gbsim refused direction_out"
fi
expect_dmesg 'gpio operation 0x07 failed: -'
gpioinfo $CH | grep -q 'line *4:.*unused' || fail "line 4 left in use: $(gpioinfo $CH)"
mark
gpioset $CH 4=1 || fail "gpioset failed after the faults"
since "line 4: active=1 dir=out value=1"

# bad IRQ events from the module are refused; a good one still arrives
level 2 0
mark
gpiomon -b -n 1 -F '%e %o' $CH 2 >mon 2>mon.err &
mon=$!
since "line 2: .* irq=unmasked type=both"
c request 2:1 gpio.irq_event 0200 id=0 >/dev/null || fail "request failed"
expect_dmesg 'irq event of 2 bytes'
c request 2:1 gpio.irq_event 09 id=0 >/dev/null || fail "request failed"
expect_dmesg 'irq event for line 9 of 8'
c request 2:1 0x30 02 id=0 >/dev/null || fail "request failed"
expect_dmesg 'unknown request type 0x30'
c fault add intf=2 proto=gpio type=irq_event dir=send short=0 >/dev/null ||
	fail "fault add failed"
level 2 1
expect_dmesg 'irq event of 0 bytes'
test -s mon && fail "gpiomon reported a refused event: $(cat mon)"
level 2 0
wait_for 10 gone $mon || fail "gpiomon saw no event after the bad ones: $(cat mon.err)"
wait $mon || fail "gpiomon failed: $(cat mon.err)"
assert_eq "$(cat mon)" "0 2" "gpiomon event after the bad ones"

# an unmask the module refuses: gpiomon runs, no event is sent
fault type=irq_unmask result=invalid
mark
gpiomon -b -F '%e %o' $CH 3 >mon 2>mon.err &
mon=$!
expect_dmesg 'gpio operation 0x0d failed: -'
since "line 3: .* irq=masked type=both"
level 3 1
level 3 0
sleep 1
kill -0 $mon 2>/dev/null || fail "gpiomon ended: $(cat mon.err)"
test -s mon && fail "gpiomon reported an event of a masked line: $(cat mon)"
kill $mon
wait $mon

# the module leaves while gpiomon waits and gpioset holds a line
mark
gpiomon -b -F '%e %o' $CH 5 >mon 2>mon.err &
mon=$!
gpioset -m signal $CH 6=1 &
set=$!
since "line 5: .* irq=unmasked type=both"
since "line 6: active=1 dir=out value=1"
grep -qs greybus-gpio /sys/kernel/irq/*/chip_name ||
	fail "no greybus-gpio irq in /sys/kernel/irq"
c remove 2 || fail "remove failed"
wait_for 15 gone $mon || fail "gpiomon still running after the module left"
if wait $mon; then
	fail "gpiomon exited 0 after the module left: $(cat mon.err)"
fi
info "gpiomon: $(cat mon.err)"
gone $set && fail "gpioset ended before it was told to"
kill $set
wait $set
# the last claimed irq gone, the driver's irq domain goes too
wait_for 10 sh -c '! grep -qs greybus-gpio /sys/kernel/irq/*/chip_name' ||
	fail "greybus-gpio irqs left after the unplug"
wait_for 10 sh -c '! gpiodetect 2>/dev/null | grep -q gbphy' ||
	fail "gpiochip still there after the module left"

kill -TERM $pid
wait $pid
unload_all_gb
exit 0
