# Checks the file semantics of /dev/greybus-vhd: EAGAIN, poll, EMSGSIZE, EFAULT, signals, queue limits, DESTROY.
# transport: vhd
# timeout: 90
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd
vhdtest check >out 2>&1
rc=$?
cat out
grep -q '^not ok' out && fail "$(grep -m 1 '^not ok' out)"
[ "$rc" = 0 ] || fail "vhdtest check exited with $rc"
grep -q '^1\.\.[0-9]' out || fail "vhdtest check did not finish"
exit 0
