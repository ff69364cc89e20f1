# Checks gb-vhd's batched I/O (ABI version 3): several events per read() and write(), a malformed event mid-write refusing the rest with a short count and a rate-limited kernel line, the host still working; gbsim on a version 3 host (batched) and on a version 1 host (--vhd-abi 1, the old ABI) both carry 32 asynchronous loopback pings at a time without an error.
# transport: vhd
# timeout: 300
. /usr/lib/gbtest/lib.sh

need_tool gbsim
need_tool gbbench
M=/usr/share/greybus/manifests
S=$GBTEST_TMP/ctl.sock
LB=/sys/class/gb_loopback/gb_loopback0
FLOOD=200

load_gb greybus gb-vhd gb-loopback

# the ABI itself, and a version 2 host beside it
vhdtest batch --flood $FLOOD >out 2>&1
rc=$?
cat out
grep -q '^not ok' out && fail "$(grep -m 1 '^not ok' out)"
[ "$rc" = 0 ] || fail "vhdtest batch exited with $rc"
grep -q '^1\.\.[0-9]' out || fail "vhdtest batch did not finish"

# each refusal in a batch is named, but a flood of them is rate-limited
refused=$(dmesg_since_case | grep -c 'write: event [0-9]* (type 0x[0-9a-f]*, [0-9]* bytes) at byte [0-9]* refused')
info "$refused kernel lines for the $FLOOD + 4 refused events"
[ "$refused" -ge 1 ] || fail "no kernel line names a refused event"
[ "$refused" -lt 100 ] || fail "$refused lines for $FLOOD refusals: not rate-limited"

# gbsim: batched by default, the old ABI when asked; loopback over both
run_lb() {	# ABI: the version gbsim must have created its host with
	local line
	timeout 10 gbsim ctl -s "$S" -w 10 status >/dev/null ||
		fail "ABI $1: no gbsim control socket: $(cat gbsim.err)"
	grep -q "host created with ABI version $1 " log ||
		fail "gbsim did not create a version $1 host: $(grep -m 1 'ABI version' log)"
	wait_for 30 test -e $LB/type || fail "ABI $1: no $LB"
	line=$(gbbench loopback -d $LB -t ping -i 2000 -a 32 -o "$(lb_patient_us $LB)") ||
		fail "ABI $1: gbbench loopback: $line"
	info "ABI $1: $line"
	echo "$line" | grep -q ' errors=0\b' || fail "ABI $1: loopback errors: $line"
	line=$(gbbench loopback -d $LB -t transfer -s 1024 -i 500 -a 8 -o "$(lb_patient_us $LB)") ||
		fail "ABI $1: gbbench loopback transfer: $line"
	echo "$line" | grep -q ' errors=0\b' || fail "ABI $1: transfer errors: $line"
}

for abi in 3 1; do
	args=
	[ $abi = 3 ] || args="--vhd-abi $abi"
	rm -f log
	# shellcheck disable=SC2086
	gbsim --ctl "$S" -l log -m 2:$M/loopback.mnfs $args 2>gbsim.err &
	pid=$!
	run_lb $abi
	kill -TERM $pid
	wait $pid || fail "ABI $abi: gbsim exited with $?: $(cat gbsim.err)"
	wait_for 30 test ! -e $LB || fail "ABI $abi: $LB left after gbsim stopped"
done
exit 0
