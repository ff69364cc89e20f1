# Checks each way a CC1352 firmware upload fails on the arm64 guest's serdev link, and that each leaves a state the next upload recovers from: images too large, truncated, not a CC1352P7 image, or disabling the bootloader's backdoor are refused before the chip is touched (gbsim's bootloader never runs, the link stays up); a bootloader that never answers the sync, a NACK, a flash failure status, an answer with a bad checksum, a reset mid-transfer, a corrupted byte (CRC32 mismatch) and a cancel each end with their error code and a kernel log line naming the command; the link comes back after each; a clean upload at the end puts the new firmware on the chip.
# timeout: 900
# transport: none
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/serdev.sh
. /usr/lib/gbtest/fwup.sh

fwup_chip_up "the uploads"
fwup_patient
gbsim cc1352-image v3 >img 2>/dev/null || fail "gbsim cc1352-image failed"

# ---- refused before anything happens to the chip
head -c 700000 img >short
{ cat img; echo x; } >long
dd if=/dev/zero of=zeros bs=4096 count=176 2>/dev/null
cp img nobd
# BL_CONFIG's low byte (backdoor enable) in the CCFG, the flash's last 88 bytes
printf '\000' | dd of=nobd bs=1 seek=$((720896 - 88 + 48)) conv=notrunc 2>/dev/null
fwup_fails short "preparing:invalid-file-size" "firmware upload refused, nothing erased: the 700000-byte image is truncated"
fwup_fails long "preparing:invalid-file-size" "refused, nothing erased: the 720898-byte image is larger than"
# 6.1 has no "firmware-invalid" (make check-arm64-debug boots a 6.1):
# gb-hdlc says hw-error there, the log line says why
invalid=firmware-invalid
case $(uname -r) in 6.1.*) invalid=hw-error ;; esac
fwup_fails zeros "preparing:$invalid" "refused, nothing erased: .*not a CC1352P7 image"
fwup_fails nobd "preparing:$invalid" "refused, nothing erased: .*disables the ROM bootloader or its backdoor"
gbsim ctl -s $CTL hdlc rom | grep -q 'mode=firmware synced=0 commands=0 ' ||
	fail "the bootloader ran for a refused image: $(gbsim ctl -s $CTL hdlc rom)"
test -e $LB || fail "the link went for a refused image"

# ---- the chip never enters its bootloader (nobody tells gbsim)
echo $((3000 * ${GB_TSCALE:-1})) >/sys/module/gb_hdlc/parameters/boot_timeout_ms
fwup_fails img "preparing:timeout" "did not enter its ROM bootloader within"
fwup_patient
wait_for 60 test -e $LB || fail "no link after the silent bootloader"

# ---- failures before the erase: the chip boots its old firmware again
fwup_fails img "preparing:hw-error" "answered PING with NACK" "ping nack"
wait_for 60 test -e $LB || fail "no link after the NACK"

# ---- failures after the erase: the next upload starts over
fwup_fails img "transferring:hw-error" "BANK_ERASE failed in the CC1352's bootloader: status 0x44 \\(flash failure\\)" "bank_erase status"
fwup_fails img "transferring:read-write-error" "answered GET_STATUS with a packet with a bad checksum" "get_status garbage"
fwup_fails img "transferring:timeout" "no answer from the CC1352's bootloader to SEND_DATA within" "send_data reset"
expect_dmesg "stopped at byte [0-9]* of 720896; the flash is erased" 5
fwup_fails img "programming:hw-error" "the flash's CRC32 is 0x[0-9a-f]* after programming, the image's 0x[0-9a-f]*" "send_data corrupt"

# ---- a cancel mid-transfer
gbsim ctl -s $CTL hdlc rom fault send_data silent
fwup_start img
fwup_chip $CTL
wait_file_eq 60 $FWUP/status transferring || fail "never transferring"
echo 1 >$FWUP/cancel
fwup_wait
assert_eq "$(fwup_error)" "transferring:user-abort" "the error after a cancel"
expect_dmesg "firmware upload: cancelled" 10
fwup_chip_reset $CTL

# ---- and a clean upload recovers the chip
gbsim ctl -s $CTL hdlc rom fault any none
fwup_start img
fwup_chip $CTL
fwup_wait
assert_eq "$(fwup_error)" "" "the error of the clean upload"
wait_for 60 test -e $LB || fail "no gb_loopback0 after the clean upload"
gbsim ctl -s $CTL hdlc rom | grep -q 'mode=firmware .*firmware=v3 ' ||
	fail "gbsim: $(gbsim ctl -s $CTL hdlc rom)"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
