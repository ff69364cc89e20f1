# Checks gb-spi: the bridge module's SPI controller gets its chip selects, bits-per-word mask and speed range from the module (gbsim logs what it advertised, spidev shows each device's settings, the SPI core applies the limits), spidev nodes bound on both, full-duplex transfers echo through gbsim's loopback device (split across operations when large) with each transfer's speed and bits per word as gbsim logs them, the flash-like device answers its JEDEC id and reads, a speed above the device's maximum or bits outside the mask fail the tool, bad answers fail the ioctl, and removal with a transfer in flight or under a stream of transfers ends the tool with an error.
# timeout: 90
# tools: xxd
# kmods: spidev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim
need_tool spitest
load_gb greybus gb-vhd gb-gbphy gb-spi
# Built into Debian's kernel, a module on the debug kernel; its id table
# has no "spidev" entry, so nothing loads it for gb-spi's driver_override
modprobe spidev || fail "modprobe spidev failed"

M=/usr/share/greybus/manifests
export GBSIM_CTL=$GBTEST_TMP/ctl
c() {
	gbsim ctl "$@"
}

# mark / since TEXT: a gbsim log line with TEXT after the mark
mark() {
	MARK=$(wc -l <log)
}
_since() {
	tail -n +$((MARK + 1)) log | grep -q -- "$1"
}
since() {
	wait_for 5 _since "$1" ||
		fail "gbsim logged no '$1': $(tail -n +$((MARK + 1)) log | grep 'spi cport' | tail -n 3)"
}
# refused TEXT ARGS...: spitest ARGS fails with TEXT in its error
refused() {
	local want=$1
	shift
	spitest "$@" >o 2>e && fail "spitest $* succeeded: $(cat o)"
	grep -q "$want" e || fail "spitest $*: $(cat e), not '$want'"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/gbphy-bridge.mnfs >out 2>err &
pid=$!
wait_for 20 gbphy_spi_bus >/dev/null || fail "no gbphy spi master: $(cat err)"
B=$(gbphy_spi_bus)
info "spi bus $B"
wait_for 10 test -c /dev/spidev$B.0 || fail "no /dev/spidev$B.0"
wait_for 10 test -c /dev/spidev$B.1 || fail "no /dev/spidev$B.1"
assert_file_eq /sys/bus/spi/devices/spi$B.0/driver_override spidev
[ "$(basename "$(readlink /sys/bus/spi/devices/spi$B.0/driver)")" = spidev ] ||
	fail "spi$B.0 not bound to spidev"

# the master config gbsim advertised, and each device's, as spidev holds it
grep -q "INFO    spi cport [0-9]*: master_config bpw_mask=0x00008080 min_speed_hz=10000 max_speed_hz=20000000 mode=0x2f flags=0x00 num_cs=2" log ||
	fail "gbsim logged no master config: $(grep 'spi cport' log | head -n 3)"
grep -q "cs0: device_config name=loopback type=spidev mode=0x00 bits_per_word=8 max_speed_hz=20000000" log ||
	fail "gbsim logged no device config for cs0"
grep -q "cs1: device_config name=flash type=spidev mode=0x00 bits_per_word=8 max_speed_hz=1000000" log ||
	fail "gbsim logged no device config for cs1"
assert_eq "$(spitest -i /dev/spidev$B.0)" "mode=0x00 bits_per_word=8 max_speed_hz=20000000" "spidev settings of cs0"
assert_eq "$(spitest -i /dev/spidev$B.1)" "mode=0x00 bits_per_word=8 max_speed_hz=1000000" "spidev settings of cs1"

# loopback on CS0: what goes out comes back, in one message of two transfers
out=$(spitest /dev/spidev$B.0 deadbeef 0102) || fail "transfer failed"
assert_eq "$out" "deadbeef
0102"
grep -q "INFO    spi cport [0-9]* cs0: 2 transfer(s) write=6 read=6 mode=0x00 tx=deadbeef0102 rx=deadbeef0102" log ||
	fail "gbsim did not log the transfer"

# a large transfer (spidev's buffer is 4096 bytes) is split into several operations, the data intact
big=$(head -c 4000 /dev/urandom | xxd -p | tr -d '\n')
before=$(grep -c 'cs0: .* transfer(s)' log)
out=$(spitest /dev/spidev$B.0 "$big") || fail "large transfer failed"
assert_eq "$out" "$big"
after=$(grep -c 'cs0: .* transfer(s)' log)
[ $((after - before)) -ge 2 ] || fail "4000 bytes took $((after - before)) operations"
grep -q 'cs0: .* inprogress' log || fail "no INPROGRESS operation in gbsim's log"

# mode and speed reach the module
spitest -m 3 -s 500000 /dev/spidev$B.0 aa >/dev/null || fail "mode 3 transfer failed"
grep -q "cs0: 1 transfer(s) write=1 read=1 mode=0x03" log || fail "mode 3 not seen by gbsim"

# each transfer's speed and bits per word reach the module
mark
out=$(spitest -s 500000 -b 8 /dev/spidev$B.0 a1b2 c3) || fail "-s 500000 -b 8 failed"
assert_eq "$out" "a1b2
c3"
since "cs0 xfer 0: len=2 speed_hz=500000 bits_per_word=8 delay_us=0 cs_change=0 write read"
since "cs0 xfer 1: len=1 speed_hz=500000 bits_per_word=8 delay_us=0 cs_change=0 write read"
mark
out=$(spitest -s 2000000 -b 16 /dev/spidev$B.0 a1b2c3d4) || fail "-b 16 failed"
assert_eq "$out" a1b2c3d4
since "cs0 xfer 0: len=4 speed_hz=2000000 bits_per_word=16 "
# no speed: the device's own; read-only: no write flag
mark
spitest /dev/spidev$B.1 r3 >/dev/null || fail "read-only transfer on cs1 failed"
since "cs1 xfer 0: len=3 speed_hz=1000000 bits_per_word=8 delay_us=0 cs_change=0 read"
# above the controller's maximum: the SPI core lowers it to the maximum gbsim advertised
mark
spitest -s 30000000 /dev/spidev$B.0 aa >/dev/null || fail "-s 30000000 failed"
since "cs0 xfer 0: len=1 speed_hz=20000000 bits_per_word=8"
# below the minimum, or bits outside the mask: the SPI core refuses, nothing is sent
mark
refused "Invalid argument" -s 5000 /dev/spidev$B.0 aa
refused "Invalid argument" -b 12 /dev/spidev$B.0 aabb
refused "Invalid argument" -b 32 /dev/spidev$B.0 aabbccdd
_since "xfer" && fail "a refused transfer reached gbsim: $(tail -n +$((MARK + 1)) log | grep xfer)"
# above the flash's 1 MHz (below the controller's 20 MHz): the module refuses it
mark
refused "Invalid argument" -s 2000000 /dev/spidev$B.1 9f000000
since "ERROR   spi cport [0-9]* cs1: transfer id=0x[0-9a-f]*: xfer 0: speed_hz 2000000 above the device's maximum 1000000"
expect_dmesg 'cs 1: transfer failed: -22'
out=$(spitest -s 1000000 /dev/spidev$B.1 9f000000) || fail "JEDEC id at 1 MHz failed"
assert_eq "$out" "ffef4018"

# the flash on CS1: JEDEC id, then a read at 0x000010
out=$(spitest /dev/spidev$B.1 9f000000) || fail "JEDEC id read failed"
assert_eq "$out" "ffef4018"
out=$(spitest /dev/spidev$B.1 03000010 r4) || fail "flash read failed"
assert_eq "$out" "ffffffff
b5b4b7b6"

# bad answers: an error result, a short response, no response
c fault add intf=2 proto=0x0b type=0x04 result=invalid >/dev/null || fail "fault add failed"
spitest /dev/spidev$B.0 00 2>e && fail "transfer succeeded against result=invalid"
info "refused: $(cat e)"
c fault add intf=2 proto=0x0b type=0x04 short=1 >/dev/null || fail "fault add failed"
spitest /dev/spidev$B.0 0011 2>e && fail "transfer succeeded with a short answer"
info "short: $(cat e)"
c fault add intf=2 proto=0x0b type=0x04 drop >/dev/null || fail "fault add failed"
spitest /dev/spidev$B.0 00 2>e && fail "transfer succeeded without an answer"
info "dropped: $(cat e)"
out=$(spitest /dev/spidev$B.0 55) || fail "transfer failed after the faults"
assert_eq "$out" 55

# the module leaves with a transfer in flight: gbsim holds its answer for
# 900 ms (the operation times out after 1 s), and is removed meanwhile;
# the transfer is cancelled, so spitest fails with ENODEV, not a timeout
c fault add intf=2 proto=0x0b type=0x04 delay=900 >/dev/null || fail "fault add failed"
mark
(spitest /dev/spidev$B.0 abcd >inflight.out 2>inflight.err; echo $? >inflight.rc) &
_in_flight() {
	_since "fault [0-9]*: delay=900 on cport [0-9]* spi.transfer req"
}
wait_for 5 _in_flight || fail "the transfer did not reach gbsim"
c remove 2 || fail "remove failed"
wait_for 10 test -e inflight.rc || fail "spitest did not end after the removal"
[ "$(cat inflight.rc)" = 1 ] || fail "spitest exited $(cat inflight.rc) although the module left: $(cat inflight.out)"
info "in flight: $(cat inflight.err)"
grep -q "SPI_IOC_MESSAGE: No such device" inflight.err ||
	fail "spitest did not fail with ENODEV: $(cat inflight.err)"
[ ! -s inflight.out ] || fail "spitest printed data: $(cat inflight.out)"
wait_for 10 sh -c "! test -e /dev/spidev$B.0" || fail "spidev node still there"

# the module again, for removal during a stream of transfers
c fault clear || fail "fault clear failed"
c insert 2 $M/gbphy-bridge.mnfs || fail "insert failed"
wait_for 20 gbphy_spi_bus >/dev/null || fail "no gbphy spi master after insert"
B=$(gbphy_spi_bus)
wait_for 10 test -c /dev/spidev$B.0 || fail "no /dev/spidev$B.0 after insert"
out=$(spitest /dev/spidev$B.0 77) || fail "transfer after insert failed"
assert_eq "$out" 77

# the module leaves during a stream of transfers
(
	while spitest /dev/spidev$B.0 0123456789 >/dev/null 2>>loop.err; do :; done
	echo done >loop.end
) &
sleep 1
c remove 2 || fail "remove failed"
wait_for 15 test -e loop.end || fail "the transfer loop did not end"
info "loop ended: $(tail -n 1 loop.err)"
wait_for 10 sh -c "! test -e /dev/spidev$B.0" || fail "spidev node still there"

kill -TERM $pid
wait $pid
unload_all_gb
