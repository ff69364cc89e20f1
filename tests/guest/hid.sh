# SPDX-License-Identifier: GPL-2.0
# The gb-hid cases' keyboard: gbsim's keyboard.mnfs on interface 2, whose
# bundle 1 holds the HID device (vendor 0x4753, product 0x4b42), and the
# hidraw and evdev nodes Linux makes for it. Sourced after lib.sh.

B=/sys/bus/greybus/devices/1-2.2.1
HID_ID=0006:4753:4B42

# hid_nodes: the keyboard's hidraw and event nodes are in sysfs
hid_nodes() {
	ls -d $B/$HID_ID.*/hidraw/hidraw* >/dev/null 2>&1 &&
	ls -d $B/$HID_ID.*/input/input*/event* >/dev/null 2>&1
}

# hid_find WHEN: waits for the keyboard's nodes and sets H (its HID
# device in sysfs), RAW (/dev/hidrawN), EVS (its event node in sysfs) and
# EV (/dev/input/eventN); WHEN names the moment in a failure
hid_find() {
	wait_for 30 hid_nodes || fail "no hidraw/event node under $B ($1): $(ls $B 2>&1) $(cat gbsim.err 2>/dev/null)"
	H=$(ls -d $B/$HID_ID.* | head -n 1)
	RAW=/dev/$(basename "$(ls -d $H/hidraw/hidraw* | head -n 1)")
	EVS=$(ls -d $H/input/input*/event* | head -n 1)
	EV=/dev/input/$(basename "$EVS")
	wait_for 5 test -c "$RAW" || fail "$RAW missing ($1)"
	wait_for 5 test -c "$EV" || fail "$EV missing ($1)"
}

# hid_evtest OUT [--grab]: evtest on $EV in the background, its output in
# OUT and its pid in evpid, once it reads events
hid_evtest() {
	evtest ${2:-} "$EV" >"$1" 2>&1 &
	evpid=$!
	wait_for 10 grep -q 'Testing ... (interrupt to exit)' "$1" ||
		fail "evtest did not start: $(cat "$1")"
}
