# Checks that two open files make two host devices with distinct bus ids, and that a freed bus id is reused.
# transport: vhd
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd

start_host() {
	vhdtest create >"$1" 2>"$1.err" &
	echo $! >"$1.pid"
	wait_for 10 test -s "$1" || fail "vhdtest create ($1) printed no bus id: $(cat "$1.err")"
}

stop_host() {
	local pid
	pid=$(cat "$1.pid")
	kill -TERM "$pid"
	wait "$pid" || fail "vhdtest create ($1) failed: $(cat "$1.err")"
}

start_host a
start_host b
a=$(head -n 1 a)
b=$(head -n 1 b)
[ "$a" != "$b" ] || fail "both host devices got bus id $a"
for id in "$a" "$b"; do
	wait_for 5 test -d "/sys/bus/greybus/devices/greybus$id" || fail "greybus$id did not appear"
	assert_file_eq "/sys/bus/greybus/devices/greybus$id/bus_id" "$id"
done

stop_host a
wait_for 5 test ! -e "/sys/bus/greybus/devices/greybus$a" || fail "greybus$a still exists after close"
[ -d "/sys/bus/greybus/devices/greybus$b" ] || fail "closing one file removed greybus$b too"

start_host c
c=$(head -n 1 c)
assert_eq "$c" "$a" "bus id after the first host went away"

stop_host b
stop_host c
for id in "$a" "$b"; do
	wait_for 5 test ! -e "/sys/bus/greybus/devices/greybus$id" || fail "greybus$id still exists"
done
exit 0
