# Checks the greybus tracepoints: every event upstream's set names exists in tracefs, and the enumeration and removal of gbsim's audio module fire the message, operation, connection, bundle, interface, module and host-device events with the right fields.
# timeout: 90
# transport: vhd
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
load_gb greybus gb-vhd
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
[ -d $T/events/greybus ] || skip "no greybus tracepoints in tracefs"

for e in gb_message_send gb_message_submit gb_message_recv_request \
	gb_message_recv_response gb_message_cancel_outgoing \
	gb_message_cancel_incoming gb_operation_create \
	gb_operation_create_core gb_operation_create_incoming \
	gb_operation_destroy gb_operation_get_active gb_operation_put_active \
	gb_connection_create gb_connection_release gb_connection_get \
	gb_connection_put gb_connection_enable gb_connection_disable \
	gb_bundle_create gb_bundle_destroy gb_interface_activate \
	gb_interface_deactivate gb_interface_enable gb_interface_disable \
	gb_interface_create gb_interface_add gb_interface_del \
	gb_module_create gb_module_release gb_module_add gb_module_del \
	gb_hd_create gb_hd_release gb_hd_add gb_hd_del gb_hd_in gb_hd_out; do
	[ -d $T/events/greybus/$e ] || fail "no event greybus:$e"
done
grep -q 'field:u16 operation_id;' $T/events/greybus/gb_message_send/format ||
	fail "gb_message_send has no operation_id field"

echo >$T/trace
echo 1 >$T/events/greybus/enable
gbsim -l log -m 2:$M/audio.mnfs 2>err &
pid=$!
wait_for 30 test -e /sys/bus/greybus/devices/1-2.2.1/bundle_class ||
	fail "bundle 1-2.2.1 did not appear: $(cat err)"
kill $pid
wait $pid
wait_for 30 test ! -e /sys/bus/greybus/devices/greybus1 || fail "greybus1 stayed"
echo 0 >$T/events/greybus/enable
cat $T/trace >trace

# want EVENT REGEX: a line of that event matching REGEX; all are checked,
# then the case fails naming those missing
missing=
want() {
	grep -qE " $1: $2" trace && return 0
	missing="$missing $1"
	info "no $1 matching '$2': $(grep " $1: " trace | head -n 2)"
}
want gb_hd_create 'greybus1 num_cports=[0-9]+ mtu=[0-9]+'
want gb_hd_add 'greybus1 '
want gb_hd_in 'greybus1 '
want gb_hd_out 'greybus1 '
want gb_hd_del 'greybus1 '
want gb_message_send 'greybus1 cport 0: id=0x[0-9a-f]{4} type=0x82 result=0x00 size=[0-9]+'
want gb_message_submit 'greybus1 cport [0-9]+: id=0x[0-9a-f]{4} type=0x04 result=0x00 size=8'
want gb_message_recv_request 'greybus1 cport 0: id=0x[0-9a-f]{4} type=0x02 result=0x00'
want gb_message_recv_response 'greybus1 cport [0-9]+: id=0x[0-9a-f]{4} type=0x84 result=0x00'
want gb_operation_create 'greybus1 cport [0-9]+: id=0x0000 type=0x'
want gb_operation_create_incoming 'greybus1 cport 0: id=0x[0-9a-f]{4} type=0x02 '
want gb_operation_get_active 'greybus1 cport [0-9]+: id=0x[0-9a-f]{4} type=0x04 '
want gb_operation_put_active 'greybus1 cport [0-9]+: id=0x[0-9a-f]{4} type=0x04 .* errno=0'
want gb_operation_destroy 'greybus1 cport [0-9]+: id=0x[0-9a-f]{4} type=0x04 '
want gb_connection_create 'greybus1 [0-9]+/2:0 protocol 0x00 bundle_id=0xff'
want gb_connection_enable 'greybus1 [0-9]+/2:0 protocol 0x00'
want gb_connection_disable 'greybus1 [0-9]+/2:0 protocol 0x00'
want gb_connection_get 'greybus1 0/0:0 protocol 0x14'
want gb_connection_put 'greybus1 0/0:0 protocol 0x14'
want gb_connection_release 'greybus1 [0-9]+/2:0 protocol 0x00'
want gb_bundle_create 'intf_id=2 id=1 class=0x12 num_cports=0'
want gb_bundle_destroy 'intf_id=2 id=1 class=0x12 num_cports=2'
want gb_interface_create 'intf_id=2 device_id=0 module_id=2'
want gb_interface_activate 'intf_id=2 device_id=[0-9]+ module_id=2 D=0 J=0 A=1 E=0'
want gb_interface_enable 'intf_id=2 .* A=1 E=1'
want gb_interface_add 'intf_id=2 '
want gb_interface_disable 'intf_id=2 '
want gb_interface_deactivate 'intf_id=2 '
want gb_interface_del 'intf_id=2 '
want gb_module_create 'greybus1 module_id=2 num_interfaces=1 disconnected=0'
want gb_module_add 'greybus1 module_id=2 '
want gb_module_del 'greybus1 module_id=2 '
want gb_object_add 'greybus_bundle 1-2.2.1'
[ -z "$missing" ] || fail "events missing or with wrong fields:$missing"
exit 0
