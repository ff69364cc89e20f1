# Checks gb-sdio's card detect and write protect: gbsim's card pulled (gbsim ctl sdio remove) removes /dev/mmcblkN, put back it comes again with its data; a card inserted with its write-protect switch on gives a read-only block device (sysfs ro, blockdev --getro, a write fails and never reaches gbsim), and with the switch off again after re-insertion it is writable; events of the wrong size or with unknown bits are refused and logged.
# timeout: 120
# kmods: mmc_block
# tools: dd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim dd
load_gb greybus gb-vhd gb-gbphy gb-sdio

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
export GBSIM_SDIO=size_mb=16
c() {
	gbsim ctl "$@"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/sdio-card.mnfs >out 2>err &
pid=$!
gbphy_card
head -c 65536 /dev/urandom >data
dd if=data of=/dev/$B bs=64k oflag=direct 2>dd.err || fail "dd write failed: $(cat dd.err)"

# pulled: the block device goes, the host stays
c sdio 2:1 remove || fail "sdio remove failed"
grep -q "sdio.event .*event=0x02" log || fail "gbsim sent no removal event"
wait_for 10 gbphy_card_gone || fail "$B still there after the card was pulled"
expect_dmesg "mmc[0-9]*: card b368 removed"
dd if=/dev/$B of=/dev/null bs=512 count=1 iflag=direct 2>/dev/null && fail "read from a pulled card succeeded"
c sdio 2:1 remove 2>/dev/null && fail "a second removal was accepted"

# back: the same card, its data intact
c sdio 2:1 insert || fail "sdio insert failed"
gbphy_card "after the card came back"
assert_eq "$(cat /sys/block/$B/ro)" 0 "ro of a writable card"
dd if=/dev/$B of=back bs=64k count=1 iflag=direct 2>dd.err || fail "dd read failed: $(cat dd.err)"
cmp data back || fail "data changed across removal and insertion"

# write protected: the switch is read when the card is found
c sdio 2:1 wp 1 || fail "sdio wp 1 failed"
grep -q "sdio.event .*event=0x04" log || fail "gbsim sent no write-protect event"
c sdio 2:1 remove || fail "sdio remove failed"
wait_for 10 gbphy_card_gone || fail "$B still there after the card was pulled"
c sdio 2:1 insert || fail "sdio insert failed"
grep -q "sdio.event .*event=0x05" log || fail "gbsim sent no insertion event with write protect"
gbphy_card "after the protected card came"
assert_eq "$(cat /sys/block/$B/ro)" 1 "ro of a write-protected card"
assert_eq "$(blockdev --getro /dev/$B)" 1 "blockdev --getro"
expect_dmesg "$B: mmc[0-9]*:b368 GBSIM 16.0 MiB \(ro\)"
writes=$(grep -c "cmd 2[45] arg" log)
head -c 4096 /dev/zero | dd of=/dev/$B bs=4096 oflag=direct 2>dd.err && fail "a write to a write-protected card succeeded"
info "write refused: $(tail -n 1 dd.err)"
assert_eq "$(grep -c "cmd 2[45] arg" log)" "$writes" "writes gbsim saw"
dd if=/dev/$B of=back bs=64k count=1 iflag=direct 2>dd.err || fail "reading a protected card failed: $(cat dd.err)"
cmp data back || fail "data of the protected card differs"

# the switch off, the card again: writable
c sdio 2:1 wp 0 || fail "sdio wp 0 failed"
c sdio 2:1 remove || fail "sdio remove failed"
wait_for 10 gbphy_card_gone || fail "$B still there after the card was pulled"
c sdio 2:1 insert || fail "sdio insert failed"
gbphy_card "after the card came back"
assert_eq "$(cat /sys/block/$B/ro)" 0 "ro after the switch was released"
head -c 4096 /dev/zero | dd of=/dev/$B bs=4096 oflag=direct 2>dd.err || fail "write after the switch was released failed: $(cat dd.err)"

# events that make no sense: refused by the driver, the card stays
c request 2:1 0x06 0100 >/dev/null 2>&1
c request 2:1 0x06 08 >/dev/null 2>&1
c request 2:1 0x06 03 >/dev/null 2>&1
expect_dmesg "gb-sdio gbphy[0-9]*: event of 2 bytes"
expect_dmesg "gb-sdio gbphy[0-9]*: bad event 0x08"
expect_dmesg "gb-sdio gbphy[0-9]*: bad event 0x03"
test -b /dev/$B || fail "/dev/$B went after bad events"

kill -TERM $pid
wait $pid
wait_for 10 gbphy_card_gone || fail "$B still there after gbsim left"
unload_all_gb
