# Checks discovery's caps through the real avahi: 40 _greybus._tcp services announced by Debian's avahi-daemon itself (its static service files, their host names in its hosts file, at addresses the guest has no route to) leave gbnet --mdns with 16 discovered nodes (--mdns-max's default), the cap said in at most a line a service and its static node working; with --mdns-max 100 --mdns-rate 5, 5 nodes in the minute and the rate said. The 10,000-service flood is case 170's, with a stand-in for avahi-browse: avahi-daemon needs minutes for a few thousand services even on the host, and caps every client at 1024 resolvers (objects-per-client-max), so no avahi client ever reports 10,000 at once.
# transport: vhd
# timeout: 180
# tools: dbus-daemon avahi-daemon avahi-browse
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/avahi.sh

need_tool gbsim gbnet $AVAHI_TOOLS
load_gb greybus gb-vhd gb-log
N=40

# the services and host names, in the daemon's own directory (the guest
# is shared: both go again when the case ends, however it ends)
cp /etc/avahi/hosts "$GBTEST_TMP/hosts.orig"
_restore() {
	rm -f /etc/avahi/services/gbflood*.service
	cp "$GBTEST_TMP/hosts.orig" /etc/avahi/hosts
}
trap _restore EXIT
i=0
while [ $i -lt $N ]; do
	cat >/etc/avahi/services/gbflood$i.service <<EOS
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<service-group>
  <name>flood$i</name>
  <service>
    <type>_greybus._tcp</type>
    <port>4242</port>
    <host-name>flood$i.local</host-name>
  </service>
</service-group>
EOS
	echo "10.0.0.$((i + 1)) flood$i.local" >>/etc/avahi/hosts
	i=$((i + 1))
done
avahi_start

mdns_nodes() {
	gbnet ctl list | grep -c ' via=mdns'
}
node_start 3 log.mnfs
gbnet_start --mdns --node 127.0.0.3
wait_for 30 node_is 3 up || fail "static node not up: $(gbnet ctl list)"
_capped() {
	[ "$(mdns_nodes)" -eq 16 ] &&
		grep -q 'not added: 16 discovered nodes already (--mdns-max)' "$GBTEST_TMP/gbnet.log"
}
wait_for 120 _capped || fail "discovered nodes: $(mdns_nodes) (want 16): $(gbnet_tail)"
# the daemon does announce all of them: the cap is gbnet's
_announced() {
	[ "$(avahi-browse -p -r -t -k _greybus._tcp 2>/dev/null | grep -c '^=;lo;IPv4;flood[0-9]*;')" -eq $N ]
}
wait_for 60 _announced || fail "avahi-browse resolves $(avahi-browse -p -r -t -k _greybus._tcp 2>&1 | grep -c '^=') of $N"
assert_eq "$(mdns_nodes)" 16 "discovered nodes after $N announcements"
# at most a line a service (refusals are rate-limited too: case 170)
lines=$(grep -c 'mdns: flood' "$GBTEST_TMP/gbnet.log")
[ "$lines" -le $N ] || fail "$lines log lines for $N services"
fds=$(ls /proc/$gbnet_pid/fd | wc -l)
[ "$fds" -le 40 ] || fail "gbnet holds $fds descriptors"
node_is 3 up || fail "static node: $(gbnet ctl list)"
kill $gbnet_pid
wait $gbnet_pid

# the rate: at most N new discovered nodes per minute, whatever the cap
rm -f "$GBTEST_TMP/gbnet.log"
gbnet_start --mdns --mdns-max 100 --mdns-rate 5
_five() {
	[ "$(mdns_nodes)" -eq 5 ] &&
		grep -q 'not added: 5 new nodes this minute already (--mdns-rate)' "$GBTEST_TMP/gbnet.log"
}
wait_for 60 _five || fail "discovered nodes: $(mdns_nodes) (want 5): $(gbnet_tail)"
exit 0
