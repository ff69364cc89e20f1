# Checks that responses to ids not in flight (never used, id 0, already answered) are logged once each and dropped, counted in debugfs, and that both modules keep working.
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
