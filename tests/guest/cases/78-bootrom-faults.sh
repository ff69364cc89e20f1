# Checks gb-bootrom against a misbehaving boot ROM: malformed answers to version and ap_ready (probe fails), a missing file, a wrong stage, malformed and premature requests, a chunk too large, a chunk past the end, a module gone silent (timer frees the file), an invalid image, a module that never reboots, and removal of the module or of the driver in the middle of a download; each is a clean, logged failure and leaves no warning.
# timeout: 240
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
B=/sys/bus/greybus/devices/1-3.3.1
LOG=$GBTEST_TMP/gbsim.log
CFG=$GBTEST_TMP/bootrom.cfg
export GBSIM_CTL=$GBTEST_TMP/ctl
export GBSIM_BOOTROM=@$CFG
PRE=gmp_00000126_00001002_00001234
FILE=/lib/firmware/${PRE}_00000012_s2l.tftf
P=/sys/module/gb_bootrom/parameters

mkdir -p /lib/firmware || fail "cannot create /lib/firmware"
head -c 5123 /dev/urandom >$FILE
rm -f /lib/firmware/${PRE}_00000011_s2l.tftf

load_gb greybus gb-vhd gb-bootrom
echo 2000 >$P/next_request_ms
echo 2000 >$P/mode_switch_ms
: >$CFG
gbsim --ctl "$GBSIM_CTL" -l "$LOG" 2>gbsim.err &
pid=$!
gbsim ctl -w 20 status >/dev/null || fail "gbsim did not start: $(cat gbsim.err)"

n_dmesg() { dmesg_since_case | grep -cE "$1"; }
n_log() { grep -cE "$1" "$LOG"; }
_more() { [ "$(n_dmesg "$1")" -gt "$2" ]; }
_more_log() { [ "$(n_log "$1")" -gt "$2" ]; }
TMO='1-3.3.1: timed out waiting for next firmware request, firmware released'

# plug a boot ROM in with these settings and product id
plug() {
	echo "$1" >$CFG
	gbsim ctl insert 3 $M/bootrom.mnfs vid=0x1234 pid=$2 >/dev/null || fail "insert failed"
	wait_for 30 test -e $B/bundle_class || fail "no bootrom bundle ($1)"
}
unplug() {
	gbsim ctl remove 3 >/dev/null || fail "remove failed"
	wait_for 30 test ! -e /sys/bus/greybus/devices/1-3 || fail "module 1-3 still there"
}

info "malformed answers to the AP's requests: probe fails cleanly"
gbsim ctl fault add intf=3 type=bootrom.version short=1 >/dev/null
plug "" 0x12
expect_dmesg 'synchronous operation id 0x[0-9a-f]+ of type 0x01 failed: -90' 20
sleep 1
test -e $B/driver && fail "bound after a short version answer"
unplug
gbsim ctl fault add intf=3 type=bootrom.ap_ready result=invalid >/dev/null
plug "" 0x12
expect_dmesg 'synchronous operation id 0x[0-9a-f]+ of type 0x05 failed: -' 20
sleep 1
test -e $B/driver && fail "bound after a refused ap_ready"
grep -q 'bootrom.firmware_size req' "$LOG" && fail "the module downloaded after a failed probe"
unplug

info "missing file"
t=$(n_dmesg "$TMO")
plug "" 0x11
expect_dmesg "1-3.3.1: firmware '${PRE}_00000011_s2l.tftf' not available: -2" 20
wait_for 10 _more_log 'bootrom 3: firmware_size refused' 0 || fail "gbsim's size request was not refused"
# a module idle after the failure: bad requests refused, nothing armed
gbsim ctl request 3:1 bootrom.get_firmware 0102 >/dev/null
expect_dmesg '1-3.3.1: get firmware request of 2 bytes' 10
gbsim ctl request 3:1 bootrom.get_firmware 0000000010000000 >/dev/null
expect_dmesg '1-3.3.1: firmware fetched before its size was asked' 10
gbsim ctl request 3:1 bootrom.ready_to_boot 01 >/dev/null
expect_dmesg '1-3.3.1: ready to boot without a firmware download' 10
gbsim ctl request 3:1 0x42 >/dev/null
expect_dmesg '1-3.3.1: unknown request type 0x42' 10
sleep 3
assert_eq "$(n_dmesg "$TMO")" "$t" "timeouts after a refused size request"
assert_file_eq $B/bundle_class 0x15
unplug

info "wrong stage"
plug "stage=3" 0x12
expect_dmesg '1-3.3.1: firmware for boot stage 3 requested, only stage 2 is served' 20
unplug

info "chunk too large"
t=$(n_dmesg "$TMO")
plug "chunk=2001" 0x12
expect_dmesg '1-3.3.1: firmware chunk of 2001 bytes refused \(at most 2000\)' 20
wait_for 10 _more_log 'get_firmware offset=0 size=2001 refused' 0 || fail "gbsim got no error"
wait_for 15 _more "$TMO" "$t" || fail "no timeout after the refused chunk"
unplug

info "chunk past the end"
t=$(n_dmesg "$TMO")
plug "overrun=1" 0x12
expect_dmesg '1-3.3.1: firmware chunk of 124 bytes at 5000 is beyond the end \(5123 bytes\)' 20
wait_for 15 _more "$TMO" "$t" || fail "no timeout after the chunk past the end"
unplug

info "silent module"
t=$(n_dmesg "$TMO")
plug "stop=2" 0x12
wait_for 20 _more_log 'bootrom 3: going silent after 2 chunks' 0 || fail "gbsim did not go silent"
wait_for 15 _more "$TMO" "$t" || fail "no timeout for the silent module"
unplug

info "invalid image"
plug "status=0" 0x12
expect_dmesg "1-3.3.1: module could not validate firmware '${PRE}_00000012_s2l.tftf'" 20
unplug

info "no reboot"
plug "" 0x12
expect_dmesg "1-3.3.1: firmware '${PRE}_00000012_s2l.tftf' downloaded \(5123 bytes sent\)" 20
expect_dmesg '1-3.3.1: module did not reboot within 2000 ms of READY_TO_BOOT' 15
unplug

info "removal mid-download"
echo 10000 >$P/next_request_ms
done=$(n_dmesg 'module boots it')
plug "chunk=100,delay=200" 0x12
wait_for 30 _more_log 'bootrom.get_firmware req' "$(( $(n_log 'bootrom.get_firmware req') + 3 ))" ||
	fail "download did not start"
gbsim ctl remove 3 >/dev/null || fail "remove failed"
wait_for 30 test ! -e /sys/bus/greybus/devices/1-3 || fail "module 1-3 still there"
expect_dmesg "1-3.3.1: download of '${PRE}_00000012_s2l.tftf' stopped: bundle unbound" 10

info "driver removed mid-download"
s=$(n_dmesg 'stopped: bundle unbound')
plug "chunk=100,delay=200" 0x12
wait_for 30 _more_log 'bootrom.get_firmware req' "$(( $(n_log 'bootrom.get_firmware req') + 3 ))" ||
	fail "download did not start"
rmmod gb_bootrom || fail "rmmod gb_bootrom failed"
wait_for 10 _more 'stopped: bundle unbound' "$s" || fail "no stop message at rmmod"
test -e $B/driver && fail "bundle still bound after rmmod"
unplug
assert_eq "$(n_dmesg 'module boots it')" "$done" "downloads finished"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
rm -f $FILE
unload_all_gb
exit 0
