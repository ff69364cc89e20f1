# Checks the core's bounds on module-inserted events that come between the SVC's version request and its hello, with a hand-played SVC through vhd: one per module is answered with success and held; a repeat of the same module, an interface count of 0 and a short request are refused (GB_OP_INVALID) with a log line; a fifth held module is refused (GB_OP_RETRY); after hello the held modules are handled in the order they came (the core asks the SVC to power interface 2 first) and nothing refused is.
# timeout: 60
# transport: vhd
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd
mkfifo ctl
vhdtest create --events <ctl >out 2>err &
pid=$!
exec 3>ctl
on_fail() {
	cat out err
}
wait_for 10 test -s out || fail "vhdtest create printed no bus id: $(cat err)"
id=$(head -n 1 out)
has() { grep -q -- "$1" out; }
wait_for 5 has "CPORT_ENABLE (0x83), 8 payload bytes: cport 0 " ||
	fail "no CPORT_ENABLE for CPort 0"

# answered ID RESULT: the AP answered operation ID with RESULT
answered() {
	wait_for 5 has "cport 0, id $1 type 0x9f result $2 " ||
		fail "module inserted $1: no answer with result $2"
}

echo "recv 0 1 1 0001" >&3
wait_for 5 has "cport 0, id 0x0001 type 0x81 result 0x00" || fail "no version response"

# MODULE_INSERTED (0x1f): primary interface, count, flags
echo "recv 0 0x1f 2 02010000" >&3
answered 0x0002 0x00
echo "recv 0 0x1f 3 02010000" >&3
answered 0x0003 0x06
expect_dmesg "module 2 inserted twice before the SVC's hello: refused"
echo "recv 0 0x1f 4 03000000" >&3
answered 0x0004 0x06
expect_dmesg "module 3 inserted with invalid interface count 0"
echo "recv 0 0x1f 5 0301" >&3
answered 0x0005 0x06
for m in 3 4 5; do
	echo "recv 0 0x1f 0x1$m 0${m}010000" >&3
	answered 0x001$m 0x00
done
echo "recv 0 0x1f 6 06010000" >&3
answered 0x0006 0x07
expect_dmesg "more than 4 modules inserted before the SVC's hello: module 6 refused"

# hello: the held modules go, interface 2 first (VSYS_ENABLE, 0x21)
echo "recv 0 2 7 554701" >&3
wait_for 5 has "cport 0, id 0x0007 type 0x82 result 0x00" || fail "no hello response"
wait_for 10 has "type 0x21 result 0x00 size 9 data 02" ||
	fail "the core did not ask the SVC about interface 2 after hello"
first=$(grep -m 1 'type 0x21 ' out)
case $first in
*"data 02") ;;
*) fail "the first interface powered is not 2: $first" ;;
esac
dmesg_since_case | grep -q 'unexpected request of type 0x1f' &&
	fail "a module-inserted event was refused as out of order"

exec 3>&-
wait "$pid" || fail "vhdtest create failed: $(cat err)"
wait_for 10 test ! -e "/sys/bus/greybus/devices/greybus$id" || fail "greybus$id still exists after close"
exit 0
