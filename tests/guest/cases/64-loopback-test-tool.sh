# Checks that Linux's own loopback_test (built by the harness from the linux-source package) finds our gb_loopback device and runs ping and transfer tests, sync and async, printing its results.
# timeout: 120
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh

need_tool gbsim loopback_test
M=/usr/share/greybus/manifests
load_gb greybus gb-vhd gb-loopback
gbsim -m 2:$M/loopback.mnfs 2>err &
pid=$!
wait_for 30 test -e /sys/class/gb_loopback/gb_loopback0 || fail "no gb_loopback0: $(cat err)"
lb_patient /sys/class/gb_loopback/gb_loopback0

loopback_test -l >out 2>&1 || fail "loopback_test -l failed: $(cat out)"
grep -qx 'device\[0\] = gb_loopback0' out || fail "loopback_test does not list gb_loopback0: $(cat out)"

# lt NAME ARGS...: run loopback_test in porcelain mode; check its report
lt() {
	local name=$1 want
	shift
	/usr/bin/loopback_test "$@" -p -O 60 >out 2>&1 || fail "loopback_test $*: exit $?: $(cat out)"
	cat out
	grep -q 'Error running test' out && fail "loopback_test $*: $(cat out)"
	grep -q "test:[[:space:]]*$name\$" out || fail "loopback_test $*: no 'test: $name' line"
	grep -q 'path:[[:space:]]*gb_loopback0$' out || fail "loopback_test $*: no 'path: gb_loopback0' line"
	grep -q 'errors:[[:space:]]*0$' out || fail "loopback_test $*: errors reported"
	grep -q 'requests per-sec:[[:space:]]*min=[1-9][0-9]*, max=[1-9]' out || fail "loopback_test $*: no requests per second"
	grep -q 'ap-latency usec:[[:space:]]*min=[0-9]* max=[1-9]' out || fail "loopback_test $*: no latency"
}

lt ping -t ping -i 100
assert_file_eq /sys/class/gb_loopback/gb_loopback0/iteration_count 100
lt transfer -t transfer -s 128 -i 100
assert_file_eq /sys/class/gb_loopback/gb_loopback0/iteration_count 100
grep -q 'gbphy-latency usec:' out || fail "no gbphy-latency line"
lt transfer -t transfer -s 512 -i 200 -x -c 8 -o $(lb_patient_us /sys/class/gb_loopback/gb_loopback0)
grep -q 'async:[[:space:]]*Enabled' out || fail "async run not reported as async"
lt ping -t ping -i 50 -x -c 32 -o $(lb_patient_us /sys/class/gb_loopback/gb_loopback0)
# the CSV form, as the tool's README shows it
/usr/bin/loopback_test -t transfer -s 64 -i 20 -O 60 >csv 2>&1 || fail "loopback_test CSV run failed: $(cat csv)"
cat csv
grep -Eq '^[0-9]+-[0-9]+-[0-9]+ [0-9:]+,transfer,gb_loopback0,64,20,0,' csv || fail "no CSV line: $(cat csv)"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
unload_all_gb
exit 0
