# Checks an interface's power_state (ABI document): "on" after enumeration; "off" unbinds its bundle, removes the control device, powers it down (gbsim sees V_SYS off) and status reads "off"; "on" enumerates it again and the driver binds; a failed power-up (gbsim fault) fails the write, leaves it "failed" and off, and a later "on" recovers it; rewriting the current state and junk change nothing; a write after removal fails cleanly.
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol
D=/sys/bus/greybus/devices
I=$D/1-4.4

cp /usr/share/greybus/manifests/test-vendor.mnfs test.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
gbsim --ctl "$GBSIM_CTL" -l log -m 4:test.mnfs >out 2>err &
pid=$!
wait_for 10 test -e $I.1/test_result || fail "test driver did not bind: $(cat err)"
wait_file_eq 5 $I.1/test_result ok || fail "test driver's probe failed"
assert_file_eq $I/power_state on
# bundles bind while the interface is still being enabled: wait for its end
wait_file_eq 5 $I/status enabled || fail "status: $(cat $I/status), not enabled"

# Rewriting the state it is in does nothing
n=$(grep -c 'svc.intf_vsys' log)
echo on >$I/power_state || fail "writing on to a powered interface failed"
assert_eq "$(grep -c 'svc.intf_vsys' log)" "$n"
test -e $I.1/test_result || fail "the bundle went on a write of on"

# Off: bundle and control device gone, powered down, the module stays
echo off >$I/power_state || fail "power off failed: $(dmesg | tail -n 5)"
test -e $I.1 && fail "bundle still there after power off"
test -e $I.ctrl && fail "control device still there after power off"
test -d $D/1-4 || fail "the module went with its interface's power"
assert_file_eq $I/power_state off
assert_file_eq $I/status off
grep -q 'svc.intf_vsys_disable req' log || fail "gbsim saw no V_SYS disable"
echo 0 >$I/power_state || fail "writing 0 to a powered-down interface failed"

# On again: enumerated as on insertion
echo 1 >$I/power_state || fail "power on failed: $(dmesg | tail -n 5)"
assert_file_eq $I/power_state on
assert_file_eq $I/status enabled
wait_for 10 test -e $I.1/test_result || fail "test driver did not bind after power on"
wait_file_eq 5 $I.1/test_result ok || fail "test driver's probe failed after power on"
test -e $I.ctrl || fail "no control device after power on"

# A failed power-up: the write fails, the interface is failed and off
echo n >$I/power_state || fail "power off (n) failed"
gbsim ctl fault add intf=4 type=control.get_manifest result=invalid >/dev/null ||
	fail "fault add failed"
echo y >$I/power_state 2>werr && fail "power on succeeded against a failing manifest"
info "refused: $(cat werr)"
assert_file_eq $I/power_state off
assert_file_eq $I/status failed
test -e $I.ctrl && fail "control device left behind by a failed power-up"
expect_dmesg 'failed to power up'
# ... and a second try works
echo on >$I/power_state || fail "power on after the fault failed: $(dmesg | tail -n 5)"
wait_for 10 test -e $I.1/test_result || fail "test driver did not bind after recovery"
assert_file_eq $I/status enabled

# Junk: EINVAL, nothing changes
for v in x 2 -1 onn yes "of f" offf; do
	printf %s "$v" >$I/power_state 2>/dev/null && fail "power_state accepted '$v'"
done
assert_file_eq $I/power_state on
test -e $I.1/test_result || fail "junk writes changed the bundle"

# Off while suspended: the interface is woken for the shutdown messages
echo off >$I/power_state || fail "power off failed"
echo on >$I/power_state || fail "power on failed"
wait_for 10 test -e $I.1/test_result || fail "test driver did not bind"
echo 100 >$I.1/power/autosuspend_delay_ms
echo 100 >$I/power/autosuspend_delay_ms
wait_file_eq 10 $I/power/runtime_status suspended || fail "interface did not suspend"
n=$(wc -l <log)
echo off >$I/power_state || fail "power off of a suspended interface failed"
assert_file_eq $I/status off
tail -n +$((n + 1)) log | grep refused && fail "gbsim refused a message to the suspended interface"

# The module removed: the attribute goes with it; a write racing it fails
echo on >$I/power_state || fail "power on failed"
exec 3>$I/power_state
gbsim ctl remove 4 || fail "remove 4 failed"
wait_for 10 test ! -e $D/1-4 || fail "module 1-4 still there after removal"
echo off >&3 2>/dev/null && fail "a write to a removed interface succeeded"
exec 3>&-

kill -TERM "$pid"
wait "$pid"
unload_all_gb
exit 0
