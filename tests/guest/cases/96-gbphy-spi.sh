# Checks gb-spi: the bridge module's SPI controller gets its chip selects from the module, spidev nodes bound on both, full-duplex transfers echo through gbsim's loopback device (split across operations when large), the flash-like device answers its JEDEC id and reads, bad answers fail the ioctl, and removal under an open spidev fails it cleanly.
# timeout: 90
# tools: xxd
# kmods: spidev
. /usr/lib/gbtest/lib.sh

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

# the spi master whose parent is a gbphy device
our_bus() {
	local m
	for m in /sys/class/spi_master/spi*; do
		case $(readlink -f "$m/device") in
		*gbphy*) basename "$m" | sed 's/^spi//'; return 0 ;;
		esac
	done
	return 1
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M/gbphy-bridge.mnfs >out 2>err &
pid=$!
wait_for 20 our_bus >/dev/null || fail "no gbphy spi master: $(cat err)"
B=$(our_bus)
info "spi bus $B"
wait_for 10 test -c /dev/spidev$B.0 || fail "no /dev/spidev$B.0"
wait_for 10 test -c /dev/spidev$B.1 || fail "no /dev/spidev$B.1"
assert_file_eq /sys/bus/spi/devices/spi$B.0/driver_override spidev
[ "$(basename "$(readlink /sys/bus/spi/devices/spi$B.0/driver)")" = spidev ] ||
	fail "spi$B.0 not bound to spidev"

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
