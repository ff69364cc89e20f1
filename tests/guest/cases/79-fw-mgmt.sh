# Checks gb-firmware through /dev/gb-fw-mgmt-N and tools/gbfw: autoloaded for a firmware-management bundle; interface and backend firmware versions; load-and-validate and backend update, each downloaded by the module over Firmware Download from /lib/firmware (gbsim logs the same size and CRC-32); missing files, bad requests from the module, a held file timing out, an event that never comes (ioctl timeout), an unexpected event, malformed answers, component authentication through /dev/gb-authenticate-N (UID, certificates, a signed challenge, refusals), and removal while an ioctl waits.
# timeout: 180
. /usr/lib/gbtest/lib.sh

need_tool gbsim gbfw
M=/usr/share/greybus/manifests
D=/dev/gb-fw-mgmt-0
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl
PRE=/lib/firmware/gmp_00000126_00001002_00000001_00000001
FW=${PRE}_s3fw.tftf
BK=${PRE}_backend.tftf

mkdir -p /lib/firmware || fail "cannot create /lib/firmware"
head -c 4321 /dev/urandom >$FW
head -c 2500 /dev/urandom >$BK
rm -f ${PRE}_nofile.tftf ${PRE}_nobk.tftf
fwcrc=$(crc32 $FW | cut -d' ' -f1)
bkcrc=$(crc32 $BK | cut -d' ' -f1)

load_gb greybus gb-vhd
gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 3:$M/firmware.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -c $D || fail "no $D: $(ls /dev | grep gb) $(cat gbsim.err)"
test -e /sys/class/gb_fw_mgmt/gb-fw-mgmt-0 || fail "no gb-fw-mgmt-0 in class gb_fw_mgmt"
grep -q '^gb_firmware ' /proc/modules || fail "gb-firmware not autoloaded"
# A slow guest must not look like a module that forgot its file
echo 10000 >/sys/module/gb_firmware/parameters/download_timeout_ms

assert_eq "$(gbfw intf-version)" "tag=s2loader major=0 minor=1" "interface firmware"
grep -q 'fw_mgmt.interface_fw_version req' "$LOG" || fail "gbsim saw no interface_fw_version"
assert_eq "$(gbfw backend-version backend)" "tag=backend status=success major=3 minor=4" "backend version"
assert_eq "$(gbfw backend-version other)" "tag=other status=not-available major=0 minor=0" "unknown backend"

# load and validate: the module downloads the file
out=$(gbfw -t 20000 load s3fw) || fail "load failed: $out"
assert_eq "$out" "tag=s3fw status=validated major=1 minor=2" "load result"
grep -q "fw-download 3: 's3fw' 4321 bytes crc32 $fwcrc in 5 chunks" "$LOG" ||
	fail "gbsim's download differs (crc32 $fwcrc): $(grep 'fw-download' "$LOG")"
expect_dmesg "1-3.3.1: firmware 'gmp_00000126_00001002_00000001_00000001_s3fw.tftf' found: id [0-9]+, 4321 bytes"
expect_dmesg "1-3.3.1: firmware 'gmp_00000126_00001002_00000001_00000001_s3fw.tftf' \(id [0-9]+\) released"
expect_dmesg "gb-fw-mgmt-0: interface firmware 's3fw' 1.2 loaded \(validated\)"
grep -q 'fw_mgmt.loaded_fw req .*status=2' "$LOG" || fail "no loaded_fw event"
assert_eq "$(gbfw intf-version)" "tag=s2loader major=1 minor=2" "interface firmware after the load"

out=$(gbfw -t 20000 load nofile) || fail "load of a missing file failed: $out"
assert_eq "$out" "tag=nofile status=failed major=1 minor=2" "load of a missing file"
expect_dmesg "1-3.3.1: firmware 'gmp_00000126_00001002_00000001_00000001_nofile.tftf' not available: -2"
expect_dmesg "gb-fw-mgmt-0: interface firmware 'nofile' failed to load"
gbfw load s3fw internal 2>err && fail "a load method the module refuses succeeded"
# a tag that is no plain file name never reaches the firmware loader, even
# with a file at the path it names
mkdir -p /lib/firmware/sub
cp /lib/firmware/gmp_00000126_00001002_00000001_00000001_s3fw.tftf /lib/firmware/sub/x.tftf
for tag in ../s3fw 'sub/x' 's3fw.x' 's 3'; do
	out=$(gbfw -t 20000 load "$tag") || fail "load of '$tag' failed: $out"
	assert_eq "$out" "tag=$tag status=failed major=1 minor=2" "load of '$tag'"
	expect_dmesg "1-3.3.1: firmware tag '$(echo "$tag" | sed 's/\./\\./g')' refused: only letters, digits, '_' and '-' may name a file"
done
dmesg | grep -E "firmware 'gmp_[^']*(\.\./|sub/|s3fw\.x|s 3)" && fail "a refused tag reached request_firmware"
rm -r /lib/firmware/sub

# backend update
out=$(gbfw -t 20000 update backend) || fail "update failed: $out"
assert_eq "$out" "tag=backend status=success" "backend update"
grep -q "fw-download 3: 'backend' 2500 bytes crc32 $bkcrc in 3 chunks" "$LOG" ||
	fail "gbsim's backend download differs: $(grep 'fw-download' "$LOG")"
expect_dmesg "gb-fw-mgmt-0: backend firmware 'backend' updated"
assert_eq "$(gbfw -t 20000 update nobk)" "tag=nobk status=fail-find" "update without a file"
gbfw mode-switch 2>err && fail "mode switch succeeded"
grep -q 'not supported' err || fail "mode switch: $(cat err)"
gbfw load abcdefghij 2>/dev/null; assert_eq $? 2 "gbfw with a 10-character tag"

# component authentication: /dev/gb-authenticate-0
test -c /dev/gb-authenticate-0 || fail "no /dev/gb-authenticate-0"
test -e /sys/class/gb_authenticate/gb-authenticate-0 || fail "no gb-authenticate-0 in class gb_authenticate"
assert_eq "$(gbfw uid)" "uid=030000004d534247" "endpoint uid (the serial number)"
assert_eq "$(gbfw cert 1 1)" "result=0 size=13 certificate=474253494d2d494d532d312d31" "IMS certificate"
assert_eq "$(gbfw cert 7 1)" "result=1 size=0 certificate=" "certificate of a bad class"
assert_eq "$(gbfw cert 2 5)" "result=3 size=0 certificate=" "missing certificate"
z28=00000000000000000000000000000000000000000000000000000000
a5=a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5
assert_eq "$(gbfw auth 1 030000004d534247 00112233)" \
	"result=0 response=00112233$z28$a5 signature=474253494d2d534947" "authentication"
gbfw auth 1 0000000000000000 00 | grep -q '^result=2 ' || fail "wrong endpoint not refused"
gbfw auth 9 030000004d534247 00 | grep -q '^result=1 ' || fail "bad type not refused"
grep -q 'cap 3: authenticate type 1: result 0' "$LOG" || fail "gbsim saw no authentication"

# malformed answers: the ioctl fails, the device stays usable
gbsim ctl fault add intf=3 type=fw_mgmt.interface_fw_version short=4 >/dev/null
gbfw intf-version 2>err && fail "a short version answer succeeded"
grep -qi 'message too long' err || fail "short version answer: $(cat err)"
gbsim ctl fault add intf=3 type=cap.authenticate short=10 >/dev/null
gbfw auth 1 030000004d534247 00 2>err && fail "a short authenticate answer succeeded"
expect_dmesg 'gb-authenticate-0: response to 0x03 of 10 bytes, at least 65 expected'
assert_eq "$(gbfw intf-version)" "tag=s2loader major=1 minor=2" "usable after malformed answers"

# bad requests from the module
gbsim ctl request 3:2 fw_download.fetch_firmware 09 >/dev/null
expect_dmesg '1-3.3.1: fetch firmware request of 1 bytes'
gbsim ctl request 3:2 fw_download.fetch_firmware 2a0000000010000000 >/dev/null
expect_dmesg '1-3.3.1: fetch of unknown firmware id 42'
gbsim ctl request 3:2 fw_download.find_firmware 61616161616161616161 >/dev/null
expect_dmesg '1-3.3.1: firmware tag empty or not NUL-terminated'
gbsim ctl request 3:1 fw_mgmt.loaded_fw 070200010002 >/dev/null
expect_dmesg 'gb-fw-mgmt-0: loaded firmware event for request 7, which nobody awaits'
gbsim ctl request 3:1 fw_mgmt.backend_fw_updated 0109 >/dev/null
expect_dmesg 'gb-fw-mgmt-0: backend updated with unknown status 9'

# a file found and never released: freed by its timer
echo 1500 >/sys/module/gb_firmware/parameters/download_timeout_ms
gbsim ctl request 3:2 fw_download.find_firmware 73336677000000000000 >/dev/null
expect_dmesg "1-3.3.1: firmware 'gmp_00000126_00001002_00000001_00000001_s3fw.tftf' \(id [0-9]+\) not asked for in 1500 ms, released" 15
echo 10000 >/sys/module/gb_firmware/parameters/download_timeout_ms

# the module never sends its event: the ioctl times out
gbsim ctl fault add intf=3 type=fw_mgmt.loaded_fw dir=send drop >/dev/null
gbfw -t 1500 load s3fw 2>err && fail "a load without event succeeded"
grep -qi 'timed out' err || fail "load without event: $(cat err)"
expect_dmesg 'gb-fw-mgmt-0: timed out after 1500 ms waiting for the interface firmware to load'
assert_eq "$(gbfw intf-version)" "tag=s2loader major=1 minor=2" "usable after a timeout"

# removal while an ioctl waits for the event
gbsim ctl fault add intf=3 type=fw_mgmt.loaded_fw dir=send drop sticky >/dev/null
n=$(grep -c 'fw-mgmt 3: load [0-9]* status' "$LOG")
gbfw -t 60000 load s3fw >out 2>err &
waiter=$!
_loading() { [ "$(grep -c 'fw-mgmt 3: load [0-9]* status' "$LOG")" -gt "$n" ]; }
wait_for 30 _loading || fail "the module did not finish its download"
kill -0 $waiter 2>/dev/null || fail "the ioctl did not wait: $(cat out err)"
gbsim ctl remove 3 >/dev/null || fail "remove failed"
wait_for 30 test ! -e $D || fail "$D still there after removal"
wait $waiter && fail "the waiting load succeeded after removal"
grep -qi 'no such device' err || fail "waiting load: $(cat err)"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
rm -f $FW $BK
unload_all_gb
exit 0
