# Checks gb-gbphy and gb-i2c with i2c-tools: the bridge module's bundle gets one gbphy device per CPort, its I2C CPort an adapter; i2cdetect finds gbsim's EEPROM at 0x50 only, i2cget/i2cset/i2ctransfer read and write it as gbsim logs, the adapter advertises the 10-bit addressing gbsim does and I2C_RDWR (tools/i2crdwr; i2ctransfer has no 10-bit addresses) reaches gbsim's device at 10-bit 0x1a5 with the ten-bit flag while out-of-range addresses are refused, bad answers from gbsim give tool errors, removing the module removes the adapter, and a module without 10-bit addressing (GBSIM_I2C) gets its 10-bit messages refused by gb-i2c before they reach the wire.
# timeout: 120
# tools: i2cdetect i2cget i2cset i2ctransfer
# kmods: i2c-dev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim
need_tool i2cdetect
need_tool i2ctransfer
need_tool i2crdwr
need_kmod i2c-dev
M=/usr/share/greybus/manifests/gbphy-bridge.mnfs
S=$GBTEST_TMP/ctl.sock
LOG=$GBTEST_TMP/gbsim.log
B=/sys/bus/greybus/devices/1-2.2.1

c() {
	gbsim ctl -s "$S" "$@"
}
# _adapter 'GLOB': an i2c-N below a directory GLOB names.  Quoted, so
# the glob is expanded at every try of wait_for, not once before it.
_adapter() {
	ls -d $1/i2c-* >/dev/null 2>&1
}

load_gb greybus gb-vhd
modprobe i2c-dev || fail "modprobe i2c-dev"
gbsim --ctl "$S" -l "$LOG" -m 2:$M 2>gbsim.err &
sim=$!

# the bundle's modalias loads gb-gbphy, the gbphy devices' gb-i2c
wait_for 30 test -e $B/driver || fail "no driver bound to the bridge bundle: $(cat gbsim.err)"
assert_eq "$(basename "$(readlink $B/driver)")" gbphy "driver of the bundle"
n=$(ls -d $B/gbphy* | wc -l)
assert_eq "$n" 5 "gbphy devices below the bundle"
P=
for d in $B/gbphy*; do
	grep -qx 'MODALIAS=gbphy:p[0-9A-F][0-9A-F]' $d/uevent || fail "$d: no MODALIAS: $(cat $d/uevent)"
	[ "$(cat $d/protocol_id)" = 0x03 ] && P=$d
done
[ -n "$P" ] || fail "no gbphy device with protocol_id 0x03"
grep -qx 'MODALIAS=gbphy:p03' $P/uevent || fail "I2C gbphy modalias: $(cat $P/uevent)"
wait_for 20 test -e $P/driver || fail "gb-i2c did not bind to ${P##*/}"
if ! wait_for 30 _adapter "$P"; then
	info "${P##*/}: $(ls $P | tr '\n' ' '); runtime $(cat $P/power/runtime_status), bundle $(cat $B/power/runtime_status)"
	info "gbsim's last lines: $(tail -n 8 "$LOG")"
	fail "no i2c adapter below ${P##*/}"
fi
A=$(ls -d $P/i2c-*)
BUS=${A##*/i2c-}
assert_eq "$(cat $A/name)" "Greybus i2c adapter" "adapter name"
wait_for 10 test -c /dev/i2c-$BUS || fail "no /dev/i2c-$BUS"

# i2cdetect: the core emulates SMBus quick through transfers; only 0x50 ACKs
i2cdetect -y $BUS >det 2>&1 || fail "i2cdetect: $(cat det)"
info "$(cat det)"
grep -q '^50: 50 ' det || fail "i2cdetect did not find 0x50"
[ "$(grep -o ' [0-7][0-9a-f] ' det | grep -cv ' 50 ')" = 0 ] || fail "i2cdetect found more than 0x50"
grep -q 'i2c: addr=0x51 nak' $LOG || fail "gbsim logged no NAK for 0x51"
i2cdetect -F $BUS | grep -q 'I2C  *yes' || fail "functionality: no plain I2C: $(i2cdetect -F $BUS)"

# byte reads of gbsim's initial contents ("gbsim-eeprom\n", then byte i = i)
assert_eq "$(i2cget -y $BUS 0x50 0x00)" 0x67 "eeprom[0] ('g')"
assert_eq "$(i2cget -y $BUS 0x50 0x20)" 0x20 "eeprom[0x20]"
# a write, seen by gbsim and read back
i2cset -y $BUS 0x50 0x40 0xa5 || fail "i2cset failed"
wait_for 5 grep -q 'i2c: eeprom\[0x40\]=0xa5' $LOG || fail "gbsim did not log the write"
assert_eq "$(i2cget -y $BUS 0x50 0x40)" 0xa5 "eeprom[0x40] after i2cset"
# one transfer of two messages: write the offset, read four bytes
assert_eq "$(i2ctransfer -y $BUS w1@0x50 0x00 r4)" "0x67 0x62 0x73 0x69" "i2ctransfer read"
i2ctransfer -y $BUS w3@0x50 0x60 0x11 0x22 || fail "i2ctransfer write"
assert_eq "$(i2ctransfer -y $BUS w1@0x50 0x60 r2)" "0x11 0x22" "i2ctransfer read back"
# 10-bit addressing: advertised by gbsim, passed on by the adapter
assert_eq "$(i2crdwr -F /dev/i2c-$BUS)" "functionality=0x0eff000b ten_bit=yes" "functionality"
i2crdwr -t /dev/i2c-$BUS 0x1a5 w0411223344 || fail "10-bit write to 0x1a5 failed"
wait_for 5 grep -q 'i2c: addr=0x1a5 ten-bit write len=5 off=0x04' $LOG ||
	fail "gbsim did not log the 10-bit write: $(grep 'i2c:' $LOG | tail -n 2)"
grep -q 'i2c: 0x1a5\[0x04\]=0x11' $LOG || fail "gbsim did not store the 10-bit write"
assert_eq "$(i2crdwr -t /dev/i2c-$BUS 0x1a5 w03 r6)" "001122334400" "10-bit read of 0x1a5"
grep -q 'i2c: addr=0x1a5 ten-bit read len=6 off=0x03' $LOG || fail "gbsim did not log the 10-bit read"
# a 10-bit 0x050 is not the EEPROM: NAK; 0x1a5 without the flag or a 10-bit
# address past 0x3ff: refused by the driver, never sent
i2crdwr -t /dev/i2c-$BUS 0x050 r1 >out 2>&1 && fail "10-bit 0x050 answered: $(cat out)"
grep -q "No such device or address" out || fail "10-bit 0x050: $(cat out)"
grep -q 'i2c: addr=0x050 ten-bit nak' $LOG || fail "gbsim logged no NAK for 10-bit 0x050"
n=$(grep -c 'i2c: addr=' $LOG)
i2crdwr /dev/i2c-$BUS 0x1a5 r1 >out 2>&1 && fail "7-bit 0x1a5 succeeded: $(cat out)"
grep -q "Invalid argument" out || fail "7-bit 0x1a5: $(cat out)"
expect_dmesg '7-bit address 0x1a5 out of range'
i2crdwr -t /dev/i2c-$BUS 0x400 r1 >out 2>&1 && fail "10-bit 0x400 succeeded: $(cat out)"
expect_dmesg '10-bit address 0x400 out of range'
assert_eq "$(grep -c 'i2c: addr=' $LOG)" "$n" "gbsim log lines after refused addresses"

# nobody at 0x51: an error, not data
i2cget -y $BUS 0x51 0x00 >out 2>&1 && fail "i2cget of 0x51 succeeded: $(cat out)"

# bad answers: an error result, a short response
c fault add proto=i2c type=0x05 result=malfunction >/dev/null || fail "fault add"
i2cget -y $BUS 0x50 0x00 >out 2>&1 && fail "i2cget succeeded with a malfunction answer: $(cat out)"
c fault add proto=i2c type=0x05 short=1 >/dev/null || fail "fault add"
i2ctransfer -y $BUS w1@0x50 0x00 r4 >out 2>&1 && fail "i2ctransfer succeeded with a short answer: $(cat out)"
c fault add proto=i2c type=0x05 drop >/dev/null || fail "fault add"
i2cget -y $BUS 0x50 0x00 >out 2>&1 && fail "i2cget succeeded without an answer: $(cat out)"
info "dropped answer: $(cat out)"
expect_dmesg 'transfer id 0x[0-9a-f]{4} timed out after 1000 ms'
assert_eq "$(i2cget -y $BUS 0x50 0x00)" 0x67 "eeprom[0] after the faults"

# removal: the adapter and the gbphy devices go
c remove 2 || fail "remove"
wait_for 10 test ! -e /dev/i2c-$BUS || fail "/dev/i2c-$BUS still there after remove"
wait_for 10 gbphy_none || fail "gbphy devices left: $(ls /sys/bus/gbphy/devices)"
i2cget -y $BUS 0x50 0x00 >out 2>&1 && fail "i2cget after remove succeeded"

# a module without 10-bit addressing: the adapter says so, and gb-i2c
# refuses a 10-bit message instead of putting it on the wire
kill -TERM $sim
wait $sim
wait_for 10 test ! -e /sys/bus/greybus/devices/greybus1 || fail "greybus1 still there after gbsim exited"
: >"$LOG"
GBSIM_I2C=functionality=0x0eff0009 gbsim --ctl "$S" -l "$LOG" -m 2:$M 2>gbsim.err &
wait_for 30 test -e $B/driver || fail "no driver bound to the bundle of the module without 10-bit addressing: $(cat gbsim.err)"
if ! wait_for 30 _adapter "$B/gbphy*"; then
	info "$(ls /sys/bus/gbphy/devices | tr '\n' ' '); gbsim's last lines: $(tail -n 8 "$LOG")"
	fail "no i2c adapter from the module without 10-bit addressing: $(cat gbsim.err)"
fi
A=$(ls -d $B/gbphy*/i2c-*)
BUS=${A##*/i2c-}
wait_for 10 test -c /dev/i2c-$BUS || fail "no /dev/i2c-$BUS"
assert_eq "$(i2crdwr -F /dev/i2c-$BUS)" "functionality=0x0eff0009 ten_bit=no" "functionality without 10-bit"
i2crdwr -t /dev/i2c-$BUS 0x1a5 r1 >out 2>&1 && fail "10-bit read without 10-bit addressing succeeded: $(cat out)"
grep -q "Operation not supported" out || fail "10-bit read without 10-bit addressing: $(cat out)"
expect_dmesg '10-bit address 0x1a5: the module has no 10-bit addressing'
grep 'i2c: addr=0x1a5' $LOG && fail "gbsim saw the refused 10-bit message"
assert_eq "$(i2cget -y $BUS 0x50 0x00)" 0x67 "eeprom[0] on the module without 10-bit addressing"
c remove 2 || fail "remove"
true
