# SPDX-License-Identifier: GPL-2.0
# The serdev link of the arm64 guest (tests/arm64/guest.sh): the device
# tree puts a CC1352 (ti,cc1352p7) on the PL011 UART, gb-hdlc's serdev
# driver binds it; the UART's other end is the guest's /dev/hvc2, where
# gbsim --personality cc1352 plays the chip.  Source after lib.sh.
#
#   serdev_here         skip unless this guest has the CC1352 node
#   serdev_dev          the serdev device's sysfs directory
#   serdev_line NAME    reset or backdoor: the level on that GPIO line
#                       (1 high, 0 low) as the GPIO controller reads it
#   serdev_gpio NAME    its line number on the controller
#   serdev_bound        true while gb-hdlc is bound to the CC1352
#   serdev_bind         bind it (loading gb-hdlc and the regulator's
#                       driver first), wait until it is bound
#   serdev_unbind       unbind it, wait until it is not
#   serdev_restart      unbind if bound, bind: the link starts over
#   cc1352_sim ARG...   gbsim as the chip on hvc2 (--personality cc1352),
#                       with ARGs; log ./log, stdout ./out, stderr ./err,
#                       its pid in $pid; it waits until gbsim has the
#                       port open, then restarts the link
#   serdev_use          make every later `gbsim` of the case run as the
#                       chip, the link restarted under it (lib.sh does
#                       it when GB_TRANSPORT=serdev)
#   serdev_rerun CASE   run case CASE instead, with GB_TRANSPORT=serdev

GB_SERDEV_TTY=/dev/hvc2
GB_SERDEV_DRV=/sys/bus/serial/drivers/gb-hdlc
GB_SERDEV_BIN=/run/gbtest/serdevbin
GB_SERDEV_DT=/proc/device-tree

# the mcu node under the (one) PL011
_serdev_node() {
	local n
	for n in "$GB_SERDEV_DT"/pl011@*/mcu; do
		[ -d "$n" ] && { echo "$n"; return 0; }
	done
	return 1
}

serdev_here() {
	_serdev_node >/dev/null || skip "no CC1352 in the device tree (the arm64 guest has one)"
}

serdev_dev() {
	local d
	for d in /sys/bus/serial/devices/*; do
		[ -e "$d/of_node" ] || continue
		[ "$(tr -d '\0' <"$d/of_node/compatible" 2>/dev/null)" = ti,cc1352p7 ] &&
			{ readlink -f "$d"; return 0; }
	done
	return 1
}

# serdev_gpio reset|backdoor: the second cell of NAME-gpios
serdev_gpio() {
	local node prop
	node=$(_serdev_node) || return 1
	case $1 in
	reset) prop=reset-gpios ;;
	backdoor) prop=bootloader-backdoor-gpios ;;
	*) return 1 ;;
	esac
	printf '%d\n' "0x$(od -An -tx1 -j4 -N4 "$node/$prop" | tr -d ' \n')"
}

# The level: gpiolib's debugfs list of the PL061's requested lines
# ("gpiochip0: GPIOs 512-519, ...pl061...", then " gpio-518 (...|reset)
# out hi"), the controller's own reading of its data register.
serdev_line() {
	local n
	n=$(serdev_gpio "$1") || return 1
	awk -v n="$n" '
		/^gpiochip/ { chip = /pl061/; split($0, w, /GPIOs |-|,/); base = w[2]; next }
		chip && index($0, " gpio-" (base + n) " ") == 1 {
			if (/ hi/) print 1; else if (/ lo/) print 0; else print "?"
			found = 1; exit
		}
		END { if (!found) print "?" }' /sys/kernel/debug/gpio
}

serdev_bound() {
	local d
	d=$(serdev_dev) || return 1
	[ "$(basename "$(readlink -f "$d/driver" 2>/dev/null)")" = gb-hdlc ]
}

_serdev_unbound() {
	! serdev_bound
}

serdev_bind() {
	local d
	d=$(serdev_dev) || fail "serdev_bind: no serdev device with the CC1352 node"
	modprobe fixed 2>/dev/null
	load_gb greybus gb-hdlc
	serdev_bound && return 0
	basename "$d" >"$GB_SERDEV_DRV/bind" 2>/dev/null
	wait_for 10 serdev_bound || fail "gb-hdlc does not bind $(basename "$d") (dmesg: $(dmesg | grep -i -e hdlc -e serial | tail -n 3))"
}

serdev_unbind() {
	local d
	d=$(serdev_dev) || fail "serdev_unbind: no serdev device with the CC1352 node"
	serdev_bound || return 0
	basename "$d" >"$GB_SERDEV_DRV/unbind"
	wait_for 10 _serdev_unbound || fail "gb-hdlc does not let go of $(basename "$d")"
}

serdev_restart() {
	serdev_unbind
	serdev_bind
}

# true once process $1 has the CC1352's end of the UART open
_serdev_tty_open() {
	local f
	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "$GB_SERDEV_TTY" ] && return 0
	done
	return 1
}

cc1352_sim() {
	/usr/bin/gbsim --transport hdlc --device "$GB_SERDEV_TTY" --personality cc1352 \
		-l log "$@" >out 2>err &
	pid=$!
	on_fail() {
		tail -n 30 log
		cat err
	}
	wait_for 10 _serdev_tty_open "$pid" || fail "gbsim does not open $GB_SERDEV_TTY"
	serdev_restart
}

# A wrapper in place of gbsim: the same process (exec), started as the
# chip, and a helper that restarts the link once it has the port open.
serdev_use() {
	serdev_here
	modprobe fixed 2>/dev/null
	load_gb greybus gb-hdlc
	if [ ! -x "$GB_SERDEV_BIN/gbsim" ]; then
		mkdir -p "$GB_SERDEV_BIN"
		cat >"$GB_SERDEV_BIN/gbsim.new" <<'WRAP'
#!/bin/sh
case $1 in
ctl|-h|--help|-V|--version) exec /usr/bin/gbsim "$@" ;;
esac
sh -c '. /usr/lib/gbtest/lib.sh; . /usr/lib/gbtest/serdev.sh
	wait_for 10 _serdev_tty_open '$$' && serdev_restart' >/dev/null 2>&1 &
exec /usr/bin/gbsim --transport hdlc --device /dev/hvc2 --personality cc1352 "$@"
WRAP
		chmod 0755 "$GB_SERDEV_BIN/gbsim.new"
		mv "$GB_SERDEV_BIN/gbsim.new" "$GB_SERDEV_BIN/gbsim"
	fi
	case :$PATH: in
	*:"$GB_SERDEV_BIN":*) ;;
	*) PATH=$GB_SERDEV_BIN:$PATH; export PATH ;;
	esac
}

serdev_rerun() {
	serdev_here
	[ -r "$GBTEST_DIR/cases/$1.sh" ] || fail "serdev_rerun: no case $1 in the guest"
	GB_TRANSPORT=serdev
	export GB_TRANSPORT
	exec sh "$GBTEST_DIR/cases/$1.sh"
}
