# SPDX-License-Identifier: GPL-2.0
# For the gb-loopback cases: on a failure, print every loopback device's
# test state and error counters (lib.sh's fail() calls on_fail).  Source
# after lib.sh; a case that wants more defines its own on_fail() that
# calls loopback_on_fail.

loopback_on_fail() {
	local lb a
	for lb in /sys/class/gb_loopback/*; do
		[ -e "$lb" ] || { echo "no gb_loopback device"; return 0; }
		for a in type size async outstanding_operations_max timeout \
			iteration_max iteration_count error requests_completed \
			requests_timedout; do
			[ -r "$lb/$a" ] && printf '%s ' "$a=$(cat "$lb/$a" 2>&1)"
		done
		echo "(${lb##*/})"
	done
}

on_fail() {
	loopback_on_fail
}
