# Checks gbphy drivers registering while bridge modules come and go: in each round three bridge modules are inserted and removed again at once while a loop loads and unloads gb-spi and gb-pwm (a driver's registration walks the gbphy bus and matches every device on it, a device being unregistered included); no warning, every module unloads, and a bridge module inserted afterwards gets all its drivers.
# timeout: 300
# A gbphy device held by the driver core's walk outlived its bundle: a
# registration matched it against the freed bundle's CPort descriptor
# and took the freed bundle's lock (a guest soft-locked spinning on it,
# in a run of case 217).  The window is narrow (the walk has to stall
# between taking the device and locking its bundle while the whole
# bundle goes), so this case exercises the path rather than hitting it
# every time; on the debug kernel KASAN reports any such read.
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh

need_tool gbsim
load_gb greybus gb-vhd gb-gbphy gb-gpio gb-i2c gb-uart

M=/usr/share/greybus/manifests/gbphy-bridge.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
ROUNDS=15
c() {
	gbsim ctl "$@"
}
gbsim --ctl "$GBSIM_CTL" -l log >out 2>err &
pid=$!
wait_for 30 c status >/dev/null 2>&1 || fail "gbsim ctl not answering: $(cat err)"

# the drivers' loop: until the file stop exists, each driver loaded and
# unloaded again (an unload refused while a device is being bound or
# unbound is counted, not an error)
churn() {
	local n=0 busy=0
	while [ ! -e stop ]; do
		modprobe gb-spi || { echo "modprobe gb-spi failed" >churn.err; break; }
		modprobe gb-pwm || { echo "modprobe gb-pwm failed" >churn.err; break; }
		rmmod gb_spi 2>/dev/null || busy=$((busy + 1))
		rmmod gb_pwm 2>/dev/null || busy=$((busy + 1))
		n=$((n + 1))
	done
	echo "$n $busy" >churn.out
}
: >churn.err
churn &
cp=$!

r=1
while [ $r -le $ROUNDS ]; do
	for i in 2 3 4; do
		c insert $i $M >/dev/null || fail "insert $i (round $r)"
	done
	# let some gbphy devices appear, then take the modules out under
	# the drivers' registrations and the uevent handler's modprobes
	wait_for 20 sh -c 'ls /sys/bus/gbphy/devices | grep -q .' ||
		fail "no gbphy device (round $r)"
	for i in 2 3 4; do
		c remove $i >/dev/null || fail "remove $i (round $r)"
	done
	wait_for 30 gbphy_none || fail "gbphy devices left (round $r): $(ls /sys/bus/gbphy/devices)"
	r=$((r + 1))
done
: >stop
wait $cp
[ -s churn.err ] && fail "$(cat churn.err)"
info "$ROUNDS rounds; driver load/unload cycles, unloads refused while busy: $(cat churn.out)"

# every driver loads, and a new module gets all five of its functions
uevent_settle 60
load_gb gb-spi gb-pwm
c insert 2 $M >/dev/null || fail "insert after the rounds"
wait_for 30 gbphy_gpiochip >/dev/null || fail "no gpiochip after the rounds"
wait_for 30 gbphy_i2c_bus >/dev/null || fail "no i2c adapter after the rounds"
wait_for 30 gbphy_spi_bus >/dev/null || fail "no spi master after the rounds"
wait_for 30 gbphy_pwmchip >/dev/null || fail "no pwmchip after the rounds"
wait_for 30 gbphy_tty >/dev/null || fail "no tty after the rounds"
c remove 2 >/dev/null || fail "remove after the rounds"
wait_for 30 gbphy_none || fail "gbphy devices left at the end"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
unload_all_gb
