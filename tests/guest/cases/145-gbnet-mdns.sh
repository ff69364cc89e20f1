# Checks what of gbnet's DNS-SD discovery (opt-in, --mdns) only a stand-in for avahi-browse can show (case 162 runs the real avahi-daemon and avahi-publish for the rest): lines avahi never prints for a well-formed announcement — an IPv4-mapped loopback address, a port out of range, a host name where the address goes, a line cut short — are refused and said, and a proper line after them still adds its node (via=mdns); avahi-browse itself (the real one) with no daemon to talk to makes gbnet say so in one line and keep its static nodes; without --mdns no browser runs, and the browser is never looked up through PATH (a stand-in placed there must not run).
# transport: vhd
# timeout: 90
# tools: avahi-browse
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh

need_tool gbsim gbnet avahi-browse
load_gb greybus gb-vhd gb-log
FAKE=$GBTEST_TMP/bin
mkdir -p "$FAKE"
cat >"$FAKE/avahi-browse" <<EOS
#!/bin/sh
[ "\$*" = "-p -r -k _greybus._tcp" ] || { echo "unexpected arguments: \$*"; exit 2; }
echo '=;lo;IPv6;local2;_greybus._tcp;local;l.local;::ffff:127.0.0.3;4242;""'
echo '=;eth0;IPv4;badport;_greybus._tcp;local;b.local;192.0.2.2;99999;""'
echo '=;eth0;IPv4;byname;_greybus._tcp;local;n.local;n.local;4242;""'
echo '=;eth0;IPv4;cutline;_greybus._tcp'
echo '+;eth0;IPv4;gbnode;_greybus._tcp;local'
echo '=;eth0;IPv4;gbnode;_greybus._tcp;local;gbnode.local;192.0.2.2;4242;"board=sim"'
exec sleep 1000
EOS
chmod +x "$FAKE/avahi-browse"

# a LAN address of this host (loopback ones are refused from discovery)
ip addr show dev lo | grep -q 'inet 192\.0\.2\.2/32' ||
	ip addr add 192.0.2.2/32 dev lo || fail "cannot add 192.0.2.2 to lo"
gbsim --node tcp:192.0.2.2:4242 -m 2:$M/log.mnfs --ctl "$GBTEST_TMP/lan.ctl" \
	--log "$GBTEST_TMP/lan.log" 2>"$GBTEST_TMP/lan.err" &
gbsim ctl -s "$GBTEST_TMP/lan.ctl" -w 10 tcp >/dev/null || fail "lan node did not start"
node_start 3 log.mnfs
gbnet_start --mdns --mdns-browse "$FAKE/avahi-browse"
_mdns_node() {
	gbnet ctl list | grep -q '^192.0.2.2:4242 state=up .* via=mdns'
}
wait_for 30 _mdns_node || fail "announced node not up: $(gbnet ctl list) $(gbnet_tail)"
I=$(gbnet ctl list | sed -n 's/^192\.0\.2\.2:4242 .* intf=\([0-9]*\) .*/\1/p')
B=$(gbnet_bus) || fail "no host device"
wait_for 30 test -e "$DEV/$B-$I.$I.ctrl/product_string" || fail "no module for the announced node"
assert_file_eq "$DEV/$B-$I.$I.ctrl/product_string" "Log Module"
gbnet ctl status | grep -q 'mdns=on' || fail "status: $(gbnet ctl status)"
grep -q 'mdns: gbnode at 192.0.2.2:4242: node added' "$GBTEST_TMP/gbnet.log" || fail "no log line for the discovery"
gbnet ctl list | grep -q '127.0.0.3' && fail "a node announced on loopback was added: $(gbnet ctl list)"
grep -q 'mdns: local2: address ::ffff:127.0.0.3 refused' "$GBTEST_TMP/gbnet.log" || fail "mapped loopback not refused: $(gbnet_tail)"
grep -q "mdns: badport: unusable address '192.0.2.2' port '99999'" "$GBTEST_TMP/gbnet.log" || fail "bad port not refused: $(gbnet_tail)"
grep -q 'mdns: byname: address n.local refused' "$GBTEST_TMP/gbnet.log" || fail "a name as address not refused: $(gbnet_tail)"
grep -q 'cutline' "$GBTEST_TMP/gbnet.log" && fail "a cut line was said or used: $(gbnet_tail)"
assert_eq "$(gbnet ctl list | grep -c '^[^ ]')" 1 "nodes after the bad lines and one good"
kill $gbnet_pid
wait $gbnet_pid

# no daemon: the real avahi-browse says so and ends; one line, static
# nodes work (an earlier case's bus and daemon are gone with that case)
rm -rf /run/dbus /run/avahi-daemon
rm -f "$GBTEST_TMP/gbnet.log"
gbnet_start --mdns --node 127.0.0.3
wait_for 30 node_is 3 up || fail "static node not up without mDNS: $(gbnet ctl list)"
gbnet ctl status | grep -q 'mdns=unavailable' || fail "status: $(gbnet ctl status)"
wait_for 10 grep -q 'mdns: Failed to create client object: Daemon not running' "$GBTEST_TMP/gbnet.log" ||
	fail "gbnet did not say the daemon is absent: $(gbnet_tail)"
sleep 2
assert_eq "$(grep -c ' mdns: ' "$GBTEST_TMP/gbnet.log")" 1 "mdns lines in gbnet's log"
grep -q 'gbnet: mdns: Failed' "$GBTEST_TMP/gbnet.err" || fail "not said on stderr: $(cat "$GBTEST_TMP/gbnet.err")"
kill $gbnet_pid
wait $gbnet_pid

# discovery is opt-in, and avahi-browse is never looked up through PATH
cat >"$FAKE/avahi-browse" <<EOS
#!/bin/sh
touch $GBTEST_TMP/ran
exec sleep 1000
EOS
export PATH="$FAKE:$PATH"
rm -f "$GBTEST_TMP/gbnet.log"
gbnet_start --node 127.0.0.3
wait_for 30 node_is 3 up || fail "static node not up: $(gbnet ctl list)"
gbnet ctl status | grep -q 'mdns=off' || fail "status without --mdns: $(gbnet ctl status)"
kill $gbnet_pid
wait $gbnet_pid
gbnet_start --mdns --node 127.0.0.3
wait_for 30 node_is 3 up || fail "static node not up: $(gbnet ctl list)"
wait_for 10 grep -q 'mdns: ' "$GBTEST_TMP/gbnet.log" || fail "no mdns line: $(gbnet_tail)"
[ -e "$GBTEST_TMP/ran" ] && fail "gbnet ran avahi-browse from PATH"
exit 0
