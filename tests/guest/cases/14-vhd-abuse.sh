# Checks that every kind of malformed write to /dev/greybus-vhd fails with EINVAL and leaves it usable.
# transport: vhd
# timeout: 240
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd
vhdtest abuse --iterations 3000 --seed 2718 >out 2>&1
rc=$?
cat out
[ "$rc" = 0 ] || fail "vhdtest abuse: $(grep -m 1 FAIL out || echo "exit status $rc")"
grep -q ', 0 failures$' out || fail "vhdtest abuse printed no summary"

# A second run with another seed, and the device still makes host devices
vhdtest abuse --iterations 1000 --seed "$(date +%s)" >out2 2>&1 ||
	fail "second vhdtest abuse: $(grep -m 1 FAIL out2 || tail -n 1 out2)"
tail -n 1 out2
ls /sys/bus/greybus/devices | grep '^greybus' &&
	fail "host devices left behind by vhdtest abuse"
exit 0
