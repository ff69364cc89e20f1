# Checks that killing gbsim removes the whole tree without a kernel warning, and that every module unloads afterwards.
# timeout: 60
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
for m in audio test-vendor two-bundle; do
	[ -r "$M/$m.mnfs" ] || fail "no $M/$m.mnfs in the guest"
done
DEV=/sys/bus/greybus/devices

load_gb greybus gb-vhd
gbsim --log "$GBTEST_TMP/gbsim.log" --module 2:$M/audio.mnfs \
	--module 4:$M/test-vendor.mnfs --module 6:$M/two-bundle.mnfs \
	2>"$GBTEST_TMP/gbsim.err" &
pid=$!

wait_for 20 test -e "$DEV/1-4.4.1/driver" ||
	fail "the test driver did not bind to 1-4.4.1: $(ls $DEV 2>&1 | tr '\n' ' ')"
wait_for 20 test -e "$DEV/1-6.6.2" || fail "1-6.6.2 did not appear"
wait_for 20 test -e "$DEV/1-2.2.1" || fail "1-2.2.1 did not appear"
uevent_settle 10

# SIGKILL: no chance to clean up, the file is simply closed
kill -KILL "$pid"
wait "$pid" 2>/dev/null
_tree_gone() {
	[ -z "$(ls "$DEV")" ]
}
wait_for 10 _tree_gone || fail "devices left after gbsim was killed: $(ls "$DEV" | tr '\n' ' ')"
dmesg | grep -Eq "$GB_HEALTH_RE" && fail "kernel warning after unplug: $(dmesg | grep -Em 1 "$GB_HEALTH_RE")"

uevent_settle 10
unload_all_gb
wait_for 5 test ! -e /sys/bus/greybus || fail "/sys/bus/greybus still present after unloading"
[ -z "$(gb_loaded)" ] || fail "modules still loaded: $(gb_loaded | tr '\n' ' ')"
exit 0
