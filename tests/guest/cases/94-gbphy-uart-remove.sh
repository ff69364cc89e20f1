# Checks gb-uart removal under use: a last close waiting for credits gbsim no longer returns ends at once when the module leaves; then the module leaves while a reader (cat), a writer in the middle of a large write and an idle descriptor hold /dev/ttyGB0 open; the reader sees end of file, the writer an error, the descriptor a hung-up tty; the node goes at once, the module unloads once they are closed, and the next bridge module gets ttyGB0 again and works.
# timeout: 120
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
n_up() {
	grep 'INFO    uart cport' log | grep -c -F 'control dtr=1 rts=1'
}
_more_up() {
	[ "$(n_up)" -gt "$1" ]
}
gone() {
	! kill -0 "$1" 2>/dev/null
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M >out 2>err &
pid=$!
wait_for 20 test -c /dev/ttyGB0 || fail "no /dev/ttyGB0: $(cat err)"
T=/dev/ttyGB0
stty -F $T raw -echo || fail "stty failed"

# the module stops returning credits: the last close waits for them (up
# to 10 s, holding the tty lock), and the removal ends that wait at once
c fault add intf=2 proto=0x04 type=0x08 dir=send drop sticky >/dev/null ||
	fail "fault add failed"
( printf closing >$T; echo $? >cl.rc ) &
wait_for 10 grep -q -F 'data "closing"' log || fail "the closing writer's data never reached gbsim"
sleep 1
test -e cl.rc && fail "the close did not wait for the module's credits"
t0=$(cut -d' ' -f1 /proc/uptime)
c remove 2 || fail "remove failed"
wait_for 15 test -e cl.rc || fail "the waiting close did not end"
t1=$(cut -d' ' -f1 /proc/uptime)
took=$(echo "$t1 $t0" | awk '{ printf "%d", $1 - $2 }')
info "the waiting close ended $took s after the removal (status $(cat cl.rc))"
[ "$took" -lt 5 ] || fail "the waiting close took $took s after the removal"
wait_for 10 sh -c "! test -e $T" || fail "$T still there"
c fault clear >/dev/null || fail "fault clear failed"
c insert 2 $M >/dev/null || fail "insert failed"
wait_for 20 test -c $T || fail "no $T after the second insert"
stty -F $T raw -echo || fail "stty failed"

# the reader, and data for it
up=$(n_up)
cat $T >rx 2>rx.err &
reader=$!
wait_for 10 _more_up "$up" || fail "the reader's open did not raise DTR"
c request 2:4 0x03 030000616263 >/dev/null || fail "ctl request failed"
wait_for 10 grep -q abc rx || fail "reader got no data: $(cat rx)"

# an idle descriptor on the tty
exec 3<>$T

# a writer of far more than the driver queues, kept in the middle of its
# write by a module that stops returning credits (a fast guest would
# otherwise finish 2 MB before the removal)
head -c 2000000 /dev/zero >zeros
c fault add intf=2 proto=0x04 type=0x08 dir=send drop sticky >/dev/null ||
	fail "fault add failed"
( cat zeros >$T 2>wr.err; echo $? >wr.rc ) &
wait_for 10 grep -q -F 'data "\x00' log || fail "the writer's data never reached gbsim"
sleep 1
test -e wr.rc && fail "the writer ended before the removal: $(cat wr.err)"

c remove 2 || fail "remove failed"
wait_for 15 gone $reader || fail "the reader did not end"
wait $reader
info "reader: status $? $(cat rx.err)"
wait_for 15 test -e wr.rc || fail "the writer did not end"
[ "$(cat wr.rc)" != 0 ] || fail "the writer succeeded after removal"
info "writer: status $(cat wr.rc) $(cat wr.err)"
wait_for 10 sh -c "! test -e $T" || fail "$T still there"
test -e /sys/class/tty/ttyGB0 && fail "/sys/class/tty/ttyGB0 still there"
c fault clear >/dev/null || fail "fault clear failed"

# the hung-up descriptor: end of file, writes fail
dd bs=1 count=1 <&3 >dd.out 2>/dev/null
assert_eq "$(wc -c <dd.out | tr -d ' ')" 0 "bytes read on the hung-up tty"
if echo x >&3 2>/dev/null; then
	fail "a write to the hung-up tty succeeded"
fi
exec 3>&-

# breaks sent while the module leaves: every one ends (sent, or refused
# once the port is disconnected), nothing reaches a destroyed connection
for round in 1 2 3 4 5; do
	c insert 2 $M >/dev/null || fail "insert failed (break round $round)"
	wait_for 20 test -c $T || fail "no $T (break round $round)"
	loops=
	for k in 1 2 3; do
		(while ttytest $T break 2 2>/dev/null; do :; done) &
		loops="$loops $!"
	done
	sleep 0.$round
	c remove 2 >/dev/null || fail "remove failed (break round $round)"
	wait_for 10 sh -c "! test -e $T" || fail "$T still there (break round $round)"
	wait_for 10 sh -c "! pgrep -x ttytest >/dev/null" || fail "ttytest still running (break round $round)"
	wait $loops
done
grep -q 'break on' log || fail "no break reached gbsim in the rounds"

# nothing left behind: a new module gets ttyGB0 back, and it works
c insert 2 $M >/dev/null || fail "insert failed"
wait_for 20 test -c $T || fail "no $T after a new insert"
stty -F $T raw -echo || fail "stty on the new tty failed"
up=$(n_up)
cat $T >rx3 2>rx3.err &
reader=$!
wait_for 10 _more_up "$up" || fail "open of the new tty did not raise DTR"
printf 'again' >$T || fail "write to the new tty failed"
wait_for 10 grep -q again rx3 || fail "no echo on the new tty: $(cat rx3)"
kill $reader
wait $reader

kill -TERM $pid
wait $pid
unload_all_gb
