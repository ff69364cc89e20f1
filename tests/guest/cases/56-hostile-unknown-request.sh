# Checks that a request of a type nobody handles is answered with the protocol's error result (protocol_bad on a connection without handler and from gb-test-protocol, invalid from the SVC) and one log line, while a known module request is still answered, and that both modules keep working.
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
CONNS=/sys/kernel/debug/greybus/greybus1/connections
export GBSIM_CTL=$GBTEST_TMP/ctl

# Module 3 is the bystander, module 5 the one that misbehaves; both carry
# the test-vendor bundle that gb-test-protocol drives.
gbsim --ctl "$GBSIM_CTL" -l log -m 3:$M/test-vendor.mnfs \
	-m 5:$M/test-vendor.mnfs >out 2>err &
pid=$!
wait_file_eq 20 $D/1-3.3.1/test_result ok || fail "module 3 not up: $(cat err)"
wait_file_eq 20 $D/1-5.5.1/test_result ok || fail "module 5 not up: $(cat err)"

# ping_ok BUNDLE: the bundle's test protocol still answers
ping_ok() {
	echo 1 >$D/$1/test_ping || fail "test_ping write to $1 failed"
	assert_file_eq $D/$1/test_result ok
}

# hd_cport INTF CPORT: the bridge CPort of the connection to INTF:CPORT
hd_cport() {
	awk -v c="$1:$2" '$3 == c { print $2 }' $CONNS
}

# n_dmesg TEXT: how many kernel log lines of this case contain TEXT
n_dmesg() {
	dmesg | grep -cF -- "$1"
}

# once TEXT: exactly one kernel log line contains TEXT (waits up to 5 s)
_gb_has_line() {
	[ "$(n_dmesg "$1")" -ge 1 ]
}
once() {
	wait_for 5 _gb_has_line "$1" || fail "no kernel log line: $1"
	sleep 0.2
	[ "$(n_dmesg "$1")" = 1 ] || fail "$(n_dmesg "$1") kernel log lines, not one: $1"
}

# stop: gbsim exits, the tree goes, nothing is left loaded
stop() {
	kill -TERM "$pid"
	wait "$pid"
	wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
	unload_all_gb
}

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
