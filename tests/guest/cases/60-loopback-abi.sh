# Checks gb-loopback's sysfs ABI: the bundle autoloads the driver, gb_loopbackN is a child of the bundle with every attribute of Linux's driver at its mode and default, bad writes are refused, and the raw-latency debugfs file and its link exist; neither it nor the control device has a power/ group.
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh

need_tool gbsim
M=/usr/share/greybus/manifests
B=/sys/bus/greybus/devices/1-2.2.1
load_gb greybus gb-vhd
gbsim -l log -m 2:$M/loopback.mnfs 2>err &
pid=$!

# the uevent handler loads gb-loopback through the bundle's modalias
wait_for 30 test -e $B/driver || fail "no driver bound to 1-2.2.1: $(cat err)"
assert_eq "$(basename "$(readlink $B/driver)")" gb-loopback "driver of 1-2.2.1"
assert_eq "$(sed -n 's/^MODALIAS=//p' $B/uevent)" greybus:v00000001p00000001c11 "bundle modalias"
wait_for 10 test -d /sys/class/gb_loopback || fail "no /sys/class/gb_loopback"
set -- /sys/class/gb_loopback/gb_loopback*
[ $# = 1 ] && [ -d "$1" ] || fail "want one gb_loopback device, have: $*"
LB=$1
N=${LB##*/}
# a child of the bundle, as in Linux
[ -d $B/gb_loopback/$N ] || [ -d $B/$N ] || fail "$N is not below the bundle: $(readlink -f $LB)"
case $(readlink -f $LB) in
*/1-2.2.1/*) ;;
*) fail "$N is not a child of 1-2.2.1: $(readlink -f $LB)" ;;
esac

rw="type size us_wait iteration_max async timeout outstanding_operations_max"
ro="iteration_count error requests_completed requests_timedout timeout_min timeout_max"
for s in latency requests_per_second throughput apbridge_unipro_latency gbphy_firmware_latency; do
	ro="$ro ${s}_min ${s}_max ${s}_avg"
done
n=0
for a in $rw; do
	[ -f $LB/$a ] || fail "no attribute $a"
	assert_eq "$(stat -c %a $LB/$a)" 644 "mode of $a"
	n=$((n + 1))
done
for a in $ro; do
	[ -f $LB/$a ] || fail "no attribute $a"
	assert_eq "$(stat -c %a $LB/$a)" 444 "mode of $a"
	n=$((n + 1))
done
assert_eq $n 28 "number of ABI attributes"

# defaults, before any test
for a in type size us_wait iteration_max async outstanding_operations_max \
	iteration_count error requests_completed requests_timedout \
	latency_min latency_max throughput_max requests_per_second_min; do
	assert_file_eq $LB/$a 0
done
for a in latency_avg throughput_avg requests_per_second_avg \
	apbridge_unipro_latency_avg gbphy_firmware_latency_avg; do
	assert_file_eq $LB/$a 0.000000
done
assert_file_eq $LB/timeout 1000000
# 1 jiffy and 10000 jiffies, in microseconds
tmin=$(cat $LB/timeout_min)
tmax=$(cat $LB/timeout_max)
[ "$tmin" -gt 0 ] && [ "$tmax" = $((tmin * 10000)) ] || fail "timeout_min $tmin, timeout_max $tmax"

# bad writes are refused and change nothing
_refused() {	# ATTR VALUE
	if echo "$2" >$LB/$1 2>/dev/null; then
		fail "$1 accepted '$2'"
	fi
}
_refused type 1
_refused type 5
_refused type -1
_refused type ping
_refused size 2029	# MTU 2048 - 8-byte header - 12-byte transfer header
_refused us_wait 1000001
_refused timeout $((tmin - 1))
_refused timeout $((tmax + 1))
_refused iteration_max -3
assert_file_eq $LB/type 0
assert_file_eq $LB/size 0
echo 2028 >$LB/size || fail "size 2028 refused"
assert_file_eq $LB/size 2028
echo 0 >$LB/size
echo $tmin >$LB/timeout || fail "timeout_min refused as timeout"
echo 1000000 >$LB/timeout
echo 7 >$LB/async && assert_file_eq $LB/async 1
echo 0 >$LB/async
echo 0 >$LB/type || fail "stopping an idle device failed"

# Neither the class device nor the interface's control device has runtime
# PM of its own (the bundle and the interface have): no power/ group, ten
# sysfs nodes less each
[ -e $LB/power ] && fail "$N has a power/ group: $(ls $LB/power | tr '\n' ' ')"
[ -e /sys/bus/greybus/devices/1-2.2.ctrl/power ] &&
	fail "1-2.2.ctrl has a power/ group"
[ -d $B/power ] || fail "the bundle lost its power/ group"

# raw latencies: Linux's name (the bundle's) and loopback_test's (the device's)
D=/sys/kernel/debug/gb_loopback
[ -f $D/raw_latency_1-2.2.1 ] || fail "no $D/raw_latency_1-2.2.1: $(ls $D 2>&1)"
assert_eq "$(stat -c %a $D/raw_latency_1-2.2.1)" 444 "mode of raw_latency_1-2.2.1"
[ -L $D/raw_latency_$N ] || fail "no link $D/raw_latency_$N"
assert_eq "$(readlink $D/raw_latency_$N)" raw_latency_1-2.2.1 "raw_latency_$N link"
cat $D/raw_latency_1-2.2.1 >raw 2>/dev/null && fail "reading an empty raw_latency succeeded: $(cat raw)"

# a module parameter as in Linux
assert_file_eq /sys/module/gb_loopback/parameters/kfifo_depth 8192

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $LB || fail "$N still there after the bridge went away"
[ -e $D/raw_latency_1-2.2.1 ] && fail "raw_latency_1-2.2.1 left after the bundle went away"
unload_all_gb
exit 0
