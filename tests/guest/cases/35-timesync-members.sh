# TimeSync with two interfaces that have the feature (timesync.mnfs at 2 and 3) and one without (loopback.mnfs at 4): after enumeration the state is active, only 2 and 3 are members (debugfs) and only they get Control timesync operations; the FrameTimes read through a ping (debugfs frame_time) agree between the AP, the SVC and both interfaces within 2 ticks of 19.2 MHz (104 ns), ten times over.
# timeout: 120
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/timesync.sh

ts_start -m 2:$M/timesync.mnfs -m 3:$M/timesync.mnfs -m 4:$M/loopback.mnfs
for i in 2 3 4; do
	ts_enabled $i
	# Awake: a hibernated interface sits out the pings
	echo on >$D/1-$i.$i/power/control
done
ts_wait_state 10 active
info "$(cat $TS)"

assert_eq "$(ts_members)" "1-2.2 1-3.3 " "members"
assert_eq "$(ts_field strobe_mask)" "0x0000000c" "strobe mask"
grep -q '^member 1-4.4' $TS && fail "interface 4 (no TimeSync feature) is a member"
gbsim ctl log >log1
grep -q 'intf 4:0 control.timesync' log1 &&
	fail "interface 4 got a TimeSync operation: $(grep 'intf 4:0 control.timesync' log1 | head -n 1)"
grep -q 'intf 2:0 control.timesync_authoritative' log1 || fail "interface 2 got no authoritative"
grep -q 'intf 3:0 control.timesync_authoritative' log1 || fail "interface 3 got no authoritative"
[ "$(ts_series)" -ge 1 ] || fail "gbsim emitted no strobe series"

# FrameTimes at one ping strobe: everybody within TOL ticks of the AP
TOL=2
n=0
while [ $n -lt 10 ]; do
	n=$((n + 1))
	cat $FT >ft || fail "reading frame_time failed: $(dmesg | tail -n 3)"
	[ $n -eq 1 ] && info "frame_time: $(tr '\n' ' ' <ft)"
	grep -q '^1-4.4 ' ft && fail "interface 4 answered a ping"
	awk -v tol=$TOL '
		$1 == "ap" { ap = $2 }
		{ v[$1] = $2 }
		END {
			if (ap == "" || v["svc"] == "" || v["1-2.2"] == "" || v["1-3.3"] == "") {
				print "missing values"; exit 1
			}
			for (k in v) {
				d = v[k] - ap; if (d < 0) d = -d
				if (d > tol) { printf "%s is %d ticks off the AP\n", k, d; exit 1 }
			}
		}' ft >why || fail "ping $n: $(cat why): $(tr '\n' ' ' <ft)"
done
ts_wait_state 5 active
assert_eq "$(ts_field failures)" 0 "failed runs"

# FrameTime moves on at 19.2 MHz between two pings
a=$(sed -n 's/^ap //p' $FT)
sleep 1
b=$(sed -n 's/^ap //p' $FT)
d=$(( (b - a) / 192000 ))
[ $d -ge 100 ] && [ $d -le 400 ] || fail "AP FrameTime advanced $((b - a)) ticks over ~1 s"

kill -TERM $pid
wait $pid
unload_all_gb
