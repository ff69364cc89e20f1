# Checks a CC1352 firmware upload on the arm64 guest's serdev link: a gbsim-generated image written to /sys/class/firmware/cc1352p7 stops the link, drives the bootloader-backdoor line low (gbsim's bootloader runs once the case sees it), programs the image with remaining_size moving down, verifies the CRC32, resets the chip, and the link comes back on the new firmware: the module enumerates again and the firmware's log line, carried to the kernel log as debug text, names the new version and the image's CRC32; the backdoor line is an input again.
# timeout: 600
# transport: none
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/serdev.sh
. /usr/lib/gbtest/fwup.sh

fwup_chip_up "the upload"

gbsim cc1352-image v2.0-case190 >img 2>imgerr || fail "gbsim cc1352-image failed: $(cat imgerr)"
crc=$(sed -n 's/.*crc32 \([0-9a-f]*\)$/\1/p' imgerr)
[ -n "$crc" ] || fail "no CRC from gbsim cc1352-image: $(cat imgerr)"

fwup_start img
fwup_chip $CTL
# progress: each write step of the upload sends one SEND_DATA packet of at
# most 252 bytes (the kernel counts them), and the loader takes what each
# step wrote off remaining_size: 0 at the end, the whole image through the
# steps.  A sample of remaining_size mid-transfer is only noted: a busy
# host may run the whole transfer between two samples.
seen=0
_fwup_progress() {
	local r s
	s=$(cat $FWUP/status)
	r=$(cat $FWUP/remaining_size)
	[ "$s" = transferring ] && [ "$r" -gt 0 ] && [ "$r" -lt 720896 ] && seen=1
	[ "$s" = idle ] || [ $seen = 1 ]
}
wait_for 300 _fwup_progress || fail "the upload neither moved nor ended"
fwup_wait
assert_eq "$(fwup_error)" "" "the upload's error"
assert_file_eq $FWUP/remaining_size 0
expect_dmesg "firmware upload: done, CRC32 0x$crc verified, the data sent in [0-9]* steps" 10
steps=$(dmesg | sed -n 's/.*firmware upload: done, CRC32 0x[0-9a-f]* verified, the data sent in \([0-9]*\) steps.*/\1/p' | tail -n 1)
bytes=$(gbsim ctl -s $CTL hdlc rom | sed -n 's/.* data_bytes=\([0-9]*\) .*/\1/p')
[ -n "$bytes" ] && [ "$bytes" -gt 0 ] || fail "no data reached gbsim's bootloader: $(gbsim ctl -s $CTL hdlc rom)"
# one packet a step: as many steps as packets of 252 bytes the data needs
[ "$steps" -ge $(( (bytes + 251) / 252 )) ] ||
	fail "$bytes bytes of data sent in $steps steps: remaining_size moved by more than a packet a step"
if [ $seen = 1 ]; then
	info "remaining_size seen between 0 and 720896 while transferring"
else
	info "the transfer ran between two samples of remaining_size"
fi
info "$bytes bytes of data in $steps steps"

# the link on the new firmware
wait_for 60 test -e $LB || fail "no gb_loopback0 after the upload"
expect_dmesg "peer: .*firmware v2.0-case190 crc32 $crc" 30
gbsim ctl -s $CTL hdlc rom | grep -q "mode=firmware .*firmware=v2.0-case190 crc32=$crc" ||
	fail "gbsim: $(gbsim ctl -s $CTL hdlc rom)"
fwup_backdoor_driven && fail "the backdoor line is still driven low"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
