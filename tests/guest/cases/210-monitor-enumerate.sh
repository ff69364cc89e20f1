# Checks that a monitor reader opened before gbsim starts sees the article's audio module enumerate: the SVC's and the control's requests with their matching responses, the captured bytes agreeing with the record headers, nothing lost.
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/monitor.sh

need_tool gbsim
M=/usr/share/greybus/manifests
load_gb greybus gb-vhd
[ -r $MON ] || fail "no $MON"
[ "$(stat -c %a $MON)" = 400 ] || fail "$MON has mode $(stat -c %a $MON), not 400"

# Opened now, read once the module is there: the ring keeps it all
exec 3<$MON
gbsim -l log -m 2:$M/audio.mnfs 2>err &
pid=$!
D=/sys/bus/greybus/devices
wait_for 30 test -e $D/1-2.2.1/bundle_class || fail "bundle 1-2.2.1 did not appear: $(cat err)"
[ -r /sys/kernel/debug/greybus/greybus1/monitor ] || fail "no per-host monitor file"
# The bundle is there before its activation's response is (over ES2 or a
# serial link, long before): read what the ring holds until every request
# has met its response, each read ending with monread's "end" line.
: >cap
_all_answered() {
	monread -n <&3 >>cap || fail "monread failed: $(tail -n 3 cap)"
	mon_unmatched cap >unmatched
	[ ! -s unmatched ]
}
wait_for 30 _all_answered || fail "$(head -n 3 unmatched)"
exec 3<&-

info "$(grep '^end ' cap | tr '\n' ' ')"
grep -q '^end records=[0-9]* lost=0$' cap || fail "no end line: $(tail -n 1 cap)"
grep '^end ' cap | grep -qv ' lost=0$' && fail "records lost: $(grep '^end ' cap | tr '\n' ' ')"

# The SVC's hello (type 0x02) comes in on host CPort 0 and is answered
grep -qE '^msg in req bus=1 hd=0 intf=255 bundle=255 proto=0x14 .* type=0x02 ' cap ||
	fail "no SVC hello request in: $(head -n 5 cap)"
grep -qE '^msg out resp bus=1 hd=0 .* type=0x82 result=0x00 ' cap ||
	fail "no response to the SVC hello"
# The AP reads the manifest over interface 2's control CPort 0
line=$(grep -E '^msg in resp bus=1 hd=[0-9]+ intf=2 bundle=255 proto=0x00 icport=0 .* type=0x84 result=0x00 ' cap | head -n 1)
[ -n "$line" ] || fail "no Get Manifest response from interface 2"
grep -qE '^msg out req bus=1 hd=[0-9]+ intf=2 bundle=255 proto=0x00 icport=0 .* type=0x04 ' cap ||
	fail "no Get Manifest request to interface 2"
# Its captured bytes: the header says size = len, the manifest follows
len=$(echo "$line" | sed -n 's/.* len=\([0-9]*\) cap=\([0-9]*\) .*/\1/p')
cap=$(echo "$line" | sed -n 's/.* len=\([0-9]*\) cap=\([0-9]*\) .*/\2/p')
assert_eq "$cap" "$len" "captured bytes of the manifest response"
data=$(echo "$line" | sed -n 's/.* data=\([0-9a-f]*\) .*/\1/p')
size_le=$(printf '%02x%02x' $((len & 255)) $((len >> 8)))
case $data in
"$size_le"????84000000*) ;;
*) fail "manifest response bytes $data do not start with size $len, type 0x84" ;;
esac

# Every request has its response and every response its request (above)
n=$(mon_count cap '^msg ')
[ "$n" -ge 20 ] || fail "only $n messages recorded"
mon_count cap '^(cancel|senderr|lost) ' >/dev/null && fail "unexpected records: $(grep -E '^(cancel|senderr|lost) ' cap | head -n 3)"

kill $pid
wait $pid
exit 0
