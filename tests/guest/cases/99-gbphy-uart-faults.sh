# Checks gb-uart against bad answers and bad requests from gbsim: a refused line coding fails an open (cat's error) and is logged when stty changes it, refused or unanswered data is dropped with a log line instead of hanging the writer, malformed receive data, serial state and credits and an unknown request are refused and logged, and afterwards the port still works both ways.
# timeout: 150
# tools: stty
. /usr/lib/gbtest/lib.sh

need_tool gbsim
need_tool stty
load_gb greybus gb-vhd gb-gbphy gb-uart

M=/usr/share/greybus/manifests/gbphy-bridge.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
c() {
	gbsim ctl "$@"
}
fault() {
	c fault add intf=2 proto=0x04 "$@" >/dev/null || fail "fault add $*"
}
logged() {
	wait_for 10 sh -c "grep 'INFO    uart cport' log | grep -q -F -- '$1'" ||
		fail "gbsim did not log '$1': $(grep 'uart cport' log | tail -n 3)"
}
n_up() {
	grep 'INFO    uart cport' log | grep -c -F 'control dtr=1 rts=1'
}
_more_up() {
	[ "$(n_up)" -gt "$1" ]
}
# reader FILE: start cat on the tty into FILE, wait for its open
reader() {
	local up
	up=$(n_up)
	cat $T >"$1" 2>"$1.err" &
	rpid=$!
	wait_for 10 _more_up "$up" || fail "the reader's open did not raise DTR: $(cat "$1.err")"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M >out 2>err &
pid=$!
wait_for 20 test -c /dev/ttyGB0 || fail "no /dev/ttyGB0: $(cat err)"
T=/dev/ttyGB0
stty -F $T 9600 raw -echo || fail "stty failed"

# a refused line coding: opening fails (the open sends it), a change is logged
fault type=0x04 result=invalid sticky
cat $T >x 2>cat.err && fail "cat opened the tty although its line coding was refused"
info "refused open: $(cat cat.err)"
c fault clear >/dev/null
reader rx
fault type=0x04 result=invalid once
stty -F $T 19200 2>stty.err
expect_dmesg 'uart operation 0x04 failed: -22'
stty -F $T 38400 || fail "stty after the fault failed"
logged "line rate=38400 "

# refused, unanswered and late data: dropped and logged, writers return
fault type=0x02 result=malfunction once
printf 'refused' >$T || fail "write with a refused send failed"
expect_dmesg 'uart operation 0x02 failed: -84'
fault type=0x02 drop once
start=$(cut -d' ' -f1 /proc/uptime)
printf 'dropped' >$T || fail "write with an unanswered send failed"
expect_dmesg 'uart operation 0x02 failed: -110'
fault type=0x02 late=1500 once
printf 'late\n' >$T || fail "write with a late answer failed"
expect_dmesg 'unexpected response id' 10
end=$(cut -d' ' -f1 /proc/uptime)
info "the faulty writes took $(echo "$end $start" | awk '{ print $1 - $2 }') s"
# the late one's handler ran: gbsim echoed it, its credits came back
wait_for 10 grep -q late rx || fail "the late data was not echoed"
grep -q refused rx && fail "refused data came back"
grep -q dropped rx && fail "dropped data came back"

# bad requests from the module are refused and logged, nothing else
c request 2:4 0x03 0500006162 >/dev/null || fail "ctl request failed"
expect_dmesg 'receive data of 5 bytes with bad size field'
c request 2:4 0x03 000000 >/dev/null || fail "ctl request failed"
expect_dmesg 'receive data of 3 bytes with bad size field'
c request 2:4 0x03 01 >/dev/null || fail "ctl request failed"
expect_dmesg 'receive data of 1 bytes with bad size field'
c request 2:4 0x07 >/dev/null || fail "ctl request failed"
expect_dmesg 'serial state of 0 bytes'
c request 2:4 0x08 ffff >/dev/null || fail "ctl request failed"
expect_dmesg '65535 credits returned, 0 outstanding'
c request 2:4 0x08 01 >/dev/null || fail "ctl request failed"
expect_dmesg 'receive credits of 1 bytes'
c request 2:4 0x0a 00 >/dev/null || fail "ctl request failed"
expect_dmesg 'unexpected request 0x0a'
grep -q 'ab' rx && fail "malformed receive data reached the reader"

# the port still works both ways
printf 'fine\n' >$T || fail "write after the faults failed"
wait_for 10 grep -q fine rx || fail "no echo after the faults: $(cat rx)"
c request 2:4 0x03 0200006f6b >/dev/null || fail "ctl request failed"
wait_for 10 grep -q ok rx || fail "pushed data not read after the faults"
kill $rpid
wait $rpid

kill -TERM $pid
wait $pid
unload_all_gb
