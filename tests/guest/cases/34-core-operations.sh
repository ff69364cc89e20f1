# Checks operation edge cases against a hand-played SVC: sync timeout log then "unexpected response" for the late answer, wrong-size and wrong-type responses, unknown and out-of-order requests.
# transport: vhd
# timeout: 60
. /usr/lib/gbtest/lib.sh

load_gb greybus gb-vhd

# The SVC is played byte by byte on the vhd file, open on fd 3 (one
# write per event, one event per read).
bytes() {
	for x in "$@"; do
		printf "\\$(printf %03o $((x)))"
	done
}
le16() { bytes $(($1 & 255)) $(($1 >> 8 & 255)); }
le32() { le16 $(($1 & 65535)); le16 $(($1 >> 16 & 65535)); }

# put_event TYPE FILE: write one event with FILE as its payload
put_event() {
	local len
	len=$(wc -c <"$2")
	{ le32 "$1"; le32 "$len"; cat "$2"; } >ev.bin
	dd if=ev.bin bs=$((len + 8)) count=1 >&3 2>/dev/null ||
		fail "writing event $1 failed"
}

# svc_send ID TYPE RESULT PAYLOAD_BYTES...: a message from the SVC
svc_send() {
	local id=$1 type=$2 result=$3
	shift 3
	{
		le16 0; le16 0		# cport 0, pad
		le16 $((8 + $#)); le16 "$id"; bytes "$type" "$result" 0 0
		bytes "$@"
	} >msg.bin
	put_event 3 msg.bin
}

# get_send TYPE: the next message of TYPE the AP sent on cport 0; sets ID
# and RESULT from its header.  Messages of other types read on the way are
# kept for later calls: the AP may well send its next request before the
# response we wait for (module_inserted's work item starts at once).
# Fails after 10 s without one.
STASH=0
_match_send() {
	local want=$1 hex
	hex=$(od -An -tu1 -v "$2" | tr -s ' \n' ' ')
	set -- $hex
	# event type 0x82 = SEND; message header at byte 12
	[ "$1" = 130 ] && [ "$(( ${17} ))" = "$want" ] || return 1
	ID=$(( ${15} + ${16} * 256 ))
	RESULT=${18}
}
get_send() {
	local want=$(($1)) f i=0
	for f in $(ls stash.* 2>/dev/null | sort -t. -k2 -n); do
		if _match_send "$want" "$f"; then
			rm -f "$f"
			return 0
		fi
	done
	while [ $i -lt 200 ]; do
		timeout 10 dd bs=70000 count=1 <&3 >rd.bin 2>/dev/null ||
			fail "no message of type $1 from the AP"
		_match_send "$want" rd.bin && return 0
		STASH=$((STASH + 1))
		mv rd.bin "stash.$STASH"
		i=$((i + 1))
	done
	fail "no message of type $1 from the AP"
}

# expect_log TEXT: a kernel log line containing TEXT appears within 5 s
_log_has() {
	dmesg | grep -qF -- "$1"
}
expect_log() {
	wait_for 5 _log_has "$1" || fail "no kernel log line containing: $1"
}

exec 3<>/dev/greybus-vhd
{ le32 1; le16 8; le16 2048; le32 0; } >create.bin
put_event 1 create.bin

svc_send 1 0x01 0 0 1			# protocol version 0.1
get_send 0x81
[ "$RESULT" = 0 ] || fail "version refused: result $RESULT"

# module_removed before hello (module_inserted is held until hello:
# case 148)
svc_send 2 0x20 0 2
get_send 0xa0
[ "$RESULT" = 6 ] || fail "out-of-order request got result $RESULT, not INVALID"

svc_send 3 0x02 0 0x55 0x47 0		# hello: endo 0x4755, AP intf 0
get_send 0x82
[ "$RESULT" = 0 ] || fail "hello refused: result $RESULT"
D=/sys/bus/greybus/devices
bus_empty() {
	[ -z "$(ls $D)" ]
}
wait_for 5 test -d $D/1-svc || fail "1-svc did not appear"
# This SVC is played by hand and answers no ping: without this, the
# watchdog bites (network reset) 4 s after hello, in the middle of the case.
echo 0 >$D/1-svc/watchdog || fail "cannot turn the SVC watchdog off"

svc_send 4 0x30 0			# a type the AP does not handle
get_send 0xb0
[ "$RESULT" = 6 ] || fail "unknown request got result $RESULT, not INVALID"

svc_send 5 0x2a 0 2			# intf_oops, 1 byte short
get_send 0xaa
[ "$RESULT" = 6 ] || fail "short oops got result $RESULT, not INVALID"

# A request left unanswered times out after 1 s and is logged
# with its id; the answer arriving afterwards is unexpected.
svc_send 6 0x1f 0 2 1 0 0		# module 2 inserted
get_send 0x9f
get_send 0x21				# vsys enable
vsys=$ID
idhex=$(printf 0x%04x "$vsys")
expect_log "greybus1: 0/0:0: synchronous operation id $idhex of type 0x21 failed: -110"
svc_send "$vsys" 0xa1 0 0		# too late
expect_log "greybus1: 0/0:0: unexpected response id $idhex received"
wait_for 5 test -d $D/1-2.2 || fail "failed interface 1-2.2 not registered"
assert_file_eq $D/1-2.2/interface_type invalid

# A response of the wrong size fails its operation (and the write)
echo 7 >$D/1-svc/intf_eject 2>err &
writer=$!
get_send 0x11
svc_send "$ID" 0x91 0 1 2 3
wait "$writer" && fail "intf_eject succeeded with a bad response"
idhex=$(printf 0x%04x "$ID")
expect_log "0/0:0: response id $idhex of type 0x91 has wrong size (3 bytes, expected 0)"

# ... and so does one whose type does not match the request
echo 7 >$D/1-svc/intf_eject 2>err &
writer=$!
get_send 0x11
svc_send "$ID" 0x92 0
wait "$writer" && fail "intf_eject succeeded with a mismatched response"
idhex=$(printf 0x%04x "$ID")
expect_log "0/0:0: response id $idhex has type 0x92, request had 0x11"

# A proper answer still works afterwards
echo 7 >$D/1-svc/intf_eject &
writer=$!
get_send 0x11
svc_send "$ID" 0x91 0
wait "$writer" || fail "intf_eject failed with a proper response"

exec 3>&-
wait_for 10 bus_empty || fail "devices left: $(ls $D | tr '\n' ' ')"
unload_all_gb
exit 0
