# Checks gb-sdio under a file system: mkfs.ext4 on gbsim's SD card (its discard reaches gbsim as an erase), mount, files written and synced, unmount, remount, e2fsck finds the file system clean, and the files' checksums are those written; the stack unloads after the unmount.
# timeout: 240
# kmods: mmc_block ext4 crc32c_generic
# tools: mkfs.ext4 e2fsck
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim mkfs.ext4 e2fsck
load_gb greybus gb-vhd gb-gbphy gb-sdio
# ext4 and jbd2 look crc32c up by its crypto name, which modprobe cannot resolve here
modprobe crc32c_generic || fail "modprobe crc32c_generic failed"
modprobe ext4 || fail "modprobe ext4 failed"

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
export GBSIM_SDIO=size_mb=32

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/sdio-card.mnfs >out 2>err &
pid=$!
gbphy_card

mkfs.ext4 -q -F -b 4096 /dev/$B >mkfs.out 2>&1 || fail "mkfs.ext4 failed: $(cat mkfs.out)"
grep -q "sdio cport [0-9]*: erase blocks 0\.\." log || fail "mkfs.ext4's discard did not reach gbsim as an erase"
mkdir -p mnt
mount -t ext4 /dev/$B mnt || fail "mount failed"
head -c 3000000 /dev/urandom >mnt/big
mkdir mnt/dir
i=0
while [ $i -lt 40 ]; do
	head -c $((i * 997 + 1)) /dev/urandom >mnt/dir/f$i
	i=$((i + 1))
done
(cd mnt && find . -type f | sort | xargs sha256sum) >sums
sync || fail "sync failed"
umount mnt || fail "umount failed"
e2fsck -fn /dev/$B >fsck.out 2>&1 || fail "e2fsck after the first unmount: $(cat fsck.out)"

mount -t ext4 /dev/$B mnt || fail "remount failed"
(cd mnt && find . -type f | sort | xargs sha256sum) >sums2
cmp sums sums2 || fail "checksums differ after remount: $(diff sums sums2 | head -n 4)"
assert_eq "$(wc -l <sums2 | tr -d ' ')" 41 "files after remount"
umount mnt || fail "second umount failed"
e2fsck -fn /dev/$B >fsck.out 2>&1 || fail "e2fsck after the second unmount: $(cat fsck.out)"
info "e2fsck: $(tail -n 1 fsck.out)"

kill -TERM $pid
wait $pid
wait_for 10 sh -c "! test -e /dev/$B" || fail "/dev/$B still there after gbsim left"
unload_all_gb
