# SPDX-License-Identifier: GPL-2.0
# The TLS cases' helpers (source after lib.sh and gbnet.sh; the case
# packs openssl with '# tools: openssl'): keys and certificates made here,
# in the case's scratch directory, never kept; gbsim TLS nodes on
# 127.0.0.N:4242 as greybus-zephyr's GREYBUS_ENABLE_TLS builds them.
#
#   $PKI/ca.pem          the CA gbnet and the nodes trust (EC P-256)
#   $PKI/other-ca.pem    another CA, trusted by nobody
#   $PKI/node.pem|key    a node's certificate, CN and SAN node.test (EC)
#   $PKI/node-rsa.*      the same on an RSA key (RSA-CBC suites)
#   $PKI/host.pem|key    gbnet's, SAN gbhost (the nodes' TLS host name)
#   $PKI/nohost.pem|key  gbnet's, SAN elsewhere (a node refuses it)
#   $PKI/expired.*       a node's, expired yesterday

PKI=$GBTEST_TMP/pki
# openssl without a config file of its own (none in the guest)
export OPENSSL_CONF=/dev/null

_tls_ec_key() {
	openssl ecparam -name prime256v1 -genkey -noout -out "$1" 2>/dev/null ||
		fail "openssl: no EC key $1"
}

# _tls_ca NAME: a self-signed CA certificate NAME.pem on NAME.key
_tls_ca() {
	_tls_ec_key "$PKI/$1.key"
	openssl req -x509 -new -key "$PKI/$1.key" -subj "/CN=gbtest $1" -days 30 \
		-addext basicConstraints=critical,CA:TRUE \
		-addext keyUsage=critical,keyCertSign,cRLSign \
		-out "$PKI/$1.pem" 2>"$PKI/err" || fail "openssl: CA $1: $(cat "$PKI/err")"
}

# _tls_leaf NAME CN DNS DAYS [KEY]: NAME.pem signed by ca, for DNS
_tls_leaf() {
	local name=$1 cn=$2 dns=$3 days=$4 key=${5:-$PKI/$1.key}
	[ -e "$key" ] || _tls_ec_key "$key"
	printf 'subjectAltName=DNS:%s\nextendedKeyUsage=serverAuth,clientAuth\nbasicConstraints=CA:FALSE\n' \
		"$dns" >"$PKI/$name.ext"
	openssl req -new -key "$key" -subj "/CN=$cn" -out "$PKI/$name.csr" 2>"$PKI/err" &&
	openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/ca.pem" -CAkey "$PKI/ca.key" \
		-CAcreateserial -days "$days" -extfile "$PKI/$name.ext" \
		-out "$PKI/$name.pem" 2>"$PKI/err" ||
		fail "openssl: certificate $name: $(cat "$PKI/err")"
	[ "$key" = "$PKI/$name.key" ] || cp "$key" "$PKI/$name.key"
}

# tls_pki [rsa]: every file above (rsa: node-rsa too, the slow key)
tls_pki() {
	mkdir -p "$PKI"
	_tls_ca ca
	_tls_ca other-ca
	_tls_leaf node node.test node.test 30
	_tls_leaf host gbhost gbhost 30
	_tls_leaf nohost elsewhere elsewhere 30
	# -days -1: not after is a day before now
	_tls_leaf expired node.test node.test -1 "$PKI/node.key"
	if [ "${1:-}" = rsa ]; then
		openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
			-out "$PKI/rsa.key" 2>"$PKI/err" || fail "openssl: RSA key: $(cat "$PKI/err")"
		_tls_leaf node-rsa node.test node.test 30 "$PKI/rsa.key"
	fi
}

# tls_sha256 PEM: the certificate's SHA-256, 64 lower-case hex digits
tls_sha256() {
	openssl x509 -in "$1" -noout -fingerprint -sha256 | sed 's/.*=//; s/://g' |
		tr 'A-F' 'a-f'
}

# tls_node N MANIFEST CERT [GBSIM-ARGS...]: a greybus-zephyr TLS node at
# 127.0.0.N:4242 (personality zephyr: TLS 1.2 only, no certificate ->
# TCP closed without an alert) with CERT.pem/.key, trusting ca.pem for
# client certificates, host name gbhost, client certificate required
tls_node() {
	local n=$1 m=$2 c=$3
	shift 3
	node_start_tls "$n" "$m" --personality zephyr \
		--tls-cert "$PKI/$c.pem" --tls-key "$PKI/$c.key" \
		--tls-ca "$PKI/ca.pem" --tls-name gbhost "$@"
}

# node_start_tls N MANIFEST [ARGS...]: gbsim's TLS node at 127.0.0.N:4242
node_start_tls() {
	local n=$1 m=$2
	shift 2
	gbsim --node tls:127.0.0.$n:4242 -m 2:$M/$m --ctl "$GBTEST_TMP/node$n.ctl" \
		--log "$GBTEST_TMP/node$n.log" "$@" 2>"$GBTEST_TMP/node$n.err" &
	eval "node_pid_$n=$!"
	gbsim ctl -s "$GBTEST_TMP/node$n.ctl" -w 10 tcp >/dev/null ||
		fail "node $n did not start: $(cat "$GBTEST_TMP/node$n.err")"
}

# tls_state N: the state gbnet ctl list gives tls:127.0.0.N:4242
tls_state() {
	gbnet ctl list | sed -n "s/^tls:127\.0\.0\.$1\(:[0-9]*\)\{0,1\} state=\([a-z]*\) .*/\2/p"
}
tls_is() {
	[ "$(tls_state "$1")" = "$2" ]
}
tls_intf() {
	gbnet ctl list | sed -n "s/^tls:127\.0\.0\.$1\(:[0-9]*\)\{0,1\} .* intf=\([0-9-]*\) .*/\2/p"
}
# tls_logged TEXT: gbnet's log has a line with TEXT (grep -F)
tls_logged() {
	grep -qF -- "$1" "$GBTEST_TMP/gbnet.log"
}
