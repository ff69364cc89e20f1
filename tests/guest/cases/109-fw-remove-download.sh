# Checks gb-firmware removed in the middle of a Firmware Download (gbsim's fetches slowed down): rmmod gb_firmware while the module is fetching (the file still held is released, the devices go), and the module pulled out while gbfw waits for the load (the ioctl ends with ENODEV, the file is released); no hang, no warning, and afterwards a whole download works and every module unloads.
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim gbfw
M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
B=$D/1-3.3.1
DEV=/dev/gb-fw-mgmt-0
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl
NAME=gmp_00000126_00001002_00000001_00000001_s3fw.tftf
FW=/lib/firmware/$NAME
FOUND="1-3\.3\.1: firmware '$NAME' found: id [0-9]+, 4321 bytes"
HELD="1-3\.3\.1: firmware '$NAME' \(id [0-9]+\) still held at removal, released"

mkdir -p /lib/firmware || fail "cannot create /lib/firmware"
head -c 4321 /dev/urandom >$FW
crc=$(crc32 $FW | cut -d' ' -f1)
# gb-firmware comes back only when this case loads it (the uevent
# handler's modprobe applies the blacklist; load_gb does not), and its
# file timer is stretched so that only removal releases the file
mkdir -p /etc/modprobe.d
echo "blacklist gb_firmware" >/etc/modprobe.d/gbtest-fw.conf
echo "options gb_firmware download_timeout_ms=30000" >>/etc/modprobe.d/gbtest-fw.conf
trap 'rm -f /etc/modprobe.d/gbtest-fw.conf' EXIT

load_gb greybus gb-vhd gb-firmware
gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 3:$M/firmware.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -c $DEV || fail "no $DEV: $(cat gbsim.err)"

n_dmesg() { dmesg_since_case | grep -cE "$1"; }
_more() { [ "$(n_dmesg "$1")" -gt "$2" ]; }
_more_log() { [ "$(grep -cE "$1" "$LOG")" -gt "$2" ]; }
# a process has ended (gone, or a zombie nobody reaped yet)
# each of the module's fetches goes out 1 s late (times GB_TSCALE): 5
# chunks, ~5 s for the removal to come in; with 400 ms the sanitizer
# kernel finished the download before rmmod got its turn
slow_fetches() {
	gbsim ctl fault add intf=3 type=fw_download.fetch_firmware dir=send \
		delay=$((1000 * GB_TSCALE)) sticky >/dev/null ||
		fail "fault add"
}
# start a load and wait until the module has found the file and is
# fetching it; sets waiter
start_load() {
	local found fetch
	found=$(n_dmesg "$FOUND")
	fetch=$(grep -c 'fw_download.fetch_firmware req' "$LOG")
	gbfw -t 60000 load s3fw >load.out 2>load.err &
	waiter=$!
	wait_for 30 _more "$FOUND" "$found" || fail "the module did not find the file ($1): $(cat load.err)"
	wait_for 10 _more_log 'fw_download.fetch_firmware req' "$fetch" || fail "no fetch ($1)"
	_more_log "fw-download 3: 's3fw' 4321 bytes" 0 && fail "the download ended before the removal ($1)"
	return 0
}

# 1. rmmod gb_firmware while the module fetches.  gbfw holds the device
#    (and so the module): interrupt it first, the download goes on.
info "rmmod during the download"
slow_fetches
start_load rmmod
kill $waiter
wait_for 10 proc_ended $waiter || fail "gbfw did not end on SIGTERM"
wait $waiter
h=$(n_dmesg "$HELD")
rmmod gb_firmware 2>rmmod.err &
rp=$!
wait_for 15 proc_ended $rp || fail "rmmod gb_firmware hangs"
wait $rp || fail "rmmod gb_firmware failed: $(cat rmmod.err)"
_more "$HELD" "$h" || fail "the held file was not released at removal: $(dmesg_since_case | grep -F "$NAME" | tail -3)"
grep -q '^gb_firmware ' /proc/modules && fail "gb_firmware still loaded"
test -e $B/driver && fail "bundle still bound after rmmod"
test -e $DEV && fail "$DEV still there after rmmod"
test -e /dev/gb-authenticate-0 && fail "/dev/gb-authenticate-0 still there after rmmod"
_module_gave_up() { _more_log "fw-mgmt 3: (connection gone|load [0-9]+ status)" 0; }
wait_for 15 _module_gave_up || fail "gbsim's download did not end: $(grep -E 'fw-(mgmt|download) 3' "$LOG" | tail -3)"
_more_log "fw-download 3: 's3fw' 4321 bytes" 0 && fail "the download completed despite the removal"

# 2. the module pulled out while gbfw waits and the module fetches
info "module removed during the download"
load_gb gb-firmware
wait_for 30 test -c $DEV || fail "no $DEV after reloading gb-firmware"
start_load "module removed"
h=$(n_dmesg "$HELD")
gbsim ctl remove 3 >/dev/null || fail "remove during the download"
wait_for 15 test ! -e $D/1-3 || fail "1-3 still there after removal"
wait_for 15 proc_ended $waiter || fail "gbfw still waiting after the removal"
wait $waiter && fail "the load succeeded after removal"
grep -qi 'no such device' load.err || fail "waiting load: $(cat load.out load.err)"
wait_for 5 _more "$HELD" "$h" || fail "the held file was not released at removal"
test -e $DEV && fail "$DEV still there after removal"
gbsim ctl fault clear >/dev/null

# 3. a whole download afterwards
info "a whole download afterwards"
gbsim ctl insert 3 $M/firmware.mnfs >/dev/null || fail "insert (after)"
wait_for 30 test -c $DEV || fail "no $DEV after re-insertion"
out=$(gbfw -t 20000 load s3fw) || fail "load after the removals failed: $out"
assert_eq "$out" "tag=s3fw status=validated major=1 minor=2" "load after the removals"
grep -q "fw-download 3: 's3fw' 4321 bytes crc32 $crc in 5 chunks" "$LOG" ||
	fail "gbsim's download differs (crc32 $crc): $(grep 'fw-download 3' "$LOG" | tail -3)"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
rm -f $FW /etc/modprobe.d/gbtest-fw.conf
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
unload_all_gb
exit 0
