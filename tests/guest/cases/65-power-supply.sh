# Checks gb-power-supply: autoloaded for a battery bundle, its supply in /sys/class/power_supply with the module's description and values, capacity following gbsim's draining battery with a change uevent each time, an event sent by hand refreshing it, a writable property reaching gbsim, a read-only one refused, and malformed answers failing the probe cleanly.
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
PS=/sys/class/power_supply/gb-1-2.2.1-0
UEV=/run/gbtest/uevent.log
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

load_gb greybus gb-vhd
GBSIM_POWER_SUPPLY=capacity=90,period_ms=700 gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 2:$M/battery.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -e $PS/capacity || fail "no $PS: $(ls /sys/class/power_supply) $(cat gbsim.err)"
grep -q '^gb_power_supply ' /proc/modules || fail "gb-power-supply not autoloaded"
assert_file_eq $PS/type Battery
assert_file_eq $PS/model_name "Sim Battery"
assert_file_eq $PS/manufacturer "Greybus Sim"
assert_file_eq $PS/serial_number 0001
assert_file_eq $PS/status Discharging
assert_file_eq $PS/temp 250

# gbsim drains 1 % every 0.7 s and says so with an event
c1=$(cat $PS/capacity)
[ "$c1" -le 90 ] && [ "$c1" -ge 50 ] || fail "capacity $c1 not near gbsim's 90"
_below() { [ "$(cat $PS/capacity)" -lt "$1" ]; }
wait_for 10 _below "$c1" || fail "capacity stuck at $c1"
c2=$(cat $PS/capacity)
grep -q "battery capacity=$c2\$" "$LOG" || fail "capacity $c2 is not one gbsim had"
v=$(cat $PS/voltage_now)
[ "$v" -ge 3400000 ] && [ "$v" -le 4200000 ] || fail "voltage_now $v"
_uevent() { grep -q "change .*/power_supply/gb-1-2.2.1-0\$" $UEV; }
wait_for 10 _uevent || fail "no change uevent for the supply: $(tail -5 $UEV)"
grep -q 'power_supply.event req' "$LOG" || fail "gbsim sent no event"
grep -Eq 'power_supply.event rsp .*result=success' "$LOG" || fail "the AP did not accept the event"

# writable property: capacity_alert_min reaches the module
echo 15 >$PS/capacity_alert_min || fail "capacity_alert_min write refused"
grep -q 'battery property 0x2b set to 15' "$LOG" || fail "gbsim did not get the write"
assert_file_eq $PS/capacity_alert_min 15
echo 5 2>/dev/null >$PS/capacity && fail "read-only capacity accepted a write"

# an event by hand (bad ones refused, not fatal)
gbsim ctl request 2:1 power_supply.event 0001 >/dev/null || fail "ctl request failed"
gbsim ctl request 2:1 power_supply.event 0501 >/dev/null
gbsim ctl request 2:1 power_supply.event 00 >/dev/null
expect_dmesg '1-2.2.1: event for unknown supply 5'
expect_dmesg '1-2.2.1: event of 1 bytes'

# removal with events and refreshes going on
gbsim ctl remove 2 >/dev/null || fail "remove failed"
wait_for 10 test ! -e $PS || fail "$PS still there after removal"

# malformed answers: the probe fails, nothing is registered
gbsim ctl fault add intf=2 type=power_supply.get_description short=10 sticky >/dev/null
gbsim ctl insert 2 $M/battery.mnfs >/dev/null || fail "insert failed"
expect_dmesg '1-2.2.1: supply 0: no description: ' 20
test -e $PS && fail "a supply with a short description was registered"
gbsim ctl remove 2 >/dev/null
gbsim ctl fault clear >/dev/null
gbsim ctl fault add intf=2 type=power_supply.get_property result=invalid sticky >/dev/null
gbsim ctl insert 2 $M/battery.mnfs >/dev/null || fail "insert failed"
wait_for 20 test -e $PS/capacity || fail "no supply when property reads fail"
expect_dmesg 'gb-1-2.2.1-0: property 0x2a: '
gbsim ctl fault clear >/dev/null
gbsim ctl remove 2 >/dev/null

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
