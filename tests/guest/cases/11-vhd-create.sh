# Checks that CREATE makes greybusN (bus_id N, child of the misc device) appear and close removes it cleanly.
# transport: vhd
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd

vhdtest create >out 2>err &
pid=$!
wait_for 10 test -s out || fail "vhdtest create printed no bus id: $(cat err)"
id=$(head -n 1 out)
case $id in
''|*[!0-9]*) fail "vhdtest create printed '$id', not a bus id" ;;
esac
info "host device greybus$id"

dev=/sys/bus/greybus/devices/greybus$id
wait_for 5 test -d "$dev" || fail "$dev did not appear"
assert_file_eq "$dev/bus_id" "$id"
case $(readlink -f "$dev") in
*/misc/greybus-vhd/greybus"$id") ;;
*) fail "greybus$id is not a child of the misc device: $(readlink -f "$dev")" ;;
esac

kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 0 ] || fail "vhdtest create exited with $rc: $(cat err)"
wait_for 5 test ! -e "$dev" || fail "$dev still exists after close"
ls /sys/bus/greybus/devices | grep -q "^greybus$id\$" && fail "greybus$id still on the bus"

# The same again, ended by end of file on stdin instead of a signal
mkfifo ctl
vhdtest create <ctl >out2 2>err2 &
pid=$!
exec 3>ctl
wait_for 10 test -s out2 || fail "second vhdtest create printed no bus id: $(cat err2)"
id=$(head -n 1 out2)
wait_for 5 test -d "/sys/bus/greybus/devices/greybus$id" || fail "greybus$id did not appear"
exec 3>&-
wait "$pid" || fail "vhdtest create did not exit cleanly at end of file: $(cat err2)"
wait_for 5 test ! -e "/sys/bus/greybus/devices/greybus$id" ||
	fail "greybus$id still exists after close"
exit 0
