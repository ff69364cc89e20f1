# Checks nodes coming and going behind the CC1352 of the arm64 guest's device tree, as the chip reports them (module inserted when a node's connection is up, removed when it drops; gbsim --personality cc1352 on the PL011's far end): GB_CYCLES (24) insert/remove cycles of a node, a quarter of them removed in the middle of its enumeration, while a second node stays bound; each leaves nothing behind and the link no error.
# timeout: 150
# transport: none
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/serdev.sh
. /usr/lib/gbtest/hdlc.sh

serdev_here
need_tool gbsim
M=/usr/share/greybus/manifests
CTL=$GBTEST_TMP/ctl
CYCLES=${GB_CYCLES:-24}
load_gb greybus gb-hdlc gb-test-protocol gb-loopback
cc1352_sim --ctl "$CTL" -m 3:$M/loopback.mnfs

c() {
	gbsim ctl -s "$CTL" "$@"
}
bound() {
	[ "$(cat $GB_DEVS/1-2.2.1/test_result 2>/dev/null)" = ok ]
}
gone() {
	[ ! -e $GB_DEVS/1-2 ]
}

wait_for 40 test -e $GB_DEVS/1-3.3.1 || fail "node 3 did not enumerate: $(ls $GB_DEVS | tr '\n' ' ')"
i=0
while [ $i -lt "$CYCLES" ]; do
	c insert 2 $M/test-vendor.mnfs || fail "cycle $i: insert failed"
	if [ $((i % 4)) = 3 ]; then
		usleep $(( (i * 7 % 40) * 1000 ))
	else
		wait_for 20 bound || fail "cycle $i: node 2 did not bind: $(ls $GB_DEVS | tr '\n' ' ')"
	fi
	c remove 2 || fail "cycle $i: remove failed"
	wait_for 20 gone || fail "cycle $i: 1-2 still there: $(ls $GB_DEVS | tr '\n' ' ')"
	i=$((i + 1))
done
[ -e $GB_DEVS/1-3.3.1 ] || fail "node 3 went away during the cycles"
uevent_settle 20
left=$(ls $GB_DEVS | grep '^1-2' | tr '\n' ' ')
[ -z "$left" ] || fail "node 2's devices left after the cycles: $left"
for s in rx_crc_errors rx_oversize rx_dropped tx_errors; do
	assert_eq "$(hdlc_stat $s)" 0 "$s"
done

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
serdev_unbind
unload_all_gb
exit 0
