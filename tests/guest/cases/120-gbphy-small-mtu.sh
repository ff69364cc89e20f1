# Checks gb-i2c and gb-spi on a link whose messages are small (gbsim --mtu 112 makes gb-vhd's host device carry 104 payload bytes, just room for the bridge's manifest; the ES2 bridge has a fixed 2048, so the case is for gb-vhd only): an I2C transfer whose request or response would not fit one message fails with EMSGSIZE (i2ctransfer's "Message too long") and a log line giving the sizes, without reaching gbsim, while one of exactly the payload size works; an SPI message of nine read-only transfers, more descriptors than one request can hold, is split into two operations instead of failing for memory.
# timeout: 90
# transport: vhd
# kmods: spidev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim
need_tool i2ctransfer
need_tool spitest
need_kmod i2c-dev
load_gb greybus gb-vhd gb-gbphy gb-i2c gb-spi
modprobe i2c-dev || fail "modprobe i2c-dev"
modprobe spidev || fail "modprobe spidev failed"

M=/usr/share/greybus/manifests/gbphy-bridge.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
B=/sys/bus/greybus/devices/1-2.2.1

gbsim --ctl "$GBSIM_CTL" --mtu 112 -l log -m 2:$M 2>gbsim.err &
wait_for 30 test -e $B/driver || fail "no driver bound to the bridge bundle: $(cat gbsim.err)"

# the I2C adapter below the bridge's gbphy devices
_adapter() {
	ls -d $B/gbphy*/i2c-* >/dev/null 2>&1
}
wait_for 20 _adapter || fail "no I2C adapter"
N=$(basename $(ls -d $B/gbphy*/i2c-* | head -n 1) | sed 's/^i2c-//')
wait_for 10 test -c /dev/i2c-$N || fail "no /dev/i2c-$N"

# 104 bytes read: the whole payload of one response
out=$(i2ctransfer -y $N w1@0x50 0x00 r104@0x50) || fail "a 104-byte read failed"
[ $(echo $out | wc -w) = 104 ] || fail "read $(echo $out | wc -w) bytes, not 104"

# one byte more, either way: refused before anything is sent
before=$(grep -c 'i2c: addr=' log)
i2ctransfer -y $N w1@0x50 0x00 r105@0x50 >o 2>e && fail "a 105-byte read succeeded"
grep -q "Message too long" e || fail "105-byte read: $(cat e), not EMSGSIZE"
expect_dmesg "2-message transfer too large: 15 request and 105 response bytes, at most 104 each"
data=$(seq 1 100 | sed 's/.*/0x5a/' | tr '\n' ' ')
i2ctransfer -y $N w101@0x50 0x00 $data >o 2>e && fail "a 101-byte write succeeded"
grep -q "Message too long" e || fail "101-byte write: $(cat e), not EMSGSIZE"
expect_dmesg "1-message transfer too large: 109 request and 0 response bytes, at most 104 each"
after=$(grep -c 'i2c: addr=' log)
[ "$before" = "$after" ] || fail "a refused transfer reached gbsim: $(tail -n 3 log)"

# SPI: nine read-only transfers need nine 13-byte descriptors; a request
# of 104 bytes holds seven, so the message goes as two operations
wait_for 20 gbphy_spi_bus >/dev/null || fail "no gbphy spi master"
S=$(gbphy_spi_bus)
wait_for 10 test -c /dev/spidev$S.1 || fail "no /dev/spidev$S.1"
before=$(grep -c 'cs1: .* transfer(s)' log)
out=$(spitest /dev/spidev$S.1 r1 r1 r1 r1 r1 r1 r1 r1 r1 2>e) ||
	fail "nine one-byte reads failed: $(cat e)"
[ $(echo "$out" | wc -l) = 9 ] || fail "spitest printed $(echo "$out" | wc -l) transfers, not 9"
grep -q 'cs1: 7 transfer(s) write=0 read=7' log || fail "no operation of 7 transfers: $(grep 'cs1: ' log | tail -n 2)"
grep -q 'cs1: 2 transfer(s) write=0 read=2' log || fail "no operation of 2 transfers: $(grep 'cs1: ' log | tail -n 2)"
after=$(grep -c 'cs1: .* transfer(s)' log)
assert_eq $((after - before)) 2 "operations for the nine transfers"

gbsim ctl remove 2 >/dev/null || fail "gbsim ctl remove failed"
wait_for 10 test ! -e $B || fail "bridge module not removed"
