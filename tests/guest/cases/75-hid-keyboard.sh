# Checks gb-hid with gbsim's boot keyboard: gb-hid and hid-generic autoloaded, an input device and a hidraw node under the bundle, the string gbsim types seen by evtest as the right EV_KEY presses and read from hidraw as the raw input reports, GET_REPORT answered through hidraw ioctls, output reports (a hidraw write, an LED set through evdev) reaching gbsim, and the bundle held awake while the device is open and suspending once it is closed.
# timeout: 150
# kmods: hid hid-generic evdev
# tools: evtest perl
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hid.sh

need_tool gbsim evtest perl
M=/usr/share/greybus/manifests
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

load_gb greybus gb-vhd
GBSIM_HID=delay_ms=10 gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 2:$M/keyboard.mnfs 2>gbsim.err &
pid=$!

hid_find "after the insertion"
grep -q '^gb_hid ' /proc/modules || fail "gb-hid not autoloaded"
assert_eq "$(basename "$(readlink $H/driver)")" hid-generic "driver of $(basename $H)"
assert_file_eq $EVS/device/name "Greybus HID 4753:4B42"
assert_file_eq $EVS/device/phys 1-2.2.1
grep -q 'hid.get_report_desc rsp .*result=success' "$LOG" || fail "gbsim sent no report descriptor"

# evtest sees the keys gbsim types; hidraw gets the same reports
hid_evtest ev.out --grab
grep -q 'Input device name: "Greybus HID 4753:4B42"' ev.out || fail "evtest: $(head -5 ev.out)"
dd if="$RAW" of=raw.bin bs=8 count=12 2>/dev/null &
ddpid=$!
wait_for 10 held_open "$RAW" || fail "the hidraw reader did not open $RAW"
gbsim ctl hid type 2:1 heLlo1 >/dev/null || fail "ctl hid type failed"
wait_for 20 grep -q 'hid 2: typed 6 keys' "$LOG" || fail "gbsim did not finish typing: $(grep 'hid ' "$LOG" | tail -3)"
_presses() { [ "$(grep -c 'type 1 (EV_KEY), code .*, value 1$' ev.out)" -ge 7 ]; }
wait_for 10 _presses || fail "evtest saw $(grep -c 'EV_KEY.*value 1$' ev.out) presses: $(tail -5 ev.out)"
keys=$(sed -n 's/.*type 1 (EV_KEY), code [0-9]* (\(KEY_[A-Z0-9]*\)), value 1$/\1/p' ev.out | tr '\n' ' ')
assert_eq "$keys" "KEY_H KEY_E KEY_LEFTSHIFT KEY_L KEY_L KEY_O KEY_1 " "keys pressed"
rels=$(grep -c 'type 1 (EV_KEY), code .*, value 0$' ev.out)
assert_eq "$rels" 7 "key releases"
_raw_all() { [ "$(wc -c <raw.bin)" -ge 96 ]; }
wait_for 10 _raw_all || fail "hidraw reader got $(wc -c <raw.bin) bytes, not 12 reports"
wait $ddpid
raw=$(od -An -tx1 -v raw.bin | tr -d ' \n')
assert_eq "$raw" "$(printf '%s' \
	00000b0000000000 0000000000000000 \
	0000080000000000 0000000000000000 \
	02000f0000000000 0000000000000000 \
	00000f0000000000 0000000000000000 \
	0000120000000000 0000000000000000 \
	00001e0000000000 0000000000000000)" "raw input reports"

# GET_REPORT through hidraw (HIDIOCGINPUT, HIDIOCGOUTPUT, HIDIOCGFEATURE)
cat >getrep.pl <<'EOF'
my ($dev, $nr, $len) = @ARGV;
open(my $f, '+<', $dev) or die "open: $!";
my $buf = "\0" x $len;
my $ret = ioctl($f, 0xC0004800 | ($len << 16) | hex($nr), $buf);
defined $ret or die "ioctl: $!\n";
print unpack('H*', substr($buf, 0, $ret)), "\n";
EOF
assert_eq "$(perl getrep.pl "$RAW" 0x0a 9)" 000000000000000000 "input report read back"
grep -q 'hid.get_report req .*report_type=0 report_id=0' "$LOG" || fail "no GET_REPORT (input) at gbsim"

# an output report written to hidraw reaches gbsim (caps lock)
printf '\000\002' >"$RAW" || fail "hidraw write failed"
wait_for 5 grep -q 'hid 2: output report leds=0x02 caps_lock' "$LOG" || fail "gbsim got no LED report: $(grep 'hid 2' "$LOG" | tail -3)"
assert_eq "$(perl getrep.pl "$RAW" 0x0c 2)" 0002 "output report read back"
perl getrep.pl "$RAW" 0x07 4 >feat.out 2>&1 && fail "feature report read succeeded: $(cat feat.out)"
expect_dmesg '1-2.2.1: get report 0 of type 2 failed: -22'

# an LED set through evdev (hid-input's LED path): num lock
cat >led.pl <<'EOF'
my ($dev, $code, $val) = @ARGV;
open(my $f, '+<', $dev) or die "open: $!";
syswrite($f, pack('qqSSl', 0, 0, 0x11, $code, $val)) == 24 or die "write: $!";
EOF
perl led.pl "$EV" 0 1 || fail "EV_LED write failed"
wait_for 5 grep -q 'hid 2: output report leds=0x01 num_lock' "$LOG" || fail "EV_LED did not reach gbsim: $(grep 'hid 2' "$LOG" | tail -3)"

# open: the bundle stays awake (and the keyboard powered) past its delay
grep -q 'hid 2: power on' "$LOG" || fail "gbsim never powered on"
echo 200 >$B/power/autosuspend_delay_ms
sleep 1
assert_file_eq $B/power/runtime_status active
kill $evpid
wait $evpid
# closed by every user (hid-generic unbound): off, and the bundle suspends
_last_power() { gbsim ctl log | grep 'hid 2: power o' | tail -n 1 | grep -q "power $1\$"; }
N=$(basename $H)
echo "$N" >/sys/bus/hid/drivers/hid-generic/unbind || fail "unbind failed"
wait_for 5 _last_power off || fail "no power off after unbind"
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend once closed"
echo "$N" >/sys/bus/hid/drivers/hid-generic/bind || fail "bind failed"
wait_for 10 hid_nodes || fail "no nodes after bind"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
