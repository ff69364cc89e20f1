# Checks the serial link end to end: gbsim plays the MCU on a pty, gbattach puts gb-hdlc's line discipline on it, the host device says SVC_STOP then SVC_START, and a loopback module enumerates over HDLC frames; the link's statistics count the traffic with no error, and stopping gbsim (gbattach detaches) removes the tree.
# timeout: 60
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim
need_tool gbattach
M=/usr/share/greybus/manifests
LOG=$GBTEST_TMP/gbsim.log

hdlc_setup
gbsim --pty --attach --log "$LOG" --module 2:$M/loopback.mnfs \
	>"$GBTEST_TMP/gbsim.out" 2>"$GBTEST_TMP/gbsim.err" &
pid=$!
on_fail() {
	cat "$GBTEST_TMP/gbsim.out" "$GBTEST_TMP/gbsim.err"
	tail -n 20 "$LOG"
	for f in "$GB_DEVS"/greybus*/hdlc/*; do echo "$f: $(cat "$f")"; done
}

wait_for 20 test -e "$GB_DEVS/1-2.2.1/bundle_class" ||
	fail "bundle 1-2.2.1 did not appear: $(ls $GB_DEVS 2>&1 | tr '\n' ' ')"
bus=$(hdlc_bus) || fail "no host device with hdlc statistics"
assert_eq "$bus" greybus1 "host device"
pty=$(sed -n 's/^pty //p' "$GBTEST_TMP/gbsim.out")
[ -n "$pty" ] || fail "gbsim printed no pty"
assert_file_eq "$GB_DEVS/$bus/hdlc/port" "pts${pty#/dev/pts/}"
assert_file_eq "$GB_DEVS/$bus/hdlc/mtu" 250
assert_file_eq "$GB_DEVS/$bus/hdlc/mru" 256
assert_file_eq "$GB_DEVS/1-2.2.1/bundle_class" 0x11
grep -q 'SVC_START from the AP' "$LOG" || fail "gbsim saw no SVC_START"
grep -q 'host device greybus1 created' "$LOG" || fail "gbsim did not find greybus1"
expect_dmesg "pts[0-9]*: Greybus link up, messages up to 250 bytes to the peer, 256 from it"

for s in rx_frames tx_frames rx_bytes tx_bytes; do
	v=$(hdlc_stat $s)
	[ "$v" -gt 0 ] || fail "$s is $v after enumeration"
done
for s in rx_crc_errors rx_aborts rx_oversize rx_short rx_dropped tx_errors; do
	assert_eq "$(hdlc_stat $s)" 0 "$s"
done
grep -q '^\[.*\] ERROR' "$LOG" && fail "gbsim logged an error: $(grep -m 1 ERROR "$LOG")"

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?"
wait_for 10 test ! -e "$GB_DEVS/greybus1" || fail "greybus1 still there after gbsim exited"
expect_dmesg "pts[0-9]*: Greybus link down"
unload_all_gb
exit 0
