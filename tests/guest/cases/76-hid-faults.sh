# Checks gb-hid when things go wrong: the keyboard removed while evtest and a hidraw reader wait on it and keys are being typed (both end, the nodes go, no warning), gb-hid unloaded while evtest runs (it ends, the module is powered off), bad IRQ events refused with a rate-limited error, and malformed descriptors and error answers (error result, short HID descriptor, bad bLength, oversized or empty report descriptor, short or oversized report-descriptor answer) failing the probe with one error line and nothing registered.
# timeout: 240
# kmods: hid hid-generic evdev
# tools: evtest
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hid.sh

need_tool gbsim evtest
M=/usr/share/greybus/manifests
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

load_gb greybus gb-vhd
gbsim --ctl "$GBSIM_CTL" -l "$LOG" 2>gbsim.err &
pid=$!
wait_for 30 gbsim ctl status >/dev/null 2>&1 || fail "gbsim ctl not answering: $(cat gbsim.err)"

# plug the keyboard in; sets H, RAW, EVS and EV (hid_find)
plug() {
	gbsim ctl insert 2 $M/keyboard.mnfs >/dev/null || fail "insert ($1)"
	hid_find "$1"
}
unplug() {
	gbsim ctl remove 2 >/dev/null || fail "remove ($1)"
	wait_for 10 test ! -e $B || fail "$B still there ($1)"
}

# 1. surprise removal while evtest and a hidraw reader wait, keys in flight
plug removal
hid_evtest ev1.out --grab
cat "$RAW" >raw1.out 2>raw1.err &
catpid=$!
wait_for 10 held_open "$RAW" || fail "the hidraw reader did not open $RAW"
gbsim ctl hid type 2:1 abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz >/dev/null || fail "hid type"
_typing() { grep -q 'type 1 (EV_KEY), code 30 (KEY_A), value 1' ev1.out; }
wait_for 10 _typing || fail "evtest saw no key before the removal: $(tail -3 ev1.out)"
gbsim ctl remove 2 >/dev/null || fail "remove with evtest running"
wait_for 10 proc_ended $evpid || fail "evtest still running after the removal"
wait_for 10 proc_ended $catpid || fail "hidraw reader still blocked after the removal"
wait $evpid
grep -q 'No such device' ev1.out || info "evtest ended with: $(tail -n 1 ev1.out)"
wait_for 10 test ! -e $B || fail "$B still there"
wait_for 5 test ! -e "$EV" || fail "$EV still there"
wait_for 5 test ! -e "$RAW" || fail "$RAW still there"
ls /sys/class/hidraw | grep -q . && fail "hidraw devices left: $(ls /sys/class/hidraw)"

# 2. gb-hid unloaded while evtest runs: it ends, the keyboard is powered off
plug unload
hid_evtest ev2.out --grab
n_off=$(gbsim ctl log | grep -c 'hid 2: power off')
rmmod gb_hid || fail "rmmod gb_hid failed"
wait_for 10 proc_ended $evpid || fail "evtest still running after rmmod"
wait $evpid
_off() { [ "$(gbsim ctl log | grep -c 'hid 2: power off')" -gt "$n_off" ]; }
wait_for 5 _off || fail "no power off at rmmod: $(gbsim ctl log | grep 'hid 2' | tail -3)"
wait_for 5 test ! -e "$EV" || fail "$EV still there after rmmod"
test -e $B/driver && fail "bundle still bound after rmmod"
load_gb gb-hid
hid_find "after reloading gb-hid"

# 3. bad IRQ events: refused, rate limited, the keyboard goes on working
gbsim ctl request 2:1 hid.irq_event count=40 >/dev/null || fail "ctl request (empty)"
gbsim ctl request 2:1 0x09 00 >/dev/null || fail "ctl request (type 0x09)"
expect_dmesg '1-2\.2\.1: input report of 0 bytes refused'
expect_dmesg '1-2\.2\.1: unknown request type 0x09'
_answered() { [ "$(grep -c 'hid.irq_event rsp .*result=invalid' "$LOG")" -ge 40 ]; }
wait_for 20 _answered || fail "the AP did not refuse 40 empty events: $(grep -c 'irq_event rsp' "$LOG")"
n=$(dmesg_since_case | grep -c 'input report of 0 bytes refused')
[ "$n" -lt 40 ] || fail "$n lines for 40 bad events: not rate limited"
info "40 bad events, $n lines"
test -d "$H" || fail "HID device gone after bad events"
unplug "bad events"

# 4. malformed answers: the probe fails, one line, nothing registered
# bad WHAT REGEX CTL-WORDS...: set a fault or knob, plug in, and wait
# for one more kernel line matching REGEX than before
_more() { [ "$(dmesg_since_case | grep -cE "$1")" -gt "$2" ]; }
bad() {
	local what=$1 regex="1-2\.2\.1: $2" n
	shift 2
	n=$(dmesg_since_case | grep -cE "$regex")
	gbsim ctl "$@" >/dev/null || fail "$what: gbsim ctl $*"
	gbsim ctl insert 2 $M/keyboard.mnfs >/dev/null || fail "insert ($what)"
	wait_for 20 _more "$regex" "$n" || fail "$what: no line matching '$regex'"
	uevent_settle 10
	# the driver link exists while the probe runs: its error line comes
	# before the probe has undone what it did
	wait_for 10 test ! -e $B/driver || fail "$what: bundle bound"
	ls -d $B/0006:* >/dev/null 2>&1 && fail "$what: a HID device was registered"
	ls /sys/class/hidraw | grep -q . && fail "$what: hidraw node left"
	gbsim ctl fault clear >/dev/null
	gbsim ctl hid set desc_len=63 rdesc_len=63 blength=10 >/dev/null
	unplug "$what"
	info "$what: refused"
}
bad "error result" 'failed to get HID descriptor: -22' \
	fault add intf=2 type=hid.get_desc result=invalid sticky
bad "short HID descriptor" 'failed to get HID descriptor: -90' \
	fault add intf=2 type=hid.get_desc short=5 sticky
bad "bLength 9" 'HID descriptor says it has 9 bytes, not 10' \
	hid set blength=9
bad "oversized report descriptor" 'report descriptor of 5000 bytes refused \(1\.\.2040\)' \
	hid set desc_len=5000
bad "empty report descriptor" 'report descriptor of 0 bytes refused' \
	hid set desc_len=0
bad "short report descriptor" 'failed to get report descriptor: -90' \
	fault add intf=2 type=hid.get_report_desc short=20 sticky
bad "report descriptor error" 'failed to get report descriptor: -84' \
	fault add intf=2 type=hid.get_report_desc result=malfunction sticky
bad "oversized report-descriptor answer" 'failed to get report descriptor: -90' \
	hid set rdesc_len=100

# and after all that, a good keyboard still works
plug "after faults"
hid_evtest ev3.out --grab
gbsim ctl hid type 2:1 ok >/dev/null || fail "hid type ok"
_ok() { grep -q 'code 37 (KEY_K), value 1' ev3.out; }
wait_for 10 _ok || fail "no KEY_K after the faults: $(tail -3 ev3.out)"
kill $evpid
wait $evpid

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
