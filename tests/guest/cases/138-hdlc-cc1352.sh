# Checks gb-hdlc against gbsim's cc1352 personality, the CC1352 firmware's observable behaviour: endo 0x4755 and AP interface 1, two nodes whose every DME attribute reads 0x0126 enumerate side by side (same vendor, product, serial), its debug text reaches the kernel log, and an eject it never answers times out after 9 s without stalling the enumeration of a node inserted meanwhile or the traffic of another.
# timeout: 120
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
CTL=$GBTEST_TMP/ctl
hdlc_setup
load_gb gb-loopback
cc1352_start --ctl $CTL -m 2:$M/loopback.mnfs -m 3:$M/log.mnfs
wait_for 30 test -e "$GB_DEVS/1-2.2.1" -a -e "$GB_DEVS/1-3.3.1" ||
	fail "the two nodes did not enumerate: $(ls $GB_DEVS | tr '\n' ' ')"
grep -q 'hdlc: personality cc1352' log || fail "gbsim is not playing the cc1352"
assert_file_eq "$GB_DEVS/1-svc/endo_id" 0x4755
assert_file_eq "$GB_DEVS/1-svc/ap_intf_id" 1
for i in 2 3; do
	d=$GB_DEVS/1-$i.$i
	assert_file_eq "$d/vendor_id" 0x00000126
	assert_file_eq "$d/product_id" 0x00000126
	assert_file_eq "$d/ddbl1_manufacturer_id" 0x00000126
	assert_file_eq "$d/ddbl1_product_id" 0x00000126
	assert_file_eq "$d/serial_number" 0x0000012600000126
done
expect_dmesg 'pts[0-9]*: peer: \[[0-9:.,]*\] <inf> greybus_host: SVC start$'
assert_eq "$(hdlc_stat rx_debug)" 1 rx_debug
wait_for 10 test -e $LB || fail "no gb_loopback0"
lb_patient $LB

# an eject the firmware never answers, while a third node comes and
# the first one keeps talking
t0=$(_gb_now_cs)
( echo 3 >"$GB_DEVS/1-svc/intf_eject" 2>eject.err; echo $? >eject.rc ) &
epid=$!
wait_for 5 grep -q 'svc.intf_eject' log || fail "the eject did not reach gbsim"
gbsim ctl -s $CTL insert 4 $M/log.mnfs || fail "gbsim ctl insert 4 failed"
wait_for 5 test -e "$GB_DEVS/1-4.4.1" ||
	fail "node 4 did not enumerate while the eject was pending"
[ -e eject.rc ] && fail "the eject ended before its timeout: rc $(cat eject.rc)"
echo 16 >$LB/size
echo 20 >$LB/iteration_max
echo 2 >$LB/type
wait_file_eq 10 $LB/type 0 || fail "pings stalled behind the eject"
assert_file_eq $LB/error 0
wait $epid
assert_eq "$(cat eject.rc)" 1 "eject exit status"
waited=$(( $(_gb_now_cs) - t0 ))
[ "$waited" -ge 850 ] || fail "the eject failed after $waited cs, before its 9 s timeout"
grep -q 'svc.intf_eject' log || fail "gbsim never saw the eject"
[ -e "$GB_DEVS/1-3.3.1" ] || fail "node 3 went away though the eject was never answered"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 sh -c "! ls $GB_DEVS | grep -q ." || fail "devices left: $(ls $GB_DEVS)"
unload_all_gb
exit 0
