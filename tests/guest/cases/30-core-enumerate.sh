# Checks that gbsim's audio module at interface 2 enumerates into the article's tree with the right attributes, uevents and message order, and that closing gbsim removes it all.
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd

cat >audio.mnfs <<'EOF'
[manifest-header]
version-major = 0
version-minor = 1

[interface-descriptor]
vendor-string-id = 1
product-string-id = 2

[string-descriptor 1]
string = Project Ara

[string-descriptor 2]
string = Simple Audio Interface

[bundle-descriptor 1]
class = 0x12

[cport-descriptor 1]
bundle = 1
protocol = 0x12

[cport-descriptor 2]
bundle = 1
protocol = 0x13
EOF

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
if [ -d $T/events/greybus ]; then
	echo >$T/trace
	echo 1 >$T/events/greybus/enable
else
	T=
fi

gbsim -l log -m 2:audio.mnfs,vid=0x12345678,pid=0x9abcdef0,serial=0x0123456789abcdef \
	>out 2>err &
pid=$!

D=/sys/bus/greybus/devices
wait_for 10 test -d $D/1-2.2.1 || fail "bundle 1-2.2.1 did not appear: $(cat err)"

for d in greybus1 1-svc 1-2 1-2.2 1-2.2.ctrl 1-2.2.1; do
	test -d $D/$d || fail "$d missing"
done
n=$(ls $D | wc -l)
[ "$n" = 6 ] || fail "expected 6 devices, found $n: $(ls $D | tr '\n' ' ')"

assert_file_eq $D/greybus1/bus_id 1
assert_file_eq $D/1-svc/endo_id 0x4755
assert_file_eq $D/1-svc/ap_intf_id 0
assert_file_eq $D/1-2/module_id 2
assert_file_eq $D/1-2/num_interfaces 1
assert_file_eq $D/1-2.2/interface_id 2
assert_file_eq $D/1-2.2/interface_type greybus
assert_file_eq $D/1-2.2/vendor_id 0x12345678
assert_file_eq $D/1-2.2/product_id 0x9abcdef0
assert_file_eq $D/1-2.2/serial_number 0x0123456789abcdef
assert_file_eq $D/1-2.2.ctrl/vendor_string "Project Ara"
assert_file_eq $D/1-2.2.ctrl/product_string "Simple Audio Interface"
assert_file_eq $D/1-2.2.1/bundle_id 1
assert_file_eq $D/1-2.2.1/bundle_class 0x12
assert_file_eq $D/1-2.2.1/state ""

grep -q '^MODALIAS=greybus:v12345678p9ABCDEF0c12$' $D/1-2.2.1/uevent ||
	fail "bundle uevent lacks the modalias: $(cat $D/1-2.2.1/uevent)"
grep -q '^GREYBUS_ID=12345678/9abcdef0$' $D/1-2.2/uevent ||
	fail "interface uevent lacks GREYBUS_ID: $(cat $D/1-2.2/uevent)"

# Writable attributes
echo hello >$D/1-2.2.1/state || fail "writing state failed"
assert_file_eq $D/1-2.2.1/state hello
printf 'a\001b' >$D/1-2.2.1/state 2>/dev/null && fail "state accepted a control character"
echo bogus >$D/1-2/eject 2>/dev/null && fail "eject accepted 'bogus'"
echo 300 >$D/1-svc/intf_eject 2>/dev/null && fail "intf_eject accepted 300"

grep -q ' 0x00 enabled ' /sys/kernel/debug/greybus/greybus1/connections ||
	fail "no enabled control connection in debugfs: $(cat /sys/kernel/debug/greybus/greybus1/connections)"

info "message log:"
cat log

# The requests appear in protocol order (others may come in between)
want="svc.protocol_version svc.svc_hello svc.module_inserted
svc.intf_vsys_enable svc.intf_refclk_enable svc.intf_unipro_enable
svc.intf_activate svc.dme_peer_get svc.intf_device_id svc.route_create
svc.dme_peer_set svc.conn_create control.version control.get_manifest_size
control.get_manifest"
got=$(grep -o '[a-z_]*\.[a-z_]* req ' log | sed 's/ req //')
echo "$got" | awk -v want="$want" '
	BEGIN { n = split(want, w); i = 1 }
	i <= n && $1 == w[i] { i++ }
	END { if (i <= n) { print "missing or out of order: " w[i]; exit 1 } }' ||
	fail "activation sequence not in protocol order"

if [ -n "$T" ]; then
	echo 0 >$T/events/greybus/enable
	grep -q 'gb_object_add: greybus_bundle 1-2.2.1' $T/trace ||
		fail "no gb_object_add trace for the bundle"
	grep -q 'gb_message_send: greybus1 cport 1: id=0x0003 type=0x04' $T/trace ||
		fail "no gb_message_send trace for get_manifest"
	grep -q 'gb_message_recv_response: greybus1 cport 1: id=0x0003 type=0x84 result=0x00' $T/trace ||
		fail "no gb_message_recv_response trace for the manifest"
else
	info "no tracefs, tracepoints not checked"
fi

kill -TERM "$pid"
wait "$pid"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
[ -z "$(ls $D)" ] || fail "devices left: $(ls $D | tr '\n' ' ')"
[ -e /sys/kernel/debug/greybus/greybus1 ] && fail "debugfs entry left behind"
unload_all_gb
exit 0
