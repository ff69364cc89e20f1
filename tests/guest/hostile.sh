# SPDX-License-Identifier: GPL-2.0
# The setup the hostile-input and hotplug cases (5x) share, sourced after
# lib.sh: gbsim with a bystander module at interface 3 and the module
# that misbehaves at 5, its control socket in $GBSIM_CTL, and helpers.

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
