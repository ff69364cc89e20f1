# Checks a discard of a whole SD card whose erases are slow: gbsim's card stays busy 4 ms a block (GBSIM_SDIO erase_us), 4 s for each erase of 1024 blocks the MMC core sends, longer than the 3 s an operation of gb-sdio may take; blkdiscard succeeds, the card reads back zeros where data was, gbsim erased every block, and the long erases were not held in one operation (gb-sdio's max_busy_timeout makes the MMC core poll SEND_STATUS instead).
# timeout: 240
# kmods: mmc_block
# tools: blkdiscard
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim blkdiscard
load_gb greybus gb-vhd gb-gbphy gb-sdio

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
# 1 MiB: 2048 blocks, two erases of 1024
export GBSIM_SDIO=size_mb=1,erase_us=4000

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/sdio-card.mnfs >out 2>err &
pid=$!
gbphy_card

# data in both halves, so that the erase shows
for blk in 100 1500; do
	printf 'not erased yet' | dd of=/dev/$B bs=512 seek=$blk conv=notrunc,fsync 2>/dev/null ||
		fail "write of block $blk failed"
done
blkdiscard /dev/$B >bd.out 2>&1 ||
	fail "blkdiscard failed: $(cat bd.out); $(dmesg | grep -E 'mmc|gb-sdio' | tail -n 3)"
dmesg | grep -q 'mmc_erase' && fail "the MMC core reported an erase error: $(dmesg | grep mmc_erase | head -n 1)"

# every block erased, none held in an operation for its whole busy time
grep 'erase blocks' log >erases
info "$(cat erases)"
awk '{ sub(/.*erase blocks /, ""); split($0, r, /[.,]+/); n += r[2] - r[1] + 1 } END { exit n != 2048 }' erases ||
	fail "gbsim did not erase 2048 blocks: $(cat erases)"
grep -q 'busy 4[0-9][0-9][0-9] ms$' erases || fail "no long erase: $(cat erases)"
grep -q 'busy 4[0-9][0-9][0-9] ms before the answer' erases &&
	fail "a 4 s erase was held in one operation: $(grep 'before the answer' erases | head -n 1)"

echo 3 >/proc/sys/vm/drop_caches
for blk in 100 1500; do
	n=$(dd if=/dev/$B bs=512 skip=$blk count=1 2>/dev/null | tr -d '\0' | wc -c)
	assert_eq "$n" 0 "non-zero bytes in block $blk after the discard"
done

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 20 gbphy_card_gone || fail "$B still there after gbsim exited"
exit 0
