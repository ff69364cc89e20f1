# System suspend with modules present (pm_test=devices, for mem and freeze): the Greybus tree suspends before the freezer stops gbsim (bundle_suspend, interface hibernate, a running vibrator turned off), resumes afterwards, and the modules are still enumerated and working; the SVC watchdog does not bite meanwhile.
# transport: vhd
# timeout: 120
# kmods: ff-memless evdev
. /usr/lib/gbtest/lib.sh

need_tool gbsim
[ -w /sys/power/pm_test ] || skip "no /sys/power/pm_test in this kernel"
load_gb greybus gb-vhd gb-test-protocol gb-vibrator

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
export GBSIM_CTL=$GBTEST_TMP/ctl

gbsim --ctl "$GBSIM_CTL" -l log -m 3:$M/test-vendor.mnfs -m 5:$M/vibrator.mnfs >out 2>err &
pid=$!
wait_file_eq 20 $D/1-3.3.1/test_result ok || fail "module 3 not up: $(cat err)"
wait_for 20 test -e /sys/class/vibrator/vibrator0/timeout || fail "no vibrator: $(cat err)"
cat /sys/power/state >states
info "sleep states: $(cat states); mem_sleep: $(cat /sys/power/mem_sleep 2>/dev/null)"

echo devices >/sys/power/pm_test
n=0
for state in mem freeze; do
	grep -qw $state states || { info "no $state state, not tried"; continue; }
	echo 20000 >/sys/class/vibrator/vibrator0/timeout || fail "vibrator on failed"
	lines=$(gbsim ctl log | wc -l)
	echo $state >/sys/power/state || fail "echo $state >/sys/power/state failed"
	n=$((n + 1))
	gbsim ctl log | tail -n +$((lines + 1)) >wire.$state
	grep -q "vibrator 5: motor off" wire.$state || fail "$state: the vibrator was not turned off for suspend"
	grep -q "AP>MOD.*intf 3:0 control.bundle_suspend req" wire.$state || fail "$state: module 3's bundle not suspended"
	grep -q "AP>MOD.*intf 5:0 control.bundle_suspend req" wire.$state || fail "$state: the vibrator bundle not suspended"
	grep -q "svc.intf_set_pwrm req.* intf=3 tx_mode=0x11" wire.$state || fail "$state: interface 3 not hibernated"
	info "$state: suspended and resumed"

	# Still there and working
	echo 1 >$D/1-3.3.1/test_ping || fail "$state: ping after resume failed"
	assert_file_eq $D/1-3.3.1/test_result ok
	echo 100 >/sys/class/vibrator/vibrator0/timeout || fail "$state: vibrator unusable after resume"
	assert_file_eq $D/1-svc/watchdog 1
done
echo none >/sys/power/pm_test
[ $n -ge 1 ] || skip "neither mem nor freeze available"
if gbsim ctl log | grep -q "to suspended bundle\|to hibernated interface"; then
	fail "gbsim saw an operation while suspended: $(gbsim ctl log | grep 'to suspended bundle\|to hibernated' | head -n 3)"
fi
grep -q "watchdog" out err && info "gbsim said: $(grep watchdog out err | head -n 2)"
dmesg | grep -q "SVC watchdog\|watchdog bit" && fail "the watchdog bit: $(dmesg | grep -i watchdog | head -n 3)"

kill -TERM $pid
wait $pid
unload_all_gb
