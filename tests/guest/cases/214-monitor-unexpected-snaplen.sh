# Checks that the monitor shows a response nobody asked for as it arrived, before the core drops it, and that a reader opened with a 4-byte snap length gets every record truncated to 4 bytes and flagged so.
# transport: vhd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh
. /usr/lib/gbtest/monitor.sh

P=/sys/module/greybus/parameters
echo 4 >$P/monitor_snaplen
exec 3<$MON
echo 65535 >$P/monitor_snaplen
exec 4<$MON

C=$(hd_cport 5 1)
[ -n "$C" ] || fail "no connection to 5:1: $(cat $CONNS)"
gbsim ctl send "$C" 0800ee0e82000000 || fail "an 8-byte message was refused"
once "greybus greybus1: $C/5:1: unexpected response id 0x0eee received"
ping_ok 1-3.3.1

monread -n <&4 >full || fail "monread: $(tail -n 2 full)"
monread -n <&3 >snap || fail "monread: $(tail -n 2 snap)"
exec 3<&- 4<&-

grep -qE "^msg in resp bus=1 hd=$C intf=5 bundle=1 proto=0x[0-9a-f]{2} icport=1 id=0x0eee type=0x82 result=0x00 len=8 cap=8 lost=0 status=0 .* data=0800ee0e82000000 flags=0x3$" full ||
	fail "the unexpected response is not in the capture: $(grep 'id=0x0eee' full)"
grep -qE "^msg in resp bus=1 hd=$C .* id=0x0eee type=0x82 result=0x00 len=8 cap=4 .* data=0800ee0e flags=0x13$" snap ||
	fail "the unexpected response is not truncated to 4 bytes: $(grep 'id=0x0eee' snap)"
# the ping went out and came back, and every record of the 4-byte reader
# is truncated to its first 4 bytes
grep -qE '^msg out req bus=1 .* intf=3 bundle=1 .* len=[0-9]+ cap=[0-9]+ ' full || fail "no request to module 3"
assert_eq "$(mon_count snap '^msg ')" "$(mon_count full '^msg ')" "messages of both readers"
assert_eq "$(grep '^msg ' snap | grep -cv ' cap=4 .* flags=0x1[0-9a-f]$')" 0 "records of the 4-byte reader not truncated to 4 bytes"
stop
exit 0
