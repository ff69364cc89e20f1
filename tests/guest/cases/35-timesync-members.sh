# TimeSync with two interfaces that have the feature (timesync.mnfs at 2 and 3) and one without (loopback.mnfs at 4): after enumeration the state is active, only 2 and 3 are members (debugfs) and only they get Control timesync operations; the FrameTimes read through a ping (debugfs frame_time) agree between the AP, the SVC and both interfaces within 2 ticks of 19.2 MHz (104 ns), ten times over; debugfs shows the SVC's strobe FrameTimes (the series gbsim logged, strobe k at least k ms after the first) and each member synced with its ping offset.
# transport: vhd
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

# What debugfs shows of the last run: the strobes' FrameTimes are the
# SVC's (the first one on the frame_time gbsim announced for its last
# series), strobe k at least k ms (19200 ticks) after it, latched by the
# AP in order; every member synced, its offset at the last ping within TOL
gbsim ctl log >log2
ft0=$(sed -n 's/.*timesync series [0-9]*: .*frame_time \([0-9]*\),.*/\1/p' log2 | tail -n 1)
assert_eq "$(ts_field initial_frame_time)" "$ft0" "initial_frame_time against gbsim's last series"
sed -n 's/^strobe \([0-9]\): ap_ns \([0-9]*\) svc \([0-9]*\)$/\1 \2 \3/p' $TS >strobes
awk -v ft0="$ft0" '
	{ n++ }
	$1 == 0 && $3 != ft0 { print "strobe 0 at " $3 ", not " ft0; exit 1 }
	$1 == 0 { svc0 = $3 }
	n > 1 {
		# strobe k no sooner than k ms after strobe 0 (gbsim waits
		# for that moment: a late strobe makes the next one close),
		# and within a second
		if ($2 <= ap || $3 <= svc || $3 - svc0 < $1 * 19200 ||
		    $3 - svc0 > 19200000) {
			print "strobe " $1 " out of step"; exit 1
		}
	}
	{ ap = $2; svc = $3 }
	END { if (n != 4) { print n " strobes"; exit 1 } }' strobes >why ||
	fail "strobes in debugfs: $(cat why): $(tr '\n' ' ' <strobes)"
a=$(ts_field anchor_strobe)
[ "$a" -ge 1 ] && [ "$a" -le 3 ] || fail "anchor strobe $a"
sed -n 's/^member \([^:]*\): id [0-9]* synced \([01]\) .*offset \(-*[0-9]*\)$/\1 \2 \3/p' $TS >members
assert_eq "$(wc -l <members)" 2 "member lines with an offset"
awk -v tol=$TOL '$2 != 1 || $3 > tol || -$3 > tol { print; bad = 1 } END { exit bad }' \
	members >why || fail "members not synced within $TOL ticks: $(cat why)"

# FrameTime moves on at 19.2 MHz: between two readings, as much as the
# guest's clock (in centiseconds; the readings lie between t0 and t3, and
# t1 and t2 lie between them)
t0=$(_gb_now_cs)
a=$(sed -n 's/^ap //p' $FT)
t1=$(_gb_now_cs)
sleep 1
t2=$(_gb_now_cs)
b=$(sed -n 's/^ap //p' $FT)
t3=$(_gb_now_cs)
d=$(( (b - a) / 192000 ))
[ $d -ge $((t2 - t1 - 1)) ] && [ $d -le $((t3 - t0 + 1)) ] ||
	fail "AP FrameTime advanced $((b - a)) ticks ($d cs) while the clock went $((t2 - t1))..$((t3 - t0)) cs"

kill -TERM $pid
wait $pid
unload_all_gb
