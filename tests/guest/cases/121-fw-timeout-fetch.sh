# Checks gb-firmware's held-file timer against fetches that come at its own pace: download_timeout_ms=40 and a module fetching a 300 kB file one 1000-byte chunk every 35 ms in pairs (every 30th after 100 ms, which the timer always wins), finding the file again whenever the AP let it go; hundreds of fetches race the timer, the download ends with the right CRC-32, the timer did release the file at times, and nothing crashes.
# A timer that fires while a FETCH holds the file must not free the file
# with the FETCH's new timer armed: the freed timer would fire later.
# slub_debug poisons freed objects, so such a timer hits 0x6b bytes in
# the timer softirq (general protection fault) instead of passing
# unseen, as it mostly does without KASAN.
# timeout: 400
# cmdline: slub_debug=FZP preempt=full
. /usr/lib/gbtest/lib.sh

need_tool gbsim gbfw
M=/usr/share/greybus/manifests
DEV=/dev/gb-fw-mgmt-0
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl
NAME=gmp_00000126_00001002_00000001_00000001_s3fw.tftf
FW=/lib/firmware/$NAME
SIZE=300000
CHUNKS=$((SIZE / 1000))

mkdir -p /lib/firmware || fail "cannot create /lib/firmware"
head -c $SIZE /dev/urandom >$FW
crc=$(crc32 $FW | cut -d' ' -f1)

# thousands of timeouts: keep them off the slow serial console
read -r printk </proc/sys/kernel/printk
echo 1 >/proc/sys/kernel/printk
trap 'echo "$printk" >/proc/sys/kernel/printk; rm -f $FW' EXIT

load_gb greybus gb-vhd
# The AP serves the connection's requests one at a time, so no fetch
# keeps the other id of the pair alive while one is being found again:
# a FIND must take less than the timeout, or the module loses one id
# during every FIND of the other, for good. With 3 MB and 8 ms, a FIND
# on 6.12 (about 150 ms) never did; 300 kB and 40 ms leave room.
GBSIM_FW_DOWNLOAD=gap_ms=35,late_every=30,late_ms=100,refind=1,pair=1 \
	gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 3:$M/firmware.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -c $DEV || fail "no $DEV: $(cat gbsim.err)"
echo 40 >/sys/module/gb_firmware/parameters/download_timeout_ms

out=$(gbfw -t 300000 load s3fw) || fail "load failed: $out $(tail -n 3 "$LOG")"
assert_eq "$out" "tag=s3fw status=validated major=1 minor=2" "load result"
grep -q "fw-download 3: 's3fw' $SIZE bytes crc32 $crc in $CHUNKS chunks" "$LOG" ||
	fail "gbsim's download differs (crc32 $crc): $(grep 'fw-download 3' "$LOG" | tail -n 3)"
fetches=$(grep -c 'fw_download.fetch_firmware req' "$LOG")
timeouts=$(dmesg_since_case | grep -c "firmware '$NAME' (id [0-9]*) not asked for in 40 ms, released")
again=$(sed -n "s/.*fw-download 3: 's3fw' found again \([0-9]*\) times.*/\1/p" "$LOG")
info "$fetches fetches, $timeouts timeouts, found again ${again:-0} times"
# How often the timer wins a 35 ms gap depends on the guest's pace;
# every 30th gap is 100 ms, which it always wins, so the file is
# released and found again about 10 times at least
[ "${again:-0}" -ge 1 ] || fail "the file was never found again: the timer never released it"
[ "$timeouts" -ge 1 ] || fail "the timer never released the file: the race was not run"
[ "$fetches" -ge $((2 * CHUNKS)) ] || fail "only $fetches fetches"

# the freed timers of a wrong release would fire within a few ticks
sleep 1
kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
wait_for 10 test ! -e /sys/bus/greybus/devices/greybus1 || fail "greybus1 still there after gbsim exited"
unload_all_gb
exit 0
