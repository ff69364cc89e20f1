# Checks gb-bootrom: autoloaded for a bootrom bundle, it serves the module the stage-2 file named from its ids out of /lib/firmware (gbsim downloads it in chunks and logs the same size and CRC-32), and after READY_TO_BOOT the module re-enumerates in its slot as its new identity (product id, bundle class) which gb-firmware then serves, with nothing left behind.
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim gbfw
M=/usr/share/greybus/manifests
I=/sys/bus/greybus/devices/1-3.3
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl
NAME=gmp_00000126_00001002_00001234_00005678_s2l.tftf

mkdir -p /lib/firmware || fail "cannot create /lib/firmware"
head -c 5123 /dev/urandom >/lib/firmware/$NAME
crc=$(crc32 /lib/firmware/$NAME | cut -d' ' -f1)

# gb-bootrom must come by itself, through the bundle's modalias; the
# timer is stretched through modprobe's configuration, which the
# autoloading modprobe reads, so that a slow guest does not look like a
# silent module.
mkdir -p /etc/modprobe.d
echo "options gb_bootrom next_request_ms=10000" >/etc/modprobe.d/gbtest-bootrom.conf
trap 'rm -f /etc/modprobe.d/gbtest-bootrom.conf' EXIT
modinfo -F alias gb-bootrom | grep -qx 'greybus:v\*p\*c15' ||
	fail "gb-bootrom has no class alias: $(modinfo -F alias gb-bootrom)"
load_gb greybus gb-vhd
grep -q '^gb_bootrom ' /proc/modules && fail "gb-bootrom loaded before the module was plugged in"
uev0=$(wc -l </run/gbtest/uevent.log)

GBSIM_BOOTROM="next=$M/firmware.mnfs,pid=0x9abc" \
	gbsim --ctl "$GBSIM_CTL" -l "$LOG" \
	-m 3:$M/bootrom.mnfs,vid=0x1234,pid=0x5678 2>gbsim.err &
pid=$!

_rebooted() { grep -q 'bootrom 3: rebooted as' "$LOG"; }
wait_for 60 _rebooted || fail "no reboot: $(grep -E 'bootrom|ERROR' "$LOG" | tail -5) $(cat gbsim.err)"

# Autoloaded: the bundle's add uevent carried the class modalias, the
# handler's modprobe loaded gb-bootrom (with the option) and it bound
tail -n +$((uev0 + 1)) /run/gbtest/uevent.log >uevents
grep -q ' add /.*/1-3\.3\.1 greybus:v00001234p00005678c15$' uevents ||
	fail "no add uevent with the bootrom modalias: $(grep '1-3\.3\.1 ' uevents | tail -3)"
grep -q '^gb_bootrom ' /proc/modules || fail "gb-bootrom not autoloaded"
assert_file_eq /sys/module/gb_bootrom/parameters/next_request_ms 10000
test -d /sys/bus/greybus/drivers/gb-bootrom || fail "no gb-bootrom driver on the bus"
expect_dmesg "1-3.3.1: firmware '$NAME' requested: 5123 bytes"
expect_dmesg "1-3.3.1: firmware '$NAME' downloaded \(5123 bytes sent\), module boots it \(insecure\)"
grep -q 'bootrom 3: firmware size 5123$' "$LOG" || fail "gbsim did not get the size: $(grep bootrom "$LOG")"
grep -q "bootrom 3: downloaded 5123 bytes crc32 $crc in 6 chunks" "$LOG" ||
	fail "gbsim's download differs from the file (crc32 $crc): $(grep 'bootrom 3: down' "$LOG")"
n=$(grep -c 'bootrom.get_firmware req' "$LOG")
assert_eq "$n" 6 "get_firmware requests"
grep -q 'bootrom.get_firmware req .*offset=5000 size=123' "$LOG" || fail "no last chunk of 123 bytes"
grep -q 'bootrom.ready_to_boot req .*status=1' "$LOG" || fail "no ready_to_boot"

# The new identity, in the same slot
wait_file_eq 30 $I/product_id 0x00009abc || fail "product id did not change"
assert_file_eq $I/vendor_id 0x00001234
wait_file_eq 30 $I.1/bundle_class 0x16 || fail "bundle class did not change"
grep -q 'module 3 rebooting into its new firmware' "$LOG" || fail "gbsim did not unplug the module"
# What it booted is a firmware-management bundle, and gb-firmware serves it
wait_for 30 test -c /dev/gb-fw-mgmt-0 || fail "no /dev/gb-fw-mgmt-0 after the reboot"
assert_eq "$(gbfw intf-version)" "tag=s2loader major=0 minor=1" "firmware after the reboot"
dmesg_since_case | grep -q 'timed out' && fail "a timeout fired: $(dmesg_since_case | grep 'timed out')"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
rm -f /lib/firmware/$NAME /etc/modprobe.d/gbtest-bootrom.conf
unload_all_gb
exit 0
