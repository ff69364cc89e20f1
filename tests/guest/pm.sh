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
