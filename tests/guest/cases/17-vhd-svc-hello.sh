# Checks a hand-played SVC start through vhd: RECV version and hello on CPort 0 are answered by SEND, and N-svc appears.
# transport: vhd
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd
mkfifo ctl
vhdtest create --events <ctl >out 2>err &
pid=$!
exec 3>ctl
wait_for 10 test -s out || fail "vhdtest create printed no bus id: $(cat err)"
id=$(head -n 1 out)
has() { grep -q -- "$1" out; }

# CREATED comes first; the SVC connection is enabled on CPort 0 after it
sed -n 2p out | grep -q '^event: CREATED (0x81), 4 payload bytes: bus id' ||
	fail "first event is not CREATED: $(sed -n 2p out)"
wait_for 5 has "^event: CPORT_ENABLE (0x83), 8 payload bytes: cport 0 " ||
	fail "no CPORT_ENABLE for CPort 0: $(cat out)"

# SVC protocol version 0.1, operation id 1
echo "recv 0 1 1 0001" >&3
wait_for 5 has "^recv: ok" || fail "RECV of the version request failed: $(cat out)"
wait_for 5 has "SEND (0x82), 14 payload bytes: cport 0, id 0x0001 type 0x81 result 0x00 size 10 data 0001" ||
	fail "no version response: $(cat out)"

# SVC hello: endo 0x4755, AP interface 0, operation id 2
echo "recv 0 2 2 554700" >&3
wait_for 5 has "SEND (0x82), 12 payload bytes: cport 0, id 0x0002 type 0x82 result 0x00 size 8" ||
	fail "no hello response: $(cat out)"
wait_for 5 test -d "/sys/bus/greybus/devices/$id-svc" || fail "$id-svc did not appear"

# A message for a CPort the AP never enabled is refused, with a log line
echo "recv 5 2 3" >&3
wait_for 5 has "^recv: error Invalid argument" || fail "RECV on disabled CPort 5 was not refused"
expect_dmesg "greybus$id: cport 5: message for a disabled cport, refused"

exec 3>&-
wait "$pid" || fail "vhdtest create failed: $(cat err)"
wait_for 5 test ! -e "/sys/bus/greybus/devices/$id-svc" || fail "$id-svc still exists after close"
wait_for 5 test ! -e "/sys/bus/greybus/devices/greybus$id" || fail "greybus$id still exists after close"
exit 0
