# Checks that a message whose header size field disagrees with its length (larger or smaller, from a module and from the SVC) is refused with one log line naming the connection, and that both modules keep working.
# transport: vhd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

C=$(hd_cport 5 1)
[ -n "$C" ] || fail "no connection to 5:1: $(cat $CONNS)"

# An echo request of 12 bytes whose header says 17, then 8
gbsim ctl send "$C" 1100 0100 02 00 0000 70696e67 2>ctl.err &&
	fail "size 17 for 12 bytes was accepted"
grep -q 'Invalid argument' ctl.err || fail "gbsim ctl send: $(cat ctl.err)"
once "greybus greybus1: $C/5:1: header size 17 disagrees with the 12-byte message, refused"
gbsim ctl send "$C" 0800 0200 02 00 0000 70696e67 2>/dev/null &&
	fail "size 8 for 12 bytes was accepted"
once "greybus greybus1: $C/5:1: header size 8 disagrees with the 12-byte message, refused"
gbsim ctl send "$C" ffff 0300 02 00 0000 70696e67 2>/dev/null &&
	fail "size 65535 for 12 bytes was accepted"
once "greybus greybus1: $C/5:1: header size 65535 disagrees with the 12-byte message, refused"

# On the SVC's connection: a module_inserted whose header claims 0 bytes
gbsim ctl send 0 0000 4000 1f 00 0000 070100 2>/dev/null &&
	fail "size 0 was accepted on the SVC cport"
once "greybus greybus1: 0/0:0: header size 0 disagrees with the 11-byte message, refused"
[ -e $D/1-7 ] && fail "the refused module_inserted was acted on"

# Nothing reached the module's request handler
grep -q 'AP>MOD .*intf 5:1 test.echo rsp ' log &&
	fail "the AP answered a refused request"

ping_ok 1-5.5.1
ping_ok 1-3.3.1
stop
exit 0
