# Removal while the motor runs: unbinding the driver sends OFF and leaves no pending work (gb-vibrator unloaded right after, then the pulse's end passes); a surprise removal of the module while on is clean too.
# timeout: 90
# kmods: ff-memless evdev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/vibrator.sh

# Long enough for rmmod to finish first, with room to spare: on a loaded
# host 800 ms was not (several times slower on the sanitizer kernel,
# GB_TSCALE)
PULSE=$((3000 * GB_TSCALE))
echo $PULSE >$V/timeout || fail "timeout write failed"
sleep 0.2
rmmod gb-vibrator || fail "rmmod gb-vibrator failed"
ms=$(wait_off 0 5)
[ "$ms" -lt $PULSE ] || fail "OFF came only when the pulse ended ($ms ms), not at removal"
info "OFF at removal after $ms ms"
sleep $((PULSE / 1000 + 1))	# past the pulse's end: a work item left behind would run now
[ "$(readlink $B/driver)" = "" ] || fail "bundle still bound"

modprobe gb-vibrator || fail "modprobe gb-vibrator failed"
wait_for 10 test -e /sys/class/vibrator/vibrator0/timeout || fail "vibrator did not come back"
echo 500 >$V/timeout || fail "timeout write failed after re-bind"
gbsim ctl remove 3 || fail "remove failed"
wait_for 10 test ! -e $B || fail "bundle still there after removal"
rmmod gb-vibrator || fail "rmmod after surprise removal failed"
sleep 1

vib_trace_off
kill -TERM $pid
wait $pid
unload_all_gb
