# Checks that removal does not wait for ALSA files: with the card's control device and its playback PCM held open by processes, removing the module takes the bundle and the card away within seconds, gb-audio-module stays in use until the files are closed, then the card's device goes and everything unloads; the same with the whole host going (gbsim exits) while a file is open.
# ASoC's card removal waits until every file of the card is closed; the
# driver disconnects the card at once instead and removes it when the
# last file closes.
# timeout: 200
# tools: amixer aplay
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/audio.sh

# card_devs: the platform devices of gb-audio-card
card_devs() {
	ls /sys/bus/platform/devices 2>/dev/null | grep -c '^gb-audio-card'
}
_no_card_dev() { [ "$(card_devs)" = 0 ]; }

# 1. the module removed while two files are open
sleep 600 </dev/snd/controlC$C &
ctl=$!
sleep 600 </dev/snd/pcmC${C}D0p &
pcm=$!
wait_for 10 held_open /dev/snd/controlC$C || proc_ended $ctl || fail "controlC$C not opened"
wait_for 10 held_open /dev/snd/pcmC${C}D0p || proc_ended $pcm || fail "pcmC${C}D0p not opened"
proc_ended $ctl && fail "cannot hold /dev/snd/controlC$C"
proc_ended $pcm && fail "cannot hold /dev/snd/pcmC${C}D0p"
assert_eq "$(card_devs)" 1 "card devices"

gbsim ctl remove 3 >/dev/null &
rp=$!
wait_for 10 test ! -e $B || fail "bundle still there 10 s after removal, files open: $(cat /proc/$rp/stack 2>/dev/null)"
wait_for 10 test ! -e $I || fail "interface still there after removal"
wait_for 10 proc_ended $rp || fail "gbsim ctl remove does not return"
wait_for 5 no_card || fail "the card is still listed"
expect_dmesg "1-3\.3\.1: sound card removed; freed when its files are closed"
assert_eq "$(card_devs)" 1 "card devices while files are open"
rmmod gb_audio_module 2>/dev/null && fail "gb-audio-module unloaded while the card's files are open"
# the files are dead: an access fails
amixer -c "$C" info >/dev/null 2>&1 && fail "amixer reached the removed card"

kill $ctl $pcm
wait $ctl $pcm 2>/dev/null
wait_for 10 _no_card_dev || fail "card device still there after the files were closed"

# 2. the host goes (gbsim exits) while the control device is open
gbsim ctl insert 3 $M/audio-speaker.mnfs >/dev/null || fail "insert failed"
wait_for 60 has_card || fail "no card after re-insertion"
C=$(card_num)
sleep 600 </dev/snd/controlC$C &
ctl=$!
wait_for 10 held_open /dev/snd/controlC$C || fail "controlC$C not opened: $(proc_ended $ctl && echo ended)"
kill -TERM $pid
wait_for 15 proc_ended $pid || fail "gbsim does not exit with a card file open"
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"
wait_for 5 no_card || fail "the card is still listed after the host went"
assert_eq "$(card_devs)" 1 "card devices while the file is open"
kill $ctl
wait $ctl 2>/dev/null
wait_for 10 _no_card_dev || fail "card device still there after the file was closed"

unload_all_gb
exit 0
