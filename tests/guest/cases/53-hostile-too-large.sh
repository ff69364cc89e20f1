# Checks that a message larger than the host's maximum (the 2048-byte mtu) is refused with one log line naming the connection, that a message of exactly the maximum still goes through both ways, and that both modules keep working.
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
