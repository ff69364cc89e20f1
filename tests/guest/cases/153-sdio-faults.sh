# Checks gb-sdio under faults: a CRC error (result=malfunction) or a short answer on one transfer is logged and retried by the MMC core, the data intact; commands that time out for good make reads and writes fail with EIO in bounded time, and once the faults are gone the card comes back with its data; a card pulled while a transfer is held by gbsim ends the reader with an error, and re-inserted it reads back what was written.
# timeout: 180
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
# card_back: the card is (again) /dev/$B, $B set
card_back() {
	gbphy_card "($1)"
}
readback() {
	dd if=/dev/$B of=back bs=64k count=4 iflag=direct 2>dd.err || fail "read back failed ($1): $(cat dd.err)"
	cmp data back || fail "data differs ($1)"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/sdio-card.mnfs >out 2>err &
pid=$!
card_back "at start"
head -c 262144 /dev/urandom >data
dd if=data of=/dev/$B bs=64k oflag=direct 2>dd.err || fail "dd write failed: $(cat dd.err)"

# one CRC error on a read transfer: retried, the data intact
c fault add intf=2 proto=0x07 type=0x05 dir=send result=malfunction once >/dev/null || fail "fault add failed"
readback "after a CRC error"
c faults | grep -q "hits=1" || fail "the CRC fault was not hit: $(c faults)"
c fault clear || fail "fault clear failed"

# one short answer: the driver refuses it, the MMC core retries
c fault add intf=2 proto=0x07 type=0x05 dir=send short=100 once >/dev/null || fail "fault add failed"
readback "after a short answer"
c faults | grep -q "hits=1" || fail "the short fault was not hit: $(c faults)"
expect_dmesg "gb-sdio gbphy[0-9]*: read of [0-9]* x 512 bytes answered with 100 bytes"
c fault clear || fail "fault clear failed"

# commands time out for good: reads and writes fail, in bounded time
c fault add intf=2 proto=0x07 type=0x04 result=timeout sticky >/dev/null || fail "fault add failed"
t0=$(date +%s)
timeout 60 dd if=/dev/$B of=/dev/null bs=64k count=1 skip=8 iflag=direct 2>dd.err &&
	fail "read succeeded with every command timing out"
info "read: $(tail -n 1 dd.err)"
timeout 60 dd if=data of=/dev/$B bs=64k count=1 seek=8 oflag=direct 2>dd.err &&
	fail "write succeeded with every command timing out"
info "write: $(tail -n 1 dd.err)"
[ $(($(date +%s) - t0)) -lt 60 ] || fail "the failing I/O took $(($(date +%s) - t0)) s"
c fault clear || fail "fault clear failed"
# the MMC core may have given the card up; pulled and put back it is found again
gbphy_card_gone || { c sdio 2:1 remove || fail "sdio remove failed"; }
wait_for 20 gbphy_card_gone || fail "the card did not go"
c sdio 2:1 insert || fail "sdio insert failed"
card_back "after the timeouts"
readback "after the timeouts"

# pulled with a transfer held by gbsim: the reader fails, nothing hangs
mark=$(wc -l <log)
c fault add intf=2 proto=0x07 type=0x05 delay=800 once >/dev/null || fail "fault add failed"
(dd if=/dev/$B of=/dev/null bs=64k count=16 iflag=direct 2>inflight.err; echo $? >inflight.rc) &
_held() {
	tail -n +$((mark + 1)) log | grep -q "fault [0-9]*: delay=800 on cport [0-9]* sdio.transfer req"
}
wait_for 10 _held || fail "no transfer reached the fault"
c sdio 2:1 remove || fail "sdio remove failed"
wait_for 30 test -e inflight.rc || fail "the reader did not end after the card was pulled"
[ "$(cat inflight.rc)" != 0 ] || fail "the read of a pulled card succeeded"
info "pulled: $(tail -n 1 inflight.err)"
wait_for 10 gbphy_card_gone || fail "$B still there after the card was pulled"
c fault clear || fail "fault clear failed"
c sdio 2:1 insert || fail "sdio insert failed"
card_back "after the pull"
readback "after the pull"

kill -TERM $pid
wait $pid
wait_for 10 gbphy_card_gone || fail "$B still there after gbsim left"
unload_all_gb
