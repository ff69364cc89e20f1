#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lsgb against fake sysfs trees (laid out as the kernel lays them out:
# device directories nested below the bridge, /sys/bus/greybus/devices
# links to them, debugfs connections): the exact text and -v output, the
# JSON (checked with jq or python3 when present), placeholders for devices
# whose parent is missing, odd bytes in strings, and the errors.
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: lsgb.sh LSGB_BINARY [MANIFEST_DIR]

LSGB=${1:?usage: lsgb.sh LSGB [MANIFEST_DIR]}
case $LSGB in /*) ;; *) LSGB=$PWD/$LSGB ;; esac
. "$(dirname "$0")/lib/tap.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
exec </dev/null

# ---- building a fake tree --------------------------------------------------

# attr DIR NAME VALUE [MODE]: a sysfs file holding VALUE and a newline
attr() {
	mkdir -p "$1"
	printf '%s\n' "$3" >"$1/$2"
	chmod "${4:-0444}" "$1/$2"
}

# dev ROOT PATH: a device directory below ROOT/devices, linked from the bus
dev() {
	local root=$1 path=$2 name
	name=$(basename "$path")
	mkdir -p "$root/devices/$path" "$root/bus/greybus/devices"
	printf 'DEVTYPE=x\n' >"$root/devices/$path/uevent"
	chmod 0644 "$root/devices/$path/uevent"
	ln -s "../../../devices/$path" "$root/bus/greybus/devices/$name"
	echo "$root/devices/$path"
}

# conns ROOT HOST LINE...: the debugfs connections file of HOST
conns() {
	local root=$1 host=$2 d
	shift 2
	d=$root/kernel/debug/greybus/$host
	mkdir -p "$d"
	{
		echo "# name hd_cport intf:cport protocol state sent received responses errors timeouts dropped pending id_chunks"
		printf '%s\n' "$@"
	} >"$d/connections"
}

# The article's audio module at interface 2 of bus 1, as gbsim makes it
make_audio() {	# ROOT
	local r=$1 hd svc m i c b
	mkdir -p "$r/bus/greybus/drivers" "$r/kernel/debug"
	hd=$(dev "$r" virtual/misc/greybus-vhd/greybus1)
	attr "$hd" bus_id 1
	attr "$hd/power" control auto 0644
	attr "$hd/power" runtime_status unsupported
	svc=$(dev "$r" virtual/misc/greybus-vhd/greybus1/1-svc)
	attr "$svc" ap_intf_id 0
	attr "$svc" endo_id 0x4755
	attr "$svc" intf_eject "" 0200
	m=$(dev "$r" virtual/misc/greybus-vhd/greybus1/1-2)
	attr "$m" module_id 2
	attr "$m" num_interfaces 1
	attr "$m" eject "" 0200
	i=$(dev "$r" virtual/misc/greybus-vhd/greybus1/1-2/1-2.2)
	attr "$i" interface_id 2
	attr "$i" interface_type greybus
	attr "$i" ddbl1_manufacturer_id 0x00000126
	attr "$i" ddbl1_product_id 0x00001000
	attr "$i" vendor_id 0x12345678
	attr "$i" product_id 0x9abcdef0
	attr "$i" serial_number 0x4742534d00000002
	c=$(dev "$r" virtual/misc/greybus-vhd/greybus1/1-2/1-2.2/1-2.2.ctrl)
	attr "$c" vendor_string "Project Ara"
	attr "$c" product_string "Simple Audio Interface"
	b=$(dev "$r" virtual/misc/greybus-vhd/greybus1/1-2/1-2.2/1-2.2.1)
	attr "$b" bundle_id 1
	attr "$b" bundle_class 0x12
	attr "$b" state "" 0644
	conns "$r" greybus1 \
		"0/0:0 0 0:0 0x14 enabled 0 3 0 0 0 0 0 1" \
		"1/2:0 1 2:0 0x00 enabled 4 0 4 0 0 0 0 0"
}

# ---- checks ----------------------------------------------------------------

# expect NAME STATUS WANT_STDOUT WANT_STDERR -- ARGS...: exact output
expect() {
	local name=$1 status=$2 want_out=$3 want_err=$4
	shift 5
	wanted "lsgb: $name" || return 0
	"$LSGB" "$@" >out.txt 2>err.txt
	local rc=$? good=1
	[ $rc = "$status" ] || good=0
	printf '%s' "$want_out" >want_out.txt
	printf '%s' "$want_err" >want_err.txt
	cmp -s out.txt want_out.txt || good=0
	cmp -s err.txt want_err.txt || good=0
	report "lsgb: $name" $good "exit $rc, want $status" \
		"stdout diff:" "$(diff want_out.txt out.txt)" \
		"stderr diff:" "$(diff want_err.txt err.txt)"
}

# json FILE ARGS...: lsgb ARGS >FILE; a crash or a sanitizer report
# (its stderr) fails the next json_check
JSON_ERR=
json() {
	local file=$1
	shift
	"$LSGB" "$@" >"$file" 2>json-err.txt
	local rc=$?
	JSON_ERR=
	if [ $rc != 0 ] || grep -qE 'runtime error|Sanitizer' json-err.txt; then
		JSON_ERR="lsgb $* exited $rc: $(head -n 20 json-err.txt)"
	fi
}

# json_check NAME FILE FILTER...: each jq FILTER must give "true"
JSON_TOOL=
if command -v jq >/dev/null 2>&1; then
	JSON_TOOL=jq
elif command -v python3 >/dev/null 2>&1; then
	JSON_TOOL=python3
fi
json_check() {
	local name=$1 file=$2 f got good=1 diag=()
	shift 2
	wanted "lsgb: $name" || return 0
	if [ -n "$JSON_ERR" ]; then
		report "lsgb: $name" 0 "$JSON_ERR"
		return 0
	fi
	if [ -z "$JSON_TOOL" ]; then
		echo "ok - lsgb: $name # SKIP neither jq nor python3 here"
		return 0
	fi
	if [ $JSON_TOOL = python3 ]; then
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$file" \
			2>err.txt || { good=0; diag+=("not JSON: $(cat err.txt)"); }
		report "lsgb: $name" $good "${diag[@]}"
		return 0
	fi
	jq . "$file" >/dev/null 2>err.txt || { good=0; diag+=("not JSON: $(cat err.txt)"); }
	for f in "$@"; do
		[ $good = 1 ] || break
		got=$(jq -r "$f" "$file" 2>&1)
		[ "$got" = true ] || { good=0; diag+=("$f gave $got"); }
	done
	report "lsgb: $name" $good "${diag[@]}" "$(head -c 3000 "$file")"
}

# ---- the audio module ------------------------------------------------------

make_audio audio

expect "audio tree" 0 '/:  Bus 1: greybus1, Parent=greybus-vhd
    |__ SVC 1-svc: Endo=0x4755, AP Interface=0
        |__ Connection 0/0:0: AP CPort=0, CPort=0, Protocol=0x14 (svc), State=enabled
    |__ Module 1-2: Interfaces=1
        |__ Interface 1-2.2: Type=greybus, Vendor=0x12345678 "Project Ara", Product=0x9abcdef0 "Simple Audio Interface"
            |__ Control 1-2.2.ctrl
                |__ Connection 1/2:0: AP CPort=1, CPort=0, Protocol=0x00 (control), State=enabled
            |__ Bundle 1-2.2.1: Class=0x12 (audio), Driver=none
' '' -- --sysfs audio

expect "audio tree -v" 0 '/:  Bus 1: greybus1, Parent=greybus-vhd
    bus_id: 1
    power/control: auto
    power/runtime_status: unsupported
    uevent: DEVTYPE=x
    |__ SVC 1-svc: Endo=0x4755, AP Interface=0
        ap_intf_id: 0
        endo_id: 0x4755
        intf_eject: (write-only)
        uevent: DEVTYPE=x
        |__ Connection 0/0:0: AP CPort=0, CPort=0, Protocol=0x14 (svc), State=enabled
            sent=0 received=3 responses=0 errors=0 timeouts=0 dropped=0 pending=0
    |__ Module 1-2: Interfaces=1
        eject: (write-only)
        module_id: 2
        num_interfaces: 1
        uevent: DEVTYPE=x
        |__ Interface 1-2.2: Type=greybus, Vendor=0x12345678 "Project Ara", Product=0x9abcdef0 "Simple Audio Interface"
            ddbl1_manufacturer_id: 0x00000126
            ddbl1_product_id: 0x00001000
            interface_id: 2
            interface_type: greybus
            product_id: 0x9abcdef0
            serial_number: 0x4742534d00000002
            uevent: DEVTYPE=x
            vendor_id: 0x12345678
            |__ Control 1-2.2.ctrl
                product_string: Simple Audio Interface
                uevent: DEVTYPE=x
                vendor_string: Project Ara
                |__ Connection 1/2:0: AP CPort=1, CPort=0, Protocol=0x00 (control), State=enabled
                    sent=4 received=0 responses=4 errors=0 timeouts=0 dropped=0 pending=0
            |__ Bundle 1-2.2.1: Class=0x12 (audio), Driver=none
                bundle_class: 0x12
                bundle_id: 1
                state: 
                uevent: DEVTYPE=x
' '' -- -v --sysfs audio

json audio.json -j --sysfs audio
json_check "audio JSON" audio.json \
	'.sysfs == "audio" and .debugfs == "audio/kernel/debug"' \
	'.hosts | length == 1' \
	'.hosts[0].name == "greybus1" and .hosts[0].bus_id == 1 and .hosts[0].parent == "greybus-vhd"' \
	'.hosts[0].connections_read == true and .hosts[0].connections_error == null' \
	'.hosts[0].svc.endo_id == 18261 and .hosts[0].svc.ap_intf_id == 0' \
	'.hosts[0].svc.connections[0].protocol_name == "svc"' \
	'.hosts[0].modules[0].module_id == 2 and .hosts[0].modules[0].num_interfaces == 1' \
	'.hosts[0].modules[0].interfaces[0] | .interface_id == 2 and .interface_type == "greybus"' \
	'.hosts[0].modules[0].interfaces[0] | .vendor_id == 305419896 and .product_id == 2596069104' \
	'.hosts[0].modules[0].interfaces[0] | .vendor_string == "Project Ara" and .product_string == "Simple Audio Interface"' \
	'.hosts[0].modules[0].interfaces[0].serial_number == "0x4742534d00000002"' \
	'.hosts[0].modules[0].interfaces[0].control.name == "1-2.2.ctrl"' \
	'.hosts[0].modules[0].interfaces[0].control.connections[0] | .hd_cport_id == 1 and .cport_id == 0 and .protocol == 0 and .state == "enabled" and .sent == 4' \
	'.hosts[0].modules[0].interfaces[0].bundles[0] | .bundle_id == 1 and .class == 18 and .class_name == "audio" and .driver == null and .state == ""' \
	'.hosts[0].modules[0].interfaces[0] | has("attributes") | not'

json audio-v.json -j -v --sysfs audio
json_check "audio JSON -v" audio-v.json \
	'.hosts[0].attributes["power/control"] == "auto"' \
	'.hosts[0].svc.attributes.intf_eject == null' \
	'.hosts[0].modules[0].interfaces[0].attributes.ddbl1_product_id == "0x00001000"' \
	'.hosts[0].modules[0].interfaces[0].bundles[0].attributes.state == ""'

# ---- a driver, a bundle connection, a second host, odd strings -------------

make_audio busy
r=busy
ln -s ../../../bus/greybus/drivers/gb-test-protocol \
	"$r/devices/virtual/misc/greybus-vhd/greybus1/1-2/1-2.2/1-2.2.1/driver"
b=$(dev $r virtual/misc/greybus-vhd/greybus1/1-2/1-2.2/1-2.2.3)
attr "$b" bundle_id 3
attr "$b" bundle_class 0x42
attr "$b" state "$(printf 'a\tb "c" \\ \001\303\251\377')" 0644
m=$(dev $r virtual/misc/greybus-vhd/greybus1/1-10)
attr "$m" module_id 10
attr "$m" num_interfaces 2
i=$(dev $r virtual/misc/greybus-vhd/greybus1/1-10/1-10.10)
attr "$i" interface_id 10
attr "$i" interface_type dummy
i=$(dev $r virtual/misc/greybus-vhd/greybus1/1-10/1-10.11)
attr "$i" interface_id 11
attr "$i" interface_type greybus
attr "$i" vendor_id 0x00000001
attr "$i" product_id 0x00000001
c=$(dev $r virtual/misc/greybus-vhd/greybus1/1-10/1-10.11/1-10.11.ctrl)
attr "$c" vendor_string ""
attr "$c" product_string "Test"
hd=$(dev $r platform/es2/greybus2)
attr "$hd" bus_id 2
conns $r greybus1 \
	"0/0:0 0 0:0 0x14 enabled 0 3 0 0 0 0 0" \
	"1/2:0 1 2:0 0x00 enabled 4 0 4 0 0 0 0" \
	"3/2:1 3 2:1 0xff enabled_tx 9 1 8 1 0 0 1" \
	"2/11:0 2 11:0 0x00 disconnecting" \
	"garbage line" \
	"4/9:1 4 9:1 0x11 disabled 0 0 0 0 0 0 0"

expect "driver, second host, odd strings" 0 '/:  Bus 1: greybus1, Parent=greybus-vhd
    |__ SVC 1-svc: Endo=0x4755, AP Interface=0
        |__ Connection 0/0:0: AP CPort=0, CPort=0, Protocol=0x14 (svc), State=enabled
    |__ Module 1-2: Interfaces=1
        |__ Interface 1-2.2: Type=greybus, Vendor=0x12345678 "Project Ara", Product=0x9abcdef0 "Simple Audio Interface"
            |__ Control 1-2.2.ctrl
                |__ Connection 1/2:0: AP CPort=1, CPort=0, Protocol=0x00 (control), State=enabled
            |__ Bundle 1-2.2.1: Class=0x12 (audio), Driver=gb-test-protocol
            |__ Bundle 1-2.2.3: Class=0x42 (unknown), Driver=none
            |__ Connection 3/2:1: AP CPort=3, CPort=1, Protocol=0xff (vendor), State=enabled_tx
    |__ Module 1-10: Interfaces=2
        |__ Interface 1-10.10: Type=dummy
        |__ Interface 1-10.11: Type=greybus, Vendor=0x00000001, Product=0x00000001 "Test"
            |__ Control 1-10.11.ctrl
                |__ Connection 2/11:0: AP CPort=2, CPort=0, Protocol=0x00 (control), State=disconnecting
    |__ Connection 4/9:1: AP CPort=4, CPort=1, Protocol=0x11 (loopback), State=disabled
/:  Bus 2: greybus2, Parent=es2
' 'lsgb: connections of greybus2 not shown: busy/kernel/debug/greybus/greybus2/connections: No such file or directory (debugfs needs root and must be mounted)
' -- --sysfs busy

wanted "lsgb: odd bytes in -v" && {
	"$LSGB" -v --sysfs busy >out.txt 2>err.txt
	got=$(grep -F 'state: a' out.txt)
	want='                state: a\tb "c" \\ \x01é\xff'
	good=1
	[ "$got" = "$want" ] || good=0
	grep -qE 'runtime error|Sanitizer' err.txt && good=0
	report "lsgb: odd bytes in -v" $good "got:  $got" "want: $want" \
		"$(head -n 20 err.txt)"
}

json busy.json -j -v --sysfs busy
json_check "odd bytes, second host in JSON" busy.json \
	'.hosts | length == 2' \
	'.hosts[1] | .name == "greybus2" and .svc == null and .modules == [] and .connections_read == false' \
	'.hosts[1].connections_error == "No such file or directory"' \
	'.hosts[0].modules[0].interfaces[0].bundles[0].driver == "gb-test-protocol"' \
	'.hosts[0].modules[0].interfaces[0].bundles[1].state == "a\tb \"c\" \\ \u0001é\ufffd"' \
	'.hosts[0].modules[0].interfaces[0].connections[0] | .name == "3/2:1" and .pending == 1' \
	'.hosts[0].modules[1].interfaces[0] | .interface_type == "dummy" and .vendor_id == null and .control == null' \
	'.hosts[0].modules[1].interfaces[1].control.connections[0] | .state == "disconnecting" and .sent == null' \
	'.hosts[0].connections[0].interface_id == 9'

# ---- devices without their parents, names we do not know ------------------

r=orphans
mkdir -p $r/bus/greybus/devices
b=$(dev $r x/3-5.6.7)
attr "$b" bundle_id 7
attr "$b" bundle_class 0x10
d=$(dev $r x/3-weird)
attr "$d" foo bar
d=$(dev $r x/thing)
i=$(dev $r x/3-5.5)
attr "$i" interface_type invalid

expect "placeholders and unknown names" 0 '/:  Bus 3: greybus3 (not in sysfs)
    |__ Module 3-5 (not in sysfs)
        |__ Interface 3-5.5: Type=invalid
        |__ Interface 3-5.6 (not in sysfs)
            |__ Bundle 3-5.6.7: Class=0x10 (vibrator), Driver=none
    |__ Device 3-weird
/:  Device thing
' 'lsgb: connections of greybus3 not shown: orphans/kernel/debug/greybus/greybus3/connections: No such file or directory (debugfs needs root and must be mounted)
' -- --sysfs orphans --debugfs orphans/kernel/debug

json orphans.json -j --sysfs orphans
json_check "placeholders in JSON" orphans.json \
	'.hosts[0] | .present == false and .name == "greybus3"' \
	'.hosts[0].modules[0].interfaces[1].bundles[0].class_name == "vibrator"' \
	'.hosts[0].other_devices[0].name == "3-weird"' \
	'.other_devices[0].name == "thing"'

# ---- errors and empty trees ------------------------------------------------

mkdir -p empty/bus/greybus/devices
expect "empty bus" 0 '' '' -- --sysfs empty
json empty.json -j --sysfs empty
json_check "empty bus in JSON" empty.json '.hosts == [] and .other_devices == []'

mkdir -p nogb/bus/usb
expect "no greybus bus" 1 '' 'lsgb: no Greybus bus in sysfs (nogb/bus/greybus does not exist): is the greybus module loaded?
' -- --sysfs nogb
expect "no such sysfs" 1 '' 'lsgb: cannot read nothere: No such file or directory
' -- -s nothere
mkdir -p nodev/bus/greybus
expect "no devices directory" 1 '' 'lsgb: cannot read nodev/bus/greybus/devices: No such file or directory
' -- --sysfs nodev
# a file where a directory must be: refused before anything is read,
# one line, exit 2, as every usage error (one helper: tools/lib/gb_cli.c)
: >afile
expect "--sysfs names a file" 2 '' "lsgb: --sysfs 'afile': not a directory; try 'lsgb --help'
" -- --sysfs afile
expect "--debugfs names a file" 2 '' "lsgb: --debugfs 'afile': not a directory; try 'lsgb --help'
" -- --sysfs empty --debugfs afile
expect "unknown option" 2 '' "lsgb: unknown option '--bogus'; try 'lsgb --help'
" -- --bogus
expect "option without its argument" 2 '' "lsgb: option '--sysfs' needs an argument; try 'lsgb --help'
" -- --sysfs
expect "unexpected argument" 2 '' "lsgb: unexpected argument 'extra'; try 'lsgb --help'
" -- extra

wanted "lsgb: bad usage" && {
	good=1
	"$LSGB" --bogus >/dev/null 2>err.txt; rc1=$?
	"$LSGB" extra >/dev/null 2>>err.txt; rc2=$?
	"$LSGB" --sysfs '' >/dev/null 2>>err.txt; rc3=$?
	[ $rc1 = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 2 ] || good=0
	grep -q "unexpected argument 'extra'" err.txt || good=0
	"$LSGB" --help | grep -q '^Usage: lsgb' || good=0
	"$LSGB" -V | grep -q '^lsgb (greybus tools) [0-9]' || good=0
	report "lsgb: bad usage" $good "exits $rc1 $rc2 $rc3" "$(cat err.txt)"
}

exit 0
