# Checks that every manifest rule, broken by a raw manifest inserted through gbsim's control socket, is refused through the real enumeration path with its own log line, leaves the interface visible as failed and removable, and that another module keeps working.
# timeout: 180
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
export GBSIM_CTL=$GBTEST_TMP/ctl

# hex2file HEX FILE: the bytes HEX (two hex digits each) into FILE
hex2file() {
	printf "$(echo "$1" | sed 's/../\\x&/g')" >"$2"
}

# The good module: its test-protocol bundle must answer pings throughout
gbsim --ctl "$GBSIM_CTL" -l log -m 3:$M/test-vendor.mnfs >out 2>err &
pid=$!
wait_file_eq 20 $D/1-3.3.1/test_result ok || fail "good module not up: $(cat err)"

ping_ok() {
	echo 1 >$D/1-3.3.1/test_ping || fail "test_ping write failed ($1)"
	assert_file_eq $D/1-3.3.1/test_result ok
}

# NAME HEX REASON: the raw manifest and what the kernel line says after
# "greybus 1-7.7: ".  Descriptors used: interface 08000100 0000 0000 (no
# strings), bundle 08000300 01ff 0000 (bundle 1, class 0xff), cport
# 08000400 0100 01ff (cport 1, bundle 1, protocol 0xff).
cat >cases <<'EOF'
empty	-	invalid manifest size 0
short_header	0200	invalid manifest size 2
size_mismatch	1e00000108000100000000000800030001ff000008000400010001ff	invalid manifest: header size does not match the manifest length (offset 0)
bad_version	1c00010108000100000000000800030001ff000008000400010001ff	invalid manifest: manifest version is not supported (offset 0)
desc_short	1e00000108000100000000000800030001ff000008000400010001ff0000	invalid manifest: descriptor header is truncated (offset 28)
desc_zero	200000010000010008000100000000000800030001ff000008000400010001ff	invalid manifest: descriptor size is zero (offset 4)
desc_past_end	200000014000010008000100000000000800030001ff000008000400010001ff	invalid manifest: descriptor runs past the end of the manifest (offset 4)
desc_too_small	18000001040001000800030001ff000008000400010001ff	invalid manifest: descriptor is too small for its type (offset 4)
desc_unaligned	1e00000108000100000000000a00030001ff0000000008000400010001ff	invalid manifest: descriptor size is not a multiple of 4 (offset 12)
string_overflow	24000001080001000100000008000200050161620800030001ff000008000400010001ff	invalid manifest: string does not fit its descriptor (offset 12)
string_id_zero	24000001080001000000000008000200020061620800030001ff000008000400010001ff	invalid manifest: string id is 0 (offset 12)
dup_string	2c0000010800010001000000080002000201616208000200020163640800030001ff000008000400010001ff	invalid manifest: string id is declared twice (offset 20)
dup_bundle	2400000108000100000000000800030001ff000008000400010001ff0800030001120000	invalid manifest: bundle id is declared twice (offset 28)
dup_cport	2400000108000100000000000800030001ff000008000400010001ff08000400010001ff	invalid manifest: cport id is declared twice (offset 28)
cport_range	2400000108000100000000000800030001ff000008000400010001ff08000400001001ff	invalid manifest: cport id is above 4095 (offset 28)
cport_no_bundle	2400000108000100000000000800030001ff000008000400010001ff08000400020002ff	invalid manifest: cport's bundle is not declared (offset 28)
bundle0_class	2400000108000100000000000800030001ff000008000400010001ff0800030000120000	invalid manifest: bundle 0 has a class other than control (offset 28)
cport0_outside	2400000108000100000000000800030001ff000008000400010001ff08000400000001ff	invalid manifest: cport 0 is outside the control bundle (offset 28)
control_class	2c00000108000100000000000800030001ff000008000400010001ff08000300020000000800040002000200	invalid manifest: control class on a bundle other than 0 (offset 28)
no_interface	140000010800030001ff000008000400010001ff	invalid manifest: no interface descriptor (offset 0)
multi_interface	2400000108000100000000000800030001ff000008000400010001ff0800010000000000	invalid manifest: more than one interface descriptor (offset 28)
missing_string	1c00000108000100010000000800030001ff000008000400010001ff	invalid manifest: interface refers to an absent string (offset 4)
no_bundles	1400000108000100000000000800030001ff0000	invalid manifest: no bundle other than the control bundle has a cport (offset 0)
bundle_reserved	2400000108000100000000000800030001ff000008000400010001ff08000300ffff0000	invalid manifest: bundle id 255 is reserved (offset 28)
shared_string	24000001080001000101000008000200020161620800030001ff000008000400010001ff	invalid manifest: vendor and product name the same string (offset 4)
EOF

# One too big for a message (mtu 2048): an unknown descriptor of 2072 bytes
pad=
i=0
while [ $i -lt 2068 ]; do
	pad="${pad}00"
	i=$((i + 1))
done
printf 'too_big\t%s\t%s\n' \
	"34080001080001000000000008000300""01ff000008000400010001ff18081000$pad" \
	"manifest of 2100 bytes does not fit a message" >>cases

n_dmesg() {
	dmesg | grep -cF -- "$1"
}
_more_lines() {
	[ "$(n_dmesg "$1")" -gt "$2" ]
}
gone() {
	[ ! -e $D/1-7 ]
}

n=0
while IFS='	' read -r name hex reason; do
	[ -n "$name" ] || continue
	if [ "$hex" = - ]; then
		: >"$name.mnfb"
	else
		hex2file "$hex" "$name.mnfb"
	fi
	line="greybus 1-7.7: $reason"
	before=$(n_dmesg "$line")
	gbsim ctl insert 7 "$name.mnfb" raw >/dev/null ||
		fail "$name: gbsim ctl insert failed"
	wait_for 10 _more_lines "$line" "$before" ||
		fail "$name: no kernel line '$line': $(dmesg | grep 1-7 | tail -n 3)"
	wait_file_eq 10 $D/1-7.7/status failed || fail "$name: interface not failed"
	[ -e $D/1-7.7.ctrl ] && fail "$name: control device exists"
	ls -d $D/1-7.7.* 2>/dev/null && fail "$name: bundles exist"
	expect_dmesg "greybus 1-7: failed to enable interface 7: -(22|90)"
	gbsim ctl remove 7 >/dev/null || fail "$name: gbsim ctl remove failed"
	wait_for 10 gone || fail "$name: module 1-7 not removed"
	n=$((n + 1))
	# The lines are rate limited (10 per 5 s per call site): keep under
	if [ $((n % 8)) = 0 ]; then
		ping_ok "after $name"
		sleep 5
	fi
done <cases
want=$(wc -l <cases)
[ "$n" = "$want" ] || fail "ran $n manifests, not $want"

ping_ok "at the end"
assert_file_eq $D/1-3.3/status enabled
dmesg | grep -q 'callbacks suppressed' && fail "log lines were suppressed"

kill -TERM "$pid"
wait "$pid"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
unload_all_gb
exit 0
