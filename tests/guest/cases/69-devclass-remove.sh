# Checks that a battery, a LED controller, a log source and a raw echo can be removed at any moment (mid-probe with answers delayed, with a raw write in flight, with a blocked reader and an open LED and supply) and re-inserted, each time with every device gone and nothing left behind: all four drivers unload at the end.
# timeout: 180
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

load_gb greybus gb-vhd
gbsim --ctl "$GBSIM_CTL" -l "$LOG" 2>gbsim.err &
pid=$!
wait_for 30 gbsim ctl status >/dev/null 2>&1 || fail "gbsim ctl not answering: $(cat gbsim.err)"

all_in() {
	gbsim ctl insert 2 $M/battery.mnfs >/dev/null || fail "insert 2"
	gbsim ctl insert 3 $M/lights.mnfs >/dev/null || fail "insert 3"
	gbsim ctl insert 4 $M/log.mnfs >/dev/null || fail "insert 4"
	gbsim ctl insert 5 $M/raw.mnfs >/dev/null || fail "insert 5"
}
all_out() {
	local i
	for i in 2 3 4 5; do
		gbsim ctl remove $i >/dev/null || fail "remove $i ($1)"
	done
	for i in 2 3 4 5; do
		wait_for 10 test ! -e $D/1-$i || fail "1-$i still there ($1)"
	done
	ls /sys/class/power_supply | grep -q '^gb-' && fail "a supply left behind ($1)"
	ls /sys/class/leds | grep -q gbsim && fail "an LED left behind ($1)"
	test -e /dev/gb/raw0 && fail "/dev/gb/raw0 left behind ($1)"
	return 0
}

# 1. settled, in use: a reader blocked on raw, sysfs files open
all_in
wait_for 30 test -c /dev/gb/raw0 || fail "no raw device"
wait_for 30 test -e /sys/class/power_supply/gb-1-2.2.1-0/capacity || fail "no supply"
wait_for 30 test -e /sys/class/leds/gbsim:red:notification/brightness || fail "no LED"
dd if=/dev/gb/raw0 bs=8192 count=1 >/dev/null 2>&1 &
reader=$!
exec 4</sys/class/power_supply/gb-1-2.2.1-0/capacity
exec 5>/sys/class/leds/gbsim:red:notification/brightness
all_out settled
wait $reader && fail "the blocked reader succeeded"
cat <&4 >/dev/null 2>&1
echo 1 >&5 2>/dev/null
exec 4<&- 5>&-

# 2. mid-probe: every answer 150 ms late, removal 0.1 .. 1.2 s into it
gbsim ctl fault add proto=power_supply delay=150 sticky >/dev/null
gbsim ctl fault add proto=lights delay=150 sticky >/dev/null
for t in 0.1 0.4 0.8 1.2; do
	all_in
	sleep $t
	all_out "mid-probe after $t s"
done
gbsim ctl fault clear >/dev/null

# 3. a raw write in flight: its send never answered
all_in
wait_for 30 test -c /dev/gb/raw0 || fail "no raw device"
gbsim ctl fault add intf=5 type=raw.send drop sticky >/dev/null
n_drop=$(gbsim ctl log | grep -c 'drop on cport [0-9]* raw.send req')
_dropped() {
	[ "$(gbsim ctl log | grep -c 'drop on cport [0-9]* raw.send req')" -gt "$n_drop" ]
}
(printf 'lost' >/dev/gb/raw0) 2>/dev/null &
writer=$!
wait_for 10 _dropped || fail "the write did not reach gbsim: $(gbsim ctl log | tail -n 3)"
all_out "write in flight"
wait $writer && fail "the write in flight succeeded"
gbsim ctl fault clear >/dev/null

# 4. everything back, working
all_in
wait_for 30 test -c /dev/gb/raw0 || fail "no raw device after all that"
printf 'back' >/dev/gb/raw0 || fail "write after re-insert"
wait_for 30 test -e /sys/class/leds/gbsim:red:notification/brightness || fail "no LED after all that"
all_out final

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
