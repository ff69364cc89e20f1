# Checks that gbsim as an emulated ES2 USB bridge (functionfs on dummy_hcd) enumerates through gb-es2 into the same tree as over gb-vhd, with the bridge's vendor requests and ARPCs in gbsim's log.
# timeout: 120
# kmods: configfs libcomposite usb_f_fs dummy_hcd
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/es2.sh

need_tool gbsim
need_kmod configfs libcomposite usb_f_fs dummy_hcd
M=/usr/share/greybus/manifests
DEV=/sys/bus/greybus/devices
LOG=$GBTEST_TMP/gbsim.log

es2_setup || fail "cannot set up the ES2 gadget"
gbsim --transport es2 --log "$LOG" \
	--module 2:$M/audio.mnfs,vid=0x12345678,pid=0x9abcdef0,serial=0x0011223344556677 \
	2>"$GBTEST_TMP/gbsim.err" &
pid=$!

wait_for 40 test -e "$DEV/1-2.2.1/bundle_class" || {
	cat /sys/kernel/debug/greybus/greybus1/connections
	cat "$LOG"
	fail "bundle 1-2.2.1 did not appear: $(ls $DEV 2>&1 | tr '\n' ' ') $(cat "$GBTEST_TMP/gbsim.err") $(tail -n 5 "$LOG")"
}
kill -0 "$pid" 2>/dev/null || fail "gbsim died: $(cat "$GBTEST_TMP/gbsim.err")"
grep -q 'INFO    host device greybus1 created' "$LOG" ||
	fail "gbsim did not find host device greybus1: $(grep 'host device' "$LOG")"
uevent_settle 10

# the bridge is a USB device with the APBridgeA ids, bound to gb-es2
usbdev=
for d in /sys/bus/usb/devices/*; do
	[ "$(cat "$d/idVendor" 2>/dev/null)" = 18d1 ] &&
		[ "$(cat "$d/idProduct" 2>/dev/null)" = 1eaf ] && usbdev=$d
done
[ -n "$usbdev" ] || fail "no USB device 18d1:1eaf: $(ls /sys/bus/usb/devices | tr '\n' ' ')"
intf=$usbdev/$(basename "$usbdev"):1.0
[ "$(basename "$(readlink -f "$intf/driver")")" = gb-es2 ] ||
	fail "$intf is not bound to gb-es2: $(readlink -f "$intf/driver")"
case $(readlink -f "$DEV/greybus1") in
"$(readlink -f "$intf")"/greybus1) ;;
*) fail "greybus1 is not under the USB interface: $(readlink -f "$DEV/greybus1")" ;;
esac
expect_dmesg 'APBridgeA with 32 cports is greybus1'

# the tree is the one case 20 sees over gb-vhd
tree=$(ls "$DEV" | sort | tr '\n' ' ')
assert_eq "$tree" "1-2 1-2.2 1-2.2.1 1-2.2.ctrl 1-svc greybus1 " "devices"
assert_file_eq "$DEV/greybus1/bus_id" 1
assert_file_eq "$DEV/1-svc/endo_id" 0x4755
assert_file_eq "$DEV/1-2.2/vendor_id" 0x12345678
assert_file_eq "$DEV/1-2.2/product_id" 0x9abcdef0
assert_file_eq "$DEV/1-2.2/serial_number" 0x0011223344556677
assert_file_eq "$DEV/1-2.2.ctrl/product_string" "Simple Audio Interface"
assert_file_eq "$DEV/1-2.2.1/bundle_class" 0x12
case $(readlink -f "$DEV/1-2.2.1") in
*/greybus1/1-2/1-2.2/1-2.2.1) ;;
*) fail "1-2.2.1 is not under 1-2/1-2.2: $(readlink -f "$DEV/1-2.2.1")" ;;
esac

# CPORT_FLAGS for the SVC's CPort and the control connection (flag 0x1)
grep -q 'cport 0 enable flags=0x0' "$LOG" || fail "no CPORT_FLAGS for cport 0: $(grep -m 3 enable "$LOG")"
grep -q 'cport [0-9]* enable flags=0x1' "$LOG" ||
	fail "no CPORT_FLAGS with the control flag: $(grep enable "$LOG")"
grep -q '^\[.*\] ERROR' "$LOG" && fail "gbsim logged an error: $(grep -m 1 ERROR "$LOG")"
grep -q 'WARN.*es2' "$LOG" && fail "gbsim refused a request: $(grep -m 1 'WARN.*es2' "$LOG")"

# stopping gbsim unplugs the bridge: USB device and host device go
kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(cat "$GBTEST_TMP/gbsim.err")"
wait_for 20 test ! -e "$DEV/greybus1" || fail "greybus1 still there after gbsim exited"
wait_for 20 test ! -e "$usbdev" || fail "$usbdev still there after gbsim exited"
exit 0
