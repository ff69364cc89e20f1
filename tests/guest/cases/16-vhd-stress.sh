# Checks that concurrent create/destroy/echo/recv/read/close on /dev/greybus-vhd stay correct with no kernel splat.
# transport: vhd
# timeout: 120
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd
vhdtest stress --seconds 8 >out 2>&1
rc=$?
cat out
[ "$rc" = 0 ] || fail "vhdtest stress: $(head -n 1 out)"
wait_for 5 sh -c '! ls /sys/bus/greybus/devices | grep -q ^greybus' ||
	fail "host devices left behind: $(ls /sys/bus/greybus/devices)"
exit 0
