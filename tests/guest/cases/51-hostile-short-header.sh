# Checks that a message shorter than a Greybus header, from a module and from the SVC, is refused with one log line naming the connection, and that both modules keep working.
# transport: vhd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

C=$(hd_cport 5 1)
[ -n "$C" ] || fail "no connection to 5:1: $(cat $CONNS)"

gbsim ctl send "$C" 0c0001 2>ctl.err && fail "a 3-byte message was accepted"
grep -q 'Invalid argument' ctl.err || fail "gbsim ctl send: $(cat ctl.err)"
once "greybus greybus1: $C/5:1: 3-byte message is shorter than a Greybus header, refused"

gbsim ctl send 0 08000100010000 2>ctl.err && fail "a 7-byte message was accepted on the SVC cport"
once "greybus greybus1: 0/0:0: 7-byte message is shorter than a Greybus header, refused"

# Exactly a header is not short: a response nobody asked for, dropped
gbsim ctl send "$C" 0800ee0e82000000 || fail "an 8-byte message was refused"
once "greybus greybus1: $C/5:1: unexpected response id 0x0eee received"

ping_ok 1-5.5.1
ping_ok 1-3.3.1
assert_file_eq $D/1-5.5/status enabled
stop
exit 0
