# Checks gb-log: autoloaded for a log bundle, the module's messages in dmesg under the bundle's name, non-printable bytes replaced, a NUL ending the text, a trailing newline dropped, malformed requests (bad length, empty, too long, short) refused with an error, and a flood rate-limited.
# timeout: 90
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
B=/sys/bus/greybus/devices/1-2.2.1
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl
hx() { printf "$1" | od -v -An -tx1 | tr -d ' \n'; }
# send TEXT: a well-formed send_log of TEXT (printf escapes allowed)
send() {
	local h
	h=$(hx "$1")
	gbsim ctl request 2:1 log.send_log "$(printf '%02x%02x' $(( ${#h} / 2 % 256 )) $(( ${#h} / 512 )))$h" ${2:+"$2"} >/dev/null ||
		fail "ctl request failed"
}

load_gb greybus gb-vhd
gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 2:$M/log.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -e $B/driver || fail "no driver on 1-2.2.1: $(cat gbsim.err)"
# the driver link comes before probe runs: wait for the log connection
# (protocol 0x1a) that probe enables last
CONNS=/sys/kernel/debug/greybus/greybus1/connections
wait_for 10 grep -q ' 0x1a enabled ' $CONNS || fail "log connection not enabled: $(cat $CONNS)"
assert_eq "$(basename "$(readlink $B/driver)")" gb-log "driver of 1-2.2.1"

send 'hello from gbsim'
expect_dmesg '1-2.2.1: hello from gbsim$'
# the handler logs before it answers: the answer reaches gbsim a moment later
wait_for 5 grep -Eq 'log.send_log rsp .*result=success' "$LOG" || fail "send_log not answered with success"
send 'ctl\001\033[31mred\n'
expect_dmesg '1-2.2.1: ctl\?\?\[31mred$'
send 'before\000after'
expect_dmesg '1-2.2.1: before$'
dmesg | grep -q 'before.after' && fail "text after the NUL was printed"

# malformed: length says 10 of 3 bytes, 0, over 1024, no header at all
gbsim ctl request 2:1 log.send_log 0a00616263 >/dev/null
expect_dmesg '1-2.2.1: log request of 3 bytes says 10'
gbsim ctl request 2:1 log.send_log 0000 >/dev/null
expect_dmesg '1-2.2.1: log request of 0 bytes says 0'
big=$(head -c 1025 /dev/zero | tr '\0' 'x')
send "$big"
expect_dmesg '1-2.2.1: log request of 1025 bytes says 1025'
gbsim ctl request 2:1 log.send_log 01 >/dev/null
expect_dmesg '1-2.2.1: log request too short \(1 bytes\)'
wait_for 5 grep -Eq 'log.send_log rsp .*result=invalid' "$LOG" || fail "a malformed send_log was not refused"

# a flood: 60 lines at once, not all of them in the log
n0=$(grep -c 'log.send_log rsp' "$LOG")
_flood_answered() {
	[ "$(grep -c 'log.send_log rsp' "$LOG")" -ge $((n0 + 60)) ]
}
send 'flood line' count=60
wait_for 20 _flood_answered || fail "the flood was not answered: $(($(grep -c 'log.send_log rsp' "$LOG") - n0)) of 60"
n=$(dmesg | grep -c '1-2.2.1: flood line$')
[ "$n" -ge 1 ] && [ "$n" -le 30 ] || fail "$n of 60 flood lines logged"

gbsim ctl remove 2 >/dev/null || fail "remove failed"
wait_for 10 test ! -e $B || fail "bundle still there"
kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
