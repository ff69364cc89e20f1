# Checks that gb-vhd cannot be unloaded while the device is open and unloads cleanly once every file is closed.
# transport: vhd
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd

# An open file pins the module
exec 3<>/dev/greybus-vhd || fail "cannot open /dev/greybus-vhd"
rmmod gb_vhd 2>/dev/null && fail "rmmod gb_vhd succeeded with the device open"
exec 3>&-

# So does a live host device, until its file is closed
vhdtest create >out 2>err &
pid=$!
wait_for 10 test -s out || fail "vhdtest create printed no bus id: $(cat err)"
id=$(head -n 1 out)
rmmod gb_vhd 2>/dev/null && fail "rmmod gb_vhd succeeded with greybus$id alive"
kill -TERM "$pid"
wait "$pid" || fail "vhdtest create failed: $(cat err)"

rmmod gb_vhd || fail "rmmod gb_vhd failed after every file was closed"
[ -e /sys/module/gb_vhd ] && fail "gb_vhd still loaded"
wait_for 5 test ! -e /dev/greybus-vhd || fail "/dev/greybus-vhd still exists after unload"

# Everything else of ours unloads too, and the driver comes back
unload_all_gb
load_gb gb-vhd
wait_for 5 test -c /dev/greybus-vhd || fail "/dev/greybus-vhd did not come back"
exit 0
