# SPDX-License-Identifier: GPL-2.0
# The setup the runtime-PM cases (80, 81) share, sourced after lib.sh:
# gbsim with a test-vendor module at interface 3 whose bundle
# gb-test-protocol drives; $B is the bundle, $I its interface, the
# control socket is in $GBSIM_CTL.

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
B=$D/1-3.3.1
I=$D/1-3.3
export GBSIM_CTL=$GBTEST_TMP/ctl

gbsim --ctl "$GBSIM_CTL" -l log -m 3:$M/test-vendor.mnfs >out 2>err &
pid=$!
wait_file_eq 20 $B/test_result ok || fail "module 3 not up: $(cat err)"

# ping_works WHEN: gb-test-protocol's ping of the bundle succeeds
ping_works() {
	echo 1 >$B/test_ping || fail "ping $1 failed"
	assert_file_eq $B/test_result ok
}

# sim_pm_has TEXT WHAT: gbsim's view of interface 3 (gbsim ctl pm)
# contains TEXT, or the case fails saying WHAT
sim_pm_has() {
	gbsim ctl pm 3 >pm || fail "gbsim ctl pm failed"
	grep -q "$1" pm || fail "$2: $(cat pm)"
}

# no_traffic_while_suspended: gbsim refused nothing for being suspended
no_traffic_while_suspended() {
	if gbsim ctl log | grep -q "to suspended bundle\|to hibernated interface"; then
		fail "gbsim saw an operation while suspended"
	fi
	true
}
