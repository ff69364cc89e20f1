# SPDX-License-Identifier: GPL-2.0
# The demo, run inside the guest by 'make demo'; its output is shown on the
# host. Each capability of the stack adds its step here.
. /usr/lib/gbtest/lib.sh

step() {
	echo
	echo "=== $*"
}

step "Guest: Linux $(uname -r), $(nproc) CPUs"

step "Loading the Greybus core: modprobe greybus"
load_gb greybus
modinfo -F description greybus | sed 's/^/description: /'

step "The greybus bus: ls -R /sys/bus/greybus"
ls -R /sys/bus/greybus

M=/usr/share/greybus/manifests
step "Simulated network: gbsim with the article's audio module at interface 2 and a two-bundle module at interface 4"
load_gb gb-vhd
gbsim -l /tmp/gbsim.log -m 2:$M/audio.mnfs,vid=0x12345678,pid=0x9abcdef0 \
	-m 4:$M/two-bundle.mnfs &
gbsim_pid=$!
wait_for 20 test -e /sys/bus/greybus/devices/1-4.4.2 ||
	fail "the simulated modules did not enumerate"

step "The Greybus tree as lsgb shows it"
lsgb

step "Hotplug at run time through gbsim's control socket"
CTL=/tmp/gbsim.sock
gbsim -l /tmp/gbsim2.log --ctl $CTL &
gbsim2_pid=$!
gbsim ctl -s $CTL -w 10 status
for id in 3 6 9; do
	echo "\$ gbsim ctl insert $id test-vendor.mnfs"
	gbsim ctl -s $CTL insert $id $M/test-vendor.mnfs ||
		fail "gbsim ctl insert $id failed"
done
for id in 3 6 9; do
	wait_for 20 test -e /sys/bus/greybus/devices/2-$id.$id.1/driver ||
		fail "module $id on greybus2 did not enumerate"
done
gbsim ctl -s $CTL list
lsgb | sed -n '/Bus 2/,$p'

step "Ejecting module 2-6 from the AP side: echo 1 > /sys/bus/greybus/devices/2-6/eject"
echo 1 >/sys/bus/greybus/devices/2-6/eject
wait_for 20 test ! -e /sys/bus/greybus/devices/2-6 ||
	fail "module 2-6 still present after eject"
lsgb | sed -n '/Bus 2/,$p'
echo "gbsim saw:"
grep -E 'svc\.intf_eject|module_removed' /tmp/gbsim2.log | sed 's/^/  /'
step "Recovery: the SVC reports an oops of interface 9 (reason 0x01, overcurrent)"
gbsim ctl -s $CTL request svc svc.intf_oops 0901 >/dev/null
wait_file_eq 10 /sys/bus/greybus/devices/2-9.9/status failed ||
	fail "interface 2-9.9 not failed after its oops"
dmesg | grep 'interface 9 oops' | sed 's/^\[[^]]*\] */  kernel: /'
echo "2-9.9/status: $(cat /sys/bus/greybus/devices/2-9.9/status)"
echo "\$ gbsim ctl remove 9; gbsim ctl insert 9 test-vendor.mnfs"
gbsim ctl -s $CTL remove 9
wait_for 20 test ! -e /sys/bus/greybus/devices/2-9 ||
	fail "module 2-9 still present after removal"
gbsim ctl -s $CTL insert 9 $M/test-vendor.mnfs
wait_file_eq 20 /sys/bus/greybus/devices/2-9.9.1/test_result ok ||
	fail "module 2-9 did not come back"
echo "2-9.9/status: $(cat /sys/bus/greybus/devices/2-9.9/status), bundle driver: $(basename "$(readlink /sys/bus/greybus/devices/2-9.9.1/driver)")"

step "Runtime PM: idle bundles suspend (Control bundle_suspend), then their interface (hibernate)"
P=/sys/bus/greybus/devices/2-3.3
echo 200 >$P.1/power/autosuspend_delay_ms
echo 300 >$P/power/autosuspend_delay_ms
wait_file_eq 10 $P/power/runtime_status suspended ||
	fail "interface 2-3.3 did not suspend"
echo "2-3.3.1: $(cat $P.1/power/runtime_status), 2-3.3: $(cat $P/power/runtime_status)"
echo "\$ gbsim ctl pm 3"
gbsim ctl -s $CTL pm 3
echo "\$ echo 1 > 2-3.3.1/test_ping   (the ping resumes both first)"
echo 1 >$P.1/test_ping
echo "test_result: $(cat $P.1/test_result)"
grep -E 'intf 3:0 control\.bundle_(suspend|resume) req|intf=3 tx_mode=0x11|svc\.intf_resume req|intf 3:1 test\.echo req' /tmp/gbsim2.log |
	tail -n 6 | sed 's/^/  /'

step "Powering an interface down and up from the AP side: power_state"
echo "\$ echo off > 2-3.3/power_state"
echo off >$P/power_state || fail "power_state off failed"
echo "2-3.3: power_state $(cat $P/power_state), status $(cat $P/status), bundle 2-3.3.1 $([ -e $P.1 ] && echo present || echo gone)"
echo "\$ echo on > 2-3.3/power_state"
echo on >$P/power_state || fail "power_state on failed"
wait_file_eq 20 $P.1/test_result ok || fail "2-3.3.1 did not come back"
echo "2-3.3: power_state $(cat $P/power_state), status $(cat $P/status), bundle driver $(basename "$(readlink $P.1/driver)")"

step "Bridged PHY: one module's GPIO, I2C, SPI, UART and PWM CPorts as ordinary Linux controllers"
load_gb gb-gbphy gb-gpio gb-i2c gb-spi gb-uart gb-pwm
modprobe i2c-dev 2>/dev/null
echo "\$ gbsim ctl insert 12 gbphy-bridge.mnfs"
gbsim ctl -s $CTL insert 12 $M/gbphy-bridge.mnfs || fail "gbsim ctl insert 12 failed"
B=/sys/bus/greybus/devices/2-12.12.1
have_i2c_adapter() {
	ls -d $B/gbphy*/i2c-* >/dev/null 2>&1
}
wait_for 30 have_i2c_adapter || fail "no I2C adapter on the bridge module"
for d in $B/gbphy*; do
	wait_for 10 test -e $d/driver || fail "${d##*/}: no driver"
	echo "${d##*/}: protocol $(cat $d/protocol_id), driver $(basename "$(readlink $d/driver)")"
done
if command -v gpiodetect >/dev/null; then
	echo "\$ gpiodetect"
	gpiodetect | grep gbphy
fi
A=$(ls -d $B/gbphy*/i2c-*)
BUS=${A##*/i2c-}
wait_for 10 test -c /dev/i2c-$BUS || fail "no /dev/i2c-$BUS"
if command -v i2cget >/dev/null; then
	echo "\$ i2cget -y $BUS 0x50 0x00   (gbsim's EEPROM)"
	i2cget -y $BUS 0x50 0x00
fi
echo "tty: $(ls /dev | grep ttyGB | tr '\n' ' ')  pwm: $(ls /sys/class/pwm | tr '\n' ' ')"

kill $gbsim2_pid
wait $gbsim2_pid

step "What the AP said, as gbsim logged it (first lines)"
head -n 24 /tmp/gbsim.log

step "Unplugging the bridge: stopping gbsim"
kill $gbsim_pid
wait $gbsim_pid
wait_for 10 test ! -e /sys/bus/greybus/devices/greybus1 ||
	fail "greybus1 still present after gbsim exited"
echo "greybus1 and everything under it are gone"

step "Unloading every Greybus module"
unload_all_gb
[ -e /sys/bus/greybus ] && fail "/sys/bus/greybus still present after unload"
echo "done, /sys/bus/greybus is gone"
