# Checks monitor readers racing host-device removal: a blocked reader of the per-host file gets end of file, one that never read gets EIO once the file is gone, then closes, readers opening in a loop meanwhile do no harm, the all-hosts reader carries on across three hosts, and greybus.ko cannot be unloaded while a reader is open.
# timeout: 240
# transport: vhd
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/monitor.sh

need_tool gbsim
M=/usr/share/greybus/manifests
load_gb greybus gb-vhd
exec 6<$MON

for i in 1 2 3; do
	gbsim -l log$i -m 2:$M/audio.mnfs 2>err$i &
	pid=$!
	# the bus id of a host freed late may not come back at once
	wait_for 30 sh -c 'ls /sys/bus/greybus/devices | grep -q "^[0-9]*-2\.2\.1$"' ||
		fail "round $i: bundle N-2.2.1 did not appear: $(cat err$i)"
	n=$(ls /sys/bus/greybus/devices | sed -n 's/^\([0-9]*\)-2\.2\.1$/\1/p')
	wait_for 10 test -e /sys/bus/greybus/devices/$n-2.2.1/bundle_class ||
		fail "round $i: $n-2.2.1 has no bundle_class"
	F=/sys/kernel/debug/greybus/greybus$n/monitor
	monread $F >blocked$i 2>&1 &
	rpid=$!
	wait_for 10 held_open $F || fail "round $i: the blocked reader did not open $F"
	exec 5<$F
	# Readers opening and closing while the host goes
	( while :; do monread -n $F >/dev/null 2>&1; done ) &
	lpid=$!

	kill $pid
	wait $pid
	wait_for 30 test ! -e /sys/bus/greybus/devices/greybus$n ||
		fail "round $i: greybus$n stayed"
	wait_for 30 sh -c "! kill -0 $rpid 2>/dev/null" ||
		fail "round $i: the blocked reader did not end"
	kill $lpid
	wait $lpid 2>/dev/null
	grep -q '^end records=[0-9]* lost=0$' blocked$i ||
		fail "round $i: blocked reader: $(tail -n 2 blocked$i)"
	[ -e $F ] && fail "round $i: $F is still there"

	# Once the file is removed debugfs fails whatever comes but close()
	monread -n <&5 >stalled$i && fail "round $i: stalled reader read after removal: $(tail -n 2 stalled$i)"
	grep -q '^error Input/output error$' stalled$i ||
		fail "round $i: stalled reader: $(tail -n 2 stalled$i)"
	exec 5<&-
	info "round $i: blocked reader $(tail -n 1 blocked$i)"
done

# The all-hosts reader saw three SVC hellos, one per host
monread -n <&6 >all || fail "all-hosts reader: $(tail -n 2 all)"
assert_eq "$(mon_count all '^msg in req bus=[0-9]+ hd=0 .* proto=0x14 .* type=0x02 ')" 3 "SVC hellos seen"

# An open reader pins greybus.ko: with every user that could go gone
# (gb-vhd, the audio drivers uevents loaded) it stays, held by nobody
# but the reader; closed, it goes
uevent_settle 60 || fail "uevent handler behind"
_gb_unload_all 5 >/dev/null && fail "greybus unloaded under an open monitor reader"
if [ -z "$(ls /sys/module/greybus/holders)" ]; then
	[ "$(cat /sys/module/greybus/refcnt)" -ge 1 ] ||
		fail "greybus is not pinned by the open reader"
	rmmod greybus 2>/dev/null && fail "greybus unloaded under an open monitor reader"
else
	info "greybus held by $(ls /sys/module/greybus/holders | tr '\n' ' ')too"
fi
exec 6<&-
unload_all_gb
grep -q '^greybus ' /proc/modules && fail "greybus still loaded"
exit 0
