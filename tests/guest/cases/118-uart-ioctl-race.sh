# Checks gb-uart's modem-line ioctls racing line-setting changes: for some seconds one loop toggles DTR/RTS and reads them back (TIOCMBIS, TIOCMBIC, TIOCMGET) while another changes the rate, data bits and parity and hangs up with B0 (stty); every call succeeds, afterwards TIOCMGET and a new line coding agree with the last control and line coding gbsim logged, TIOCGSERIAL is refused with ENOTTY (no serial_struct support), and removing the module while both loops run ends them with errors, no warning, and gb-uart unloads.
# timeout: 180
# tools: stty
. /usr/lib/gbtest/lib.sh

need_tool gbsim stty ttytest
load_gb greybus gb-vhd gb-gbphy gb-uart

M=/usr/share/greybus/manifests/gbphy-bridge.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
SECS=8

gbsim --ctl "$GBSIM_CTL" -l log -m 2:$M >out 2>err &
pid=$!
wait_for 20 test -c /dev/ttyGB0 || fail "no /dev/ttyGB0: $(cat err)"
T=/dev/ttyGB0
stty -F $T raw -echo || fail "stty failed"
# held open, so that no last close drops the lines between the calls
exec 3<>$T

# lines_loop: TIOCMBIS/TIOCMBIC/TIOCMGET until stop exists; counts in
# lines.ok and lines.bad
lines_loop() {
	local ok=0 bad=0
	while [ ! -e stop ]; do
		if ttytest $T dtr=0 rts=1 lines dtr=1 rts=0 lines >/dev/null 2>>lines.err; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
			[ -e $T ] || break
		fi
	done
	echo $ok >lines.ok
	echo $bad >lines.bad
}
# coding_loop: stty rate, size, parity and B0 hang-ups until stop exists
coding_loop() {
	local ok=0 bad=0 s
	while [ ! -e stop ]; do
		for s in "115200 cs7 parenb parodd" "0" "9600 cs8 -parenb" "57600 cs5 parenb -parodd crtscts" "0" "4800 cs8 -parenb -crtscts"; do
			if stty -F $T $s 2>c.err; then
				ok=$((ok + 1))
			elif [ "$s" = 0 ] && grep -q 'unable to perform all requested' c.err; then
				# glibc keeps "input speed 0" as a flag the kernel
				# never sees, so stty's read-back differs (on a pty too)
				ok=$((ok + 1))
			else
				cat c.err >>coding.err
				bad=$((bad + 1))
				[ -e $T ] || break 2
			fi
		done
	done
	echo $ok >coding.ok
	echo $bad >coding.bad
}
race() {
	rm -f stop lines.* coding.*
	: >lines.err
	: >coding.err
	lines_loop &
	lp=$!
	coding_loop &
	cp=$!
}

# 1. both loops for SECS seconds: nothing fails
race
sleep $SECS
: >stop
wait $lp
wait $cp
info "$(cat lines.ok) TIOCM rounds, $(cat coding.ok) stty calls in $SECS s"
[ "$(cat lines.ok)" -gt 0 ] && [ "$(cat coding.ok)" -gt 0 ] || fail "a loop never ran"
assert_eq "$(cat lines.bad)" 0 "failed TIOCM rounds ($(head -n 3 lines.err))"
assert_eq "$(cat coding.bad)" 0 "failed stty calls ($(head -n 3 coding.err))"

# 2. what the driver believes is what the module was last told
last() {
	grep 'INFO    uart cport' log | grep -F "$1" | tail -n 1 | sed 's/.*: //'
}
_last_is() {
	[ "$(last "$1")" = "$2" ]
}
# last_is PREFIX TEXT WHAT: gbsim's last uart line with PREFIX becomes TEXT
last_is() {
	wait_for 5 _last_is "$1" "$2" || fail "$3: gbsim's last is '$(last "$1")', not '$2'"
}
stty -F $T 9600 || fail "stty 9600 after the race"
m=$(ttytest $T lines) || fail "TIOCMGET after the race"
want=$(echo "$m" | sed 's/^\(dtr=. rts=.\).*/control \1/')
last_is 'control ' "$want" "TIOCMGET after the race ($m)"
stty -F $T 38400 cs6 parenb parodd cstopb -crtscts || fail "stty 38400 6O2"
last_is 'line ' "line rate=38400 data_bits=6 parity=odd stop=2 flow=none" "line coding after the race"
assert_eq "$(ttytest $T dtr=0 rts=0 lines)" "dtr=0 rts=0 dcd=0 dsr=0 ri=0" "lines set after the race"
last_is 'control ' "control dtr=0 rts=0" "control after the race"

# 3. no serial_struct: TIOCGSERIAL is not ours to answer
out=$(ttytest $T serial 2>&1) && fail "TIOCGSERIAL succeeded: $out"
assert_eq "$out" "ttytest: serial: ENOTTY" "TIOCGSERIAL"

# 4. the module goes while both loops run
race
sleep 2
gbsim ctl remove 2 >/dev/null || fail "remove failed"
wait_for 10 test ! -e $T || fail "$T still there after removal"
wait_for 20 test -e lines.bad -a -e coding.bad || fail "a loop did not end after the removal"
info "after removal: $(cat lines.bad) failed TIOCM rounds, $(cat coding.bad) failed stty calls"
exec 3<&-

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
unload_all_gb
exit 0
