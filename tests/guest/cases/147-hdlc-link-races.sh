# Checks gb-hdlc's link core against its teardown races, provoked on purpose by gb-hdlc-selftest (the link core built with a port of its own): a write-wakeup just before the stop purges the transmit queue, with the frame being written taken by the port only after the purge (nothing writes from or unlinks a freed frame, the queue count stays 0 instead of wrapping); a protocol version request from the peer after the link stopped, before its port closed (no restart, no host device registered again); such requests in a storm from another thread while the link stops and is destroyed; and the host device's hdlc/port file exists when the bus learns of the device, just before its add uevent (what a udev rule sees). On a KASAN/lockdep kernel its reports fail the case too.
# timeout: 120
# transport: none
. /usr/lib/gbtest/lib.sh

load_gb greybus gb-hdlc-selftest
RUN=/sys/kernel/debug/gb-hdlc-selftest/run
[ -w $RUN ] || fail "no $RUN"
on_fail() {
	dmesg_since_case | grep -E 'gb-hdlc-selftest|greybus' | tail -n 30
}

failed=
for s in groups-at-add version-after-stop reset-storm purge-wakeup; do
	echo $s >$RUN || failed="$failed $s"
done
[ -z "$failed" ] || fail "scenarios failed:$failed: $(dmesg_since_case | grep 'check failed' | head -n 5)"
for s in groups-at-add version-after-stop reset-storm purge-wakeup; do
	expect_dmesg "gb-hdlc-selftest: $s: passed"
done
wait_for 10 sh -c '! ls /sys/bus/greybus/devices | grep -q .' ||
	fail "host devices left: $(ls /sys/bus/greybus/devices | tr '\n' ' ')"
unload_all_gb
exit 0
