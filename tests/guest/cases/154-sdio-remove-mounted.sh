# Checks gb-sdio's removal with the card mounted: the module leaves (gbsim ctl remove) while a writer fills a file on the ext4 file system and a transfer is held by gbsim, so the writer ends with an error, /dev/mmcblkN goes, the unmount works and the stack unloads; then gb-sdio itself is unloaded under a mounted, busy file system with the same outcome; no warning either time.
# timeout: 240
# kmods: mmc_block ext4 crc32c_generic
# tools: mkfs.ext4 dd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim mkfs.ext4 dd
load_gb greybus gb-vhd gb-gbphy gb-sdio
modprobe crc32c_generic || fail "modprobe crc32c_generic failed"
modprobe ext4 || fail "modprobe ext4 failed"

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
export GBSIM_SDIO=size_mb=16
c() {
	gbsim ctl "$@"
}
card() {
	gbphy_card "($1)"
	mkfs.ext4 -q -F /dev/$B >mkfs.out 2>&1 || fail "mkfs.ext4 failed: $(cat mkfs.out)"
	mount -t ext4 /dev/$B mnt || fail "mount failed: $1"
	echo hello >mnt/hello
	sync
}
# writer: fills mnt/fill with synchronous writes until one fails
writer() {
	rm -f w.rc
	(
		i=0
		while dd if=/dev/zero of=mnt/fill bs=4k count=1 seek=$i conv=notrunc oflag=sync 2>>w.err; do
			i=$(( (i + 1) % 1000 ))
		done
		echo done >w.rc
	) &
}

mkdir -p mnt
gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/sdio-card.mnfs >out 2>err &
pid=$!

# the module leaves with a transfer held by gbsim and a writer running
card "at start"
writer
sleep 1
mark=$(wc -l <log)
c fault add intf=2 proto=0x07 type=0x05 delay=800 once >/dev/null || fail "fault add failed"
_held() {
	tail -n +$((mark + 1)) log | grep -q "fault [0-9]*: delay=800 on cport [0-9]* sdio.transfer req"
}
wait_for 10 _held || fail "no transfer reached the fault"
c remove 2 || fail "remove failed"
wait_for 30 test -e w.rc || fail "the writer did not end after the module left"
info "writer: $(tail -n 1 w.err)"
wait_for 10 gbphy_card_gone || fail "$B still there after the module left"
cat mnt/hello >/dev/null 2>&1
umount mnt || fail "umount after the module left failed"
c fault clear >/dev/null

# gb-sdio unloaded under a busy file system
c insert 2 $M/sdio-card.mnfs || fail "insert failed"
card "after insert"
writer
sleep 1
rmmod gb-sdio || fail "rmmod gb-sdio failed"
wait_for 30 test -e w.rc || fail "the writer did not end after gb-sdio went"
info "writer: $(tail -n 1 w.err)"
wait_for 10 gbphy_card_gone || fail "$B still there after gb-sdio went"
umount mnt || fail "umount after rmmod failed"
grep -q gb_sdio /proc/modules && fail "gb-sdio still loaded"

kill -TERM $pid
wait $pid
unload_all_gb
