# Checks that gbmon, started before gbsim, shows the article's audio module enumerate with every operation matched to its response (latency shown), nothing malformed or lost; that its -w capture reads back the same, and holds the same messages as gbsim --capture wrote on the far end of the link. Both captures go to the host, where tshark with our dissector names every step of the enumeration in them, none malformed (tests/host/dissect).
# timeout: 120
# host: dissect
. /usr/lib/gbtest/lib.sh

need_tool gbsim
need_tool gbmon
M=/usr/share/greybus/manifests
T=$GBTEST_TMP
load_gb greybus gb-vhd
[ -r /sys/kernel/debug/greybus/monitor ] || fail "no kernel monitor in debugfs"

gbmon -w $T/ap.pcapng >$T/live.txt 2>$T/gbmon.err &
mon=$!
# gbmon reads from the monitor once it holds the file open
wait_for 20 sh -c "ls -l /proc/$mon/fd 2>/dev/null | grep -q greybus/monitor" ||
	fail "gbmon did not open the monitor: $(cat $T/gbmon.err)"

gbsim -l $T/gbsim.log --capture $T/far.pcapng \
	-m 2:$M/audio.mnfs,vid=0x12345678,pid=0x9abcdef0 2>$T/gbsim.err &
sim=$!
D=/sys/bus/greybus/devices
wait_for 30 test -e $D/1-2.2.1/bundle_class ||
	fail "bundle 1-2.2.1 did not appear: $(cat $T/gbsim.err)"
uevent_settle 10
# all done once gbmon has a line for every request gbsim logged (sent or
# received): a line is printed when the response arrives
ops_done() {
	[ "$(grep -c ' req id=' $T/gbsim.log)" = "$(wc -l <$T/live.txt)" ]
}
wait_for 30 ops_done ||
	fail "gbsim logged $(grep -c ' req id=' $T/gbsim.log) requests, gbmon shows $(wc -l <$T/live.txt) operations: $(tail -n 5 $T/live.txt)"

kill $mon
wait $mon
rc=$?
assert_eq "$rc" 0 "gbmon's exit status ($(cat $T/gbmon.err))"
kill $sim
wait $sim

info "$(wc -l <$T/live.txt) operations; $(grep 'control.get_manifest ' $T/live.txt | head -n 1)"
# each step of the article's enumeration, by name, matched and timed
STEPS="svc.protocol_version svc.svc_hello svc.module_inserted
	svc.intf_vsys_enable svc.intf_refclk_enable svc.intf_unipro_enable
	svc.intf_activate svc.dme_peer_get svc.intf_device_id svc.route_create
	svc.conn_create control.version control.get_manifest_size
	control.get_manifest control.connected control.bundle_activate"
for op in $STEPS; do
	grep -qE "^ *[0-9.]+ greybus1 [<>] .* $op id=0x[0-9a-f]{4}.* -> success.* \([0-9]+ us\)$" $T/live.txt ||
		fail "no matched $op in: $(head -n 40 $T/live.txt)"
done
grep -q 'greybus1 > intf 2 cport 0 control.get_manifest_size id=0x[0-9a-f]* -> success size=' $T/live.txt ||
	fail "get_manifest_size's size not decoded: $(grep manifest_size $T/live.txt)"
grep -qE 'greybus1 < svc cport 0 svc.svc_hello .*endo_id=0x4755' $T/live.txt ||
	fail "svc_hello's fields not decoded"
# every operation matched: none left without its response, none malformed
grep -E 'no response|not seen|malformed|lost' $T/live.txt &&
	fail "unmatched or malformed operations (above)"

# the capture reads back as what was shown live
gbmon -r $T/ap.pcapng >$T/replay.txt 2>$T/replay.err || fail "gbmon -r: $(cat $T/replay.err)"
cmp -s $T/live.txt $T/replay.txt || fail "replay differs: $(diff $T/live.txt $T/replay.txt | head -n 5)"

# both ends of the link saw the same operations (names, ids, results, fields)
# (bus number, CPort numbers, bundles and latencies aside; sorted, as
# operations in the two directions may end in another order at each end)
strip() {
	sed -E 's/^ *[0-9.]+ greybus[0-9]+ //; s/ \([0-9]+ us\)$//;
		s/ cport [0-9]+ / /; s/(intf [0-9]+)\.[0-9]+/\1/' "$1" | sort
}
gbmon -r $T/far.pcapng >$T/far.txt 2>&1 || fail "gbmon -r of gbsim's capture: $(cat $T/far.txt)"
strip $T/live.txt >$T/a
strip $T/far.txt >$T/b
cmp -s $T/a $T/b || fail "AP and gbsim captures differ: $(diff $T/a $T/b | head -n 6)"

# both captures to the host's tshark, with the steps it must name
for c in ap far; do
	printf '%s\n' $STEPS >$T/$c.pcapng.expect
	export_file $c.pcapng
	export_file $c.pcapng.expect
done
exit 0
