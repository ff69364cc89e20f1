# Checks that a TLS node that accepts and never answers the handshake (as a greybus-zephyr node serving another host, or a stalled peer) is given up after --handshake-timeout and retried (and given up again), while the one event loop serves another TLS node that comes up meanwhile and whose loopback bundle binds.
# transport: vhd
# timeout: 120
# tools: openssl
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/gbnet.sh
. /usr/lib/gbtest/tls.sh

need_tool gbsim gbnet openssl
load_gb greybus gb-vhd gb-loopback
tls_pki
tls_node 2 loopback.mnfs node --tls-suites ecdhe-gcm --tls-stall
tls_node 3 loopback.mnfs node --tls-suites ecdhe-gcm
HS=$((1000 * ${GB_TSCALE:-1}))
gbnet_start --tls-ca "$PKI/ca.pem" --tls-cert "$PKI/host.pem" --tls-key "$PKI/host.key" \
	--handshake-timeout $HS --node tls:127.0.0.2 --node tls:127.0.0.3
wait_for 60 tls_is 3 up || fail "good node not up: $(gbnet ctl list) $(gbnet_tail)"
wait_for 60 tls_logged "TLS handshake with 127.0.0.2:4242: not over after $HS ms" ||
	fail "no handshake time-out: $(gbnet ctl list) $(gbnet_tail)"
# retried, and given up again
_twice() {
	gbnet ctl list | grep -q '^tls:127.0.0.2 .* connects=0 errors=\([2-9]\|[1-9][0-9]\)'
}
wait_for 60 _twice || fail "no retry: $(gbnet ctl list)"
tls_is 2 up && fail "stalled node up"
I=$(tls_intf 3)
B=$(gbnet_bus) || fail "no host device"
wait_for 30 test -e "$DEV/$B-$I.$I.1/driver" || fail "loopback of node 3 not bound"
exit 0
