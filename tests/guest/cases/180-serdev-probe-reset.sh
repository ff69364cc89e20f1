# Checks gb-hdlc's serdev driver on the arm64 guest's device tree, where the CC1352 is a child of the PL011 UART as on a BeaglePlay (ti,cc1352p7; reset-gpios and bootloader-backdoor-gpios active-high on the GPIO controller; vdds-supply a fixed regulator): the driver binds it, holding the chip in reset (RESET_N low) while the UART is started and set up, and releases it (high) only after; the backdoor line is left an input; the driver is one more user of the regulator while bound; unbinding holds the chip in reset again and drops the regulator; binding again starts over. Levels while bound are the GPIO controller's reading (gpiolib's debugfs); the order, and the level left at unbind, come from the kernel's gpio trace events and kprobes on the PL011's startup and set_termios.
# timeout: 90
# transport: none
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/serdev.sh

serdev_here
TR=/sys/kernel/tracing
d=$(serdev_dev) || fail "no serdev device carries the ti,cc1352p7 node"
name=$(basename "$d")
[ -e "$d/driver" ] && fail "$name is bound before gb-hdlc is loaded: $(readlink "$d/driver")"
reset=$(serdev_gpio reset) && backdoor=$(serdev_gpio backdoor) ||
	fail "cannot read the node's reset-gpios/bootloader-backdoor-gpios"

# the GPIO numbers the trace events carry: the PL061's base plus the line
base=$(awk '/^gpiochip/ && /pl061/ { split($0, w, /GPIOs |-|,/); print w[2]; exit }' /sys/kernel/debug/gpio)
[ -n "$base" ] || fail "no PL061 in /sys/kernel/debug/gpio: $(head -n 3 /sys/kernel/debug/gpio)"
rgpio=$((base + reset))

on_fail() {
	cat /sys/kernel/debug/gpio
	grep -E 'gpio_|uart_' "$TR/trace" | tail -n 30
}
trace_off() {
	echo 0 >"$TR/tracing_on"
	echo 0 >"$TR/events/enable"
	echo "-:gbtest/uart_startup" >>"$TR/kprobe_events" 2>/dev/null
	echo "-:gbtest/uart_termios" >>"$TR/kprobe_events" 2>/dev/null
}
trace_on() {
	trace_off
	echo >"$TR/trace"
	echo 'p:gbtest/uart_startup pl011_startup' >>"$TR/kprobe_events" ||
		fail "no kprobe on pl011_startup"
	echo 'p:gbtest/uart_termios pl011_set_termios' >>"$TR/kprobe_events" ||
		fail "no kprobe on pl011_set_termios"
	echo 1 >"$TR/events/gbtest/enable"
	echo 1 >"$TR/events/gpio/enable"
	echo 1 >"$TR/tracing_on"
}

# check_order: in the trace, the reset line is driven low before the
# UART starts, stays low through every set-up of the UART, and goes high
# after them, once.  Prints what it found wrong.
check_order() {
	awk -v g="$rgpio" '
		/gpio_value:/ && $0 ~ (" " g " +set ") {
			v = $NF; if (v == 0) low++; else if (v == 1) { high++; if (!setup) early = 1 }
			level = v; next
		}
		/gpio_direction:/ && $0 ~ (" " g " +out ") { out = 1; next }
		/uart_startup:|uart_termios:/ {
			setup++
			if (level != "0") bad = bad " UART set up with reset at level \"" level "\";"
			if (/uart_startup:/) started = 1
			next
		}
		END {
			if (!out) print "the reset line was never made an output;"
			if (!started) print "the UART was never started;"
			if (!low) print "reset was never driven low;"
			if (high != 1) print "reset was driven high " high + 0 " times (once expected);"
			if (early) print "reset went high before the UART was set up;"
			if (level != 1) print "reset ends at level \"" level "\", not 1;"
			if (bad != "") print bad
		}' "$TR/trace"
}

line_dir() {
	awk -v g=" gpio-$1 " 'index($0, g) == 1 { if (/ in /) print "in"; else if (/ out /) print "out"; exit }' \
		/sys/kernel/debug/gpio
}

vdds_users() {
	local r
	for r in /sys/class/regulator/regulator.*; do
		[ "$(cat "$r/name" 2>/dev/null)" = vdd_3v3 ] && { cat "$r/num_users"; return 0; }
	done
	echo "?"
}

_vdds_there() { [ "$(vdds_users)" != "?" ]; }
modprobe fixed 2>/dev/null
wait_for 10 _vdds_there || fail "no regulator vdd_3v3 from the device tree"
for round in 1 2; do
	users=$(vdds_users)
	trace_on
	serdev_bind
	echo 0 >"$TR/tracing_on"
	why=$(check_order)
	[ -z "$why" ] || fail "bind $round: $why"
	assert_eq "$(serdev_line reset)" 1 "bind $round: reset level after probe"
	assert_eq "$(line_dir "$rgpio")" out "bind $round: reset line direction"
	assert_eq "$(line_dir "$((base + backdoor))")" in "bind $round: backdoor line direction"
	assert_eq "$(vdds_users)" $((users + 1)) "bind $round: users of vdd_3v3 (before: $users)"
	expect_dmesg "$name: Greybus link up"

	echo >"$TR/trace"
	echo 1 >"$TR/tracing_on"
	serdev_unbind
	echo 0 >"$TR/tracing_on"
	# the line is no longer requested: the last level the driver set
	last=$(awk -v g="$rgpio" '/gpio_value:/ && $0 ~ (" " g " +set ") { v = $NF } END { print v }' "$TR/trace")
	assert_eq "$last" 0 "unbind $round: the reset level set last (chip held in reset)"
	assert_eq "$(vdds_users)" "$users" "unbind $round: users of vdd_3v3"
done
trace_off
unload_all_gb
exit 0
