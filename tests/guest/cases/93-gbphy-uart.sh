# Checks gb-uart: the bridge module's UART CPort becomes /dev/ttyGB0; stty's line settings (rate, data bits, parity, stop bits, RTS/CTS) reach gbsim; open raises and the last close drops DTR/RTS; data goes both ways (gbsim's echo, data pushed by gbsim read by cat, 9000 bytes paced by credits); ttytest's TIOCMBIC/TIOCMGET, break and tcflush reach gbsim, and gbsim's serial state wakes TIOCMIWAIT and shows in TIOCMGET/TIOCGICOUNT; with -clocal a blocking open waits for gbsim's DCD and losing it hangs the reader up.
# timeout: 150
# tools: stty
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim
need_tool stty
need_tool ttytest
load_gb greybus gb-vhd gb-gbphy gb-uart

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
c() {
	gbsim ctl "$@"
}

# n_log TEXT: how many lines of gbsim's uart log contain TEXT
n_log() {
	grep 'INFO    uart cport' log | grep -c -F -- "$1"
}
# logged TEXT: wait up to 10 s for a uart line of gbsim's log with TEXT
logged() {
	wait_for 10 sh -c "grep 'INFO    uart cport' log | grep -q -F -- '$1'" ||
		fail "gbsim did not log '$1': $(grep 'uart cport' log | tail -n 3)"
}
# wait_more TEXT N: wait until more than N uart lines contain TEXT
_more() {
	[ "$(n_log "$1")" -gt "$2" ]
}
wait_more() {
	wait_for 10 _more "$1" "$2" ||
		fail "gbsim logged no new '$1': $(grep 'uart cport' log | tail -n 3)"
}
size() {
	wc -c <"$1" | tr -d ' '
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/gbphy-bridge.mnfs >out 2>err &
pid=$!
wait_for 20 gbphy_tty >/dev/null || fail "no gbphy ttyGB: $(cat err)"
N=$(gbphy_tty)
T=/dev/$N
info "tty $N"
wait_for 10 test -c $T || fail "no $T"
assert_eq "$(cat /sys/class/tty/$N/device/protocol_id)" 0x04 "protocol of the tty's gbphy device"

# line settings: each stty reaches the module as one line coding
stty -F $T 115200 cs7 parenb parodd cstopb -crtscts || fail "stty 115200 7O2 failed"
logged "line rate=115200 data_bits=7 parity=odd stop=2 flow=none"
stty -F $T 57600 cs8 -parenb -cstopb crtscts || fail "stty 57600 8N1 crtscts failed"
logged "line rate=57600 data_bits=8 parity=none stop=1 flow=rtscts"
stty -F $T 1200 cs5 parenb -parodd cmspar -crtscts || fail "stty space parity failed"
logged "line rate=1200 data_bits=5 parity=space stop=1 flow=none"
stty -F $T 2400 cs6 parenb parodd cmspar || fail "stty mark parity failed"
logged "line rate=2400 data_bits=6 parity=mark stop=1 flow=none"
stty -F $T 9600 cs8 -parenb -cmspar raw -echo || fail "stty 9600 raw failed"
logged "line rate=9600 data_bits=8 parity=none stop=1 flow=none"
# the settings stay with the port between opens
stty -F $T -a >a || fail "stty -a failed"
grep -q 'speed 9600 baud' a || fail "stty -a: $(cat a)"
grep -q -- '-echo ' a || fail "echo still on: $(cat a)"
# every open raised DTR/RTS, every last close (hupcl) dropped them
logged "control dtr=1 rts=1"
logged "control dtr=0 rts=0"

# a reader; its open raises the lines
up=$(n_log "control dtr=1 rts=1")
cat $T >rx 2>rx.err &
cat_pid=$!
wait_more "control dtr=1 rts=1" "$up"

# AP to module and back: gbsim logs the data and echoes it
printf 'hello\n' >$T || fail "write failed"
logged 'data "hello\n" (6 bytes)'
wait_file_eq 10 rx hello || fail "echo not read back"

# module to AP: data gbsim sends on its own (size le16, flags, "world")
c request 2:4 0x03 050000776f726c64 >/dev/null || fail "ctl request failed"
wait_for 10 grep -q world rx || fail "pushed data not read: $(cat rx)"

# more than the module's 4096 credits and than one message: paced, intact
head -c 4500 /dev/urandom | od -An -tx1 -v | tr -d ' \n' >big
assert_eq "$(size big)" 9000 "test data size"
cat big >$T || fail "writing 9000 bytes failed"
want=$((6 + 5 + 9000))
wait_for 20 sh -c "[ \$(wc -c <rx) -ge $want ]" || fail "read back $(size rx) of $want bytes"
tail -c 9000 rx >back
cmp -s big back || fail "the 9000 bytes came back changed"
[ "$(grep -c 'receive_credits' log)" -ge 3 ] || fail "no credits returned: $(grep -c receive_credits log)"
# control lines, break, flush and the module's modem lines (ttytest)
assert_eq "$(ttytest $T lines)" "dtr=1 rts=1 dcd=0 dsr=0 ri=0" "lines while open"
assert_eq "$(ttytest $T dtr=0 lines)" "dtr=0 rts=1 dcd=0 dsr=0 ri=0" "lines after TIOCMBIC DTR"
logged "control dtr=0 rts=1"
ttytest $T dtr=1 || fail "TIOCMBIS DTR failed"
ttytest $T break 100 || fail "break failed"
logged "break on"
logged "break off"
ttytest $T flush || fail "tcflush failed"
logged "flush transmitter"
# a TIOCMIWAIT on DSR/RI wakes when gbsim changes DSR (poked until it does:
# the waiter may not be waiting yet)
ttytest $T wait dsr,ri >w.out 2>w.err &
wpid=$!
dsr=02
for i in 1 2 3 4 5 6 7 8 9 10; do
	c request 2:4 0x07 $dsr >/dev/null || fail "serial_state request failed"
	wait_for 1 grep -q changed w.out && break
	[ $dsr = 02 ] && dsr=00 || dsr=02
done
grep -q changed w.out || fail "TIOCMIWAIT did not return: $(cat w.err)"
wait $wpid
c request 2:4 0x07 06 >/dev/null || fail "serial_state request failed"
wait_for 5 sh -c "ttytest $T lines | grep -q 'dsr=1 ri=1'" || fail "DSR/RI not seen: $(ttytest $T lines)"
ttytest $T icount >ic || fail "TIOCGICOUNT failed"
info "$(cat ic)"
grep -q ' rng=1 ' ic || fail "RI changes not counted: $(cat ic)"
rx=$(sed 's/^rx=\([0-9]*\) .*/\1/' ic)
[ "$rx" -ge $want ] || fail "rx count $rx, read $want"
c request 2:4 0x07 00 >/dev/null || fail "serial_state request failed"
wait_for 5 sh -c "ttytest $T lines | grep -q 'dsr=0 ri=0'" || fail "DSR/RI still up: $(ttytest $T lines)"

kill $cat_pid
wait $cat_pid

# -clocal: a blocking open waits for the carrier, losing it hangs up
stty -F $T -clocal || fail "stty -clocal failed"
up=$(n_log "control dtr=1 rts=1")
cat $T >rx2 2>rx2.err &
cat_pid=$!
# the open raises DTR, then waits: cat has no descriptor on the tty yet
wait_more "control dtr=1 rts=1" "$up"
sleep 1
kill -0 $cat_pid 2>/dev/null || fail "open returned without carrier: $(cat rx2.err)"
ls -l /proc/$cat_pid/fd | grep -q $N && fail "open returned without carrier"
c request 2:4 0x07 01 >/dev/null || fail "serial_state DCD request failed"
wait_for 10 sh -c "ls -l /proc/$cat_pid/fd | grep -q $N" || fail "open still waiting after DCD"
c request 2:4 0x03 030000616263 >/dev/null || fail "ctl request failed"
wait_for 10 grep -q abc rx2 || fail "no data after carrier: $(cat rx2)"
c request 2:4 0x07 00 >/dev/null || fail "serial_state no-DCD request failed"
wait_for 10 sh -c "! kill -0 $cat_pid 2>/dev/null" || fail "reader not hung up on carrier loss"
wait $cat_pid
info "reader after hangup: status $? $(cat rx2.err)"
stty -F $T clocal || fail "stty clocal failed"

kill -TERM $pid
wait $pid
unload_all_gb
