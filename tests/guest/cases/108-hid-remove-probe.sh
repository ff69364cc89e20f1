# Checks gb-hid removed in the middle of its probe, while the report descriptor is being fetched (gbsim holds its answer back): rmmod gb_hid with the answer coming before the AP's timeout (probe completes, then unbinds) and after it (probe fails), and a surprise removal of the keyboard; rmmod and the removal end promptly, nothing is left registered, no warning, and afterwards a keyboard works and every module unloads.
# timeout: 120
# kmods: hid hid-generic evdev
# tools: evtest
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hid.sh

need_tool gbsim evtest
M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl
FAILED='1-2\.2\.1: failed to get report descriptor: -110'

# The bundle's own uevent must not bring gb-hid back behind rmmod's back
# (the uevent handler's modprobe applies the blacklist; load_gb does not)
mkdir -p /etc/modprobe.d
echo "blacklist gb_hid" >/etc/modprobe.d/gbtest-hid.conf
trap 'rm -f /etc/modprobe.d/gbtest-hid.conf' EXIT
load_gb greybus gb-vhd gb-hid
gbsim --ctl "$GBSIM_CTL" -l "$LOG" 2>gbsim.err &
pid=$!
wait_for 30 gbsim ctl status >/dev/null 2>&1 || fail "gbsim ctl not answering: $(cat gbsim.err)"

n_log() { grep -c "$1" "$LOG"; }
n_dmesg() { dmesg_since_case | grep -cE "$1"; }
_more_log() { [ "$(n_log "$1")" -gt "$2" ]; }
# a process has ended (gone, or a zombie nobody reaped yet)
nothing_left() {
	ls -d $B/0006:* >/dev/null 2>&1 && fail "$1: a HID device is left: $(ls -d $B/0006:*)"
	ls /sys/class/hidraw | grep -q . && fail "$1: hidraw node left: $(ls /sys/class/hidraw)"
	grep -q 'Greybus HID' /proc/bus/input/devices && fail "$1: input device left"
	return 0
}
# plug the keyboard in with GET_REPORT_DESC's answer DELAY ms late, and
# wait until the AP has asked for it
plug_slow() {
	local n
	n=$(n_log 'hid.get_report_desc req')
	gbsim ctl fault add intf=2 type=hid.get_report_desc delay=$1 >/dev/null || fail "fault add"
	gbsim ctl insert 2 $M/keyboard.mnfs >/dev/null || fail "insert ($2)"
	wait_for 30 _more_log 'hid.get_report_desc req' "$n" || fail "no report descriptor request ($2)"
}
# rmmod gb_hid now; it must end within 15 s and take the driver away
rmmod_now() {
	rmmod gb_hid 2>rmmod.err &
	rp=$!
	wait_for 15 proc_ended $rp || fail "rmmod gb_hid hangs ($1)"
	wait $rp || fail "rmmod gb_hid failed ($1): $(cat rmmod.err)"
	grep -q '^gb_hid ' /proc/modules && fail "gb_hid still loaded ($1)"
	test -e $B/driver && fail "bundle still bound ($1)"
	test -d /sys/bus/greybus/drivers/gb-hid && fail "gb-hid driver still registered ($1)"
	nothing_left "$1"
}
unplug() {
	gbsim ctl remove 2 >/dev/null || fail "remove ($1)"
	wait_for 10 test ! -e $D/1-2 || fail "1-2 still there ($1)"
	gbsim ctl fault clear >/dev/null
}

# 1. rmmod while the answer is 400 ms late: rmmod waits for the probe,
#    which completes (on a slow guest it may time out instead), and then
#    unbinds what it made
info "rmmod during the fetch, answer before the timeout"
plug_slow 400 "answer in time"
f=$(n_dmesg "$FAILED")
rmmod_now "answer in time"
[ "$(n_dmesg "$FAILED")" -gt "$f" ] && info "(the answer came after the AP's timeout)"
unplug "answer in time"

# 2. rmmod while the answer is 3 s late: the probe times out and fails,
#    rmmod returns once it has
info "rmmod during the fetch, answer after the timeout"
load_gb gb-hid
plug_slow 3000 "answer too late"
f=$(n_dmesg "$FAILED")
rmmod_now "answer too late"
[ "$(n_dmesg "$FAILED")" -gt "$f" ] || fail "the probe did not fail on the late answer"
expect_dmesg '1-2\.2\.1: failed to add HID device: -110'
unplug "answer too late"

# 3. the keyboard pulled out during the fetch
info "surprise removal during the fetch"
load_gb gb-hid
plug_slow 3000 "surprise removal"
gbsim ctl remove 2 >/dev/null || fail "remove during the fetch"
wait_for 15 test ! -e $D/1-2 || fail "1-2 still there after a removal during the fetch"
nothing_left "surprise removal"
# a module that left is not an error of the driver's
dmesg_since_case | grep -E '1-2\.2\.1: failed to (get report descriptor|add HID device): -108' &&
	fail "errors logged for a module that left"
gbsim ctl fault clear >/dev/null
grep -q '^gb_hid ' /proc/modules || fail "gb_hid gone after the removal"

# 4. a keyboard works after all that
gbsim ctl insert 2 $M/keyboard.mnfs >/dev/null || fail "insert (after)"
hid_find "after the removals"
hid_evtest ev.out --grab
gbsim ctl hid type 2:1 ok >/dev/null || fail "hid type ok"
_ok() { grep -q 'code 37 (KEY_K), value 1' ev.out; }
wait_for 10 _ok || fail "no KEY_K after the removals: $(tail -3 ev.out)"
kill $evpid
wait $evpid

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
rm -f /etc/modprobe.d/gbtest-hid.conf
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
unload_all_gb
exit 0
