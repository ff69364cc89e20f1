# Checks that a gb-hid keyboard typing the keys that act on a whole Linux machine (Shift, Ctrl and AltGr with Scroll Lock: memory, task and register dumps; Ctrl+Alt+Delete: init signalled; Alt+SysRq+H: SysRq's help; Alt+F2: another console) delivers them to evtest and does nothing else in the test guest, whose /init turns keyboard SysRq and the console keyboard off: a fuzzed keyboard (case 110) once dumped every task into the kernel log and once took the guest down.
# timeout: 90
# kmods: hid hid-generic evdev
# tools: evtest
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hid.sh

need_tool gbsim evtest
M=/usr/share/greybus/manifests
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

assert_file_eq /proc/sys/kernel/sysrq 0
vt=$(cat /sys/class/tty/tty0/active 2>/dev/null) || skip "no virtual terminals in this kernel"

load_gb greybus gb-vhd
GBSIM_HID=delay_ms=10 gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 2:$M/keyboard.mnfs 2>gbsim.err &
pid=$!
hid_find "after the insertion"

# No --grab: the console keyboard and SysRq must see the keys too, as
# they would on any machine the keyboard is plugged into.
hid_evtest ev.out
gbsim ctl hid press 2:1 02:47 01:47 40:47 05:4c 04:46+0b 04:3b >/dev/null ||
	fail "ctl hid press failed"
wait_for 20 grep -q 'hid 2: typed 6 keys' "$LOG" || fail "gbsim did not finish: $(grep 'hid ' "$LOG" | tail -3)"
_all() { [ "$(grep -c 'type 1 (EV_KEY), code .*, value 0$' ev.out)" -ge 14 ]; }
wait_for 10 _all || fail "evtest saw $(grep -c 'EV_KEY.*value 0$' ev.out) releases: $(tail -5 ev.out)"
kill $evpid
wait $evpid
keys=$(sed -n 's/.*type 1 (EV_KEY), code [0-9]* (\(KEY_[A-Z0-9]*\)), value 1$/\1/p' ev.out | tr '\n' ' ')
assert_eq "$keys" "KEY_LEFTSHIFT KEY_SCROLLLOCK KEY_LEFTCTRL KEY_SCROLLLOCK KEY_RIGHTALT KEY_SCROLLLOCK KEY_LEFTCTRL KEY_LEFTALT KEY_DELETE KEY_LEFTALT KEY_SYSRQ KEY_H KEY_LEFTALT KEY_F2 " "keys pressed"

# Nothing acted on them: no dump, no SysRq, the same console
dmesg >keys.dmesg
for w in 'Mem-Info' 'task:' 'sysrq' 'SysRq' 'CPU: '; do
	grep -q -- "$w" keys.dmesg && fail "the keys reached the console keyboard or SysRq: $(grep -m 1 -- "$w" keys.dmesg)"
done
assert_file_eq /sys/class/tty/tty0/active "$vt"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
