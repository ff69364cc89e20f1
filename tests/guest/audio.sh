# SPDX-License-Identifier: GPL-2.0
# The setup the audio cases (25-29, 105) share, sourced after lib.sh: gbsim
# with the stereo speaker module at interface 3 (manifests/audio-speaker.mnfs,
# its topology compiled from manifests/audio-speaker.topo; AUDIO_MODULE=mic
# for the microphone module, audio-mic.mnfs and audio-mic.topo), its control
# socket in $GBSIM_CTL, the sound card up: $C is its number, $B the bundle,
# $I the interface, $REC the WAV file gbsim records playback to, $SRC the
# WAV file whose samples it sends for capture (wav_file writes one), $UEV0
# the kernel's uevent sequence number before gbsim started.  $AUDIO_GBSIM_OPTS
# adds options to gbsim's command line (e.g. --mtu N).

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

# _le N BYTES: N as BYTES little-endian bytes
_le() {
	_n=$1 _i=0
	while [ $_i -lt "$2" ]; do
		# shellcheck disable=SC2059
		printf "\\$(printf %03o $((_n & 255)))"
		_n=$((_n >> 8)) _i=$((_i + 1))
	done
}
# wav_file FILE RATE CHANNELS RAW: the 16-bit samples of RAW as a WAV file
# (a 44-byte RIFF header: fmt chunk of plain PCM, then the data chunk)
wav_file() {
	_len=$(wc -c <"$4")
	{
		printf RIFF; _le $((36 + _len)) 4; printf 'WAVEfmt '
		_le 16 4; _le 1 2; _le "$3" 2; _le "$2" 4
		_le $(($2 * $3 * 2)) 4; _le $(($3 * 2)) 2; _le 16 2
		printf data; _le "$_len" 4
		cat "$4"
	} >"$1"
}

# gbsim records playback here (docs/audio.md)
REC=$GBTEST_TMP/rec.wav
# and sends the samples of this WAV file for capture
SRC=$GBTEST_TMP/source.wav
AUDIO_MODULE=${AUDIO_MODULE:-speaker}
case $AUDIO_MODULE in
speaker|mic) ;;
*) fail "AUDIO_MODULE=$AUDIO_MODULE: speaker or mic" ;;
esac
read -r UEV0 </sys/kernel/uevent_seqnum
GBSIM_AUDIO_TOPOLOGY=$M/audio-$AUDIO_MODULE.topo GBSIM_AUDIO_WAV=$REC GBSIM_AUDIO_SOURCE=$SRC \
	gbsim --ctl "$GBSIM_CTL" -l log $AUDIO_GBSIM_OPTS -m 3:$M/audio-$AUDIO_MODULE.mnfs >out 2>err &
pid=$!
wait_for 60 has_card || fail "no sound card for module 3: $(cat err; cat /proc/asound/cards; dmesg_since_case | tail -n 5)"
C=$(card_num)
info "module 3 is card $C"
