# Checks gbnet's run-time control and its end: with --user it runs without root yet serves nodes; gbnet ctl adds a node at run time (also over IPv6, [::1]) and removes one (its module goes); bad words are refused; killing gbnet unplugs the host device and every node's module like any unplug, and the nodes see their client go.
# transport: vhd
# timeout: 120
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh

need_tool gbsim gbnet
load_gb greybus gb-vhd gb-log
node_start 2 log.mnfs
node_start 3 log.mnfs
gbsim --node 'tcp:[::1]:4243' -m 2:$M/log.mnfs --log "$GBTEST_TMP/node6.log" 2>"$GBTEST_TMP/node6.err" &
gbnet_start --node 127.0.0.2 --user 65534:65534
wait_for 30 node_is 2 up || fail "node 2 not up: $(gbnet ctl list) $(gbnet_tail)"
assert_eq "$(sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' /proc/$gbnet_pid/status)" 65534 "gbnet's uid"
assert_eq "$(sed -n 's/^Gid:[[:space:]]*\([0-9]*\).*/\1/p' /proc/$gbnet_pid/status)" 65534 "gbnet's gid"
B=$(gbnet_bus) || fail "no host device"

# add at run time, v4 and v6
gbnet ctl add 127.0.0.3:4242 || fail "ctl add"
gbnet ctl add '[::1]:4243' || fail "ctl add v6"
wait_for 30 node_is 3 up || fail "node 3 not up: $(gbnet ctl list)"
_v6_up() {
	gbnet ctl list | grep -q '^\[::1\]:4243 state=up .*addr=\[::1\]:4243'
}
wait_for 30 _v6_up ||
	fail "v6 node not up: $(gbnet ctl list) $(cat "$GBTEST_TMP/node6.err")"
I6=$(gbnet ctl list | sed -n 's/^\[::1\]:4243 .* intf=\([0-9]*\) .*/\1/p')
wait_for 20 test -e "$DEV/$B-$I6.$I6.ctrl" || fail "no module for the v6 node"
gbnet ctl add 127.0.0.3:4242 2>err && fail "a node added twice"
grep -q 'already known' err || fail "add twice: $(cat err)"
gbnet ctl add 'host:99999' 2>err && fail "port 99999 accepted"
gbnet ctl remove 127.0.0.9 2>err && fail "removing an unknown node succeeded"

# remove: the module goes, the node sees its client go
I3=$(node_intf 3)
gbnet ctl remove 127.0.0.3:4242 || fail "ctl remove"
wait_for 10 test ! -e "$DEV/$B-$I3" || fail "module $B-$I3 still there"
wait_for 10 grep -q 'node 2: client gone' "$GBTEST_TMP/node3.log" || fail "node 3 kept its client"
gbnet ctl list | grep -q '^127.0.0.3' && fail "node 3 still listed"

# gbnet killed: the host device goes, with every module
I2=$(node_intf 2)
kill -KILL $gbnet_pid
wait_for 10 test ! -e "$DEV/greybus$B" || fail "greybus$B still there after gbnet died"
test -e "$DEV/$B-$I2" && fail "module $B-$I2 still there"
wait_for 10 grep -q 'node 2: client gone' "$GBTEST_TMP/node2.log" || fail "node 2 kept its client"
exit 0
