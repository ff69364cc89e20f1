# Checks gb-audio-module's unload racing the last close of a card file: each round removes the module with the card's control device held open, then closes that file while rmmod of gb-audio-module is tried in a tight loop; the unload happens only once the file is closed, the card goes, no splat, and the next insertion autoloads gb-audio-module and brings a card again (AUDIO_RACE_ROUNDS rounds, default 10).
# ALSA drops a file's reference on the card's module before
# snd_card_file_remove() wakes whoever waits for the card's last file:
# the module must not run code of its own from that wake-up
# (kernel/audio/module.c).  The window is narrow (the closing task must
# be preempted inside it while rmmod's RCU grace period completes): the
# rounds are a smoke test of the unload and close paths, not a sure
# reproducer of that race.
# timeout: 600
# tools: amixer
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/audio.sh

ROUNDS=${AUDIO_RACE_ROUNDS:-10}
_unloaded() { ! grep -q '^gb_audio_module ' /proc/modules; }
card_devs() {
	ls /sys/bus/platform/devices 2>/dev/null | grep -c '^gb-audio-card'
}
_no_card_dev() { [ "$(card_devs)" = 0 ]; }

r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	[ $r = 1 ] || {
		gbsim ctl insert 3 $M/audio-speaker.mnfs >/dev/null || fail "round $r: insert failed"
		wait_for 60 has_card || fail "round $r: no card after insertion"
	}
	C=$(card_num)
	sleep 600 </dev/snd/controlC$C &
	holder=$!
	wait_for 10 held_open /dev/snd/controlC$C || fail "round $r: controlC$C not opened"
	gbsim ctl remove 3 >/dev/null || fail "round $r: remove failed"
	wait_for 10 test ! -e $B || fail "round $r: bundle still there with a file open"
	# rmmod in a tight loop, in the background, while the file closes
	(
		while ! rmmod gb_audio_module 2>/dev/null; do
			:
		done
	) &
	rm_loop=$!
	kill $holder
	wait $holder 2>/dev/null
	wait_for 20 _unloaded || {
		kill $rm_loop 2>/dev/null
		fail "round $r: gb-audio-module not unloaded after the last close"
	}
	wait $rm_loop
	wait_for 10 _no_card_dev || fail "round $r: card device still there"
	dmesg | grep -Eq "$GB_HEALTH_RE" && fail "round $r: $(dmesg | grep -E "$GB_HEALTH_RE" | head -n 1)"
done
info "$ROUNDS rounds"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
unload_all_gb
exit 0
