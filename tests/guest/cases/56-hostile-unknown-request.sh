# Checks that a request of a type nobody handles is answered with the protocol's error result (protocol_bad on a connection without handler and from gb-test-protocol, invalid from the SVC) and one log line, while a known module request is still answered, and that both modules keep working.
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

# answer IFID:CPORT TYPE RESULT: the AP's response to the request that
# "gbsim ctl request" just sent (id in ./ids) carries RESULT
answer() {
	local id tag
	id=$(sed -n 's/^id=//p' ids)
	[ -n "$id" ] || fail "gbsim ctl request printed no id: $(cat ids)"
	tag="AP>MOD"
	[ "${1#*:}" = svc ] && tag="AP>SVC"
	_gb_answered() {
		grep "$tag " log | grep -q " rsp id=$id result=$2"
	}
	wait_for 5 _gb_answered "$1" "$2" ||
		fail "no $2 answer to request $id on $1: $(grep " id=$id" log)"
}

C0=$(hd_cport 5 0)
C1=$(hd_cport 5 1)

# The control connection has no request handler
gbsim ctl request 5:0 0x42 >ids || fail "gbsim ctl request 5:0 failed"
answer 5:0 protocol_bad
once "greybus greybus1: $C0/5:0: request of type 0x42 on a connection without handler"

# gb-test-protocol knows only the echo
gbsim ctl request 5:1 0x42 0102 >ids || fail "gbsim ctl request 5:1 failed"
answer 5:1 protocol_bad
once "gb-test-protocol 1-5.5.1: $C1/5:1: unknown request type 0x42"
gbsim ctl request 5:1 test.echo 01020304 >ids || fail "gbsim ctl request 5:1 echo failed"
answer 5:1 success

# The SVC protocol answers "invalid"
gbsim ctl request svc 0x30 >ids || fail "gbsim ctl request svc failed"
answer svc invalid
once "greybus 1-svc: unsupported request of type 0x30"

ping_ok 1-5.5.1
ping_ok 1-3.3.1
stop
exit 0
