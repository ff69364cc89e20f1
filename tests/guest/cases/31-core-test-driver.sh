# Checks that a vendor-class bundle autoloads gb-test-protocol through its modalias, that probe's echo operation and later ones succeed, and that a two-bundle interface gives two bundles.
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd

cat >test.mnfs <<'EOF'
[manifest-header]
version-major = 0
version-minor = 1

[interface-descriptor]
vendor-string-id = 1
product-string-id = 2

[string-descriptor 1]
string = Greybus Test

[string-descriptor 2]
string = Test Protocol

[bundle-descriptor 1]
class = 0xff

[cport-descriptor 1]
bundle = 1
protocol = 0xff

[bundle-descriptor 2]
class = 0x10

[cport-descriptor 2]
bundle = 2
protocol = 0x10
EOF

gbsim -l log -m 3:test.mnfs >out 2>err &
pid=$!

D=/sys/bus/greybus/devices
B=$D/1-3.3.1
wait_for 10 test -d $D/1-3.3.2 || fail "bundles did not appear: $(cat err)"
test -d $B || fail "bundle 1-3.3.1 missing"
assert_file_eq $D/1-3.3.2/bundle_class 0x10

# Load the driver the way udev does: modprobe of the uevent's MODALIAS,
# resolved through modules.alias (the suite's uevent helper does the same,
# but may be busy with a backlog from earlier cases).
modalias=$(sed -n 's/^MODALIAS=//p' $B/uevent)
[ "$modalias" = "greybus:v00000001p00000001cFF" ] || fail "bundle modalias is '$modalias'"
[ "$(modprobe -R "$modalias")" = gb_test_protocol ] ||
	fail "modalias $modalias does not resolve to gb_test_protocol"
modprobe -q -b "$modalias" || fail "modprobe $modalias failed"
wait_for 10 test -e $B/test_result || fail "gb-test-protocol did not bind (driver: $(readlink $B/driver))"
case $(readlink $B/driver) in
*/gb-test-protocol) ;;
*) fail "bundle bound to $(readlink $B/driver)" ;;
esac
assert_file_eq $B/test_result ok
assert_file_eq /sys/kernel/debug/greybus/gb-test-protocol/1-3.3.1/result ok

echo 1 >$B/test_ping || fail "test_ping write failed"
assert_file_eq $B/test_result ok
echo 2 >$B/test_ping 2>/dev/null && fail "test_ping accepted 2"

# bundle_activate before the driver's connection is set up and used
got=$(grep -o '[a-z_]*\.[a-z_]* req ' log | sed 's/ req //')
echo "$got" | awk '
	BEGIN { n = split("control.get_manifest control.bundle_activate svc.conn_create control.connected test.echo test.echo", w); i = 1 }
	i <= n && $1 == w[i] { i++ }
	END { if (i <= n) { print "missing or out of order: " w[i]; exit 1 } }' ||
	fail "probe sequence not in protocol order"
n=$(grep -c 'MOD>AP .*rsp id=.*result=success' log)
info "$n successful module responses"

kill -TERM "$pid"
wait "$pid"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
[ -e /sys/kernel/debug/greybus/gb-test-protocol/1-3.3.1 ] && fail "test debugfs entry left"
info "message log:"
cat log
unload_all_gb
exit 0
