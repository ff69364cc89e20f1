# Controls work while the audio bundle is suspended. With power/runtime_status = suspended beforehand, amixer cset then cget of the enumerated control 'GB 3 PB source' and of the DAPM mux 'GB 3 AIF1_RX MUX' (and the DAPM switch) give the new value; on the wire each access is bundle_resume, then the get/set control, then bundle_suspend after the idle delay; nothing reaches the suspended bundle and runtime_usage comes back to where it was.
# timeout: 150
# tools: amixer
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/audio.sh

echo 200 >$B/power/autosuspend_delay_ms
echo 300 >$I/power/autosuspend_delay_ms
usage=$(cat $B/power/runtime_usage)

# wire_since LINES: gbsim's log after its first LINES lines, into "wire"
wire_since() {
	gbsim ctl log | tail -n +$(($1 + 1)) >wire
}
# line_of REGEX [last]: the line number of its first (or last) match in "wire"
line_of() {
	if [ "$2" = last ]; then
		grep -n "$1" wire | tail -n 1 | cut -d: -f1
	else
		grep -n "$1" wire | head -n 1 | cut -d: -f1
	fi
}
# access WHAT CMD...: runs an amixer access on a suspended bundle and
# checks the order on the wire: resume, the operation WHAT, suspend
access() {
	what=$1
	shift
	wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle not suspended before: $what"
	lines=$(gbsim ctl log | wc -l)
	"$@" >/dev/null || fail "amixer failed on a suspended bundle: $*"
	wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend again after: $what"
	wire_since "$lines"
	r=$(line_of "control.bundle_resume req")
	op=$(line_of "$what")
	s=$(line_of "control.bundle_suspend req" last)
	[ -n "$r" ] && [ -n "$op" ] && [ -n "$s" ] && [ "$r" -lt "$op" ] && [ "$op" -lt "$s" ] ||
		fail "wire order for '$what': resume line $r, operation line $op, suspend line $s: $(cat wire)"
	assert_file_eq $B/power/runtime_usage "$usage"
}

# The enumerated control
access "audio 3: set control 0 (PB source) = 1" amixer -c "$C" cset name='GB 3 PB source' 1
access "audio 3: get control 0 (PB source) = 1" amixer -c "$C" cget name='GB 3 PB source'
assert_eq "$(cget 'GB 3 PB source')" 1 "PB source"
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after cget"
amixer -c "$C" cset name='GB 3 PB source' AIF1 >/dev/null || fail "cset by item name failed"
assert_eq "$(cget 'GB 3 PB source')" 0 "PB source by name"

# The DAPM mux
access "audio 3: set control 2 (AIF1_RX MUX) = 2" amixer -c "$C" cset name='GB 3 AIF1_RX MUX' 2
access "audio 3: get control 2 (AIF1_RX MUX) = 2" amixer -c "$C" cget name='GB 3 AIF1_RX MUX'
amixer -c "$C" cget name='GB 3 AIF1_RX MUX' >mux
grep -q "Item #2 'Right'" mux || fail "mux items: $(cat mux)"
assert_eq "$(cget 'GB 3 AIF1_RX MUX')" 2 "AIF1_RX MUX"

# The DAPM switch
access "audio 3: set control 3 (Switch) = 1" amixer -c "$C" cset name='GB 3 SPK Amp Switch' on
assert_eq "$(cget 'GB 3 SPK Amp Switch')" on "SPK Amp Switch"

# Out of range: refused before anything is sent
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle not suspended"
lines=$(gbsim ctl log | wc -l)
if amixer -c "$C" cset name='GB 3 AIF1_RX MUX' 3 >/dev/null 2>&1; then
	assert_eq "$(cget 'GB 3 AIF1_RX MUX')" 2 "mux after an out-of-range cset"
fi
wire_since "$lines"
grep -q "set control 2" wire && fail "an out-of-range item reached the module"

if gbsim ctl log | grep -q "to suspended bundle\|to hibernated interface"; then
	fail "gbsim saw an operation while suspended: $(gbsim ctl log | grep 'to suspended bundle\|to hibernated interface' | head -n 2)"
fi
dmesg_since_case | grep -q "Unbalanced pm_runtime\|runtime PM trying" && fail "runtime PM complained"
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not end suspended"
assert_file_eq $B/power/runtime_usage "$usage"

kill -TERM $pid
wait $pid
wait_for 20 no_card || fail "card still there after gbsim left"
unload_all_gb
