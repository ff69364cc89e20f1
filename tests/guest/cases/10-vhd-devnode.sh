# Checks that gb-vhd provides /dev/greybus-vhd, a misc character device of mode 0600 owned by root.
# transport: vhd
. /usr/lib/gbtest/lib.sh

[ -e /dev/greybus-vhd ] && fail "/dev/greybus-vhd exists before gb-vhd is loaded"
load_gb gb-vhd
wait_for 5 test -c /dev/greybus-vhd || fail "/dev/greybus-vhd did not appear"

assert_eq "$(stat -c %a /dev/greybus-vhd)" 600 "mode of /dev/greybus-vhd"
assert_eq "$(stat -c %u:%g /dev/greybus-vhd)" 0:0 "owner of /dev/greybus-vhd"
# Misc devices are major 10 (stat prints it in hex)
assert_eq "$(stat -c %t /dev/greybus-vhd)" a "major of /dev/greybus-vhd"
[ -d /sys/class/misc/greybus-vhd ] || fail "no /sys/class/misc/greybus-vhd"

# Opening alone creates nothing
exec 3<>/dev/greybus-vhd || fail "cannot open /dev/greybus-vhd"
ls /sys/bus/greybus/devices | grep -q '^greybus' &&
	fail "a host device exists without CREATE: $(ls /sys/bus/greybus/devices)"
exec 3>&-
exit 0
