# The microphone module (manifests/audio-mic.mnfs, its topology compiled by gbsim from manifests/audio-mic.topo): its card has a capture device and no playback one, the controls 'GB 3 Mic Gain' and 'GB 3 Mic Capture Switch' read and write through to gbsim with the bundle suspended beforehand, arecord of 4800 mono frames gets exactly the samples of the WAV file gbsim reads, and aplay to the card is refused.
# timeout: 150
# tools: amixer aplay arecord
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
AUDIO_MODULE=mic
. /usr/lib/gbtest/audio.sh
need_tool arecord aplay

echo 200 >$B/power/autosuspend_delay_ms
echo 300 >$I/power/autosuspend_delay_ms
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend"
usage=$(cat $B/power/runtime_usage)

amixer -c "$C" controls >controls || fail "amixer controls failed"
info "controls: $(sed 's/.*name=//' controls | tr '\n' ' ')"
grep -q "name='GB 3 Mic Gain'" controls || fail "no 'GB 3 Mic Gain': $(cat controls)"
grep -q "name='GB 3 Mic Capture Switch'" controls || fail "no 'GB 3 Mic Capture Switch': $(cat controls)"
grep -q "Speaker\|PB source" controls && fail "speaker controls on the microphone's card: $(cat controls)"

assert_eq "$(cget 'GB 3 Mic Gain')" 12 "Mic Gain at start"
amixer -c "$C" cset name='GB 3 Mic Gain' 20 >/dev/null || fail "cset Mic Gain failed"
assert_eq "$(cget 'GB 3 Mic Gain')" 20 "Mic Gain after cset"
wait_for 5 sh -c "gbsim ctl log | grep -q 'audio 3: set control 0 (Mic Gain) = 20'" ||
	fail "gbsim did not see Mic Gain set to 20"
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after the controls"
assert_file_eq $B/power/runtime_usage "$usage"

# Capture only: the card lists no playback device, and aplay to it fails
arecord -l >arecord.l 2>&1
grep -q "^card $C:" arecord.l || fail "no capture device on card $C: $(cat arecord.l)"
aplay -l >aplay.l 2>&1
grep -q "^card $C:" aplay.l && fail "card $C offers playback: $(cat aplay.l)"
head -c 960 /dev/zero >z.raw
aplay -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 1 z.raw >aplay.out 2>&1 &&
	fail "aplay to the microphone succeeded"
info "aplay: $(tail -n 1 aplay.out)"

gbsim ctl log | grep -q "INFO    audio: topology $M/audio-mic.topo: 1 dais, 1 controls, 3 widgets, 2 routes" ||
	fail "gbsim did not serve audio-mic.topo: $(gbsim ctl log | grep 'audio:')"
head -c 9600 /dev/urandom >src.raw
wav_file $SRC 48000 1 src.raw
arecord -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 1 -s 4800 cap.raw >arecord.out 2>&1 ||
	fail "arecord failed: $(cat arecord.out)"
_rx_stopped() {
	gbsim ctl log | grep -q "audio 3: rx stopped after"
}
wait_for 10 _rx_stopped || fail "gbsim did not see the capture stop"
info "$(gbsim ctl log | grep 'audio 3: rx' | tr '\n' ' ')"
assert_eq "$(wc -c <cap.raw | tr -d ' ')" 9600 "captured bytes"
cmp -s cap.raw src.raw || fail "captured samples differ from the source WAV's ($(cmp cap.raw src.raw 2>&1))"
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after capture"
assert_file_eq $B/power/runtime_usage "$usage"

kill -TERM $pid
wait $pid
wait_for 20 no_card || fail "card still there after gbsim left"
unload_all_gb
