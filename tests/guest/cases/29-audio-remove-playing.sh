# Removing the module in the middle of playback: aplay of 5 s of samples ends early with an error, the card goes away, no kernel warning, the modules unload.
# timeout: 150
# tools: amixer aplay
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/audio.sh
need_tool aplay

head -c 960000 /dev/zero >in.raw
aplay -D hw:$C,0 -t raw -f S16_LE -r 48000 -c 2 in.raw >aplay.out 2>&1 &
apid=$!
_playing() {
	gbsim ctl log | grep -q "audio 3: tx started"
}
wait_for 20 _playing || fail "playback did not start: $(cat aplay.out)"
sleep 0.5
gbsim ctl remove 3 || fail "remove failed"
wait_for 20 no_card || fail "card still there after removal"
rc=0
wait $apid || rc=$?
info "aplay exited $rc: $(tail -n 1 aplay.out)"
[ "$rc" != 0 ] || fail "aplay succeeded although the module went away"
wait_for 10 test ! -e $B || fail "bundle still there"

kill -TERM $pid
wait $pid
unload_all_gb
