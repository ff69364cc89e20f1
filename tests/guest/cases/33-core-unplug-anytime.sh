# Checks that closing the bridge at any point of enumeration (and probe) removes the whole tree with no kernel warning, and that the modules unload afterwards.
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol

cat >test.mnfs <<'EOF'
[manifest-header]
version-major = 0
version-minor = 1

[interface-descriptor]
vendor-string-id = 1
product-string-id = 2

[string-descriptor 1]
string = Greybus Test

[string-descriptor 2]
string = Test Protocol

[bundle-descriptor 1]
class = 0xff

[cport-descriptor 1]
bundle = 1
protocol = 0xff

[bundle-descriptor 2]
class = 0xff

[cport-descriptor 2]
bundle = 2
protocol = 0xff
EOF

D=/sys/bus/greybus/devices
bus_empty() {
	[ -z "$(ls $D)" ]
}
i=0
while [ $i -lt 40 ]; do
	gbsim -m 2:test.mnfs -m 5:test.mnfs,intfs=2 >/dev/null 2>&1 &
	pid=$!
	# From "before hello" to "well after probe", in 5 ms steps
	d=$(( (i * 7) % 40 ))
	usleep $(( d * 5000 ))
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	wait_for 10 bus_empty || fail "round $i (after ${d}x5 ms): left $(ls $D | tr '\n' ' ')"
	i=$((i + 1))
done
[ -z "$(ls /sys/kernel/debug/greybus | grep -vx -e gb-test-protocol -e monitor)" ] ||
	fail "debugfs left: $(ls /sys/kernel/debug/greybus)"
unload_all_gb
exit 0
