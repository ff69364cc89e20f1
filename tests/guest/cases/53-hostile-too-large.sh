# Checks that a message larger than the host's maximum (the 2048-byte mtu) is refused with one log line naming the connection, that a message of exactly the maximum still goes through both ways, and that both modules keep working.
# transport: vhd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

C=$(hd_cport 5 1)
[ -n "$C" ] || fail "no connection to 5:1: $(cat $CONNS)"

# zeros N: N zero bytes as hex
zeros() {
	head -c "$1" /dev/zero | od -An -v -tx1 | tr -d ' \n'
}

# A 2049-byte echo request (header size 2049), one byte over the mtu
gbsim ctl send "$C" 0108 0100 02 00 0000 "$(zeros 2041)" 2>ctl.err &&
	fail "a 2049-byte message was accepted"
grep -q 'Invalid argument' ctl.err || fail "gbsim ctl send: $(cat ctl.err)"
once "greybus greybus1: $C/5:1: 2049-byte message exceeds the mtu of 2048, refused"

# ... and a 16384-byte one
gbsim ctl send "$C" 0040 0200 02 00 0000 "$(zeros 16376)" 2>/dev/null &&
	fail "a 16384-byte message was accepted"
once "greybus greybus1: $C/5:1: 16384-byte message exceeds the mtu of 2048, refused"

# Exactly 2048 bytes: the module's echo request is answered in full
gbsim ctl request 5:1 test.echo "$(zeros 2040)" >ids || fail "gbsim ctl request failed"
id=$(sed -n 's/^id=//p' ids)
_answered() {
	grep -q "AP>MOD .*intf 5:1 test.echo rsp id=$id result=success" log
}
wait_for 5 _answered || fail "no successful answer to the 2048-byte request $id: $(grep 'intf 5:1' log | tail -n 3)"

ping_ok 1-5.5.1
ping_ok 1-3.3.1
stop
exit 0
