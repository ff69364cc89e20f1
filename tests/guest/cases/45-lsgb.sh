# Checks lsgb's exact tree for the article's audio module and for the test module with its driver bound, its -v and debugfs-less output, its errors, and that lsgb -j parses with jq and has the right fields.
# transport: vhd
# tools: jq
. /usr/lib/gbtest/lib.sh

need_tool gbsim lsgb jq
D=/sys/bus/greybus/devices

# check_exact WHAT EXPECTED ARGS...: lsgb ARGS prints exactly EXPECTED
check_exact() {
	local what=$1
	printf '%s\n' "$2" >want.txt
	shift 2
	lsgb "$@" >got.txt 2>err.txt || fail "lsgb $* ($what) failed: $(cat err.txt)"
	[ -s err.txt ] && fail "lsgb $* ($what) wrote to stderr: $(cat err.txt)"
	if ! cmp -s want.txt got.txt; then
		info "expected:"
		cat want.txt
		info "got:"
		cat got.txt
		diff want.txt got.txt
		fail "lsgb $* ($what) is not the expected tree"
	fi
}

# jq_true FILE FILTER...: each filter gives true on FILE
jq_true() {
	local file=$1 f got
	shift
	for f in "$@"; do
		got=$(jq -r "$f" "$file" 2>&1)
		[ "$got" = true ] || fail "jq '$f' gave '$got' on: $(cat "$file")"
	done
}

# ---- without Greybus -------------------------------------------------------

[ -e /sys/bus/greybus ] && fail "/sys/bus/greybus exists before greybus is loaded"
lsgb >out 2>err && fail "lsgb succeeded without greybus: $(cat out)"
assert_eq "$(cat err)" \
	"lsgb: no Greybus bus in sysfs (/sys/bus/greybus does not exist): is the greybus module loaded?" \
	"lsgb's error without greybus"

load_gb greybus gb-vhd
lsgb >out 2>err || fail "lsgb on an empty bus failed: $(cat err)"
[ -s out ] || [ -s err ] && fail "lsgb on an empty bus printed: $(cat out err)"
lsgb -j >empty.json || fail "lsgb -j on an empty bus failed"
jq_true empty.json '.hosts == [] and .sysfs == "/sys"'

# ---- the article's audio module -------------------------------------------

# The tree below is the one before any driver binds: keep the bundle's
# modalias from loading gb-audio-module (the uevent handler's modprobe -b
# honours blacklists).
mkdir -p /etc/modprobe.d
echo "blacklist gb_audio_module" >/etc/modprobe.d/gbtest-lsgb.conf
trap 'rm -f /etc/modprobe.d/gbtest-lsgb.conf' EXIT
gbsim -l log --module 2:/usr/share/greybus/manifests/audio.mnfs,vid=0x12345678,pid=0x9abcdef0 \
	>out 2>err &
pid=$!
wait_for 10 test -d $D/1-2.2.1 || fail "bundle 1-2.2.1 did not appear: $(cat err)"
uevent_settle

check_exact "audio module" '/:  Bus 1: greybus1, Parent=greybus-vhd
    |__ SVC 1-svc: Endo=0x4755, AP Interface=0
        |__ Connection 0/0:0: AP CPort=0, CPort=0, Protocol=0x14 (svc), State=enabled
    |__ Module 1-2: Interfaces=1
        |__ Interface 1-2.2: Type=greybus, Vendor=0x12345678 "Project Ara", Product=0x9abcdef0 "Simple Audio Interface"
            |__ Control 1-2.2.ctrl
                |__ Connection 1/2:0: AP CPort=1, CPort=0, Protocol=0x00 (control), State=enabled
            |__ Bundle 1-2.2.1: Class=0x12 (audio), Driver=none'

# Without debugfs: the same tree without connections, and a note
lsgb --debugfs /nonexistent >nodbg.txt 2>err.txt || fail "lsgb --debugfs /nonexistent failed"
grep -q Connection nodbg.txt && fail "connections listed without debugfs: $(cat nodbg.txt)"
[ "$(grep -vc Connection got.txt)" = "$(wc -l <nodbg.txt)" ] ||
	fail "the tree without debugfs differs: $(cat nodbg.txt)"
assert_eq "$(cat err.txt)" \
	"lsgb: connections of greybus1 not shown: /nonexistent/greybus/greybus1/connections: No such file or directory (debugfs needs root and must be mounted)" \
	"lsgb's note without debugfs"

# -v: every attribute, write-only ones marked, connection counters
lsgb -v >verbose.txt 2>err.txt || fail "lsgb -v failed: $(cat err.txt)"
for line in \
	'    bus_id: 1' \
	'        endo_id: 0x4755' \
	'        intf_eject: (write-only)' \
	'        eject: (write-only)' \
	'        num_interfaces: 1' \
	'            serial_number: 0x4742534d00000002' \
	'            interface_type: greybus' \
	'                vendor_string: Project Ara' \
	'                bundle_class: 0x12' \
	'                state: '; do
	grep -qxF -- "$line" verbose.txt || fail "lsgb -v lacks '$line': $(cat verbose.txt)"
done
grep -qE '^                    sent=[0-9]+ received=[0-9]+ responses=[0-9]+ errors=0 timeouts=0 dropped=0 pending=0$' verbose.txt ||
	fail "lsgb -v has no counters for the control connection: $(cat verbose.txt)"

# A state text shows up, escaped
printf 'in use\tby lsgb' >$D/1-2.2.1/state || fail "writing the bundle state failed"
lsgb -v | grep -qxF '                state: in use\tby lsgb' ||
	fail "lsgb -v does not show the state: $(lsgb -v | grep state)"

lsgb -j >audio.json 2>err.txt || fail "lsgb -j failed: $(cat err.txt)"
jq . audio.json >/dev/null || fail "lsgb -j is not JSON: $(cat audio.json)"
I='.hosts[0].modules[0].interfaces[0]'
jq_true audio.json \
	'.hosts | length == 1' \
	'.hosts[0] | .name == "greybus1" and .bus_id == 1 and .parent == "greybus-vhd" and .connections_read' \
	'.hosts[0].svc | .name == "1-svc" and .endo_id == 18261 and .ap_intf_id == 0' \
	'.hosts[0].svc.connections | length == 1 and .[0].protocol_name == "svc" and .[0].hd_cport_id == 0' \
	'.hosts[0].modules | length == 1 and .[0].name == "1-2" and .[0].module_id == 2 and .[0].num_interfaces == 1' \
	"$I | .name == \"1-2.2\" and .interface_id == 2 and .interface_type == \"greybus\"" \
	"$I | .vendor_id == 305419896 and .product_id == 2596069104" \
	"$I | .vendor_string == \"Project Ara\" and .product_string == \"Simple Audio Interface\"" \
	"$I.serial_number == \"0x4742534d00000002\"" \
	"$I.control.connections[0] | .name == \"1/2:0\" and .cport_id == 0 and .protocol_name == \"control\" and .state == \"enabled\"" \
	"$I.bundles | length == 1 and .[0].bundle_id == 1 and .[0].class == 18 and .[0].class_name == \"audio\" and .[0].driver == null" \
	"$I.bundles[0].state == \"in use\\tby lsgb\""
lsgb -j -v >audio-v.json || fail "lsgb -j -v failed"
jq_true audio-v.json \
	"$I.attributes.ddbl1_manufacturer_id | test(\"^0x[0-9a-f]{8}$\")" \
	'.hosts[0].modules[0].attributes | has("eject") and .eject == null and .module_id == "2"'

kill -TERM "$pid"
wait "$pid"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
[ -z "$(lsgb)" ] || fail "lsgb still lists something: $(lsgb)"

# ---- the test module, with its driver and its bundle's connection ----------

gbsim -l log2 --module 4:/usr/share/greybus/manifests/test-vendor.mnfs >out 2>err &
pid=$!
wait_for 10 test -e $D/1-4.4.1/test_result || fail "test driver did not bind: $(cat err)"
wait_file_eq 5 $D/1-4.4.1/test_result ok || fail "test driver's probe failed"

check_exact "test module" '/:  Bus 1: greybus1, Parent=greybus-vhd
    |__ SVC 1-svc: Endo=0x4755, AP Interface=0
        |__ Connection 0/0:0: AP CPort=0, CPort=0, Protocol=0x14 (svc), State=enabled
    |__ Module 1-4: Interfaces=1
        |__ Interface 1-4.4: Type=greybus, Vendor=0x00000001 "Greybus Test", Product=0x00000001 "Test Protocol"
            |__ Control 1-4.4.ctrl
                |__ Connection 1/4:0: AP CPort=1, CPort=0, Protocol=0x00 (control), State=enabled
            |__ Bundle 1-4.4.1: Class=0xff (vendor), Driver=gb-test-protocol
            |__ Connection 2/4:1: AP CPort=2, CPort=1, Protocol=0xff (vendor), State=enabled'

lsgb -j >test.json || fail "lsgb -j failed"
jq_true test.json \
	"$I.bundles[0] | .driver == \"gb-test-protocol\" and .class_name == \"vendor\"" \
	"$I.connections | length == 1 and .[0].cport_id == 1 and .[0].protocol == 255"

kill -TERM "$pid"
wait "$pid"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
unload_all_gb
exit 0
