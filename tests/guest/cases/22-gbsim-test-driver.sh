# Checks the bundle MODALIAS, that gb-test-protocol is loaded and bound through it, and that its probe's echo operation is answered by gbsim.
# timeout: 60
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
for m in test-vendor; do
	[ -r "$M/$m.mnfs" ] || fail "no $M/$m.mnfs in the guest"
done
DEV=/sys/bus/greybus/devices
B=$DEV/1-5.5.1
LOG=$GBTEST_TMP/gbsim.log

load_gb greybus gb-vhd
grep -q '^gb_test_protocol ' /proc/modules && fail "gb-test-protocol loaded before the bundle appeared"
gbsim --log "$LOG" \
	--module 5:$M/test-vendor.mnfs,vid=0x0000abcd,pid=0x00ef0123 \
	2>"$GBTEST_TMP/gbsim.err" &
pid=$!

wait_for 20 test -e "$B/uevent" ||
	fail "bundle 1-5.5.1 did not appear: $(ls $DEV 2>&1 | tr '\n' ' ') $(cat "$GBTEST_TMP/gbsim.err")"
grep -qx 'MODALIAS=greybus:v0000ABCDp00EF0123cFF' "$B/uevent" ||
	fail "bundle uevent has no MODALIAS=greybus:v0000ABCDp00EF0123cFF: $(grep MODALIAS "$B/uevent")"

# the uevent handler modprobes the alias; nothing here loads it by hand
wait_for 20 test -e "$B/driver" || fail "no driver bound to 1-5.5.1 (modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' '))"
drv=$(basename "$(readlink "$B/driver")")
assert_eq "$drv" gb-test-protocol "driver of 1-5.5.1"
grep -q '^gb_test_protocol ' /proc/modules || fail "gb-test-protocol is bound but not listed as loaded"
wait_file_eq 10 "$B/test_result" ok || fail "test_result is not ok"

grep -q 'AP>MOD  cport [0-9]* intf 5:1 test.echo req id=0x[0-9a-f]* data="ping"' "$LOG" ||
	fail "gbsim log has no echo request with \"ping\": $(grep test\\. "$LOG")"
grep -q 'MOD>AP  cport [0-9]* intf 5:1 test.echo rsp id=0x[0-9a-f]* result=success data="ping"' "$LOG" ||
	fail "gbsim log has no successful echo response: $(grep test\\. "$LOG")"
n1=$(grep -c 'test.echo rsp .*result=success' "$LOG")

# test_ping runs it again
echo 1 >"$B/test_ping" || fail "writing 1 to test_ping failed"
_more_echoes() {
	[ "$(grep -c 'test.echo rsp .*result=success' "$LOG")" -gt "$n1" ]
}
wait_for 10 _more_echoes || fail "test_ping sent no further echo operation"
wait_file_eq 10 "$B/test_result" ok || fail "test_result is not ok after test_ping"

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(cat "$GBTEST_TMP/gbsim.err")"
wait_for 10 test ! -e "$DEV/greybus1" || fail "greybus1 still there after gbsim exited"
exit 0
