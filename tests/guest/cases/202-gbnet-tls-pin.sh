# Checks gbnet's pinned fingerprints for TLS nodes: with no CA file, a node whose certificate's SHA-256 is the pin (given with colons, in upper case, as openssl prints it) comes up and works; another pin is refused with both fingerprints in the message; a pin that is not a SHA-256 stops gbnet with exit 2 and says so.
# transport: vhd
# timeout: 120
# tools: openssl
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/tls.sh

need_tool gbsim gbnet openssl
load_gb greybus gb-vhd gb-loopback
tls_pki
FP=$(tls_sha256 "$PKI/node.pem")
PIN=$(openssl x509 -in "$PKI/node.pem" -noout -fingerprint -sha256 | sed 's/.*=//')
WRONG=$(tls_sha256 "$PKI/expired.pem")
tls_node 2 loopback.mnfs node --tls-suites ecdhe-gcm
tls_node 3 loopback.mnfs node --tls-suites ecdhe-gcm

gbnet --ctl "$GBTEST_TMP/bad.ctl" --node "tls:127.0.0.9 pin=abcd" 2>"$GBTEST_TMP/bad.err"
assert_eq $? 2 "exit status of a bad pin"
grep -q "pin 'abcd': 64 hex digits" "$GBTEST_TMP/bad.err" || fail "bad pin: $(cat "$GBTEST_TMP/bad.err")"

H="cert=$PKI/host.pem key=$PKI/host.key"
gbnet_start --node "tls:127.0.0.2 pin=$PIN $H" --node "tls:127.0.0.3 pin=$WRONG $H"
wait_for 60 tls_is 2 up || fail "pinned node not up: $(gbnet ctl list) $(gbnet_tail)"
gbnet ctl list | grep -q "^tls:127.0.0.2 state=up .* sha256=$FP " || fail "list: $(gbnet ctl list)"
wait_for 30 tls_logged "certificate of 127.0.0.3:4242 (CN=node.test) has SHA-256 $FP, not the pinned $WRONG" ||
	fail "wrong pin: $(gbnet_tail)"
tls_is 3 up && fail "node with another certificate up"
I=$(tls_intf 2)
B=$(gbnet_bus) || fail "no host device"
wait_for 30 test -e "$DEV/$B-$I.$I.1/driver" || fail "loopback of the pinned node not bound"
exit 0
