# SPDX-License-Identifier: GPL-2.0
# CC1352 firmware upload on the arm64 guest's serdev link (docs/hdlc.md,
# "Firmware upload").  Source after lib.sh and serdev.sh.
#
#   fwup_backdoor_driven  true while gb-hdlc drives the bootloader-backdoor
#                         line low (gpiolib's debugfs says "out lo")
#   fwup_start IMG        write IMG to /sys/class/firmware/cc1352p7 (the
#                         upload then runs on its own)
#   fwup_chip CTL         play the chip: wait until the backdoor is driven
#                         low, then tell gbsim (ctl socket CTL) that it was
#                         reset with it low: its ROM bootloader runs.  A
#                         chip already in its bootloader (no valid image in
#                         flash: TI's ROM runs it after every reset) answers
#                         the sync by itself: nothing to play then
#   fwup_chip_reset CTL   tell gbsim that the chip was reset with the
#                         backdoor released, as gb-hdlc's cleanup does after
#                         a failed upload: its flash boots if valid, else
#                         its ROM bootloader runs
#   fwup_wait             wait until the upload has ended (status idle)
#   fwup_error            the upload's error file

FWUP=/sys/class/firmware/cc1352p7

#   fwup_chip_up WHAT     the case's set-up: skip without a CC1352 in the
#                         device tree, gbsim plays it (ctl socket $CTL) with
#                         a loopback module, $LB there before WHAT
fwup_chip_up() {
	serdev_here
	modprobe fixed 2>/dev/null
	need_tool gbsim
	M=/usr/share/greybus/manifests
	LB=/sys/class/gb_loopback/gb_loopback0
	CTL=$GBTEST_TMP/ctl
	load_gb gb-loopback
	cc1352_sim --ctl $CTL -m 2:$M/loopback.mnfs
	wait_for 60 test -e $LB || fail "no gb_loopback0 before $1"
}

fwup_backdoor_driven() {
	local n
	n=$(serdev_gpio backdoor) || return 1
	awk -v n="$n" '
		/^gpiochip/ { chip = /pl061/; split($0, w, /GPIOs |-|,/); base = w[2]; next }
		chip && index($0, " gpio-" (base + n) " ") == 1 { if (/ out lo/) ok = 1; exit }
		END { exit !ok }' /sys/kernel/debug/gpio
}

fwup_start() {
	wait_for 10 test -e $FWUP/loading || fail "no $FWUP"
	echo 1 >$FWUP/loading || fail "cannot start an upload"
	cat "$1" >$FWUP/data || fail "cannot write the image"
	echo 0 >$FWUP/loading
}

fwup_chip() {
	gbsim ctl -s "$1" hdlc rom | grep -q '^mode=bootloader ' && return 0
	wait_for 30 fwup_backdoor_driven || fail "gb-hdlc never drove the backdoor line low"
	gbsim ctl -s "$1" hdlc rom bootloader || fail "gbsim ctl hdlc rom bootloader failed"
}

fwup_chip_reset() {
	gbsim ctl -s "$1" hdlc rom reset || fail "gbsim ctl hdlc rom reset failed"
}

fwup_wait() {
	wait_file_eq 300 $FWUP/status idle || fail "the upload did not end (status $(cat $FWUP/status))"
}

fwup_error() {
	cat $FWUP/error
}

#   fwup_patient          answers may take 5 s, the chip 20 s to enter its
#                         bootloader (both times GB_TSCALE): a busy
#                         machine's guest is no silent bootloader, and the
#                         sync, resent after each answer's time, is tried
#                         several times before the chip counts as absent
#   fwup_fails IMG EXPECT LOG [FAULT...]
#                         arm the gbsim faults FAULT ("CMD KIND"), upload
#                         IMG as the chip, expect error EXPECT and a kernel
#                         log line matching LOG; with faults, the chip was
#                         in its bootloader: the reset gb-hdlc gives it
#                         afterwards is played too
fwup_patient() {
	echo $((5000 * ${GB_TSCALE:-1})) >/sys/module/gb_hdlc/parameters/reply_timeout_ms
	echo $((20000 * ${GB_TSCALE:-1})) >/sys/module/gb_hdlc/parameters/boot_timeout_ms
}

fwup_fails() {
	local img=$1 expect=$2 log=$3 f
	shift 3
	for f in "$@"; do
		# shellcheck disable=SC2086
		gbsim ctl -s "$CTL" hdlc rom fault $f || fail "gbsim ctl hdlc rom fault $f failed"
	done
	fwup_start "$img"
	[ $# -gt 0 ] && fwup_chip "$CTL"
	fwup_wait
	assert_eq "$(fwup_error)" "$expect" "the error after '$*'"
	expect_dmesg "$log" 10
	[ $# -eq 0 ] || fwup_chip_reset "$CTL"
}
