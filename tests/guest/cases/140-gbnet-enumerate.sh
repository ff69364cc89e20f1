# Checks that gbnet reaches three gbsim TCP nodes on 127.0.0.2-4 and that each becomes a module of one interface (ids 2-4, AP at 1) with the SVC's attributes and its own manifest, listed up by gbnet ctl.
# transport: vhd
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh

need_tool gbsim gbnet
load_gb greybus gb-vhd
node_start 2 loopback.mnfs
node_start 3 log.mnfs
node_start 4 vibrator.mnfs
gbnet_start --node 127.0.0.2 --node 127.0.0.3:4242 --node 127.0.0.4

for n in 2 3 4; do
	wait_for 30 node_is $n up || fail "node $n not up: $(gbnet ctl list) $(gbnet_tail)"
done
B=$(gbnet_bus) || fail "no host device"
want="Loopback Module Log Module Vibrator Module"
for n in 2 3 4; do
	i=$(node_intf $n)
	case $i in 2|3|4) ;; *) fail "node $n has interface '$i'" ;; esac
	wait_for 30 test -e "$DEV/$B-$i.$i.ctrl/product_string" ||
		fail "no $B-$i.$i.ctrl: $(ls $DEV | tr '\n' ' ') $(gbnet_tail)"
done
uevent_settle 10
assert_file_eq "$DEV/$B-svc/ap_intf_id" 1
assert_file_eq "$DEV/$B-svc/endo_id" 0x4755
got=
for n in 2 3 4; do
	i=$(node_intf $n)
	assert_file_eq "$DEV/$B-$i/num_interfaces" 1
	assert_file_eq "$DEV/$B-$i.$i/interface_type" greybus
	assert_file_eq "$DEV/$B-$i.$i/ddbl1_manufacturer_id" 0x00000126
	assert_file_eq "$DEV/$B-$i.$i/vendor_id" 0x00000001
	assert_file_eq "$DEV/$B-$i.$i/serial_number" "$(printf '0x47424e54000000%02x' "$i")"
	assert_file_eq "$DEV/$B-$i.$i.ctrl/vendor_string" "Greybus Sim"
	got="$got$(cat "$DEV/$B-$i.$i.ctrl/product_string") "
	[ -e "$DEV/$B-$i.$i.1/bundle_class" ] || fail "no bundle $B-$i.$i.1"
done
assert_eq "$got" "$want " "product strings, node 2 3 4"
# three distinct interface ids
ids=$(for n in 2 3 4; do node_intf $n; done | sort -u | tr '\n' ' ')
assert_eq "$ids" "2 3 4 " "interface ids"
# the ctl list has what a person needs
gbnet ctl list | grep -q '^127.0.0.2 state=up intf=[234] addr=127.0.0.2:4242 bytes_in=[1-9]' ||
	fail "gbnet ctl list: $(gbnet ctl list)"
exit 0
