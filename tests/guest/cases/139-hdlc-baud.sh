# Checks gbsim's --baud: over a link paced at 19200 baud (1920 bytes a second each way), async loopback transfers take at least the time each direction's bytes need on such a line, sync pings at least the time both directions' bytes need one after the other (the kernel's own byte counters say how many crossed), and no more than a few times that: the pace is the line's, not a stall.
# timeout: 150
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach loopback_test
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
BAUD=19200
# a peer that takes 256-byte messages (gbsim's full personality)
HDLC_MTU=256 hdlc_setup
load_gb gb-loopback
gbsim --pty --attach --baud $BAUD --ctl ctl.sock -l log -m 2:$M/loopback.mnfs >out 2>err &
pid=$!
wait_for 30 test -e $LB || fail "no gb_loopback0: $(cat err)"
lb_patient $LB
gbsim ctl -s ctl.sock hdlc | grep -q "baud=$BAUD " || fail "gbsim does not say it paces at $BAUD: $(gbsim ctl -s ctl.sock hdlc)"

# the clock in ns, to the 10 ms of /proc/uptime
now_ns() {
	local up
	read -r up _ </proc/uptime
	echo $(( $(echo "$up" | tr -d .) * 10000000 ))
}

# run WHAT LOOPBACK_TEST_ARGS...: sets ELAPSED_NS and the kernel's byte
# and frame counts of the run, each way (OUT: to gbsim, IN: from it)
run() {
	local what=$1 t0 tx0 rx0 txf0 rxf0
	shift
	tx0=$(hdlc_stat tx_bytes) rx0=$(hdlc_stat rx_bytes)
	txf0=$(hdlc_stat tx_frames) rxf0=$(hdlc_stat rx_frames)
	t0=$(now_ns)
	/usr/bin/loopback_test "$@" -p -O 60 >lt.out 2>&1 || fail "$what: loopback_test $*: exit $?: $(cat lt.out)"
	# the most it may have taken, given the clock's 10 ms steps
	ELAPSED_NS=$(($(now_ns) - t0 + 10000000))
	grep -q 'errors:[[:space:]]*0$' lt.out || fail "$what: loopback_test reported errors: $(cat lt.out)"
	OUT=$(($(hdlc_stat tx_bytes) - tx0)) IN=$(($(hdlc_stat rx_bytes) - rx0))
	OUTF=$(($(hdlc_stat tx_frames) - txf0)) INF=$(($(hdlc_stat rx_frames) - rxf0))
	info "$what: $OUT bytes ($OUTF frames) out, $IN ($INF) in, $((ELAPSED_NS / 1000000)) ms"
}

# line_ns BYTES: how long BYTES take at $BAUD, 10 bits each
line_ns() {
	echo $(($1 * 10 * 1000000000 / BAUD))
}

# A paced line keeps at most one byte of credit per idle spell, and an
# idle spell ends with a frame: FRAMES bytes may have crossed early.
at_least() {	# WHAT BYTES FRAMES
	local need
	need=$(line_ns $(($2 - $3)))
	[ "$ELAPSED_NS" -ge "$need" ] ||
		fail "$1: $2 bytes crossed in $((ELAPSED_NS / 1000000)) ms, a $BAUD-baud line needs $((need / 1000000)) ms"
}

# 40 transfers of 236 bytes (messages of 256), 4 at a time (each waits
# behind at most 3 others, 1.1 s of line; lb_patient's timeout): both
# directions busy at once, each paced on its own
run async -t transfer -s 236 -i 40 -x -c 4 -o $(lb_patient_us $LB)
[ "$OUT" -ge $((40 * 264)) ] && [ "$IN" -ge $((40 * 264)) ] ||
	fail "async: fewer bytes than 40 transfers of 264 wire bytes each way"
at_least "async, to gbsim" "$OUT" "$OUTF"
at_least "async, from gbsim" "$IN" "$INF"
# not a stall either: within 3 times the busier direction's line time
[ "$ELAPSED_NS" -le $((3 * $(line_ns $((OUT > IN ? OUT : IN))))) ] ||
	fail "async: $((ELAPSED_NS / 1000000)) ms, over 3 times the line's time"

# 60 pings one at a time: a request crosses, then its response
run sync -t ping -i 60
[ "$OUTF" -ge 60 ] && [ "$INF" -ge 60 ] || fail "sync: $OUTF frames out, $INF in for 60 pings"
at_least "sync, both ways in turn" $((OUT + IN)) $((OUTF + INF))

for s in rx_crc_errors rx_oversize rx_dropped rx_aborts tx_errors; do
	assert_eq "$(hdlc_stat $s)" 0 "$s"
done
kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "gb_loopback0 still there after gbsim exited"
unload_all_gb
exit 0
