# Checks that a message whose header size field disagrees with its length (larger or smaller, from a module and from the SVC) is refused with one log line naming the connection, and that both modules keep working.
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
