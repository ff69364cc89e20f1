#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gbmon and the Wireshark dissector over captures made without the kernel:
# what gbsim saw of fakeap's run (tests/unit/gbsim, gbsim --capture: SVC
# bring-up, enumeration, hostile messages), a request and response of
# every operation of every protocol, and each kind of malformed message
# (both written by tests/unit/pcapng).  Then fuzzed copies (editcap -E)
# and broken files: no crash, malformed shown as such.  The tshark checks
# are skipped when tshark is not installed.
#
# Usage: gbmon.sh GBMON_BINARY [MANIFEST_DIR]

GBMON=${1:?usage: gbmon.sh GBMON [MANIFEST_DIR]}
case $GBMON in /*) ;; *) GBMON=$PWD/$GBMON ;; esac
TOP=$(cd "$(dirname "$0")/../.." && pwd)
LOGS=$(cd "$(dirname "$GBMON")/.." && pwd)/unit-san/logs
LUA=$TOP/tools/wireshark/greybus.lua
SIMCAP=$LOGS/gbsim.log.pcapng
PROTCAP=$LOGS/pcapng.log.protocols.pcapng
BADCAP=$LOGS/pcapng.log.malformed.pcapng
. "$(dirname "$0")/lib/tap.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
exec </dev/null

check() {	# NAME COMMAND...: ok if the command succeeds
	local name=$1
	shift
	if "$@" >"$WORK/check.out" 2>&1; then
		report "$name" 1
	else
		report "$name" 0 "$(head -n 20 "$WORK/check.out")"
	fi
}
sanitizer() { grep -qE 'Sanitizer|runtime error' "$@"; }

for f in "$SIMCAP" "$PROTCAP" "$BADCAP"; do
	if [ ! -s "$f" ]; then
		report "gbmon: capture $f exists (written by the gbsim and pcapng unit tests)" 0
		exit 0
	fi
done

check "gbmon: the dissector's generated names match gbmon's decoders" \
	"$TOP/tools/wireshark/gen-names.sh" --check "$GBMON" "$LUA"

# ---- gbmon over gbsim's capture -------------------------------------------

"$GBMON" -r "$SIMCAP" >sim.txt 2>sim.err
rc=$?
report "gbmon -r: gbsim's capture read (status $rc)" \
	"$([ $rc = 0 ] && ! sanitizer sim.err && echo 1)" "$(head sim.err)"
ops=(svc.protocol_version svc.svc_hello svc.module_inserted svc.intf_activate
     svc.dme_peer_get svc.intf_device_id svc.route_create svc.conn_create
     control.version control.get_manifest_size control.get_manifest
     control.connected control.bundle_activate test.echo)
missing=
for op in "${ops[@]}"; do
	grep -qE " $op id=0x[0-9a-f]{4} .*-> success.* \([0-9]+ us\)" sim.txt ||
		missing="$missing $op"
done
report "gbmon -r: the enumeration, each operation matched with its response and latency" \
	"$([ -z "$missing" ] && echo 1)" "missing:$missing" "$(head -n 30 sim.txt)"
report "gbmon -r: get_manifest decoded by name" \
	"$(grep -q 'control.get_manifest_size id=0x0002 -> success size=68' sim.txt && echo 1)"
report "gbmon -r: the hostile messages shown as malformed" \
	"$(grep -q 'malformed: 3 bytes, shorter than the 8-byte header' sim.txt &&
	   grep -q 'test.echo id=0x0909 malformed: size 40 > 12 received' sim.txt && echo 1)" \
	"$(grep malformed sim.txt)"

"$GBMON" -r "$SIMCAP" -j >sim.json 2>&1
bad=0
if command -v jq >/dev/null; then
	jq -e . sim.json >/dev/null 2>&1 || bad=1
	n=$(jq -s 'map(select(.op == "control.get_manifest" and .result == "success" and .latency_us > 0)) | length' sim.json)
	[ "$n" = 1 ] || bad=1
else
	echo "# jq not installed: JSON checked by line count only"
fi
report "gbmon -j: one JSON object per operation" \
	"$([ $bad = 0 ] && [ "$(wc -l <sim.json)" = "$(wc -l <sim.txt)" ] && echo 1)" \
	"$(head -n 5 sim.json)"

"$GBMON" -r "$SIMCAP" -p control >ctl.txt 2>&1
report "gbmon -p control: only control operations" \
	"$([ -s ctl.txt ] && ! grep -v ' control\.' ctl.txt | grep -q . && echo 1)" "$(head ctl.txt)"
"$GBMON" -r "$SIMCAP" -p svc -c 0 -i 2 >none.txt 2>&1
report "gbmon: filters combine (svc on interface 2: nothing)" "$([ ! -s none.txt ] && echo 1)" \
	"$(head none.txt)"
"$GBMON" -r "$SIMCAP" -i 2 -b 255 >none.txt 2>&1
"$GBMON" -r "$SIMCAP" -e >err.txt 2>&1
report "gbmon -e: only failures" \
	"$([ -s err.txt ] && ! grep -- '-> success (' err.txt | grep -vq 'not seen' &&
	   grep -q 'protocol_bad' err.txt && echo 1)" "$(head err.txt)"

"$GBMON" -r "$SIMCAP" -w copy.pcapng >copy.txt 2>&1
"$GBMON" -r copy.pcapng >copy2.txt 2>&1
report "gbmon -w: the copy reads back the same" \
	"$(cmp -s sim.txt copy.txt && cmp -s sim.txt copy2.txt && echo 1)" \
	"$(diff sim.txt copy2.txt | head)"

# gbnet's side of its unit test's links (tests/unit/gbnet): the same format
NETCAP=$LOGS/gbnet.log.pcapng
"$GBMON" -r "$NETCAP" >net.txt 2>net.err
report "gbmon -r: gbnet --capture's file read, enumeration matched" \
	"$(grep -qE ' svc.svc_hello id=0x[0-9a-f]{4} .*-> success' net.txt &&
	   grep -qE ' control.version id=.* -> success' net.txt &&
	   ! sanitizer net.err && echo 1)" "$(head -n 5 net.txt net.err)"

# ---- every protocol, malformed messages ------------------------------------

"$GBMON" -r "$PROTCAP" >prot.txt 2>prot.err
missing=
while read -r _ proto _ op; do
	case $op in cport_shutdown|invalid) continue ;; esac
	grep -q " $proto\.$op id=.* -> success" prot.txt || missing="$missing $proto.$op"
done < <("$GBMON" --list-operations)
report "gbmon: every operation of every protocol named and matched" \
	"$([ -z "$missing" ] && ! grep -q malformed prot.txt && ! sanitizer prot.err && echo 1)" \
	"missing:$missing"
report "gbmon: fields decoded by name (gpio, sdio)" \
	"$(grep -q 'gpio.set_value id=0x[0-9a-f]* which=1 value=2 -> success' prot.txt &&
	   grep -q 'sdio.command id=.* cmd=1 flags=0x02' prot.txt && echo 1)" \
	"$(grep -E 'gpio.set_value|sdio.command' prot.txt)"

"$GBMON" -r "$BADCAP" >bad.txt 2>bad.err
rc=$?
report "gbmon: malformed messages shown as such" \
	"$([ $rc = 0 ] && grep -q 'malformed: 3 bytes' bad.txt &&
	   grep -q 'gpio.set_value id=0x0007 malformed: size 12 > 8 received' bad.txt &&
	   grep -q 'malformed: size 4 < 8-byte header' bad.txt &&
	   grep -q 'record of unknown kind 9' bad.txt &&
	   grep -q 'lost 5 records' bad.txt && ! sanitizer bad.err && echo 1)" "$(cat bad.txt bad.err)"

# ---- broken files -----------------------------------------------------------

printf 'not a capture at all\n' >garbage.pcapng
head -c 700 "$SIMCAP" >short.pcapng
: >empty.pcapng
for f in garbage short empty; do
	"$GBMON" -r $f.pcapng >$f.txt 2>$f.err
	echo $? >$f.rc
done
report "gbmon: broken files refused with a reason, no crash" \
	"$([ "$(cat garbage.rc)" = 1 ] && grep -q 'not a pcapng file' garbage.err &&
	   [ "$(cat short.rc)" = 1 ] && grep -q 'malformed pcapng at offset' short.err &&
	   [ "$(cat empty.rc)" = 0 ] && ! sanitizer ./*.err && echo 1)" \
	"$(cat garbage.err short.err empty.err)"
"$GBMON" -r /nonexistent.pcapng >/dev/null 2>nx.err
report "gbmon: a missing file is status 1" "$([ $? = 1 ] && grep -q 'No such file' nx.err && echo 1)"
"$GBMON" --cport x >/dev/null 2>usage.err
report "gbmon: a bad option value is status 2" "$([ $? = 2 ] && grep -q "'x' is not a number" usage.err && echo 1)"

# ---- fuzzed captures: gbmon and the dissector ------------------------------

fuzz_ok=1
if command -v editcap >/dev/null; then
	for seed in 1 2 3 4 5 6 7 8; do
		editcap -E 0.05 --seed $seed "$SIMCAP" fz$seed.pcapng >/dev/null 2>&1 || fuzz_ok=0
		"$GBMON" -r fz$seed.pcapng >fz$seed.txt 2>fz$seed.err || fuzz_ok=0
		sanitizer fz$seed.err && fuzz_ok=0
	done
	report "gbmon: fuzzed captures (editcap -E) read without a crash" $fuzz_ok \
		"$(cat fz*.err | head)"
fi

# ---- Wireshark --------------------------------------------------------------

if ! command -v tshark >/dev/null; then
	echo "ok - gbmon: tshark: the Lua dissector # SKIP tshark not installed"
	exit 0
fi
TS=(tshark -n -X "lua_script:$LUA" -o "gui.column.format:\"Info\",\"%i\"")

# tshark NAME-OF-OUTPUT CAPTURE ARGS...: status in NAME.rc, output in NAME
ts() {
	local out=$1 cap=$2
	shift 2
	"${TS[@]}" -r "$cap" "$@" >"$out" 2>"$out.err"
	echo $? >"$out.rc"
}
no_lua_error() { [ "$(cat "$1.rc")" = 0 ] && ! grep -q 'Lua Error' "$1" "$1.err"; }

ts sim.V "$SIMCAP" -V
ts sim.malf "$SIMCAP" -Y greybus.malformed -T fields -e greybus.op
ts sim.f "$SIMCAP" -T fields -E separator=' ' -e greybus.op -e greybus.response \
	-e greybus.control.size -e greybus.svc.endo_id
report "gbmon: tshark: gbsim's capture dissects with no error; malformed: only the 2 hostile messages" \
	"$(no_lua_error sim.V && [ "$(wc -l <sim.malf)" = 2 ] &&
	   grep -q 'test.echo' sim.malf && echo 1)" "$(cat sim.malf; grep 'Lua Error' sim.V | head -3)"
report "gbmon: tshark: the enumeration's fields (svc hello's endo, the manifest size)" \
	"$(grep -q '^svc.svc_hello 0  0x00004755$' sim.f &&
	   grep -q '^control.get_manifest_size 1 68 $' sim.f && echo 1)" \
	"$(grep -E 'svc_hello|manifest_size' sim.f)"

ts prot.V "$PROTCAP" -V
ts prot.ops "$PROTCAP" -T fields -e greybus.op
missing=
while read -r _ proto _ op; do
	case $op in cport_shutdown|invalid) continue ;; esac
	grep -qx "$proto.$op" prot.ops || missing="$missing $proto.$op"
done < <("$GBMON" --list-operations)
report "gbmon: tshark: every operation of every protocol named, none malformed" \
	"$(no_lua_error prot.V && [ -z "$missing" ] && ! grep -q 'Error/Malformed' prot.V && echo 1)" \
	"missing:$missing" "$(grep -E 'Lua Error|Malformed' prot.V | head -3)"
ts prot.f "$PROTCAP" -Y 'greybus.op == "gpio.set_value" && greybus.response == 0' \
	-T fields -E separator=' ' -e greybus.gpio.which -e greybus.gpio.value
ts prot.f2 "$PROTCAP" -Y 'greybus.op == "uart.set_line_coding"' \
	-T fields -E separator=' ' -e greybus.uart.rate -e greybus.uart.data_bits
report "gbmon: tshark: main fields by name (gpio which/value, uart rate)" \
	"$(grep -qx '1 2' prot.f && grep -qx '67305985 7' prot.f2 && echo 1)" "$(cat prot.f prot.f2)"

ts bad.V "$BADCAP" -V
ts bad.malf "$BADCAP" -Y greybus.malformed -T fields -e frame.number
ts bad.i "$BADCAP"
report "gbmon: tshark: each malformed message reported as such" \
	"$(no_lua_error bad.V && [ "$(tr '\n' ' ' <bad.malf)" = '1 2 3 4 ' ] &&
	   grep -q 'malformed: size 12 > 8 received' bad.i &&
	   grep -q 'gpio.set_value request: value needs 1 more bytes' bad.i &&
	   grep -q 'records lost before this one' bad.V && echo 1)" "$(cat bad.i bad.malf)"

if [ -e fz1.pcapng ]; then
	bad=0 flagged=0
	for seed in 1 2 3 4 5 6 7 8; do
		ts fz$seed.V fz$seed.pcapng -V
		no_lua_error fz$seed.V || bad=1
		flagged=$((flagged + $(grep -c 'Error/Malformed' fz$seed.V)))
	done
	report "gbmon: tshark: fuzzed captures: no dissector error, $flagged malformed frames reported" \
		"$([ $bad = 0 ] && [ $flagged -gt 0 ] && echo 1)" "$(grep -h 'Lua Error' fz*.V | head -3)"
fi
