# The vibrator as a force-feedback input device: an FF_RUMBLE effect played through evdev (ffrumble, as a game would) produces the same ON and OFF on the wire, timed by the effect's length or its stop.
# timeout: 90
# kmods: ff-memless evdev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/vibrator.sh

need_tool ffrumble
ev=$(ls -d $B/input/input*/event* 2>/dev/null | head -n 1)
[ -n "$ev" ] || fail "no input device under the vibrator bundle"
dev=/dev/input/$(basename "$ev")
wait_for 5 test -c "$dev" || fail "$dev missing"
grep -q "Greybus vibrator" $ev/device/name || fail "input device named '$(cat $ev/device/name)'"

ffrumble "$dev" 300 >ff.out 2>&1 || fail "ffrumble failed: $(cat ff.out)"
ms=$(wait_off 0 10)
ran_between "$ms" 290 5000

# An endless effect stopped by its client after 200 ms
ffrumble "$dev" 0 200 >ff.out 2>&1 || fail "ffrumble (stop) failed: $(cat ff.out)"
ms=$(wait_off 1 10)
ran_between "$ms" 190 5000

wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after the effects"

kill -TERM $pid
wait $pid
unload_all_gb
