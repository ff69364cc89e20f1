# Checks gb-sdio: the SD card reader module's SDIO CPort becomes an MMC host whose capabilities come from the module (gbsim logs them; the host's clock and bus width show in debugfs), gbsim's card is found by the MMC core's SD initialisation (its CID, CSD and SCR as the card's sysfs attributes show them) and appears as /dev/mmcblkN with the size GBSIM_SDIO asked for, data written through the block device with O_DIRECT reads back, the idle gbphy device and bundle suspend and a read resumes them, and the stack unloads.
# timeout: 120
# kmods: mmc_block
# tools: dd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim dd
load_gb greybus gb-vhd gb-gbphy gb-sdio

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
# a 48 MiB card
export GBSIM_SDIO=size_mb=48

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/sdio-card.mnfs >out 2>err &
pid=$!
wait_for 30 gbphy_mmcblk >/dev/null || fail "no mmcblk below a gbphy device: $(grep -i 'mmc\|sdio' /dev/kmsg 2>/dev/null | tail -n 3; tail -n 5 log)"
B=$(gbphy_mmcblk)
info "block device $B"
wait_for 10 test -b /dev/$B || fail "no /dev/$B"
assert_eq "$(cat /sys/block/$B/size)" $((48 * 2048)) "sectors of /dev/$B"
assert_eq "$(blockdev --getsize64 /dev/$B)" $((48 * 1024 * 1024)) "bytes of /dev/$B"
assert_eq "$(cat /sys/block/$B/ro)" 0 "ro of /dev/$B"

# the card as the MMC core decoded its registers
C=$(readlink -f /sys/block/$B/device)
assert_file_eq $C/type SD
assert_file_eq $C/name GBSIM
assert_file_eq $C/manfid 0x000047
assert_file_eq $C/oemid 0x4742
assert_file_eq $C/serial 0x12345678
assert_file_eq $C/date 12/2026
assert_file_eq $C/hwrev 0x1
assert_file_eq $C/fwrev 0x0
assert_file_eq $C/scr 0205000000000000
assert_eq "${C##*:}" b368 "the card's RCA"
expect_dmesg "mmc[0-9]*: new SDHC card at address b368"
expect_dmesg "$B: mmc[0-9]*:b368 GBSIM 48.0 MiB"

# what the host took from the capabilities answer (gbsim's defaults)
grep -q "sdio.get_capabilities .*rsp" log || fail "gbsim logged no capabilities answer"
H=$(basename "$(dirname "$C")")
I=/sys/kernel/debug/$H/ios
[ -r $I ] || fail "no $I"
grep -q "clock:.*25000000 Hz" $I || fail "clock not 25 MHz: $(cat $I)"
grep -q "bus width:.*2 (4 bits)" $I || fail "bus not 4 bits wide: $(cat $I)"
grep -q "sdio.set_ios .*clock=25000000 .*width=2" log || fail "gbsim saw no 25 MHz 4-bit set_ios"

# blocks written with O_DIRECT come back, single and multi-block commands
head -c 1048576 /dev/urandom >data
dd if=data of=/dev/$B bs=64k seek=16 oflag=direct 2>dd.err || fail "dd write failed: $(cat dd.err)"
dd if=/dev/$B of=back bs=64k skip=16 count=16 iflag=direct 2>dd.err || fail "dd read failed: $(cat dd.err)"
cmp data back || fail "data read back differs"
grep -q "sdio cport [0-9]*: cmd 25 arg 0x00000800: write 128 blocks of 512" log ||
	fail "gbsim saw no 128-block write at block 2048: $(grep 'cmd 25' log | head -n 2)"
grep -q "sdio cport [0-9]*: cmd 18 arg 0x00000800: read 128 blocks of 512" log ||
	fail "gbsim saw no 128-block read at block 2048"
dd if=/dev/$B of=one bs=512 skip=2048 count=1 iflag=direct 2>dd.err || fail "one-block read failed: $(cat dd.err)"
head -c 512 data | cmp - one || fail "one block read back differs"
grep -q "sdio cport [0-9]*: cmd 17 arg 0x00000800: read 1 blocks of 512" log ||
	fail "gbsim saw no single-block read: $(grep 'sdio cport [0-9]*: cmd' log | tail -n 3)"
# the end of the card, and past it
dd if=/dev/$B of=/dev/null bs=512 skip=$((48 * 2048 - 1)) count=1 iflag=direct 2>dd.err ||
	fail "reading the last block failed: $(cat dd.err)"

# runtime PM: idle, the gbphy device and the bundle suspend; a read
# resumes them and works
G=${C%%/mmc_host/*}
case $G in */gbphy*) ;; *) fail "no gbphy device above $C" ;; esac
wait_file_eq 10 $G/power/runtime_status suspended || fail "idle gbphy device not suspended"
wait_for 10 sh -c "gbsim ctl pm 2 | grep -q 'bundle 1 state=suspended'" ||
	fail "bundle not suspended: $(gbsim ctl pm 2)"
dd if=/dev/$B of=back bs=64k skip=16 count=16 iflag=direct 2>dd.err || fail "read after suspend failed: $(cat dd.err)"
cmp data back || fail "data read after suspend differs"
gbsim ctl pm 2 | grep -q 'bundle 1 state=active' || fail "bundle not resumed: $(gbsim ctl pm 2)"

kill -TERM $pid
wait $pid
wait_for 10 sh -c "! test -e /dev/$B" || fail "/dev/$B still there after gbsim left"
unload_all_gb
