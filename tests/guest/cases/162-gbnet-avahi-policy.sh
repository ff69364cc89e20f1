# Checks gbnet's discovery through the real avahi, no stand-in: Debian's avahi-daemon on the guest's system D-Bus, and a gbsim TCP node (GPIO, UART and HID bundles) at a LAN address of this host announced as _greybus._tcp with avahi-publish. Without --mdns the announcement adds nothing and gbnet runs no avahi-browse; with --mdns gbnet (through /usr/bin/avahi-browse, avahi's own client) adds the node (via=mdns), whose GPIO bundle binds and works while its UART and HID bundles stay held by the default policy; a service announced at this host's loopback address is refused; avahi-publish ended (avahi's goodbye) removes the node and its module.
# transport: vhd
# timeout: 180
# tools: dbus-daemon avahi-daemon avahi-publish avahi-browse gpiodetect gpioget
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/avahi.sh

need_tool gbsim gbnet gpiodetect gpioget $AVAHI_TOOLS
load_gb greybus gb-vhd gb-gbphy gb-gpio gb-uart gb-hid gb-log

# bundle_state SPEC B: the state gbnet ctl list gives bundle B of node SPEC
bundle_state() {
	gbnet ctl list | sed -n "/^$1 /,/^[^ ]/s/^  bundle [0-9]*\.$2 .* state=\([a-z]*\).*/\1/p"
}
bundle_is() {
	[ "$(bundle_state "$1" "$2")" = "$3" ]
}
# gbnet_browser: the pid of an avahi-browse gbnet started, if any
gbnet_browser() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(sed -n 's/^PPid:[[:space:]]*//p' "$p/status" 2>/dev/null)" = "$gbnet_pid" ] &&
			tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q avahi-browse &&
			echo "${p#/proc/}"
	done
	return 0
}

# a LAN address of this host (loopback ones are refused from discovery);
# other cases may have added it already: the guest is shared
ip addr show dev lo | grep -q 'inet 192\.0\.2\.2/32' ||
	ip addr add 192.0.2.2/32 dev lo || fail "cannot add 192.0.2.2 to lo"
gbsim --node tcp:192.0.2.2:4242 -m 2:$M/mixed-node.mnfs --ctl "$GBTEST_TMP/lan.ctl" \
	--log "$GBTEST_TMP/lan.log" 2>"$GBTEST_TMP/lan.err" &
gbsim ctl -s "$GBTEST_TMP/lan.ctl" -w 10 tcp >/dev/null || fail "lan node did not start"

avahi_start
avahi_publish_addr gbnode 192.0.2.2
avahi_publish_node gbnode 4242 board=sim
avahi_publish_addr lohost 127.0.0.3
avahi_publish_node lohost 4242
# the announcements are there for any client of the daemon to see
avahi-browse -p -r -t -k _greybus._tcp >browse.out 2>&1
grep -q '^=;lo;IPv4;gbnode;_greybus._tcp;local;gbnode.local;192.0.2.2;4242;"board=sim"$' browse.out ||
	fail "avahi-browse does not resolve gbnode: $(cat browse.out)"
grep -q '^=;lo;IPv4;lohost;.*;127.0.0.3;4242;' browse.out ||
	fail "avahi-browse does not resolve lohost: $(cat browse.out)"

# without --mdns: no browser, nothing but the static node
node_start 4 log.mnfs
gbnet_start --node 127.0.0.4
wait_for 30 node_is 4 up || fail "static node not up: $(gbnet ctl list)"
gbnet ctl status | grep -q 'mdns=off' || fail "status without --mdns: $(gbnet ctl status)"
assert_eq "$(gbnet_browser)" "" "avahi-browse run by gbnet without --mdns"
assert_eq "$(gbnet ctl list | grep -c '^[^ ]')" 1 "nodes without --mdns"
grep -q 'mdns: ' "$GBTEST_TMP/gbnet.log" && fail "mdns lines without --mdns: $(gbnet_tail)"
kill $gbnet_pid
wait $gbnet_pid

# with --mdns: the node is found, held by the default policy but its GPIO
rm -f "$GBTEST_TMP/gbnet.log"
gbnet_start --mdns
_mdns_up() {
	gbnet ctl list | grep -q '^192.0.2.2:4242 state=up .* via=mdns'
}
wait_for 60 _mdns_up || fail "announced node not up: $(gbnet ctl list) $(gbnet_tail)"
[ -n "$(gbnet_browser)" ] || fail "no avahi-browse under gbnet"
gbnet ctl status | grep -q 'mdns=on' || fail "status: $(gbnet ctl status)"
grep -q 'mdns: gbnode at 192.0.2.2:4242: node added' "$GBTEST_TMP/gbnet.log" ||
	fail "no log line for the discovery: $(gbnet_tail)"
I=$(gbnet ctl list | sed -n 's/^192\.0\.2\.2:4242 .* intf=\([0-9]*\) .*/\1/p')
B=$(gbnet_bus) || fail "no host device"
P=$DEV/$B-$I.$I
wait_for 30 test -e "$P.ctrl/product_string" || fail "no module for the announced node"
assert_file_eq "$P.ctrl/product_string" "Mixed Node"
assert_file_eq $DEV/greybus$B/authorized_default 0
wait_for 30 bundle_is 192.0.2.2:4242 1 bound || fail "GPIO bundle not bound: $(gbnet ctl list) $(gbnet_tail)"
wait_for 20 gbphy_gpiochip >/dev/null || fail "no gpiochip from the node"
assert_eq "$(gpioget "$(gbphy_gpiochip)" 0)" 0 "gpioget on the node's line 0"
for b in 2 3; do
	wait_for 20 bundle_is 192.0.2.2:4242 $b held || fail "bundle $b not held: $(gbnet ctl list)"
	assert_file_eq $P.$b/authorized 0
	test -e $P.$b/driver && fail "bundle $b bound while held"
done
ls /sys/class/tty | grep -q '^ttyGB' && fail "a Greybus tty from a held bundle"
ls /sys/class/hidraw 2>/dev/null | grep -q . && fail "a hidraw from a held bundle"
wait_for 10 grep -q "node 192.0.2.2:4242: bundle $I.2 (uart) held by policy (no rule, a discovered node)" \
	"$GBTEST_TMP/gbnet.log" || fail "no denial logged: $(gbnet_tail)"

# the service on loopback: refused, said
wait_for 20 grep -q 'mdns: lohost: address 127.0.0.3 refused' "$GBTEST_TMP/gbnet.log" ||
	fail "loopback not refused: $(gbnet_tail)"
gbnet ctl list | grep -q '127.0.0.3' && fail "a node announced on loopback was added: $(gbnet ctl list)"

# withdrawn: avahi says goodbye, gbnet removes the node
avahi_withdraw gbnode
wait_for 30 test ! -e "$DEV/$B-$I" || fail "module of the withdrawn node still there: $(gbnet ctl list)"
gbnet ctl list | grep -q '^192.0.2.2' && fail "withdrawn node still listed: $(gbnet ctl list)"
grep -q 'mdns: gbnode withdrawn: node 192.0.2.2:4242 removed' "$GBTEST_TMP/gbnet.log" ||
	fail "no withdrawal line: $(gbnet_tail)"
kill $gbnet_pid
wait $gbnet_pid
exit 0
