# Checks gb-sdio against a lying module: nonsense capabilities (no block size, f_min above f_max, voltages outside the protocol's) are refused at probe, with no MMC host; transfer answers that name fewer blocks (the MMC core then reads one block at a time), another block size (the card is not found) or more blocks written than asked (the MMC core then asks the card what it wrote), or that are longer than asked, are refused with a log line, never taken as data; once the module tells the truth the card works.
# timeout: 240
# Each lie is a module inserted and enumerated again: SVC, control and
# gbphy operations with the core's 1 s time-out. On a loaded host the
# guest's clock (the host's) runs on while QEMU waits for a CPU: over the
# serial link at a load average of about 12 an SVC connection create
# timed out with its answer on the way (its response came 150 ms late),
# so the guest's clock counts its instructions.
# clock: icount
# kmods: mmc_block
# tools: dd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim dd
load_gb greybus gb-vhd gb-gbphy gb-sdio

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
export GBSIM_SDIO=size_mb=16,max_blk_size=0
c() {
	gbsim ctl "$@"
}
host() {
	gbphy_find '/sys/class/mmc_host/mmc*' device
}
no_host() {
	! host >/dev/null
}
# again KNOBS...: the module out, the knobs set, the module in.  The bus
# forgets a gbphy device before gb-sdio's remove runs, so the old card
# (/sys/block/mmcblkN, /dev/mmcblkN) outlives it for a moment: the next
# card lookup could find the old one.  The MMC host goes after the card.
again() {
	c remove 2 >/dev/null 2>&1
	wait_for 10 gbphy_none || fail "gbphy device still there"
	wait_for 10 no_host || fail "the MMC host is still there"
	c sdio set defaults size_mb=16 "$@" || fail "sdio set $* failed"
	c insert 2 $M/sdio-card.mnfs || fail "insert failed"
}
card() {
	gbphy_card "($1)"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/sdio-card.mnfs >out 2>err &
pid=$!
expect_dmesg "gb-sdio gbphy[0-9]*: nonsense capabilities \(ocr 0x0001ff00, 400000\.\.25000000 Hz, 1024 blocks of 0 bytes\)" 20
host && fail "an MMC host despite a block size of 0"
again f_min=30000000
expect_dmesg "nonsense capabilities \(ocr 0x0001ff00, 30000000\.\.25000000 Hz" 20
host && fail "an MMC host despite f_min above f_max"
again ocr=0x00020000
expect_dmesg "nonsense capabilities \(ocr 0x00020000," 20
again max_blk_count=0
expect_dmesg "nonsense capabilities \(.*, 0 blocks of 512 bytes\)" 20
host && fail "an MMC host despite a block count of 0"

# reads answered with one block fewer: the card is found (one-block
# reads are honest), every multi-block read fails and the MMC core
# falls back to reading one block at a time: the data is right
again lie=1
card "with lie=1"
head -c 65536 /dev/urandom >data
dd if=data of=/dev/$B bs=64k oflag=direct 2>dd.err || fail "write with lie=1 failed: $(cat dd.err)"
timeout 60 dd if=/dev/$B of=back bs=64k count=1 iflag=direct 2>dd.err || fail "read with lie=1 failed: $(cat dd.err)"
cmp data back || fail "data read from a lying module differs"
expect_dmesg "gb-sdio gbphy[0-9]*: read of 3 x 512 bytes answered with 1028 bytes \(2 x 512\)"

# writes answered with a block more than was sent: the driver refuses
# the answer, so the MMC core asks the card how many blocks it wrote
# (ACMD22), which are all of them; the data is right
again lie=3
card "with lie=3"
mark=$(wc -l <log)
timeout 60 dd if=data of=/dev/$B bs=64k oflag=direct 2>dd.err || fail "write with lie=3 failed: $(cat dd.err)"
tail -n +$((mark + 1)) log | grep -q "sdio.transfer rsp .* blocks=3 blksz=512" || fail "gbsim told no lie"
tail -n +$((mark + 1)) log | grep -q "sdio.command req .* cmd=22 " ||
	fail "the MMC core did not ask for the blocks written: the lie was taken"
dd if=/dev/$B of=back bs=64k count=1 iflag=direct 2>dd.err || fail "read with lie=3 failed: $(cat dd.err)"
cmp data back || fail "data written to a lying module differs"

# reads answered with another block size: not even the SCR is read
again lie=2
expect_dmesg "gb-sdio gbphy[0-9]*: read of 1 x 8 bytes answered with 12 bytes \(1 x 4\)" 20
sleep 2
gbphy_mmcblk >/dev/null && fail "a card although every read lies"

# the truth, then one answer longer than asked: refused by the core, retried
again
card "when honest"
dd if=data of=/dev/$B bs=64k oflag=direct 2>dd.err || fail "write failed: $(cat dd.err)"
c fault add intf=2 proto=0x07 type=0x05 long=16 once >/dev/null || fail "fault add failed"
dd if=/dev/$B of=back bs=64k count=1 iflag=direct 2>dd.err || fail "read failed after a long answer: $(cat dd.err)"
cmp data back || fail "data differs"
c faults | grep -q "hits=1" || fail "the long fault was not hit: $(c faults)"
expect_dmesg "sdio.*wrong size|wrong size"

kill -TERM $pid
wait $pid
unload_all_gb
