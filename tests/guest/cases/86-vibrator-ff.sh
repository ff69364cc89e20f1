# The vibrator as a force-feedback input device: an FF_RUMBLE effect played through evdev (ffrumble, as a game would) produces the same ON and OFF on the wire, timed by the effect's length or its stop.
# timeout: 90
# kmods: ff-memless evdev
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/vibrator.sh

need_tool ffrumble
# the input device's event node comes once evdev is loaded, which the
# input device's own uevent does when no case before this one did
_ev() {
	ls -d $B/input/input*/event* >/dev/null 2>&1
}
wait_for 20 _ev || fail "no input device under the vibrator bundle: $(ls $B/input 2>&1)"
ev=$(ls -d $B/input/input*/event* | head -n 1)
dev=/dev/input/$(basename "$ev")
wait_for 5 test -c "$dev" || fail "$dev missing"
grep -q "Greybus vibrator" $ev/device/name || fail "input device named '$(cat $ev/device/name)'"

# played: when ffrumble started the effect (CLOCK_MONOTONIC), in $t
played() {
	t=$(sed -n 's/^played at \([0-9]*\.[0-9]*\)$/\1/p' ff.out)
	[ -n "$t" ] || fail "ffrumble did not say when it played: $(cat ff.out)"
}

# ff-memless stops the effect 300 ms after the play
ffrumble "$dev" 300 >ff.out 2>&1 || fail "ffrumble failed: $(cat ff.out)"
played
ms=$(wait_off 0 10 "$t")
ran_between "$ms" 300 5000

# An endless effect stopped by its client after 200 ms
ffrumble "$dev" 0 200 >ff.out 2>&1 || fail "ffrumble (stop) failed: $(cat ff.out)"
played
ms=$(wait_off 1 10 "$t")
ran_between "$ms" 200 5000

wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after the effects"

vib_trace_off
kill -TERM $pid
wait $pid
unload_all_gb
