# Checks that gbnet refuses TLS nodes it must not trust and says why in one line each, while a good TLS node beside them works: a node whose certificate another CA signed ("not signed by FILE"), an expired certificate ("expired on"), a greybus-zephyr node given no client certificate (it closes TCP without an alert: reported as wanting one), a client certificate without the node's TLS host name (alert bad certificate, with the hint), and a name the node's certificate does not carry.
# transport: vhd
# timeout: 150
# tools: openssl
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/tls.sh

need_tool gbsim gbnet openssl
load_gb greybus gb-vhd gb-loopback
tls_pki
tls_node 2 loopback.mnfs node --tls-suites ecdhe-gcm
tls_node 3 loopback.mnfs expired --tls-suites ecdhe-gcm
tls_node 4 loopback.mnfs node --tls-suites ecdhe-gcm
tls_node 5 loopback.mnfs node --tls-suites ecdhe-gcm
tls_node 6 loopback.mnfs node --tls-suites ecdhe-gcm
tls_node 7 loopback.mnfs node --tls-suites ecdhe-gcm
H="cert=$PKI/host.pem key=$PKI/host.key"
gbnet_start --tls-ca "$PKI/ca.pem" \
	--node "tls:127.0.0.2 ca=$PKI/other-ca.pem $H" \
	--node "tls:127.0.0.3 $H" \
	--node "tls:127.0.0.4" \
	--node "tls:127.0.0.5 cert=$PKI/nohost.pem key=$PKI/nohost.key" \
	--node "tls:127.0.0.6 $H name=other.test" \
	--node "tls:127.0.0.7 $H name=node.test"
wait_for 60 tls_is 7 up || fail "good TLS node not up: $(gbnet ctl list) $(gbnet_tail)"
wait_for 30 tls_logged "certificate of 127.0.0.2:4242 (CN=node.test) not signed by $PKI/other-ca.pem" ||
	fail "wrong CA: $(gbnet_tail)"
wait_for 30 tls_logged "certificate of 127.0.0.3:4242 (CN=node.test) expired on" ||
	fail "expired: $(gbnet_tail)"
wait_for 30 tls_logged "127.0.0.4:4242 closed the connection during the handshake without an alert after asking for a client certificate: it requires one" ||
	fail "no client certificate: $(gbnet_tail)"
grep -q "sent no client certificate: TCP closed without an alert" "$GBTEST_TMP/node4.log" ||
	fail "node 4: $(cat "$GBTEST_TMP/node4.log")"
wait_for 30 tls_logged "127.0.0.5:4242 refused the handshake: alert bad certificate (a greybus-zephyr node checks that our certificate names its TLS host name" ||
	fail "no host name: $(gbnet_tail)"
grep -q "does not name gbhost" "$GBTEST_TMP/node5.log" || fail "node 5: $(cat "$GBTEST_TMP/node5.log")"
wait_for 30 tls_logged "certificate of 127.0.0.6:4242 (CN=node.test) does not name other.test" ||
	fail "name: $(gbnet_tail)"
for n in 2 3 4 5 6; do
	tls_is $n up && fail "node $n up: $(gbnet ctl list)"
done
# nothing of theirs reached the kernel; the good one still answers
I=$(tls_intf 7)
B=$(gbnet_bus) || fail "no host device"
assert_eq "$(ls -d $DEV/$B-[0-9]* 2>/dev/null | grep -c "/$B-[0-9]*$")" 1 "modules"
wait_for 30 test -e "$DEV/$B-$I.$I.1/driver" || fail "loopback of node 7 not bound"
exit 0
