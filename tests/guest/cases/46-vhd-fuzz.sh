# Checks that vhdtest fuzz's random and edge-case events on several /dev/greybus-vhd files get the answers the ABI promises, with no splat, and that afterwards the device and the core still work and the modules unload.
# transport: vhd
# timeout: 400
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd
D=/sys/bus/greybus/devices

# fuzz NAME ARGS...: one vhdtest fuzz run that must find nothing wrong
fuzz() {
	local name=$1 rc
	shift
	vhdtest fuzz "$@" >$name.out 2>&1
	rc=$?
	cat $name.out
	[ "$rc" = 0 ] || fail "vhdtest fuzz $*: $(grep -m 1 FAIL $name.out || echo "exit status $rc")"
	grep -q ', 0 failures$' $name.out || fail "vhdtest fuzz $* printed no summary"
	grep -q '^fuzz: still usable: ' $name.out ||
		fail "vhdtest fuzz $* did not show the device usable afterwards"
	[ -z "$(ls $D)" ] || fail "left behind by vhdtest fuzz $*: $(ls $D | tr '\n' ' ')"
}

# Four files, messages delivered to the core; the same seed every time
fuzz seeded --iterations 3000 --seed 4242 --files 4
# Many files at once, another seed each run (it is printed, to replay)
fuzz clock --iterations 1500 --seed "$(date +%s)" --files 12
# Only what gb-vhd itself must refuse, one file
fuzz quiet --iterations 1000 --seed 7 --files 1 --no-deliver

# gb-vhd refused malformed messages with its rate-limited line, and the
# core dropped what it was handed
expect_dmesg 'greybus greybus[0-9]+: cport [0-9]+: .*refused'
info "kernel log lines during the case: $(dmesg_since_case | wc -l)"

# The whole stack still works: a module enumerates behind a new host
gbsim --module 2:/usr/share/greybus/manifests/audio.mnfs >gbsim.out 2>&1 &
pid=$!
wait_for 10 test -d $D/1-2.2.1 || fail "the audio module did not enumerate after the fuzzing: $(cat gbsim.out)"
assert_file_eq $D/1-2.2.ctrl/product_string "Simple Audio Interface"
kill -TERM "$pid"
wait "$pid"
wait_for 10 test ! -e $D/greybus1 || fail "greybus1 still there after gbsim exited"

# No file, host or reference left: the modules unload at once
unload_all_gb
[ -e /sys/bus/greybus ] && fail "/sys/bus/greybus still there after unloading"
[ -e /dev/greybus-vhd ] && fail "/dev/greybus-vhd still there after unloading"
exit 0
