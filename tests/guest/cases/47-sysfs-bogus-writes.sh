# Checks that junk written to every writable attribute under /sys/bus/greybus/devices (test module enumerated, its driver bound) fails with EINVAL, or the driver core's documented error, and changes nothing: no attribute, no message, no uevent.
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol
D=/sys/bus/greybus/devices

cp /usr/share/greybus/manifests/test-vendor.mnfs test.mnfs
gbsim -l log -m 4:test.mnfs >out 2>err &
pid=$!
wait_for 10 test -e $D/1-4.4.1/test_result || fail "test driver did not bind: $(cat err)"
wait_file_eq 5 $D/1-4.4.1/test_result ok || fail "test driver's probe failed"
# Kept awake: runtime-PM traffic would change the snapshots below
echo on >$D/1-4.4/power/control
echo on >$D/1-4.4.1/power/control
uevent_settle

# The junk, by name
huge=$(head -c 5000 /dev/zero | tr '\0' x)
junk_value() {
	case $1 in
	empty)	printf '' ;;
	x)	printf x ;;
	minus1)	printf -- -1 ;;
	big)	printf 99999999999 ;;
	two)	printf 2 ;;
	huge)	printf %s "$huge" ;;
	esac
}
JUNK="empty x minus1 big two huge"

# want_error ATTR JUNK-NAME PATH: the error a write must fail with, or
# "skip" when the attribute's documented semantics give the value a meaning.
want_error() {
	case $1 in
	uevent)
		# Driver core (ABI testing/sysfs-uevent): only action names
		echo EINVAL ;;
	power/control)
		# PM core: only "auto" and "on"
		echo EINVAL ;;
	power/async)
		# PM core: only "enabled" and "disabled"
		echo EINVAL ;;
	power/autosuspend_delay_ms)
		# PM core (ABI testing/sysfs-devices-power): a device that
		# does not use autosuspend refuses every write with EIO; one
		# that does (bound bundles, interfaces: docs/power.md) takes
		# any int, negative ones included, and refuses the rest
		if ! cat "$3" >/dev/null 2>&1; then
			echo EIO
		elif [ "$2" = two ] || [ "$2" = minus1 ]; then
			echo skip
		else
			echo EINVAL
		fi ;;
	intf_eject)
		# docs/sysfs-bus-greybus: any number 0..255 is an interface
		# id to eject, "2" included; the rest is EINVAL
		[ "$2" = two ] && echo skip || echo EINVAL ;;
	eject)
		# docs/sysfs-bus-greybus: exactly 0 or 1; the rest is EINVAL
		echo EINVAL ;;
	state)
		# docs/sysfs-bus-greybus: free text; only control characters
		# other than tab are refused (checked on their own below)
		echo skip ;;
	test_ping)
		# gb-test-protocol: only "1" starts a ping
		echo EINVAL ;;
	*)
		# Anything new must refuse junk too (or get an entry here)
		echo EINVAL ;;
	esac
}

errno_text() {
	case $1 in
	EINVAL)	echo "Invalid argument" ;;
	EIO)	echo "Input/output error" ;;
	esac
}

# Every attribute file of every device: the device's own files and those
# of its attribute groups (subdirectories without a uevent, like power/);
# never through the driver/subsystem links or into child devices.
: >attrs
for d in $D/*; do
	real=$(readlink -f "$d")
	for e in "$real"/*; do
		[ -L "$e" ] && continue
		if [ -f "$e" ]; then
			echo "$(basename "$d") $(basename "$e") $e" >>attrs
		elif [ -d "$e" ] && [ ! -e "$e/uevent" ]; then
			for g in "$e"/*; do
				[ -L "$g" ] || [ ! -f "$g" ] ||
					echo "$(basename "$d") $(basename "$e")/$(basename "$g") $g" >>attrs
			done
		fi
	done
done

# What must not change: every readable attribute (but the PM core's time
# counters), the connections, the uevent count, gbsim's message log.
snapshot() {
	local dev attr path mode
	while read -r dev attr path; do
		mode=$(stat -c %a "$path")
		[ $(( 0$mode & 0444 )) = 0 ] && continue
		# pwrmon reads are SVC requests by design (gbsim logs them)
		case $attr in power/runtime_*_time | *_now) continue ;; esac
		echo "$dev/$attr=$(cat "$path" 2>&1)"
	done <attrs
	echo "devices: $(ls $D | tr '\n' ' ')"
	cat /sys/kernel/debug/greybus/greybus1/connections
	echo "uevent_seqnum $(cat /sys/kernel/uevent_seqnum)"
	echo "gbsim log lines $(wc -l <log)"
}
# The SVC watchdog's pings would change the counters: off, and the one
# in flight (2 s timeout at most) done
echo 0 >$D/1-svc/watchdog || fail "1-svc/watchdog <- 0 refused"
sleep 2.5
snapshot >before

writable=0 tried=0 skipped=0
: >results
while read -r dev attr path; do
	mode=$(stat -c %a "$path")
	[ $(( 0$mode & 0222 )) = 0 ] && continue
	writable=$((writable + 1))
	for j in $JUNK; do
		want=$(want_error "$attr" $j "$path")
		if [ "$want" = skip ]; then
			skipped=$((skipped + 1))
			continue
		fi
		tried=$((tried + 1))
		if { echo "$(junk_value $j)" >"$path"; } 2>write.err; then
			echo "$dev/$attr <- $j: accepted (want $want)" >>results
		elif ! grep -q "$(errno_text $want)" write.err; then
			echo "$dev/$attr <- $j: $(cat write.err) (want $want)" >>results
		fi
	done
done <attrs
info "$writable writable attributes: $(while read -r dev attr path; do
	[ $(( 0$(stat -c %a "$path") & 0222 )) = 0 ] || printf '%s ' "$dev/$attr"; done <attrs)"
info "$tried junk writes, $skipped left out as meaningful"
[ "$writable" -ge 10 ] || fail "only $writable writable attributes found: $(cat attrs)"
grep -q '1-svc intf_eject' attrs || fail "1-svc/intf_eject not found"
grep -q '1-4 eject' attrs || fail "1-4/eject not found"
grep -q '1-4.4.1 state' attrs || fail "1-4.4.1/state not found"
grep -q '1-4.4.1 test_ping' attrs || fail "1-4.4.1/test_ping not found"

# check_unchanged BEFORE: the snapshot now is still BEFORE
check_unchanged() {
	snapshot >after
	if ! cmp -s "$1" after; then
		diff "$1" after
		fail "junk writes changed something"
	fi
}
check_unchanged before

# The bundle state refuses control characters and keeps its text
printf 'kept' >$D/1-4.4.1/state || fail "writing a plain state failed"
snapshot >before2
for s in '\001' 'a\nb' '\033[2J' '\177' 'cr\r' 'nul\000x'; do
	tried=$((tried + 1))
	# cat reports the write's error (busybox printf does not)
	printf "$s" >junk.bin
	if cat junk.bin >$D/1-4.4.1/state 2>write.err; then
		echo "1-4.4.1/state <- '$s': accepted (want EINVAL)" >>results
	elif ! grep -q "Invalid argument" write.err; then
		echo "1-4.4.1/state <- '$s': $(cat write.err) (want EINVAL)" >>results
	fi
done
assert_file_eq $D/1-4.4.1/state kept

if [ -s results ]; then
	cat results
	fail "$(wc -l <results) junk writes not refused as they should be: $(head -n 1 results)"
fi

check_unchanged before2
expect_dmesg 'uevent: failed to send synthetic uevent'

# The module still works
echo 1 >$D/1-4.4.1/test_ping || fail "test_ping 1 failed after the junk"
assert_file_eq $D/1-4.4.1/test_result ok

kill -TERM "$pid"
wait "$pid"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
unload_all_gb
exit 0
