# Checks the character devices of a bundle that goes while they are open (/dev/gb/raw0, /dev/gb-fw-mgmt-0, /dev/gb-authenticate-0): after the module's removal, read, write, ioctl and poll each get the errno or events that say the device is gone (devgone prints them), close succeeds, the node and its minor are freed (the next insertion gets the same numbers), gb-raw and gb-firmware unload once the files are closed, and over ten rounds no kmalloc cache grows by one object a round; slub_debug poisons freed objects, so a use after free or a double free shows in the kernel log, and records who allocated each object, so the objects in use are counted exactly and a leak names its call site.
# timeout: 240
# cmdline: slub_debug=FZPU,kmalloc-*
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hardening.sh

need_tool gbsim devgone
M=/usr/share/greybus/manifests
RAW=/dev/gb/raw0
FWM=/dev/gb-fw-mgmt-0
CAP=/dev/gb-authenticate-0
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl
ROUNDS=10

load_gb greybus gb-vhd
gbsim --ctl "$GBSIM_CTL" -l "$LOG" 2>gbsim.err &
pid=$!
wait_for 30 gbsim ctl status >/dev/null 2>&1 || fail "gbsim ctl not answering: $(cat gbsim.err)"

plug() {
	gbsim ctl insert 2 $M/raw.mnfs >/dev/null || fail "insert 2 ($1)"
	gbsim ctl insert 3 $M/firmware.mnfs >/dev/null || fail "insert 3 ($1)"
	for n in $RAW $FWM $CAP; do
		wait_for 30 test -c $n ||
			fail "no $n ($1): $(ls /dev/gb /dev | grep gb | tr '\n' ' ')"
	done
}

# The same descriptors on live devices: the errors below come from the
# removal, not from the driver
plug "live"
: >go
devgone $RAW r.ready go >live.raw || fail "devgone on live $RAW"
devgone $FWM f.ready go fw-intf >live.fwm || fail "devgone on live $FWM"
devgone $CAP c.ready go cap-uid >live.cap || fail "devgone on live $CAP"
# gbsim's echo of the byte written may be queued by the time of the poll
case "$(tr '\n' ' ' <live.raw)" in
"read EAGAIN write 1 ioctl ENOTTY poll OUT close ok " | \
"read EAGAIN write 1 ioctl ENOTTY poll IN,OUT close ok ") ;;
*) fail "live $RAW: $(tr '\n' ' ' <live.raw)" ;;
esac
assert_eq "$(tr '\n' ' ' <live.fwm)" "read EINVAL write EINVAL ioctl 0 poll IN,OUT close ok " "live $FWM"
assert_eq "$(tr '\n' ' ' <live.cap)" "read EINVAL write EINVAL ioctl 0 poll IN,OUT close ok " "live $CAP"
grep -q 'raw echo 1 bytes' "$LOG" || fail "the live write did not reach gbsim"
unplug() {
	gbsim ctl remove 2 >/dev/null || fail "remove 2 ($1)"
	gbsim ctl remove 3 >/dev/null || fail "remove 3 ($1)"
	for n in $RAW $FWM $CAP; do
		wait_for 10 test ! -e $n || fail "$n still there ($1)"
	done
}
unplug live

# One round: the three devices held open, the modules removed, then
# every operation on the stale descriptors
round() {
	local r=$1 p1 p2 p3
	plug "round $r"
	rm -f go ./*.ready
	devgone $RAW r.ready go >raw.$r 2>raw.err &
	p1=$!
	devgone $FWM f.ready go fw-intf >fwm.$r 2>fwm.err &
	p2=$!
	devgone $CAP c.ready go cap-uid >cap.$r 2>cap.err &
	p3=$!
	wait_for 10 test -e r.ready -a -e f.ready -a -e c.ready ||
		fail "devgone did not open all three (round $r): $(cat ./*.err)"
	unplug "round $r"
	: >go
	wait $p1 || fail "devgone $RAW: $(cat raw.err)"
	wait $p2 || fail "devgone $FWM: $(cat fwm.err)"
	wait $p3 || fail "devgone $CAP: $(cat cap.err)"
	assert_eq "$(tr '\n' ' ' <raw.$r)" "read ENODEV write ENODEV ioctl ENOTTY poll ERR,HUP close ok " "$RAW gone (round $r)"
	# No read, write or poll of their own: the VFS answers as it did live
	assert_eq "$(tr '\n' ' ' <fwm.$r)" "read EINVAL write EINVAL ioctl ENODEV poll IN,OUT close ok " "$FWM gone (round $r)"
	assert_eq "$(tr '\n' ' ' <cap.$r)" "read EINVAL write EINVAL ioctl ENODEV poll IN,OUT close ok " "$CAP gone (round $r)"
	# Every file closed: nothing holds the drivers
	uevent_settle 30
	rmmod gb_raw || fail "gb_raw does not unload (round $r)"
	rmmod gb_firmware || fail "gb_firmware does not unload (round $r)"
	test -e /sys/class/gb_raw || test -e /sys/class/gb_fw_mgmt &&
		fail "a class left behind (round $r)"
	return 0
}

round 0
# Before mem_snapshot: the sysfs files it writes leave kmalloc-96
# objects that RCU frees later (kernfs_fop_open, 50-90 seen on a loaded
# host), which kmalloc_sites would count.  Its own files are in debugfs.
uevent_settle 30
kmalloc_sites before.sites
mem_snapshot before
r=1
while [ $r -le $ROUNDS ]; do
	round $r
	r=$((r + 1))
done
# One object kept a round is ROUNDS objects in some kmalloc cache.  With
# slub_debug's U the objects in use are counted exactly (kmalloc_sites):
# no slab a CPU holds adds to them, so ROUNDS objects is the limit for
# every cache, whatever its slab size.  Without it (no debugfs) the
# active objects of kmalloc_snapshot, which a CPU's slab can inflate.
_grown() {
	uevent_settle 30
	if [ -s before.sites ]; then
		kmalloc_sites after.sites
		kmalloc_sites_grown before.sites after.sites $ROUNDS >grown
	else
		mem_snapshot after
		awk -v n=$ROUNDS 'NR == FNR { b[$1] = $2; next }
			($1 in b) && $2 - b[$1] >= n { print $1, b[$1], "->", $2 }' before.slab after.slab >grown
	fi
	[ -s grown ]
}
# Objects freed late (deferred work, RCU) are gone after a few more
# looks, kept ones are not.  The looks are counted, not timed: a guest
# starved by a busy host has its clock run on while it does no work.
if _grown; then
	info "grown: $(cat grown); looking again"
	tries=1
	while _grown; do
		[ $tries -lt 10 ] ||
			fail "kmalloc caches grew by $ROUNDS objects or more in $ROUNDS rounds: $(cat grown)"
		tries=$((tries + 1))
		sleep 1
	done
	info "gone at look $tries"
fi
if [ -s before.sites ]; then
	info "objects more in use after $ROUNDS rounds: $(kmalloc_sites_grown before.sites after.sites 1 | tr '\n' ';')"
	mem_snapshot after
fi
info "$ROUNDS rounds: $(mem_report before after)"
mem_check before after $ROUNDS
dmesg_since_case | grep -E 'Poison overwritten|Object already free|Redzone|Freepointer' &&
	fail "slub_debug found corruption"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
exit 0
