# Checks the BeaglePlay path end to end on the arm64 guest: gbsim plays the CC1352 (--personality cc1352) on the far end of the PL011 UART, gb-hdlc's serdev driver binds the device-tree node, and two nodes enumerate as the CC1352 shows them (endo 0x4755, AP interface 1, every DME attribute 0x0126); the link's port is the serdev device, its limit the CC1352's 250 bytes; the firmware's debug text reaches the kernel log; Linux's loopback_test runs ping and transfers over the UART without an error, a 250-byte message goes through and one byte more is refused before the wire; stopping the chip's firmware leaves the link up, unbinding removes the tree.
# timeout: 150
# transport: none
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/loopback.sh
. /usr/lib/gbtest/serdev.sh
. /usr/lib/gbtest/hdlc.sh

serdev_here
need_tool gbsim loopback_test
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
name=$(basename "$(serdev_dev)") || fail "no serdev device with the CC1352 node"
load_gb greybus gb-hdlc gb-loopback
cc1352_sim -m 2:$M/loopback.mnfs -m 3:$M/log.mnfs
on_fail() {
	tail -n 30 log
	cat err
	loopback_on_fail
}
wait_for 40 test -e "$GB_DEVS/1-2.2.1" -a -e "$GB_DEVS/1-3.3.1" ||
	fail "the two nodes did not enumerate: $(ls $GB_DEVS | tr '\n' ' ')"
grep -q 'hdlc: personality cc1352' log || fail "gbsim is not playing the cc1352"
bus=$(hdlc_bus) || fail "no host device with hdlc statistics"
assert_file_eq "$GB_DEVS/$bus/hdlc/port" "$name"
assert_file_eq "$GB_DEVS/$bus/hdlc/mtu" 250
assert_file_eq "$GB_DEVS/1-svc/endo_id" 0x4755
assert_file_eq "$GB_DEVS/1-svc/ap_intf_id" 1
for i in 2 3; do
	assert_file_eq "$GB_DEVS/1-$i.$i/vendor_id" 0x00000126
	assert_file_eq "$GB_DEVS/1-$i.$i/serial_number" 0x0000012600000126
done
expect_dmesg "$name: Greybus link up, messages up to 250 bytes to the peer"
expect_dmesg "$name: peer: \\[[0-9:.,]*\\] <inf> greybus_host: SVC start\$"

wait_for 10 test -e $LB || fail "no gb_loopback0"
lb_patient $LB
lt() {
	/usr/bin/loopback_test "$@" -p -O 60 >lt.out 2>&1 || fail "loopback_test $*: exit $?: $(cat lt.out)"
	grep -q 'Error running test' lt.out && fail "loopback_test $*: $(cat lt.out)"
	grep -q 'errors:[[:space:]]*0$' lt.out || fail "loopback_test $*: errors reported: $(cat lt.out)"
}
lt -t ping -i 50
assert_file_eq $LB/iteration_count 50
lt -t transfer -s 128 -i 30
lt -t transfer -s 64 -i 50 -x -c 8 -o $(lb_patient_us $LB)
# 12 bytes of transfer header and 8 of message header: 230 is the most
echo 230 >$LB/size || fail "a transfer of 230 bytes (250-byte messages) refused"
echo 0 >$LB/async
echo 5 >$LB/iteration_max
echo 3 >$LB/type
wait_file_eq 30 $LB/type 0 || fail "the 230-byte transfers did not finish"
assert_file_eq $LB/error 0
if echo 231 >$LB/size 2>/dev/null; then
	fail "a transfer of 231 bytes (251-byte messages) was accepted"
fi
for s in rx_crc_errors rx_oversize rx_dropped tx_errors; do
	assert_eq "$(hdlc_stat $s)" 0 "$s"
done

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
serdev_unbind
wait_for 10 sh -c "! ls $GB_DEVS | grep -q ." || fail "devices left: $(ls $GB_DEVS)"
unload_all_gb
exit 0
