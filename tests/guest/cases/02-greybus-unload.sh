# Checks that greybus.ko unloads cleanly, removing the bus, and loads again.
# transport: none
. /usr/lib/gbtest/lib.sh

load_gb greybus
[ -d /sys/bus/greybus ] || fail "/sys/bus/greybus missing after load"

rmmod greybus || fail "rmmod greybus failed"
[ -e /sys/module/greybus ] && fail "greybus still in /sys/module after rmmod"
[ -e /sys/bus/greybus ] && fail "/sys/bus/greybus still exists after rmmod"

load_gb greybus
[ -d /sys/bus/greybus/devices ] || fail "/sys/bus/greybus missing after reload"
rmmod greybus || fail "second rmmod greybus failed"
[ -e /sys/bus/greybus ] && fail "/sys/bus/greybus still exists after second rmmod"
exit 0
