# Checks both suite families of greybus-zephyr's TLS nodes: a node built with mbedTLS's defaults (only RSA key transport CBC suites, no forward secrecy) is refused by default with a message that says why and what to rebuild the node with (ECDHE-ECDSA, GCM), and accepted when its settings say suites=legacy (TLS_RSA_WITH_AES_*_CBC_*); gbsim's strict node (not zephyr) speaks TLS 1.3.
# transport: vhd
# timeout: 150
# tools: openssl
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/tls.sh

need_tool gbsim gbnet openssl
load_gb greybus gb-vhd gb-loopback
tls_pki rsa
tls_node 2 loopback.mnfs node-rsa
tls_node 3 loopback.mnfs node-rsa
node_start_tls 4 loopback.mnfs --tls-cert "$PKI/node.pem" --tls-key "$PKI/node.key" \
	--tls-ca "$PKI/ca.pem" --tls-name gbhost
gbnet_start --tls-ca "$PKI/ca.pem" --tls-cert "$PKI/host.pem" --tls-key "$PKI/host.key" \
	--node tls:127.0.0.2 --node "tls:127.0.0.3 suites=legacy" --node tls:127.0.0.4
wait_for 60 tls_is 3 up || fail "legacy node not up: $(gbnet ctl list) $(gbnet_tail)"
gbnet ctl list | grep -q '^tls:127.0.0.3 state=up .* tls="TLSv1.2 AES[0-9]*-SHA[0-9]*"' ||
	fail "list: $(gbnet ctl list)"
wait_for 60 tls_is 4 up || fail "TLS 1.3 node not up: $(gbnet ctl list) $(gbnet_tail)"
gbnet ctl list | grep -q '^tls:127.0.0.4 state=up .* tls="TLSv1.3 ' || fail "list: $(gbnet ctl list)"
wait_for 30 tls_logged "127.0.0.2:4242 offers only TLS_RSA_WITH_AES_" ||
	fail "no refusal: $(gbnet_tail)"
tls_logged "RSA key transport, no forward secrecy; refused (allow it for this node with suites=legacy, or rebuild the node with ECDHE-ECDSA and GCM" ||
	fail "refusal says why: $(grep offers "$GBTEST_TMP/gbnet.log")"
tls_is 2 up && fail "RSA-CBC node up by default"
B=$(gbnet_bus) || fail "no host device"
for n in 3 4; do
	I=$(tls_intf $n)
	wait_for 30 test -e "$DEV/$B-$I.$I.1/driver" || fail "loopback of node $n not bound"
done
exit 0
