# Checks that greybus.ko loads and registers the greybus bus type.
# transport: none
. /usr/lib/gbtest/lib.sh

[ -e /sys/bus/greybus ] && fail "/sys/bus/greybus exists before greybus.ko is loaded"
load_gb greybus
[ -d /sys/module/greybus ] || fail "greybus is not in /sys/module after modprobe"
wait_for 5 test -d /sys/bus/greybus || fail "/sys/bus/greybus did not appear"
[ -d /sys/bus/greybus/devices ] || fail "/sys/bus/greybus has no devices/"
[ -d /sys/bus/greybus/drivers ] || fail "/sys/bus/greybus has no drivers/"
assert_file_eq /sys/module/greybus/initstate live
exit 0
