# Checks gb-gpio with libgpiod: the bridge module's GPIO CPort is a gpiochip with gbsim's 8 lines (gpiodetect, gpioinfo), gpioget reads the levels gbsim puts on its lines, gpioset drives values gbsim logs, gpiomon reports the rising and falling edges gbsim raises (both edges, rising only, falling only), a debounce period set through the v2 uAPI (tools/gpiov2) reaches gbsim and one beyond the protocol's 65535 us is refused, the interrupt is masked again when gpiomon exits, and a requested line keeps the gbphy device and bundle resumed.
# timeout: 150
# tools: gpiodetect gpioinfo gpioget gpioset gpiomon
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim gpiodetect gpioinfo gpioget gpioset gpiomon gpiov2
load_gb greybus gb-vhd gb-gbphy gb-gpio

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
c() {
	gbsim ctl "$@"
}
# level LINE 0|1: gbsim puts that level on its line (interface 2, CPort 1)
level() {
	c gpio 2:1 "$1" "$2" || fail "gbsim ctl gpio $1 $2 failed"
}
# mark / since TEXT: wait for a gbsim log line with TEXT after the mark
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
n_events() {
	grep -c 'INFO    gpio cport [0-9]* line [0-9]*: irq event' log
}
_lines() {
	test "$(wc -l <"$1")" -ge "$2"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/gbphy-bridge.mnfs >out 2>err &
pid=$!
wait_for 30 gbphy_gpiochip >/dev/null || fail "no gbphy gpiochip: $(gpiodetect 2>&1) $(cat err)"
CH=$(gbphy_gpiochip)
info "$(gpiodetect | grep "^$CH ")"
gpiodetect | grep -q "^$CH \[gbphy[0-9]*\] (8 lines)$" ||
	fail "gpiodetect: $(gpiodetect | grep "^$CH ")"

# every line is an input (gbsim's default), none in use
gpioinfo $CH >info || fail "gpioinfo failed"
assert_eq "$(grep -c 'line *[0-9]*:' info)" 8 "lines in gpioinfo"
assert_eq "$(grep 'line *[0-9]*:' info | grep -c 'unused *input')" 8 \
	"unused inputs in gpioinfo"

# gpioget reads the level gbsim puts on the line
level 3 1
mark
assert_eq "$(gpioget $CH 3)" 1 "gpioget line 3 at level 1"
since "line 3: active=1 dir=in"
since "line 3: active=0"
level 3 0
assert_eq "$(gpioget $CH 3)" 0 "gpioget line 3 at level 0"
level 4 1
assert_eq "$(gpioget $CH 3 4)" "0 1" "gpioget lines 3 and 4"

# gpioset drives the line, and leaves it driven when it exits
mark
gpioset $CH 5=1 || fail "gpioset 5=1 failed"
since "line 5: active=1 dir=out value=1"
since "line 5: active=0 dir=out value=1"
mark
gpioset $CH 5=0 6=1 || fail "gpioset 5=0 6=1 failed"
since "line 5: active=1 dir=out value=0"
since "line 6: active=1 dir=out value=1"
gpioinfo $CH | grep -q 'line *5:.*output' || fail "line 5 not an output: $(gpioinfo $CH)"

# gpiomon, both edges: the interrupt is unmasked, each edge is one event.
# IRQ_EVENT does not say which edge it was: with both edges requested
# gpiolib reads the line when it handles the event and reports its level
# then, so each edge is waited for before the line changes again.
level 2 0
mark
gpiomon -b -n 4 -F '%e %o' $CH 2 >mon 2>mon.err &
mon=$!
since "line 2: active=1 dir=in .* irq=unmasked type=both"
before=$(n_events)
level 2 1
wait_for 10 _lines mon 1 || fail "gpiomon saw no rising edge: $(cat mon mon.err)"
level 2 0
wait_for 10 _lines mon 2 || fail "gpiomon saw no falling edge: $(cat mon mon.err)"
level 2 1
wait_for 10 _lines mon 3 || fail "gpiomon saw no second rising edge: $(cat mon mon.err)"
level 2 0
wait_for 10 sh -c "! kill -0 $mon 2>/dev/null" ||
	fail "gpiomon did not exit after 4 events: $(cat mon mon.err)"
wait $mon || fail "gpiomon failed: $(cat mon.err)"
assert_eq "$(cat mon | tr '\n' ' ')" "1 2 0 2 1 2 0 2 " "gpiomon events"
assert_eq "$(n_events)" $((before + 4)) "irq events gbsim sent"
# free_irq masks it and the line is released
since "line 2: active=0 .* irq=masked"

# one_edge FLAG TYPE LINE FROM: gpiomon FLAG on LINE, which starts at
# level FROM, reports only the two edges of TYPE among three changes;
# an edge of the other kind sends no event at all
one_edge() {
	local flag=$1 type=$2 line=$3 from=$4 to=$((1 - $4)) e=0

	[ "$type" = rising ] && e=1
	level $line $from
	mark
	gpiomon -b $flag -n 2 -F '%e %o' $CH $line >mon 2>mon.err &
	mon=$!
	since "line $line: .* irq=unmasked type=$type"
	before=$(n_events)
	level $line $to
	wait_for 10 _lines mon 1 || fail "gpiomon $flag saw no $type edge: $(cat mon mon.err)"
	level $line $from
	level $line $to
	wait_for 10 sh -c "! kill -0 $mon 2>/dev/null" ||
		fail "gpiomon $flag did not exit after 2 events: $(cat mon mon.err)"
	wait $mon || fail "gpiomon $flag failed: $(cat mon.err)"
	assert_eq "$(cat mon | tr '\n' ' ')" "$e $line $e $line " "gpiomon $flag events"
	assert_eq "$(n_events)" $((before + 2)) "irq events gbsim sent for $type only"
}
one_edge -r rising 7 0
one_edge -f falling 0 1

# debounce (v2 uAPI): the period reaches gbsim's line, the chip reports it
level 4 1
mark
out=$(gpiov2 -d 1500 /dev/$CH 4) || fail "gpiov2 -d 1500 failed"
assert_eq "$out" "line 4: value=1 debounce_period_us=1500" "gpiov2 -d 1500"
since "line 4: active=1 dir=in .* debounce=1500"
# with edge detection too: events still arrive
mark
gpiov2 -d 20000 -e falling -n 1 /dev/$CH 4 >mon 2>mon.err &
mon=$!
since "line 4: active=1 dir=in .* irq=unmasked type=falling debounce=20000"
level 4 0
wait_for 10 sh -c "! kill -0 $mon 2>/dev/null" ||
	fail "gpiov2 -e falling did not exit: $(cat mon mon.err)"
wait $mon || fail "gpiov2 -e falling failed: $(cat mon.err)"
assert_eq "$(cat mon | tr '\n' ' ')" "line 4: value=1 debounce_period_us=20000 falling 4 " "gpiov2 events"
# beyond the protocol's 16 bits: refused, nothing sent
mark
gpiov2 -d 70000 /dev/$CH 4 >out 2>err.v2 && fail "gpiov2 -d 70000 succeeded: $(cat out)"
grep -q "GPIO_V2_GET_LINE_IOCTL: Invalid argument" err.v2 || fail "gpiov2 -d 70000: $(cat err.v2)"
expect_dmesg 'line 4: debounce of 70000 us is beyond the protocol.s 65535 us'
_since "debounce=70000" && fail "gbsim got a debounce of 70000"

# an edge on a masked line sends nothing
before=$(n_events)
level 7 0
level 7 1
assert_eq "$(n_events)" "$before" "irq events for a masked line"

# runtime PM: idle, the gbphy device and the bundle suspend; a requested
# line keeps them resumed past the autosuspend delay
G=/sys/bus/gbphy/devices/$(gpiodetect | grep "^$CH " | sed 's/.*\[\(gbphy[0-9]*\)\].*/\1/')
wait_file_eq 10 $G/power/runtime_status suspended ||
	fail "idle gbphy device not suspended"
gpioset -m signal $CH 6=0 &
set=$!
wait_file_eq 5 $G/power/runtime_status active ||
	fail "gbphy device not resumed for a requested line"
sleep 4
assert_file_eq $G/power/runtime_status active
c pm 2 | grep -q "bundle 1 state=active" || fail "bundle not active: $(c pm 2)"
kill $set
wait $set
wait_file_eq 10 $G/power/runtime_status suspended ||
	fail "gbphy device not suspended after the line was freed"
wait_for 10 sh -c "gbsim ctl pm 2 | grep -q 'bundle 1 state=suspended'" ||
	fail "bundle not suspended: $(c pm 2)"

kill -TERM $pid
wait $pid
wait_for 10 sh -c '! gpiodetect 2>/dev/null | grep -q gbphy' ||
	fail "gpiochip still there after gbsim stopped"
unload_all_gb
exit 0
