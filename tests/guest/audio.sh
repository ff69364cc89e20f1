# SPDX-License-Identifier: GPL-2.0
# The setup the audio cases (25-29, 105) share, sourced after lib.sh: gbsim
# with the stereo speaker module at interface 3 (manifests/audio-speaker.mnfs,
# gbsim's built-in topology; AUDIO_MODULE=mic for the microphone module), its control socket in $GBSIM_CTL, the sound
# card up: $C is its number, $B the bundle, $I the interface, $REC the
# WAV file gbsim records playback to, $SRC the samples it sends for capture.

need_tool gbsim amixer
load_gb greybus gb-vhd

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
B=$D/1-3.3.1
I=$D/1-3.3
export GBSIM_CTL=$GBTEST_TMP/ctl

# card_num: the number of module 3's card ("GB Audio 3"), if there is one
card_num() {
	sed -n 's/^ *\([0-9][0-9]*\) \[.*\]: gb-audio - GB Audio 3$/\1/p' /proc/asound/cards 2>/dev/null
}
has_card() {
	[ -n "$(card_num)" ]
}
no_card() {
	[ -z "$(card_num)" ]
}
# cget NAME: the values amixer reads for control NAME
cget() {
	amixer -c "$C" cget name="$1" | sed -n 's/^ *: values=//p'
}

# gbsim records playback here (docs/audio.md)
REC=$GBTEST_TMP/rec.wav
# and sends these bytes for capture
SRC=$GBTEST_TMP/source.raw
case ${AUDIO_MODULE:-speaker} in
speaker) mnfs=$M/audio-speaker.mnfs ;;
mic) mnfs=$M/audio-mic.mnfs ;;
*) fail "AUDIO_MODULE=$AUDIO_MODULE: speaker or mic" ;;
esac
GBSIM_AUDIO_TOPOLOGY=${AUDIO_MODULE:-speaker} GBSIM_AUDIO_WAV=$REC GBSIM_AUDIO_SOURCE=$SRC \
	gbsim --ctl "$GBSIM_CTL" -l log -m 3:$mnfs >out 2>err &
pid=$!
wait_for 60 has_card || fail "no sound card for module 3: $(cat err; cat /proc/asound/cards; dmesg_since_case | tail -n 5)"
C=$(card_num)
info "module 3 is card $C"
