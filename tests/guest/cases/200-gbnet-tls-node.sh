# Checks gbnet against a greybus-zephyr TLS node (gbsim's, personality zephyr: TLS 1.2 only, client certificate required, host name gbhost, ECDHE-ECDSA GCM suites): with a client certificate naming gbhost and the node's certificate checked against the CA and the name node.test, the node comes up over TLS 1.2 (ctl list shows the suite, the certificate's SHA-256 as openssl computes it, its subject), enumerates and its GPIO works; a rule matching the certificate's fingerprint holds its UART and HID bundles while a rule on another fingerprint does not match.
# transport: vhd
# timeout: 150
# tools: openssl gpiodetect gpioget
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbphy.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/tls.sh

need_tool gbsim gbnet openssl gpiodetect gpioget
load_gb greybus gb-vhd gb-gbphy gb-gpio gb-uart gb-hid
tls_pki
FP=$(tls_sha256 "$PKI/node.pem")
OTHER=$(tls_sha256 "$PKI/host.pem")
[ ${#FP} = 64 ] || fail "fingerprint '$FP'"
tls_node 2 mixed-node.mnfs node --tls-suites ecdhe-gcm
gbnet_start --tls-ca "$PKI/ca.pem" --tls-cert "$PKI/host.pem" --tls-key "$PKI/host.key" \
	--rule "fingerprint=$OTHER allow all" --rule "fingerprint=$FP allow gpio" \
	--node "tls:127.0.0.2 name=node.test"
wait_for 60 tls_is 2 up || fail "TLS node not up: $(gbnet ctl list) $(gbnet_tail)"
gbnet ctl list | grep -q "^tls:127.0.0.2 state=up .* tls=\"TLSv1.2 ECDHE-ECDSA-AES[0-9]*-GCM-SHA[0-9]*\" sha256=$FP subject=\"CN=node.test\"" ||
	fail "ctl list: $(gbnet ctl list)"
grep -q "node 2: TLS up: TLSv1.2 ECDHE-ECDSA" "$GBTEST_TMP/node2.log" ||
	fail "node's log: $(cat "$GBTEST_TMP/node2.log")"
I=$(tls_intf 2)
B=$(gbnet_bus) || fail "no host device"
P=$DEV/$B-$I.$I
wait_for 30 test -e "$P.1/driver" || fail "GPIO bundle not bound: $(gbnet ctl list) $(gbnet_tail)"
wait_for 20 gbphy_gpiochip >/dev/null || fail "no gpiochip from the node"
assert_eq "$(gpioget "$(gbphy_gpiochip)" 0)" 0 "gpioget over TLS"
# the fingerprint rule: only gpio
for b in 2 3; do
	wait_for 20 test -e "$P.$b/authorized" || fail "no bundle $b"
	assert_file_eq "$P.$b/authorized" 0
done
test -e "$P.2/driver" && fail "UART bound against the fingerprint rule"
wait_for 10 tls_logged "held by policy" || fail "no denial logged: $(gbnet_tail)"
exit 0
