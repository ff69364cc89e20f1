# Checks that a two-bundle interface gives two bundle devices with the manifest's ids and classes.
# timeout: 60
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
for m in two-bundle; do
	[ -r "$M/$m.mnfs" ] || fail "no $M/$m.mnfs in the guest"
done
DEV=/sys/bus/greybus/devices
LOG=$GBTEST_TMP/gbsim.log

load_gb greybus gb-vhd
gbsim --log "$LOG" --module 3:$M/two-bundle.mnfs 2>"$GBTEST_TMP/gbsim.err" &
pid=$!

wait_for 20 test -e "$DEV/1-3.3.2/bundle_class" ||
	fail "bundle 1-3.3.2 did not appear: $(ls $DEV 2>&1 | tr '\n' ' ') $(cat "$GBTEST_TMP/gbsim.err")"
uevent_settle 10

bundles=$(cd "$DEV" && ls -d 1-3.3.* | sort | tr '\n' ' ')
assert_eq "$bundles" "1-3.3.1 1-3.3.2 1-3.3.ctrl " "bundles of 1-3.3"
assert_file_eq "$DEV/1-3.3.1/bundle_id" 1
assert_file_eq "$DEV/1-3.3.1/bundle_class" 0x10
assert_file_eq "$DEV/1-3.3.2/bundle_id" 2
assert_file_eq "$DEV/1-3.3.2/bundle_class" 0x11
assert_file_eq "$DEV/1-3/module_id" 3
assert_file_eq "$DEV/1-3.3/interface_id" 3
assert_file_eq "$DEV/1-3.3/vendor_id" 0x00000001
assert_file_eq "$DEV/1-3.3/serial_number" 0x4742534d00000003
assert_file_eq "$DEV/1-3.3.ctrl/vendor_string" "Greybus Sim"
assert_file_eq "$DEV/1-3.3.ctrl/product_string" "Vibrator and Loopback Module"

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(cat "$GBTEST_TMP/gbsim.err")"
wait_for 10 test ! -e "$DEV/greybus1" || fail "greybus1 still there after gbsim exited"
exit 0
