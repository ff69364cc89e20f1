# Checks gbphy drivers against answers of the wrong size: a short or long PWM count, I2C functionality, SPI master config or device config at probe each leave that driver unbound with the core's wrong-size error and the driver's own in dmesg, while gb-gpio on the same module works; a long answer to PWM config or activate fails the sysfs write and leaves the PWM as it was; master configs of the right size that make no sense (no chip select, no word size, minimum above maximum, a chip select without a device) leave gb-spi unbound with its own error; the drivers bind normally once the faults are gone.
# timeout: 120
# tools: gpiodetect gpioget
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim gpiodetect gpioget
load_gb greybus gb-vhd gb-gbphy gb-gpio gb-i2c gb-spi gb-pwm

M=/usr/share/greybus/manifests/gbphy-bridge.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
BUNDLE=/sys/bus/greybus/devices/1-2.2.1
c() {
	gbsim ctl "$@"
}
fault() {
	c fault add intf=2 "$@" >/dev/null || fail "fault add $* failed"
}
# gbphy DEV of protocol ID under the bridge bundle
gbphy_of() {
	local d
	for d in $BUNDLE/gbphy*; do
		[ "$(cat "$d/protocol_id" 2>/dev/null)" = "$1" ] && echo "$d" && return 0
	done
	return 1
}
bound() {
	test -e "$(gbphy_of "$1")/driver"
}
# plug: insert the module and wait until gb-gpio (never faulted) works
plug() {
	c insert 2 $M >/dev/null || fail "insert failed"
	wait_for 30 gbphy_gpiochip >/dev/null || fail "no gbphy gpiochip: $(cat err)"
	CH=$(gbphy_gpiochip)
	# the bystander: a level gbsim puts on a line reads back
	c gpio 2:1 3 1 || fail "gbsim ctl gpio failed"
	assert_eq "$(gpioget $CH 3)" 1 "gpioget beside the faulted drivers"
	c gpio 2:1 3 0 || fail "gbsim ctl gpio failed"
	assert_eq "$(gpioget $CH 3)" 0 "gpioget beside the faulted drivers"
	uevent_settle
}
no_chip() {
	! gbphy_gpiochip >/dev/null
}
# unplug: remove the module and wait until its devices are gone.  The
# bundle's link in /sys/bus/greybus/devices goes first, before its driver
# is released: its gbphy devices and the gpiochip go after it, and the
# next plug would take that old chip for the new one.
unplug() {
	local d

	d=$(readlink -f $BUNDLE)
	c remove 2 || fail "remove failed"
	wait_for 10 sh -c "! test -e $d" || fail "bundle still there after remove"
	wait_for 10 no_chip || fail "gpiochip still there after remove: $(gbphy_gpiochip)"
}
# unbound PROTO: the gbphy device of PROTO has no driver
unbound() {
	local d
	d=$(gbphy_of "$1") || fail "no gbphy device for protocol $1"
	test -e "$d/driver" && fail "a driver bound to ${d##*/} (protocol $1) despite the bad answer"
	true
}

# dmark / expect_since PATTERN: a kernel log line matching PATTERN
# (grep -E) after the mark, within 5 s
dmark() {
	DMARK=$(dmesg | wc -l)
}
_dsince() {
	dmesg | tail -n +$((DMARK + 1)) | grep -Eq -- "$1"
}
expect_since() {
	wait_for 5 _dsince "$1" || fail "no kernel log line matching '$1'"
}

dmark
gbsim --ctl "$GBSIM_CTL" -l log >out 2>err &
pid=$!
c -w 10 status >/dev/null || fail "gbsim ctl not answering: $(cat err)"

# 1. short answers at probe: pwm count (1 byte due), functionality (4),
#    master config (17)
fault proto=pwm type=pwm_count short=0
fault proto=i2c type=functionality short=2
fault proto=spi type=master_config short=16
plug
wait_for 10 bound 0x04 || fail "gb-uart did not bind"
expect_since 'response id 0x[0-9a-f]{4} of type 0x82 has wrong size \(0 bytes, expected 1\)'
expect_since 'failed to get pwm count: -90'
expect_since 'response id 0x[0-9a-f]{4} of type 0x82 has wrong size \(2 bytes, expected 4\)'
expect_since 'functionality query failed: -90'
expect_since 'response id 0x[0-9a-f]{4} of type 0x82 has wrong size \(16 bytes, expected 17\)'
expect_since 'master config failed: -90'
unbound 0x09
unbound 0x03
unbound 0x0b
for ch in /sys/class/pwm/pwmchip*; do
	readlink -f "$ch/device" | grep -q gbphy &&
		fail "a gbphy pwmchip despite the short count"
done
unplug

# 2. long answers at probe, and a short device config (40 bytes due)
dmark
fault proto=pwm type=pwm_count long=1
fault proto=i2c type=functionality long=4
fault proto=spi type=device_config short=39
plug
expect_since 'of type 0x82 has wrong size \(2 bytes, expected 1\)'
expect_since 'failed to get pwm count: -90'
expect_since 'of type 0x82 has wrong size \(8 bytes, expected 4\)'
expect_since 'functionality query failed: -90'
expect_since 'of type 0x83 has wrong size \(39 bytes, expected 40\)'
expect_since 'device config of cs 0 failed: -90'
unbound 0x09
unbound 0x03
unbound 0x0b
ls /sys/bus/spi/devices 2>/dev/null | grep -q . &&
	fail "spi devices left by the failed probe: $(ls /sys/bus/spi/devices)"
unplug

# 3. a long master config; then cs0's device config answered and cs1's
#    cut: the spi device added for cs0 goes again with the controller
dmark
fault proto=spi type=master_config long=3
plug
expect_since 'of type 0x82 has wrong size \(20 bytes, expected 17\)'
expect_since 'master config failed: -90'
unbound 0x0b
unplug
dmark
fault proto=spi type=device_config delay=0
fault proto=spi type=device_config short=39
plug
expect_since 'of type 0x83 has wrong size \(39 bytes, expected 40\)'
expect_since 'device config of cs 1 failed: -90'
unbound 0x0b
grep -q "cs0: device_config name=loopback" log || fail "gbsim did not answer cs0's device config"
ls /sys/bus/spi/devices 2>/dev/null | grep -q . &&
	fail "spi devices left by the failed probe: $(ls /sys/bus/spi/devices)"
ls /dev/spidev* 2>/dev/null && fail "spidev nodes left by the failed probe"
unplug

# 4. master configs of the right size that make no sense: gb-spi refuses
#    each at probe with its rate-limited line, and the bystander works
spi_nonsense() {
	c spi set defaults "$1" || fail "gbsim ctl spi set $1 failed"
	dmark
	plug
	expect_since "$2"
	unbound 0x0b
	ls /sys/bus/spi/devices 2>/dev/null | grep -q . &&
		fail "spi devices left after the master config $1: $(ls /sys/bus/spi/devices)"
	unplug
}
spi_nonsense num_cs=0 'nonsense master config \(cs 0, bpw 0x8080, 10000\.\.20000000 Hz\)'
spi_nonsense bpw_mask=0 'nonsense master config \(cs 2, bpw 0x0, 10000\.\.20000000 Hz\)'
spi_nonsense min_speed_hz=30000000 'nonsense master config \(cs 2, bpw 0x8080, 30000000\.\.20000000 Hz\)'
# a chip select the module has no device for: its device config fails
spi_nonsense num_cs=3 'device config of cs 2 failed: -[0-9]+'
c spi set defaults || fail "gbsim ctl spi set defaults failed"

# 5. everything binds without faults; then long answers to PWM requests
dmark
c fault clear || fail "fault clear failed"
plug
wait_for 10 bound 0x03 || fail "gb-i2c did not bind"
wait_for 10 bound 0x0b || fail "gb-spi did not bind"
wait_for 10 bound 0x09 || fail "gb-pwm did not bind"
P=$(gbphy_of 0x09)
CHIP=$(ls -d $P/pwm/pwmchip* | head -n 1)
[ -d "$CHIP" ] || fail "no pwmchip below ${P##*/}"
assert_file_eq $CHIP/npwm 2
fault proto=pwm type=activate long=2
echo 0 >$CHIP/export 2>/dev/null && fail "export succeeded on a long activate answer"
expect_since 'of type 0x83 has wrong size \(2 bytes, expected 0\)'
expect_since 'pwm operation 0x03 failed: -90'
test -e $CHIP/pwm0 && fail "pwm0 exported despite the failed activate"
echo 0 >$CHIP/export || fail "export failed after the fault"
echo 1000000 >$CHIP/pwm0/period || fail "period write failed"
echo 100000 >$CHIP/pwm0/duty_cycle || fail "duty_cycle write failed"
echo 1 >$CHIP/pwm0/enable || fail "enable failed"
fault proto=pwm type=config long=4
echo 200000 >$CHIP/pwm0/duty_cycle 2>/dev/null &&
	fail "duty_cycle write succeeded on a long config answer"
expect_since 'of type 0x85 has wrong size \(4 bytes, expected 0\)'
expect_since 'pwm operation 0x05 failed: -90'
assert_file_eq $CHIP/pwm0/duty_cycle 100000
echo 300000 >$CHIP/pwm0/duty_cycle || fail "duty_cycle write failed after the fault"
grep "pwm cport [0-9]* pwm 0:" log | tail -n 1 | grep -q "enabled=1 duty=300000 period=1000000" ||
	fail "gbsim's pwm 0: $(grep 'pwm cport' log | tail -n 1)"
echo 0 >$CHIP/pwm0/enable || fail "disable failed"
echo 0 >$CHIP/unexport || fail "unexport failed"
unplug

kill -TERM $pid
wait $pid
unload_all_gb
exit 0
