# Checks that playback and capture streams killed at random moments leave nothing touching their buffer: 150 aplay runs with 32 KiB periods sent in many small messages and 60 arecord runs, each killed (SIGKILL or SIGINT) at a random point once it runs, then a whole playback and capture still work; no oops, no warning.
# ALSA frees the buffer (hw_free) before it closes the stream.  A period
# still being sent then reads from a NULL buffer (an oops in the work,
# which Debian's kernel shows) or from freed vmalloc memory (seen only
# under KASAN); a capture message still being copied writes into it.
# gbsim's small MTU makes each period many messages, so that a stop
# often comes while one is being sent.
# timeout: 600
# tools: amixer aplay arecord
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
AUDIO_GBSIM_OPTS="--mtu 1024"
. /usr/lib/gbtest/audio.sh
need_tool aplay arecord

head -c 1920000 /dev/urandom >in.raw
head -c 960000 /dev/urandom >src.raw
wav_file $SRC 48000 2 src.raw

# running DIR: the card's first substream of DIR (p or c) is running
running() {
	grep -q '^state: RUNNING' /proc/asound/card$C/pcm0$1/sub0/status 2>/dev/null
}
# kill_running DIR PID: once it runs, SIGKILL or SIGINT 0 to 0.2 s later
kill_running() {
	_n=0
	while ! running $1 && [ $_n -lt 100 ] && [ -e /proc/$2 ]; do
		sleep 0.02
		_n=$((_n + 1))
	done
	running $1 && ran=$((ran + 1))
	sleep "$(printf '0.%03d' $((RANDOM % 200)))"
	if [ $((RANDOM % 2)) = 0 ]; then
		kill -KILL "$2" 2>/dev/null
	else
		kill -INT "$2" 2>/dev/null
	fi
	wait "$2"
}

ran=0 i=0
while [ $i -lt 150 ]; do
	aplay -q -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 2 \
		--period-size=8192 --buffer-size=16384 in.raw >/dev/null 2>&1 &
	kill_running p $!
	i=$((i + 1))
done
tx=$ran
ran=0 i=0
while [ $i -lt 60 ]; do
	arecord -q -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 2 -d 5 \
		--period-size=480 cap.raw >/dev/null 2>&1 &
	kill_running c $!
	i=$((i + 1))
done
rx=$ran
info "$tx of 150 playbacks and $rx of 60 captures were running when killed"
[ "$tx" -ge 100 ] || fail "only $tx playbacks ran"
[ "$rx" -ge 40 ] || fail "only $rx captures ran"

# afterwards a whole playback and a whole capture work
head -c 38400 /dev/urandom >short.raw
aplay -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 2 short.raw >aplay.out 2>&1 ||
	fail "aplay after the kills failed: $(cat aplay.out)"
arecord -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 2 -s 9600 cap.raw >arecord.out 2>&1 ||
	fail "arecord after the kills failed: $(cat arecord.out)"
head -c 38400 src.raw >src1.raw
cmp -s cap.raw src1.raw || fail "captured samples differ from the source's"

gbsim ctl remove 3 || fail "remove failed"
wait_for 20 no_card || fail "card still there after removal"
kill -TERM $pid
wait $pid
unload_all_gb
exit 0
