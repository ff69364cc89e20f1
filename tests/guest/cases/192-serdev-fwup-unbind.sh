# Checks that unbinding gb-hdlc from the CC1352 in the middle of a firmware upload is clean on the arm64 guest: the unbind returns, the upload is cancelled ("firmware upload: cancelled" in the log), /sys/class/firmware/cc1352p7 goes with the device, no kernel warning; bound again, a new upload device is there and an upload recovers the chip, whose flash the first one had erased, and the link comes back; an unbind right after an image is written (the upload perhaps not yet prepared) cancels it too: no upload completes, and bound again the link is back.
# timeout: 600
# transport: none
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/serdev.sh
. /usr/lib/gbtest/fwup.sh

fwup_chip_up "the upload"
fwup_patient
gbsim cc1352-image v4 >img 2>/dev/null || fail "gbsim cc1352-image failed"

# the bootloader goes silent mid-transfer: the upload waits there
gbsim ctl -s $CTL hdlc rom fault send_data silent
fwup_start img
fwup_chip $CTL
wait_file_eq 60 $FWUP/status transferring || fail "never transferring"
serdev_unbind
wait_for 10 test ! -e $FWUP || fail "$FWUP still there after the unbind"
expect_dmesg "firmware upload: cancelled" 10
# the cleanup reset the chip, its flash erased: its ROM bootloader runs
fwup_chip_reset $CTL

serdev_bind
gbsim ctl -s $CTL hdlc rom fault any none
fwup_start img
fwup_chip $CTL
fwup_wait
assert_eq "$(fwup_error)" "" "the error of the upload after the unbind"
wait_for 60 test -e $LB || fail "no gb_loopback0 after the upload"

# unbound right after the image is written, the upload perhaps still
# queued in the firmware loader (its prepare() not run yet): cancelled
# all the same, so the unbind does not wait for a whole upload, and the
# upload never completes (prepare() used to clear the cancel: the unbind
# then waited for the sync to time out, here made far longer than the
# unbind may take)
echo $((300000 * GB_TSCALE)) >/sys/module/gb_hdlc/parameters/boot_timeout_ms
done0=$(dmesg | grep -c "firmware upload: done")
early0=$(dmesg | grep -c "firmware upload: cancelled before it started")
fwup_start img
t0=$(_gb_now_cs)
serdev_unbind
took=$(( $(_gb_now_cs) - t0 ))
[ $took -lt $((6000 * GB_TSCALE)) ] ||
	fail "the unbind right after the image was written took $((took / 100)) s: it waited for the upload"
wait_for 10 test ! -e $FWUP || fail "$FWUP still there after the early unbind"
assert_eq "$(dmesg | grep -c "firmware upload: done")" "$done0" \
	"uploads completed across the early unbind"
# refused in prepare(), the upload did not touch the chip; else its
# cleanup reset the chip with the backdoor released, which boots its
# flash: gbsim is told so, as after the unbind above
[ "$(dmesg | grep -c "firmware upload: cancelled before it started")" -gt "$early0" ] ||
	fwup_chip_reset $CTL
serdev_bind
wait_for 60 test -e $LB || fail "no gb_loopback0 after the early unbind"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
