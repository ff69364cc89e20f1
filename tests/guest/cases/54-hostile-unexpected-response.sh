# Checks that responses to ids not in flight (never used, id 0, already answered) are logged once each and dropped, counted in debugfs, and that both modules keep working.
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

C=$(hd_cport 5 1)
[ -n "$C" ] || fail "no connection to 5:1: $(cat $CONNS)"
# the "dropped" column of the connection in debugfs
dropped() {
	awk -v c="5:1" '$3 == c { print $11 }' $CONNS
}
d0=$(dropped)

# An echo response with an id the AP never used
gbsim ctl send "$C" 0c00 3412 82 00 0000 70696e67 || fail "gbsim ctl send failed"
once "greybus greybus1: $C/5:1: unexpected response id 0x1234 received"

# Id 0 (unidirectional) never has a response
gbsim ctl send "$C" 0c00 0000 82 00 0000 70696e67 || fail "gbsim ctl send failed"
once "greybus greybus1: $C/5:1: unexpected response id 0x0000 received"

# The answer to the last ping, a second time
ping_ok 1-5.5.1
id=$(grep "AP>MOD .*intf 5:1 test.echo req" log | tail -n 1 | sed 's/.* id=0x\([0-9a-f]*\).*/\1/')
[ -n "$id" ] || fail "no echo request in the gbsim log"
lo=${id#??}
hi=${id%??}
gbsim ctl send "$C" 0c00 $lo$hi 82 00 0000 70696e67 || fail "gbsim ctl send failed"
once "greybus greybus1: $C/5:1: unexpected response id 0x$id received"

# On the SVC's connection too
gbsim ctl send 0 0800 cdab a1 00 0000 || fail "gbsim ctl send failed"
once "greybus greybus1: 0/0:0: unexpected response id 0xabcd received"

assert_eq "$(dropped)" $((d0 + 3)) "dropped responses on 5:1"
ping_ok 1-5.5.1
ping_ok 1-3.3.1
assert_file_eq $D/1-5.5/status enabled
stop
exit 0
