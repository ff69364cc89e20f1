# Checks that discovery cannot be abused: 10,000 services announced at once (avahi-browse's output format, played by a script given as --mdns-browse) leave gbnet with at most --mdns-max discovered nodes (default 16), at most --mdns-rate new ones per minute, a bounded resident size and a handful of log lines, while its static node keeps working. The stand-in, not avahi, because only it can deliver 10,000 at once: avahi-daemon needs minutes for a few thousand services even on the host, and gives any one client at most 1024 resolvers (objects-per-client-max); case 163 runs the caps through the real daemon with 40.
# transport: vhd
# timeout: 120
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh

need_tool gbsim gbnet
load_gb greybus gb-vhd gb-log
FAKE=$GBTEST_TMP/bin
mkdir -p "$FAKE"
# 10,000 services at 10.x.y.z (no route in the guest: each attempt fails at
# once), then the list is done and stays
cat >"$FAKE/avahi-browse" <<EOS
#!/bin/sh
i=0
while [ \$i -lt 10000 ]; do
	a=\$((i / 250)); b=\$((i % 250 + 1))
	echo "=;eth0;IPv4;flood\$i;_greybus._tcp;local;f\$i.local;10.0.\$a.\$b;4242;\"\""
	i=\$((i + 1))
done
echo 'all announced' >&2
: >$GBTEST_TMP/announced
exec sleep 1000
EOS
chmod +x "$FAKE/avahi-browse"

# vm_rss PID: resident kB
vm_rss() {
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status"
}
mdns_nodes() {
	gbnet ctl list | grep -c ' via=mdns'
}

node_start 3 log.mnfs
gbnet_start --mdns --mdns-browse "$FAKE/avahi-browse" --node 127.0.0.3
wait_for 30 node_is 3 up || fail "static node not up: $(gbnet ctl list)"
rss0=$(vm_rss $gbnet_pid)
wait_for 90 test -e "$GBTEST_TMP/announced" || fail "the script did not finish"
# the script ends once gbnet has read all but a pipe's worth of it
_settled() {
	[ "$(mdns_nodes)" -eq 16 ]
}
wait_for 30 _settled || fail "discovered nodes: $(mdns_nodes) (want 16): $(gbnet ctl status)"
assert_eq "$(mdns_nodes)" 16 "discovered nodes after 10,000 announcements"
n=$(gbnet ctl list | grep -c "^[^ ]")	# node lines; bundles are indented
assert_eq "$n" 17 "nodes in all"
rss1=$(vm_rss $gbnet_pid)
info "gbnet resident: ${rss0} kB before, ${rss1} kB after 10,000 announcements"
[ $((rss1 - rss0)) -lt 8192 ] || fail "gbnet grew by $((rss1 - rss0)) kB"
lines=$(grep -c 'mdns: flood' "$GBTEST_TMP/gbnet.log")
[ "$lines" -le 40 ] || fail "$lines log lines for the flood"
grep -q 'not added: 16 discovered nodes already (--mdns-max)' "$GBTEST_TMP/gbnet.log" ||
	fail "the cap is not said: $(gbnet_tail)"
fds=$(ls /proc/$gbnet_pid/fd | wc -l)
[ "$fds" -le 40 ] || fail "gbnet holds $fds descriptors"
# the static node still works
I=$(node_intf 3)
B=$(gbnet_bus) || fail "no host device"
wait_for 30 test -e "$DEV/$B-$I.$I.ctrl/product_string" || fail "static node's module gone"
node_is 3 up || fail "static node: $(gbnet ctl list)"
kill $gbnet_pid
wait $gbnet_pid

# the rate: at most N new discovered nodes per minute, whatever the cap
rm -f "$GBTEST_TMP/announced" "$GBTEST_TMP/gbnet.log"
gbnet_start --mdns --mdns-browse "$FAKE/avahi-browse" --mdns-max 1000 --mdns-rate 5
wait_for 90 test -e "$GBTEST_TMP/announced" || fail "the script did not finish"
_five() {
	[ "$(mdns_nodes)" -eq 5 ] &&
		grep -q 'not added: 5 new nodes this minute already (--mdns-rate)' "$GBTEST_TMP/gbnet.log"
}
wait_for 30 _five || fail "discovered nodes: $(mdns_nodes) (want 5): $(gbnet_tail)"
exit 0
