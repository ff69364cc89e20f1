# Checks a CC1352 firmware upload on the arm64 guest's serdev link: a gbsim-generated image written to /sys/class/firmware/cc1352p7 stops the link, drives the bootloader-backdoor line low (gbsim's bootloader runs once the case sees it), programs the image with remaining_size moving down, verifies the CRC32, resets the chip, and the link comes back on the new firmware: the module enumerates again and the firmware's log line, carried to the kernel log as debug text, names the new version and the image's CRC32; the backdoor line is an input again.
# timeout: 600
# transport: none
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/serdev.sh
. /usr/lib/gbtest/fwup.sh

serdev_here
modprobe fixed 2>/dev/null
need_tool gbsim
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
CTL=$GBTEST_TMP/ctl
load_gb gb-loopback

cc1352_sim --ctl $CTL -m 2:$M/loopback.mnfs
wait_for 60 test -e $LB || fail "no gb_loopback0 before the upload"

gbsim cc1352-image v2.0-case190 >img 2>imgerr || fail "gbsim cc1352-image failed: $(cat imgerr)"
crc=$(sed -n 's/.*crc32 \([0-9a-f]*\)$/\1/p' imgerr)
[ -n "$crc" ] || fail "no CRC from gbsim cc1352-image: $(cat imgerr)"

fwup_start img
fwup_chip $CTL
# progress: remaining_size goes below the image's size before the end
seen=0
_fwup_progress() {
	local r s
	s=$(cat $FWUP/status)
	r=$(cat $FWUP/remaining_size)
	[ "$s" = transferring ] && [ "$r" -gt 0 ] && [ "$r" -lt 720896 ] && seen=1
	[ "$s" = idle ] || [ $seen = 1 ]
}
wait_for 300 _fwup_progress || fail "no progress seen"
fwup_wait
assert_eq "$(fwup_error)" "" "the upload's error"
[ $seen = 1 ] || fail "remaining_size never moved while transferring"
expect_dmesg "firmware upload: done, CRC32 0x$crc verified" 10

# the link on the new firmware
wait_for 60 test -e $LB || fail "no gb_loopback0 after the upload"
expect_dmesg "peer: .*firmware v2.0-case190 crc32 $crc" 30
gbsim ctl -s $CTL hdlc rom | grep -q "mode=firmware .*firmware=v2.0-case190 crc32=$crc" ||
	fail "gbsim: $(gbsim ctl -s $CTL hdlc rom)"
fwup_backdoor_driven && fail "the backdoor line is still driven low"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
