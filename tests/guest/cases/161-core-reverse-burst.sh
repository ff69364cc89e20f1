# Checks that 4096 pings in flight on one connection, answered newest-first, all complete with their own echo, and that the core found each answer's operation in 4 lookup steps (near slot, then a map by id), not by walking the operations in flight; no message is dropped, both modules keep working.
# transport: vhd
# The answers are handed to the core by gb-test-protocol through
# greybus_data_rcvd(), the host drivers' receive entry point, after gbsim
# was told to drop the pings: the order is then exactly newest-first.
# With the former list walk the same answers cost 4096 * 4097 / 2 steps
# with interrupts off.  The lookup steps are counted by the core, so the
# bound holds however loaded the machine is; the time the answers took
# is logged for information only.
# 4096 is more than gb-vhd's queue of unread messages (1024): the sends
# wait for room while gbsim reads, the pings stay in flight meanwhile.
# timeout: 300
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

N=4096
BURST=/sys/kernel/debug/greybus/gb-test-protocol/1-5.5.1/reverse_burst
test -w $BURST || fail "no $BURST"
C=$(hd_cport 5 1)
[ -n "$C" ] || fail "no connection to 5:1: $(cat $CONNS)"
# the "dropped" column of the connection in debugfs
dropped() {
	awk -v c="5:1" '$3 == c { print $11 }' $CONNS
}
d0=$(dropped)

gbsim ctl fault add intf=5 type=test.echo drop sticky >/dev/null || fail "fault add"
echo $N >$BURST || fail "burst of $N refused"
r=$(cat $BURST)
info "burst: $r"
# The burst ends when the core has its answers, which can be before every
# ping has reached gbsim (a host driver may still hold some; over ES2 most
# are still in URBs then): the fault goes once gbsim has dropped them all,
# or it would answer the rest, and the core would see unexpected ids.
drop_hits() {
	gbsim ctl fault list | sed -n 's/.* hits=\([0-9]*\).*/\1/p' | head -n 1
}
all_dropped() {
	[ "$(drop_hits)" -ge $N ]
}
wait_for 120 all_dropped || fail "gbsim dropped $(drop_hits) pings, want $N"
gbsim ctl fault clear >/dev/null || fail "fault clear"

field() {
	echo "$r" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}
assert_eq "$(field error)" 0 "burst error"
assert_eq "$(field sent)" $N "pings sent"
assert_eq "$(field completed)" $N "pings completed"
assert_eq "$(field ok)" $N "pings completed with their own echo"
assert_eq "$(field lookup_steps)" $((4 * N)) "lookup steps for $N answers"

[ "$(n_dmesg 'unexpected response id')" = 0 ] ||
	fail "answers not matched: $(dmesg | grep -F 'unexpected response id' | head -n 3)"
assert_eq "$(dropped)" "$d0" "dropped messages on 5:1"

ping_ok 1-5.5.1
ping_ok 1-3.3.1
stop
exit 0
