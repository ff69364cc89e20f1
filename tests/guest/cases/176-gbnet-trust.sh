# Checks gbnet's trust policy: a discovered node (announced with avahi-publish to the guest's avahi-daemon) with no rule gets the default set, so its GPIO bundle binds and works while its UART and HID bundles stay held by policy (authorized 0, no driver; gbnet ctl list says so; one log line for the node); gbnet ctl allow binds them at run time; a static node matched by a rule of the config file (vendor and product strings, address) gets what the rule allows, all three bound; SIGHUP reads the file again (a tighter rule unbinds UART and HID, a new node comes, the old one keeps its connection; gbnet ctl reload does the same: a file that does not parse changes nothing); a bad rule stops gbnet with a message and exit 2.
# transport: vhd
# timeout: 180
# tools: gpiodetect gpioget dbus-daemon avahi-daemon avahi-publish avahi-browse
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

# a LAN address of this host (loopback ones are refused from discovery)
# (case 145 may have added it already: the guest is shared)
ip addr show dev lo | grep -q 'inet 192\.0\.2\.2/32' ||
	ip addr add 192.0.2.2/32 dev lo || fail "cannot add 192.0.2.2 to lo"
gbsim --node tcp:192.0.2.2:4242 -m 2:$M/mixed-node.mnfs --ctl "$GBTEST_TMP/lan.ctl" \
	--log "$GBTEST_TMP/lan.log" 2>"$GBTEST_TMP/lan.err" &
gbsim ctl -s "$GBTEST_TMP/lan.ctl" -w 10 tcp >/dev/null || fail "lan node did not start"
avahi_start
avahi_publish_addr mixed 192.0.2.2
avahi_publish_node mixed 4242 board=sim
gbnet_start --mdns
_mdns_up() {
	gbnet ctl list | grep -q '^192.0.2.2:4242 state=up .* via=mdns'
}
wait_for 60 _mdns_up || fail "announced node not up: $(gbnet ctl list) $(gbnet_tail)"
I=$(gbnet ctl list | sed -n 's/^192\.0\.2\.2:4242 .* intf=\([0-9]*\) .*/\1/p')
B=$(gbnet_bus) || fail "no host device"
P=$DEV/$B-$I.$I
assert_file_eq $DEV/greybus$B/authorized_default 0
wait_for 30 bundle_is 192.0.2.2:4242 1 bound || fail "GPIO bundle not bound: $(gbnet ctl list) $(gbnet_tail)"
wait_for 20 gbphy_gpiochip >/dev/null || fail "no gpiochip from the node"
assert_eq "$(gpioget "$(gbphy_gpiochip)" 0)" 0 "gpioget on the node's line 0"
for b in 2 3; do
	wait_for 20 bundle_is 192.0.2.2:4242 $b held || fail "bundle $b not held: $(gbnet ctl list)"
	assert_file_eq $P.$b/authorized 0
	test -e $P.$b/driver && fail "bundle $b bound while held"
done
gbnet ctl list | grep -q "^  bundle $I.2 class=0x0a functions=uart state=held$" ||
	fail "list: $(gbnet ctl list)"
gbnet ctl list | grep -q "^  bundle $I.3 class=0x05 functions=hid state=held$" ||
	fail "list: $(gbnet ctl list)"
gbnet ctl list | grep -q "^  bundle $I.1 class=0x0a functions=gpio state=bound driver=gbphy$" ||
	fail "list: $(gbnet ctl list)"
ls /sys/class/tty | grep -q '^ttyGB' && fail "a Greybus tty from a held bundle"
ls /sys/class/hidraw 2>/dev/null | grep -q . && fail "a hidraw from a held bundle"
wait_for 10 grep -q 'held by policy' "$GBTEST_TMP/gbnet.log" || fail "no denial logged: $(gbnet_tail)"
assert_eq "$(grep -c 'held by policy' "$GBTEST_TMP/gbnet.log")" 1 "denial lines for the node"
grep -q "node 192.0.2.2:4242: bundle $I.2 (uart) held by policy (no rule, a discovered node): uart not allowed; 'gbnet ctl allow 192.0.2.2:4242 uart'" \
	"$GBTEST_TMP/gbnet.log" || fail "denial line: $(grep 'held by' "$GBTEST_TMP/gbnet.log")"

# allowed at run time: they bind
gbnet ctl allow 192.0.2.2:4242 hidden 2>/dev/null && fail "ctl allow took an unknown function"
gbnet ctl allow 192.0.2.2:4242 uart hid || fail "gbnet ctl allow failed"
for b in 2 3; do
	wait_for 20 test -e $P.$b/driver || fail "bundle $b not bound once allowed: $(gbnet ctl list)"
	assert_file_eq $P.$b/authorized 1
done
wait_for 20 bundle_is 192.0.2.2:4242 3 bound || fail "list: $(gbnet ctl list)"
kill $gbnet_pid
wait $gbnet_pid

# a rule in the config file allows them for a static node
node_start 3 mixed-node.mnfs
cat >$GBTEST_TMP/gbnet.conf <<EOS
node 127.0.0.3
rule addr=10.0.0.0/8 allow all
rule addr=127.0.0.0/8 vendor="Greybus Sim" product="Mixed Node" allow default,hid uart
EOS
gbnet_start --no-mdns -c $GBTEST_TMP/gbnet.conf
wait_for 30 node_is 3 up || fail "static node not up: $(gbnet ctl list) $(gbnet_tail)"
for b in 1 2 3; do
	wait_for 30 bundle_is 127.0.0.3 $b bound || fail "bundle $b not bound under the rule: $(gbnet ctl list) $(gbnet_tail)"
done
grep -q 'held by policy' "$GBTEST_TMP/gbnet.log" && fail "held under the rule: $(gbnet_tail)"

# SIGHUP: the file read again; the rule now denies uart and hid, which
# are unbound; a node more comes; node 3 keeps its connection
node_start 4 log.mnfs
cat >$GBTEST_TMP/gbnet.conf <<EOS
node 127.0.0.3
node 127.0.0.4
rule addr=127.0.0.3 allow default
EOS
kill -HUP $gbnet_pid
wait_for 30 node_is 4 up || fail "node 4 not added on SIGHUP: $(gbnet ctl list) $(gbnet_tail)"
for b in 2 3; do
	wait_for 30 bundle_is 127.0.0.3 $b held || fail "bundle $b not held after SIGHUP: $(gbnet ctl list) $(gbnet_tail)"
done
bundle_is 127.0.0.3 1 bound || fail "GPIO lost on SIGHUP: $(gbnet ctl list)"
assert_eq "$(node_field 3 connects)" 1 "node 3's connects after SIGHUP"
grep -q 'reload: .*gbnet.conf read again: 1 nodes added, 0 removed, 1 rules' "$GBTEST_TMP/gbnet.log" ||
	fail "no reload line: $(gbnet_tail)"
# a file that does not parse changes nothing
echo 'rule allow sometimes' >>$GBTEST_TMP/gbnet.conf
gbnet ctl reload >out 2>&1 && fail "gbnet ctl reload of a bad file succeeded"
grep -q 'gbnet.conf did not parse: nothing changed' out || fail "ctl reload: $(cat out)"
wait_for 10 grep -q 'reload: .*gbnet.conf:4: unknown function' "$GBTEST_TMP/gbnet.log" ||
	fail "bad file not reported: $(gbnet_tail)"
node_is 4 up || fail "node 4 went with a bad file: $(gbnet ctl list)"
kill $gbnet_pid
wait $gbnet_pid

# a bad rule: exit 2 and why
gbnet --no-mdns --rule 'addr=127.0.0.300 allow gpio' >out 2>err
assert_eq $? 2 "gbnet's exit status for a bad rule"
grep -q "addr '127.0.0.300' is not an IPv4 or IPv6 address" err || fail "message: $(cat err)"
exit 0
