# Checks two gbsim instances (two host devices, two control sockets) with four modules each: both enumerate, stopping one leaves the other working, and the freed bus number is given again to the next host.
# transport: vhd
# timeout: 120
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests/test-vendor.mnfs
[ -r "$M" ] || fail "no $M in the guest"
D=/sys/bus/greybus/devices
IDS="2 3 4 5"

load_gb greybus gb-vhd gb-test-protocol

# start NAME: a gbsim with modules 2..5, its socket NAME.sock
start() {
	gbsim --ctl "$GBTEST_TMP/$1.sock" --log "$GBTEST_TMP/$1.log" \
		-m 2:$M -m 3:$M -m 4:$M -m 5:$M 2>"$1.err" &
	echo $! >"$1.pid"
	wait_for 20 ready "$1" || fail "gbsim $1 did not get ready: $(cat "$1.err")"
}

ready() {
	gbsim ctl -s "$GBTEST_TMP/$1.sock" status 2>/dev/null | grep -q '^svc=ready '
}

bus_of() {	# NAME: the bus number gbsim NAME reports
	gbsim ctl -s "$GBTEST_TMP/$1.sock" status | sed -n 's/.* bus=\([0-9]*\) .*/\1/p'
}

stop() {
	local pid
	pid=$(cat "$1.pid")
	kill -TERM "$pid"
	wait "$pid" || fail "gbsim $1 exited with $?: $(tail -n 5 "$1.err")"
}

bound_all() {	# BUS
	local id
	for id in $IDS; do
		[ "$(cat $D/$1-$id.$id.1/test_result 2>/dev/null)" = ok ] || return 1
	done
}

bus_gone() {	# BUS
	! ls $D | grep -q "^greybus$1$\|^$1-"
}

start a
start b
ba=$(bus_of a)
bb=$(bus_of b)
info "gbsim a: greybus$ba, gbsim b: greybus$bb"
assert_eq "$ba" 1 "bus of the first host"
assert_eq "$bb" 2 "bus of the second host"
wait_for 60 bound_all $ba || fail "host $ba: not all modules bound: $(ls $D | tr '\n' ' ')"
wait_for 60 bound_all $bb || fail "host $bb: not all modules bound: $(ls $D | tr '\n' ' ')"
assert_file_eq $D/greybus$ba/bus_id $ba
assert_file_eq $D/greybus$bb/bus_id $bb
[ "$(gbsim ctl -s "$GBTEST_TMP/b.sock" list | grep -c 'state=inserted')" = 4 ] || fail "gbsim b does not list four modules"

# stop a: b's modules stay and keep answering
stop a
wait_for 20 bus_gone $ba || fail "host $ba left: $(ls $D | tr '\n' ' ')"
[ -e "$GBTEST_TMP/a.sock" ] && fail "a's socket left behind"
bound_all $bb || fail "host $bb lost modules when host $ba went"
LB=$GBTEST_TMP/b.log
n=$(grep -c 'test.echo rsp .*result=success' "$LB")
echo 1 >$D/$bb-3.3.1/test_ping || fail "test_ping on $bb-3.3.1 failed"
more() {
	[ "$(grep -c 'test.echo rsp .*result=success' "$LB")" -gt "$n" ]
}
wait_for 10 more || fail "host $bb: no echo after host $ba went"
gbsim ctl -s "$GBTEST_TMP/b.sock" insert 6 "$M" || fail "insert on b failed"
wait_for 20 test -e $D/$bb-6.6.1/driver || fail "host $bb: run-time insert after host $ba went did not bind"

# start a again: the lowest free bus number, i.e. a's old one
start c
bc=$(bus_of c)
assert_eq "$bc" "$ba" "bus of the host started after the first one stopped"
wait_for 60 bound_all $bc || fail "host $bc: not all modules bound"

stop b
stop c
tree_gone() {
	[ -z "$(ls $D)" ]
}
wait_for 20 tree_gone || fail "left after both stopped: $(ls $D | tr '\n' ' ')"
exit 0
