# Checks that a kernel client driver binds on gb-i2c: at24 instantiated by new_device "24c02 0x50" on the module's adapter reads gbsim's EEPROM contents through its eeprom file, writes through it reach gbsim (and i2cget reads them back), delete_device unbinds it, and removing the module under an open eeprom file removes the client and fails the next read cleanly.
# timeout: 120
# tools: i2cget
# kmods: at24 i2c-dev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim
need_tool i2cget
need_kmod at24 i2c-dev
load_gb greybus gb-vhd gb-gbphy gb-i2c
modprobe at24 || fail "modprobe at24"
modprobe i2c-dev || fail "modprobe i2c-dev"

M=/usr/share/greybus/manifests/gbphy-bridge.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
c() {
	gbsim ctl "$@"
}

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M >out 2>err &
pid=$!
wait_for 20 gbphy_i2c_bus >/dev/null || fail "no gbphy i2c adapter: $(cat err)"
BUS=$(gbphy_i2c_bus)
A=/sys/bus/i2c/devices/i2c-$BUS
D=/sys/bus/i2c/devices/$BUS-0050
info "adapter i2c-$BUS"

echo "24c02 0x50" >$A/new_device || fail "new_device failed"
wait_for 10 test -e $D/driver || fail "nothing bound to $BUS-0050"
assert_eq "$(basename "$(readlink $D/driver)")" at24 "driver of $BUS-0050"
wait_for 10 test -e $D/eeprom || fail "no eeprom file"
assert_eq "$(wc -c <$D/eeprom | tr -d ' ')" 256 "eeprom size"

# gbsim's contents: "gbsim-eeprom\n", then byte i = i
assert_eq "$(head -c 12 $D/eeprom)" gbsim-eeprom "eeprom banner"
assert_eq "$(od -An -tx1 -j 16 -N 4 $D/eeprom | tr -d ' ')" 10111213 "eeprom[0x10..0x13]"
assert_eq "$(od -An -tx1 -j 252 -N 4 $D/eeprom | tr -d ' ')" fcfdfeff "eeprom[0xfc..0xff]"
grep -q 'i2c: addr=0x50 read' log || fail "gbsim logged no reads"

# a write through the eeprom file reaches gbsim, i2c-dev reads it back
printf 'AT24' | dd of=$D/eeprom bs=1 seek=128 conv=notrunc 2>dd.err ||
	fail "eeprom write failed: $(cat dd.err)"
wait_for 5 grep -q 'i2c: eeprom\[0x83\]=0x34' log || fail "gbsim did not log the write"
assert_eq "$(i2cget -f -y $BUS 0x50 0x80)" 0x41 "eeprom[0x80] after the write"
assert_eq "$(dd if=$D/eeprom bs=1 skip=128 count=4 2>/dev/null)" AT24 "eeprom read back"

# an error answer fails the read, not the kernel
c fault add intf=2 proto=0x03 type=0x05 result=malfunction sticky >/dev/null ||
	fail "fault add failed"
head -c 16 $D/eeprom >/dev/null 2>rd.err && fail "eeprom read succeeded against errors"
info "refused read: $(cat rd.err)"
c fault clear >/dev/null || fail "fault clear failed"
assert_eq "$(head -c 12 $D/eeprom)" gbsim-eeprom "eeprom after the faults"

# delete_device unbinds it
echo 0x50 >$A/delete_device || fail "delete_device failed"
wait_for 10 sh -c "! test -e $D" || fail "$BUS-0050 still there"

# again, then the module leaves under an open eeprom file
echo "24c02 0x50" >$A/new_device || fail "second new_device failed"
wait_for 10 test -e $D/eeprom || fail "no eeprom file the second time"
exec 3<$D/eeprom
c remove 2 || fail "remove failed"
wait_for 10 sh -c "! test -e $D" || fail "$BUS-0050 still there after remove"
wait_for 10 sh -c "! test -e $A" || fail "i2c-$BUS still there after remove"
if dd bs=16 count=1 <&3 >rd 2>/dev/null && [ -s rd ]; then
	fail "read of a removed eeprom returned data"
fi
exec 3<&-

kill -TERM $pid
wait $pid
unload_all_gb
