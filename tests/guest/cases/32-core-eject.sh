# Checks that writing 1 to a module's eject tears its interface down in protocol order, asks the SVC to eject it, and that the module goes once the SVC reports it removed.
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol

# The vendor-class test module that manifests/ already describes
cp /usr/share/greybus/manifests/test-vendor.mnfs test.mnfs

gbsim -l log -m 4:test.mnfs >out 2>err &
pid=$!

D=/sys/bus/greybus/devices
wait_for 10 test -e $D/1-4.4.1/test_result || fail "test driver did not bind: $(cat err)"
assert_file_eq $D/1-4.4.1/test_result ok

echo 0 >$D/1-4/eject || fail "eject 0 failed"
test -d $D/1-4.4.1 || fail "eject 0 removed the bundle"
echo 1 >$D/1-4/eject || fail "eject 1 failed: $(dmesg | tail -n 5)"
test -d $D/1-4.4.1 && fail "bundle still there after eject"
wait_for 10 test ! -e $D/1-4 || info "module 1-4 stays until the SVC reports it removed"

grep -q 'svc.intf_eject req' log || fail "no intf_eject in the log"
grep -q 'control.disconnecting req' log || fail "no disconnecting in the log"
grep -q 'control.bundle_deactivate req' log || fail "no bundle_deactivate in the log"

kill -TERM "$pid"
wait "$pid"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
info "message log:"
cat log
unload_all_gb
exit 0
