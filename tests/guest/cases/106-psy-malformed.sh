# Checks gb-power-supply against a battery that lies (gbsim's psy knobs and faults): no supplies, too many, more than it has, a short description, a property list shorter or longer than announced, a count field that disagrees with the list, an unknown property; each fails the probe (or is ignored) with a clear kernel log line, registers nothing, and a bystander battery keeps working throughout.
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
BY=/sys/class/power_supply/gb-1-3.3.1-0
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

load_gb greybus gb-vhd gb-power-supply
gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 3:$M/battery.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -e $BY/capacity || fail "no bystander supply: $(ls /sys/class/power_supply) $(cat gbsim.err)"

# the bystander still answers: a write reaches gbsim, values read back
alert=20
bystander_ok() {
	alert=$((alert + 1))
	echo $alert >$BY/capacity_alert_min || fail "bystander: write refused ($1)"
	grep -q "battery property 0x2b set to $alert\$" "$LOG" || fail "bystander: gbsim did not get $alert ($1)"
	assert_file_eq $BY/capacity_alert_min $alert
	assert_file_eq $BY/model_name "Sim Battery"
}
liar_left() { ls /sys/class/power_supply | grep '^gb-1-5\.' ; }
LIAR_MNFS=$M/battery.mnfs
LIAR_DEFAULTS="psy set defaults"
. /usr/lib/gbtest/liar.sh

bad "no supplies" 'module has 0 supplies \(1\.\.8 supported\)' psy set supplies=0
bad "nine supplies" 'module has 9 supplies \(1\.\.8 supported\)' psy set supplies=9
bad "two supplies, one described" 'supply 1: no description: -22' psy set supplies=2
bad "short supply count" 'cannot get supplies: -90' \
	fault add intf=5 type=power_supply.get_supplies short=0 sticky
bad "short description" 'supply 0: no description: -90' \
	fault add intf=5 type=power_supply.get_description short=50 sticky
bad "property list shorter than announced" 'supply 0: no property list: -90' \
	psy set props=7
bad "property list longer than announced" 'supply 0: no property list: -90' \
	psy set props=3
bad "count field lies" 'supply 0: description announces 5 properties, property list says 3' \
	psy set desc_count=3
bad "count field lies, list fits the description" 'supply 0: description announces 7 properties, property list says 5' \
	psy set props=7 desc_entries=7 desc_count=5
bad "property list refused" 'supply 0: no property list: -22' \
	fault add intf=5 type=power_supply.get_prop_descriptors result=invalid sticky
# the size mismatches are the core's lines
dmesg_since_case | grep -qE 'response id 0x[0-9a-f]+ of type 0x84 has wrong size \(11 bytes, expected 15\)' ||
	fail "no wrong-size line for the short property list"
dmesg_since_case | grep -qE 'response id 0x[0-9a-f]+ of type 0x84 has wrong size \(11 bytes, expected 7\)' ||
	fail "no wrong-size line for the long property list"

# an unknown property is ignored with a note; the rest works
n=$(dmesg_since_case | grep -c '1-5.5.1: supply 0: property 0xff ignored')
gbsim ctl psy set props=6 desc_entries=6 >/dev/null
gbsim ctl insert 5 $M/battery.mnfs >/dev/null || fail "insert (unknown property)"
wait_for 20 test -e /sys/class/power_supply/gb-1-5.5.1-0/capacity || fail "no supply with an unknown property"
_more '1-5\.5\.1: supply 0: property 0xff ignored' "$n" || fail "unknown property not noted"
assert_file_eq /sys/class/power_supply/gb-1-5.5.1-0/capacity 80
gbsim ctl psy set defaults >/dev/null
gbsim ctl remove 5 >/dev/null || fail "remove (unknown property)"
wait_for 10 test ! -e /sys/class/power_supply/gb-1-5.5.1-0 || fail "supply of 5 still there"
bystander_ok "after all"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
wait_for 10 test ! -e $BY || fail "bystander supply still there after gbsim exited"
unload_all_gb
exit 0
