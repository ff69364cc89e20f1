# Checks that a device's MODALIAS uevent makes the guest modprobe its driver.
# selftest-expect: pass
. /usr/lib/gbtest/lib.sh
[ -e /sys/module/gbselftest_drv ] && fail "gbselftest_drv loaded before the device exists"
load_gb gbselftest_dev
wait_for 10 test -d /sys/module/gbselftest_drv || fail "gbselftest_drv was not autoloaded"
wait_for 5 test -e /sys/bus/platform/devices/gbselftest-autoload/driver ||
	fail "the device is not bound"
expect_dmesg 'gbselftest: bound by autoload'
uevent_settle 5 || fail "uevent_settle timed out"
wait_file_eq 1 /sys/module/gbselftest_drv/initstate live || fail "initstate"
unload_all_gb
[ -e /sys/module/gbselftest_dev ] && fail "unload_all_gb left gbselftest_dev loaded"
[ -e /sys/module/gbselftest_drv ] && fail "unload_all_gb left gbselftest_drv loaded"
exit 0
