# Checks gbnet's DNS-SD discovery (opt-in, --mdns) through avahi's client (avahi-browse -p -r -k _greybus._tcp, played here by a script with avahi's output format given as --mdns-browse, as the guest runs no avahi-daemon): a node announced becomes a module (via=mdns in gbnet ctl list), one withdrawn goes, one announced on loopback is refused; without the daemon gbnet says so in one line and keeps its static nodes; without --mdns the program is not run.
# transport: vhd
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh

need_tool gbsim gbnet
load_gb greybus gb-vhd gb-log
FAKE=$GBTEST_TMP/bin
mkdir -p "$FAKE"
cat >"$FAKE/avahi-browse" <<EOS
#!/bin/sh
[ "\$*" = "-p -r -k _greybus._tcp" ] || { echo "unexpected arguments: \$*"; exit 2; }
echo '=;lo;IPv4;local1;_greybus._tcp;local;l.local;127.0.0.3;4242;""'
echo '=;lo;IPv6;local2;_greybus._tcp;local;l.local;::ffff:127.0.0.3;4242;""'
echo '+;eth0;IPv4;gbnode;_greybus._tcp;local'
echo '=;eth0;IPv4;gbnode;_greybus._tcp;local;gbnode.local;192.0.2.2;4242;"board=sim"'
while [ ! -e $GBTEST_TMP/withdraw ]; do sleep 1; done
echo '-;eth0;IPv4;gbnode;_greybus._tcp;local'
exec sleep 1000
EOS
chmod +x "$FAKE/avahi-browse"

# a LAN address of this host (loopback ones are refused from discovery)
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
grep -q 'mdns: local1: address 127.0.0.3 refused' "$GBTEST_TMP/gbnet.log" || fail "loopback not refused: $(gbnet_tail)"
grep -q 'mdns: local2: address ::ffff:127.0.0.3 refused' "$GBTEST_TMP/gbnet.log" || fail "mapped loopback not refused: $(gbnet_tail)"

touch "$GBTEST_TMP/withdraw"
wait_for 15 test ! -e "$DEV/$B-$I" || fail "module of the withdrawn node still there: $(gbnet ctl list)"
gbnet ctl list | grep -q '^192.0.2.2' && fail "withdrawn node still listed: $(gbnet ctl list)"
kill $gbnet_pid
wait $gbnet_pid

# no daemon: avahi-browse says so and ends; one line, static nodes work
cat >"$FAKE/avahi-browse" <<EOS
#!/bin/sh
echo 'Failed to create client object: Daemon not running' >&2
exit 1
EOS
rm -f "$GBTEST_TMP/gbnet.log"
gbnet_start --mdns --mdns-browse "$FAKE/avahi-browse" --node 127.0.0.3
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
