# Playback over Audio Data: aplay of a generated WAV file (0.2 s of random 16-bit stereo samples at 48 kHz) to the card ends with gbsim's recorded WAV (48000 Hz, 2 channels) holding exactly those samples, after SET_PCM and ACTIVATE_TX and before DEACTIVATE_TX; the bundle is resumed for the stream and suspends after it. Capture: arecord of 9600 frames gets exactly the samples of the WAV file gbsim reads (ACTIVATE_RX, SEND_DATA from the module, DEACTIVATE_RX); a source WAV of another rate and channel count, or a file that is not WAV, makes gbsim refuse ACTIVATE_RX with a log line saying why, arecord fail, and leaves the bundle suspending with its usage count unchanged.
# timeout: 150
# tools: amixer aplay arecord
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/audio.sh
need_tool aplay

echo 200 >$B/power/autosuspend_delay_ms
echo 300 >$I/power/autosuspend_delay_ms
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend"
usage=$(cat $B/power/runtime_usage)

head -c 38400 /dev/urandom >in.raw
wav_file in.wav 48000 2 in.raw
aplay -D hw:$C,0 in.wav >aplay.out 2>&1 ||
	fail "aplay failed: $(cat aplay.out)"
grep -q "Signed 16 bit Little Endian, Rate 48000 Hz, Stereo" aplay.out ||
	fail "aplay did not read the WAV header: $(cat aplay.out)"
_tx_stopped() {
	gbsim ctl log | grep -q "audio 3: tx stopped after"
}
wait_for 10 _tx_stopped || fail "gbsim did not see the stream stop"
gbsim ctl log >wire
info "$(grep 'audio 3: tx' wire | tr '\n' ' ')"
grep -q "audio 3: tx started, 48000 Hz, 2 channels" wire || fail "no tx start with 48000 Hz, 2 channels"
p=$(grep -n "audio_mgmt.set_pcm req" wire | head -n 1 | cut -d: -f1)
a=$(grep -n "audio_mgmt.activate_tx req" wire | head -n 1 | cut -d: -f1)
d=$(grep -n "audio_mgmt.deactivate_tx req" wire | tail -n 1 | cut -d: -f1)
[ -n "$p" ] && [ -n "$a" ] && [ -n "$d" ] && [ "$p" -lt "$a" ] && [ "$a" -lt "$d" ] ||
	fail "wire order: set_pcm line $p, activate_tx line $a, deactivate_tx line $d"

# The recording: a WAV header, then our samples (aplay may pad the end with silence)
[ -s "$REC" ] || fail "no recording"
assert_eq "$(head -c 4 "$REC")" RIFF "WAV magic"
assert_eq "$(od -An -tu4 -j24 -N4 "$REC" | tr -d ' ')" 48000 "WAV rate"
assert_eq "$(od -An -tu2 -j22 -N2 "$REC" | tr -d ' ')" 2 "WAV channels"
n=$(od -An -tu4 -j40 -N4 "$REC" | tr -d ' ')
[ "$n" -ge 38400 ] || fail "recorded $n bytes of samples, sent 38400"
tail -c +45 "$REC" | head -c 38400 >rec.raw
cmp -s rec.raw in.raw || fail "recorded samples differ from those played ($(cmp rec.raw in.raw 2>&1))"
info "recorded $n bytes, the first 38400 identical to the input"

wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after playback"
assert_file_eq $B/power/runtime_usage "$usage"

# Capture: gbsim refuses a source WAV that does not match the stream
need_tool arecord
head -c 38400 /dev/urandom >src.raw
# refused WHY: arecord fails, gbsim logs WHY, nothing is left running
refused() {
	arecord -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 2 -s 9600 bad.raw >arecord.out 2>&1 &&
		fail "arecord succeeded with a source gbsim should refuse ($1)"
	info "arecord: $(tail -n 1 arecord.out)"
	gbsim ctl log | grep -qF "ERROR   audio 3: capture source $SRC$1: refused" ||
		fail "gbsim did not refuse the source ($1): $(gbsim ctl log | grep 'audio 3' | tail -n 3)"
	gbsim ctl log | grep -q "audio 3: rx started" && fail "rx started with a refused source ($1)"
	wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after a refused capture"
	assert_file_eq $B/power/runtime_usage "$usage"
}
wav_file $SRC 44100 1 src.raw
refused " is 44100 Hz, 1 channels, 16 bits; the stream is 48000 Hz, 2 channels, 16 bits"
cp src.raw $SRC
refused ": not a RIFF/WAVE file"

# and sends the samples of a WAV that matches; arecord gets exactly them
wav_file $SRC 48000 2 src.raw
arecord -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 2 -s 9600 cap.raw >arecord.out 2>&1 ||
	fail "arecord failed: $(cat arecord.out)"
_rx_stopped() {
	gbsim ctl log | grep -q "audio 3: rx stopped after"
}
wait_for 10 _rx_stopped || fail "gbsim did not see the capture stop"
info "$(gbsim ctl log | grep 'audio 3: \(rx\|capture\)' | tr '\n' ' ')"
gbsim ctl log | grep -q "INFO    audio 3: capture source $SRC: 38400 bytes of samples" ||
	fail "gbsim did not read the source WAV"
assert_eq "$(wc -c <cap.raw | tr -d ' ')" 38400 "captured bytes"
cmp -s cap.raw src.raw || fail "captured samples differ from the source WAV's ($(cmp cap.raw src.raw 2>&1))"
gbsim ctl log | grep -q "audio_mgmt.activate_rx req" || fail "no activate_rx on the wire"
gbsim ctl log | grep -q "audio_mgmt.deactivate_rx req" || fail "no deactivate_rx on the wire"
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after capture"
assert_file_eq $B/power/runtime_usage "$usage"

kill -TERM $pid
wait $pid
wait_for 20 no_card || fail "card still there after gbsim left"
unload_all_gb
