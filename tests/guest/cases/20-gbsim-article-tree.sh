# Checks that the article's audio module, inserted by gbsim at interface 2, enumerates into exactly the article's tree with every attribute right.
# timeout: 60
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
for m in audio; do
	[ -r "$M/$m.mnfs" ] || fail "no $M/$m.mnfs in the guest"
done
DEV=/sys/bus/greybus/devices
LOG=$GBTEST_TMP/gbsim.log

load_gb greybus gb-vhd
gbsim --log "$LOG" \
	--module 2:$M/audio.mnfs,vid=0x12345678,pid=0x9abcdef0,serial=0x0011223344556677 \
	2>"$GBTEST_TMP/gbsim.err" &
pid=$!

wait_for 20 test -e "$DEV/1-2.2.1/bundle_class" ||
	fail "bundle 1-2.2.1 did not appear: $(ls $DEV 2>&1 | tr '\n' ' ') $(cat "$GBTEST_TMP/gbsim.err")"
kill -0 "$pid" 2>/dev/null || fail "gbsim died: $(cat "$GBTEST_TMP/gbsim.err")"
grep -q 'INFO    host device greybus1 created' "$LOG" ||
	fail "gbsim did not get host device greybus1: $(grep 'host device' "$LOG")"
uevent_settle 10

# exactly the article's tree, nothing else
tree=$(ls "$DEV" | sort | tr '\n' ' ')
assert_eq "$tree" "1-2 1-2.2 1-2.2.1 1-2.2.ctrl 1-svc greybus1 " "devices"

assert_file_eq "$DEV/greybus1/bus_id" 1
assert_file_eq "$DEV/1-svc/ap_intf_id" 0
assert_file_eq "$DEV/1-svc/endo_id" 0x4755
[ -e "$DEV/1-svc/intf_eject" ] || fail "1-svc has no intf_eject"
assert_file_eq "$DEV/1-2/module_id" 2
assert_file_eq "$DEV/1-2/num_interfaces" 1
[ -e "$DEV/1-2/eject" ] || fail "1-2 has no eject"
assert_file_eq "$DEV/1-2.2/interface_id" 2
assert_file_eq "$DEV/1-2.2/vendor_id" 0x12345678
assert_file_eq "$DEV/1-2.2/product_id" 0x9abcdef0
assert_file_eq "$DEV/1-2.2/serial_number" 0x0011223344556677
assert_file_eq "$DEV/1-2.2/ddbl1_manufacturer_id" 0x00000126
assert_file_eq "$DEV/1-2.2/ddbl1_product_id" 0x00001002
assert_file_eq "$DEV/1-2.2/interface_type" greybus
assert_file_eq "$DEV/1-2.2.ctrl/vendor_string" "Project Ara"
assert_file_eq "$DEV/1-2.2.ctrl/product_string" "Simple Audio Interface"
assert_file_eq "$DEV/1-2.2.1/bundle_id" 1
assert_file_eq "$DEV/1-2.2.1/bundle_class" 0x12
[ -e "$DEV/1-2.2.1/state" ] || fail "1-2.2.1 has no state"

# the parent links follow the article's picture
for d in 1-svc 1-2; do
	case $(readlink -f "$DEV/$d") in
	*/greybus1/"$d") ;;
	*) fail "$d is not a child of greybus1: $(readlink -f "$DEV/$d")" ;;
	esac
done
case $(readlink -f "$DEV/1-2.2.1") in
*/greybus1/1-2/1-2.2/1-2.2.1) ;;
*) fail "1-2.2.1 is not under 1-2/1-2.2: $(readlink -f "$DEV/1-2.2.1")" ;;
esac

# the AP asked for nothing gbsim refused
grep -q '^\[.*\] ERROR' "$LOG" && fail "gbsim logged an error: $(grep -m 1 ERROR "$LOG")"

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(cat "$GBTEST_TMP/gbsim.err")"
wait_for 10 test ! -e "$DEV/greybus1" || fail "greybus1 still there after gbsim exited"
exit 0
