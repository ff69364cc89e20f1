// SPDX-License-Identifier: GPL-2.0
/*
 * TLS for gbnet and gbsim's TCP node (gb_tls.h), on OpenSSL.
 *
 * The library does the protocol; this file decides what is offered and
 * checked, and turns every way a handshake fails into one sentence: a
 * certificate chain OpenSSL refused (seen in the verify callback, with
 * the certificate it was about), an alert the peer sent (seen in the
 * message callback), or the connection closed under us (and whether the
 * peer had asked for a certificate we did not give, as a greybus-zephyr
 * node does by default before it closes TCP without an alert).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#ifdef GB_TLS
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#endif

#include "gb_tls.h"

int gb_tls_pin_normalize(const char *in, char *out, size_t len)
{
	size_t n = 0;

	if (len < 65)
		return -1;
	for (; *in; in++) {
		char ch = *in;

		if (ch == ':' || ch == ' ')
			continue;
		if (ch >= 'A' && ch <= 'F')
			ch = (char)(ch - 'A' + 'a');
		if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) ||
		    n == 64)
			return -1;
		out[n++] = ch;
	}
	if (n != 64)
		return -1;
	out[n] = '\0';
	return 0;
}

#ifdef GB_TLS

/* What greybus-zephyr offers with mbedTLS's default options, and with ECDHE-ECDSA */
#define GB_TLS_LIST_RSA_CBC	"AES128-SHA256:AES256-SHA256:AES128-SHA:AES256-SHA"
#define GB_TLS_LIST_ECDHE_GCM	"ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:" \
				"ECDHE-ECDSA-AES128-SHA256:ECDHE-ECDSA-AES256-SHA384"
/* Ours for TLS 1.2: forward secrecy first; RSA-CBC last, refused unless legacy */
#define GB_TLS_LIST_CLIENT	"ECDHE+AESGCM:ECDHE+CHACHA20:ECDHE+AES:" GB_TLS_LIST_RSA_CBC
#define GB_TLS_SIGALGS_ZEPHYR	"RSA+SHA256:RSA+SHA384:ECDSA+SHA256:ECDSA+SHA384"

struct gb_tls_ctx {
	SSL_CTX		*ctx;
	bool		server;
	struct gb_tls_opts o;
	char		*ca, *pin, *name;	/* copies */
};

struct gb_tls {
	struct gb_tls_ctx *c;
	SSL		*ssl;
	int		fd;
	bool		done;		/* handshake over, checks passed */
	char		peer[96];
	/* what the callbacks saw */
	int		verify_err;	/* first chain error, X509_V_* */
	char		bad_subject[160];
	char		bad_date[40];
	int		alert_in;	/* alert the peer sent, or -1 */
	int		alert_out;	/* alert we sent, or -1 */
	bool		cert_requested;	/* client: a CertificateRequest came */
	bool		no_client_cert;	/* server: the client sent none */
};

static int gb_tls_ex_index = -1;

static void gb_tls_ssl_err(const char *what, char *err, size_t errlen)
{
	unsigned long e = ERR_get_error();
	char buf[200];

	if (!e) {
		snprintf(err, errlen, "%s", what);
		return;
	}
	ERR_error_string_n(e, buf, sizeof(buf));
	snprintf(err, errlen, "%s: %s", what, buf);
	ERR_clear_error();
}

static void gb_tls_asn1_time(const ASN1_TIME *tm, char *buf, size_t len)
{
	BIO *b = BIO_new(BIO_s_mem());
	int n = 0;

	buf[0] = '\0';
	if (!b)
		return;
	if (ASN1_TIME_print(b, tm))
		n = BIO_read(b, buf, (int)len - 1);
	buf[n > 0 ? n : 0] = '\0';
	BIO_free(b);
}

static void gb_tls_subject(X509 *x, char *buf, size_t len)
{
	BIO *b = BIO_new(BIO_s_mem());
	int n = 0;

	buf[0] = '\0';
	if (!b)
		return;
	if (X509_NAME_print_ex(b, X509_get_subject_name(x), 0,
			       XN_FLAG_RFC2253) >= 0)
		n = BIO_read(b, buf, (int)len - 1);
	buf[n > 0 ? n : 0] = '\0';
	BIO_free(b);
}

static int gb_tls_fingerprint(X509 *x, char *hex, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (len < 65 || !X509_digest(x, EVP_sha256(), md, &n) || n != 32)
		return -1;
	for (unsigned int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}

/* The verify callback: the first certificate refused, and why */
static int gb_tls_verify_cb(int ok, X509_STORE_CTX *xs)
{
	SSL *ssl = X509_STORE_CTX_get_ex_data(xs,
					      SSL_get_ex_data_X509_STORE_CTX_idx());
	struct gb_tls *t = ssl ? SSL_get_ex_data(ssl, gb_tls_ex_index) : NULL;
	X509 *x = X509_STORE_CTX_get_current_cert(xs);

	if (!t)
		return ok;
	/* server: the client's certificate must name the node's host name */
	if (ok && t->c->server && t->c->name &&
	    X509_STORE_CTX_get_error_depth(xs) == 0 &&
	    X509_check_host(x, t->c->name, 0, 0, NULL) != 1) {
		X509_STORE_CTX_set_error(xs, X509_V_ERR_CERT_REJECTED);
		ok = 0;
	}
	if (!ok && !t->verify_err) {
		t->verify_err = X509_STORE_CTX_get_error(xs);
		X509 *leaf = X509_STORE_CTX_get0_cert(xs);

		/* named by the peer's own certificate, whichever one failed */
		if (leaf || x)
			gb_tls_subject(leaf ? leaf : x, t->bad_subject,
				       sizeof(t->bad_subject));
		if (x) {
			gb_tls_asn1_time(t->verify_err == X509_V_ERR_CERT_NOT_YET_VALID ?
					 X509_get0_notBefore(x) : X509_get0_notAfter(x),
					 t->bad_date, sizeof(t->bad_date));
		}
	}
	return ok;
}

/* Alerts both ways, the CertificateRequest, an empty client Certificate */
static void gb_tls_msg_cb(int write_p, int version, int content_type,
			  const void *buf, size_t len, SSL *ssl, void *arg)
{
	struct gb_tls *t = SSL_get_ex_data(ssl, gb_tls_ex_index);
	const unsigned char *p = buf;

	(void)version;
	(void)arg;
	if (!t || !len)
		return;
	if (content_type == SSL3_RT_ALERT && len >= 2) {
		if (p[0] == SSL3_AL_WARNING && p[1] == SSL3_AD_CLOSE_NOTIFY)
			return;
		if (write_p)
			t->alert_out = p[1];
		else
			t->alert_in = p[1];
		return;
	}
	if (content_type != SSL3_RT_HANDSHAKE || write_p)
		return;
	if (!t->c->server && p[0] == SSL3_MT_CERTIFICATE_REQUEST)
		t->cert_requested = true;
	if (t->c->server && p[0] == SSL3_MT_CERTIFICATE) {
		/* TLS 1.3 puts a context length byte before the list */
		size_t at = SSL_version(ssl) >= TLS1_3_VERSION ? 5 : 4;

		if (len >= at + 3 && !p[at] && !p[at + 1] && !p[at + 2]) {
			t->no_client_cert = true;
			if (t->c->o.bare_close) {
				/* as a greybus-zephyr node: TCP closed, no alert */
				shutdown(t->fd, SHUT_RDWR);
			}
		}
	}
}

struct gb_tls_ctx *gb_tls_ctx_new(bool server, const struct gb_tls_opts *o,
				  char *err, size_t errlen)
{
	struct gb_tls_ctx *c = calloc(1, sizeof(*c));
	const char *list = GB_TLS_LIST_CLIENT;
	SSL_CTX *ctx;
	int mode = SSL_VERIFY_NONE;

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (gb_tls_ex_index < 0)
		gb_tls_ex_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
	c->server = server;
	c->o = *o;
	c->ca = o->ca ? strdup(o->ca) : NULL;
	c->name = o->name ? strdup(o->name) : NULL;
	c->pin = o->pin ? malloc(65) : NULL;
	c->o.ca = c->ca;
	c->o.name = c->name;
	c->o.pin = c->pin;
	c->ctx = ctx = SSL_CTX_new(server ? TLS_server_method() :
				   TLS_client_method());
	if (!ctx) {
		gb_tls_ssl_err("TLS", err, errlen);
		goto fail;
	}
	if (o->pin && (!c->pin || gb_tls_pin_normalize(o->pin, c->pin, 65))) {
		snprintf(err, errlen, "pin '%s': expected the SHA-256 of the certificate, 64 hex digits (colons allowed)",
			 o->pin);
		goto fail;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	if (o->tls12_only)
		SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION);
	/* a peer may close without close_notify: that is an end, not an error */
	SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
			 SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (server && o->suites == GB_TLS_SUITES_RSA_CBC)
		list = GB_TLS_LIST_RSA_CBC;
	else if (server && o->suites == GB_TLS_SUITES_ECDHE_GCM)
		list = GB_TLS_LIST_ECDHE_GCM;
	else if (server)
		list = "ECDHE+AESGCM:ECDHE+CHACHA20";
	if (!SSL_CTX_set_cipher_list(ctx, list)) {
		gb_tls_ssl_err("cipher suites", err, errlen);
		goto fail;
	}
	if (server && o->tls12_only) {
		/* mbedTLS as greybus-zephyr builds it: no tickets, EMS, ETM */
		SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET |
				    SSL_OP_NO_EXTENDED_MASTER_SECRET |
				    SSL_OP_NO_ENCRYPT_THEN_MAC);
		SSL_CTX_set1_client_sigalgs_list(ctx, GB_TLS_SIGALGS_ZEPHYR);
	}
	if (o->cert || o->key) {
		if (!o->cert || !o->key) {
			snprintf(err, errlen, "a certificate needs its key, and a key its certificate");
			goto fail;
		}
		if (SSL_CTX_use_certificate_chain_file(ctx, o->cert) != 1) {
			char why[200];

			gb_tls_ssl_err(o->cert, why, sizeof(why));
			snprintf(err, errlen, "certificate %s", why);
			goto fail;
		}
		if (SSL_CTX_use_PrivateKey_file(ctx, o->key, SSL_FILETYPE_PEM) != 1 ||
		    SSL_CTX_check_private_key(ctx) != 1) {
			char why[200];

			gb_tls_ssl_err(o->key, why, sizeof(why));
			snprintf(err, errlen, "key %s (or not the key of %s)",
				 why, o->cert);
			goto fail;
		}
	} else if (server) {
		snprintf(err, errlen, "a TLS node needs a certificate and a key");
		goto fail;
	}
	if (o->ca) {
		if (SSL_CTX_load_verify_locations(ctx, o->ca, NULL) != 1) {
			char why[200];

			gb_tls_ssl_err(o->ca, why, sizeof(why));
			snprintf(err, errlen, "CA file %s", why);
			goto fail;
		}
		mode = SSL_VERIFY_PEER;
	}
	if (server) {
		/* the CertificateRequest names no CA, as greybus-zephyr's */
		if (o->verify == GB_TLS_VERIFY_NONE)
			mode = SSL_VERIFY_NONE;
		else if (o->verify == GB_TLS_VERIFY_REQUIRED && !o->bare_close)
			mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
		else
			mode = SSL_VERIFY_PEER;
		if (mode != SSL_VERIFY_NONE && !o->ca) {
			snprintf(err, errlen, "checking client certificates needs a CA file");
			goto fail;
		}
	} else if (!o->ca && !o->pin) {
		snprintf(err, errlen, "TLS without a CA file or a pinned fingerprint would trust anyone: give one");
		goto fail;
	}
	SSL_CTX_set_verify(ctx, mode, gb_tls_verify_cb);
	SSL_CTX_set_msg_callback(ctx, gb_tls_msg_cb);
	return c;
fail:
	gb_tls_ctx_free(c);
	return NULL;
}

void gb_tls_ctx_free(struct gb_tls_ctx *c)
{
	if (!c)
		return;
	SSL_CTX_free(c->ctx);
	free(c->ca);
	free(c->pin);
	free(c->name);
	free(c);
}

struct gb_tls *gb_tls_new(struct gb_tls_ctx *c, int fd, const char *peer)
{
	struct gb_tls *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->c = c;
	t->fd = fd;
	t->alert_in = t->alert_out = -1;
	snprintf(t->peer, sizeof(t->peer), "%s", peer);
	t->ssl = SSL_new(c->ctx);
	if (!t->ssl || !SSL_set_fd(t->ssl, fd) ||
	    !SSL_set_ex_data(t->ssl, gb_tls_ex_index, t)) {
		gb_tls_free(t);
		return NULL;
	}
	if (c->server)
		SSL_set_accept_state(t->ssl);
	else
		SSL_set_connect_state(t->ssl);
	return t;
}

void gb_tls_free(struct gb_tls *t)
{
	if (!t)
		return;
	SSL_free(t->ssl);	/* no close_notify: the caller closes TCP */
	free(t);
}

static const char *gb_tls_alert_hint(int alert, bool server)
{
	if (server)
		return "";
	switch (alert) {
	case SSL_AD_BAD_CERTIFICATE:
		return " (a greybus-zephyr node checks that our certificate names its TLS host name, GREYBUS_TLS_HOSTNAME: give a certificate that carries it)";
	case SSL_AD_UNKNOWN_CA:
		return " (our certificate is not signed by the CA the node trusts)";
	case SSL_AD_UNSUPPORTED_CERTIFICATE:
		return " (a greybus-zephyr node wants clientAuth in the certificate's extended key usage)";
	case SSL_AD_HANDSHAKE_FAILURE:
		return " (no cipher suite or key type in common)";
	default:
		return "";
	}
}

/* Why the handshake (or a read after it) failed, as one sentence */
static void gb_tls_why(struct gb_tls *t, int ssl_err, int sys_errno,
		       char *err, size_t errlen)
{
	const struct gb_tls_opts *o = &t->c->o;
	char ossl[200] = "";
	unsigned long e = ERR_peek_error();

	if (e)
		ERR_error_string_n(e, ossl, sizeof(ossl));
	ERR_clear_error();

	if (t->verify_err) {
		const char *who = t->c->server ? "client certificate" : "certificate";
		int v = t->verify_err;

		switch (v) {
		case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
		case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
		case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
		case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
		case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
		case X509_V_ERR_CERT_SIGNATURE_FAILURE:
			snprintf(err, errlen, "%s of %s (%s) not signed by %s", who,
				 t->peer, t->bad_subject, o->ca);
			return;
		case X509_V_ERR_CERT_HAS_EXPIRED:
			snprintf(err, errlen, "%s of %s (%s) expired on %s", who,
				 t->peer, t->bad_subject, t->bad_date);
			return;
		case X509_V_ERR_CERT_NOT_YET_VALID:
			snprintf(err, errlen, "%s of %s (%s) not valid before %s (check the clock)",
				 who, t->peer, t->bad_subject, t->bad_date);
			return;
		case X509_V_ERR_CERT_REJECTED:
			if (t->c->server && o->name) {
				snprintf(err, errlen, "%s of %s (%s) does not name %s",
					 who, t->peer, t->bad_subject, o->name);
				return;
			}
			break;
		default:
			break;
		}
		snprintf(err, errlen, "%s of %s (%s) refused: %s", who, t->peer,
			 t->bad_subject, X509_verify_cert_error_string(v));
		return;
	}
	if (t->alert_in >= 0) {
		snprintf(err, errlen, "%s refused the %s: alert %s%s", t->peer,
			 t->done ? "connection" : "handshake",
			 SSL_alert_desc_string_long(t->alert_in),
			 gb_tls_alert_hint(t->alert_in, t->c->server));
		return;
	}
	if (t->c->server && t->no_client_cert) {
		snprintf(err, errlen, "%s sent no client certificate%s", t->peer,
			 o->bare_close ? ": TCP closed without an alert (as greybus-zephyr)" : "");
		return;
	}
	if (!t->done && (ssl_err == SSL_ERROR_SYSCALL ||
			 ssl_err == SSL_ERROR_ZERO_RETURN ||
			 ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING)) {
		if (!t->c->server && t->cert_requested && !o->cert) {
			snprintf(err, errlen, "%s closed the connection during the handshake without an alert after asking for a client certificate: it requires one (greybus-zephyr's default); give a certificate and key that name its TLS host name",
				 t->peer);
			return;
		}
		snprintf(err, errlen, "%s closed the connection during the handshake without an alert%s%s",
			 t->peer, sys_errno ? ": " : "",
			 sys_errno ? strerror(sys_errno) : "");
		return;
	}
	if (t->alert_out >= 0) {
		snprintf(err, errlen, "handshake with %s failed: we sent alert %s (%s)",
			 t->peer, SSL_alert_desc_string_long(t->alert_out),
			 *ossl ? ossl : "no detail");
		return;
	}
	if (ssl_err == SSL_ERROR_SYSCALL && sys_errno) {
		snprintf(err, errlen, "TLS with %s: %s", t->peer, strerror(sys_errno));
		return;
	}
	snprintf(err, errlen, "TLS with %s failed: %s", t->peer,
		 *ossl ? ossl : "no detail");
}

/* 1 wait (*@events), 0 clean end, -1 error */
static int gb_tls_want(struct gb_tls *t, int r, short *events, int *ssl_err)
{
	*ssl_err = SSL_get_error(t->ssl, r);
	switch (*ssl_err) {
	case SSL_ERROR_WANT_READ:
		*events = POLLIN;
		return 1;
	case SSL_ERROR_WANT_WRITE:
		*events = POLLOUT;
		return 1;
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	default:
		return -1;
	}
}

/* Client, after the handshake: suites, pin and name */
static int gb_tls_check_server(struct gb_tls *t, char *err, size_t errlen)
{
	const struct gb_tls_opts *o = &t->c->o;
	const SSL_CIPHER *cs = SSL_get_current_cipher(t->ssl);
	X509 *x = SSL_get0_peer_certificate(t->ssl);
	char fp[65], subject[160];

	if (!x) {
		snprintf(err, errlen, "%s sent no certificate", t->peer);
		return -1;
	}
	gb_tls_subject(x, subject, sizeof(subject));
	if (cs && SSL_CIPHER_get_kx_nid(cs) == NID_kx_rsa &&
	    o->suites != GB_TLS_SUITES_LEGACY) {
		snprintf(err, errlen, "%s offers only %s: RSA key transport, no forward secrecy; refused (allow it for this node with suites=legacy, or rebuild the node with ECDHE-ECDSA and GCM: mbedTLS's MBEDTLS_KEY_EXCHANGE_ECDHE_ECDSA_ENABLED, MBEDTLS_ECP_DP_SECP256R1_ENABLED, MBEDTLS_GCM_C, and an EC P-256 key)",
			 t->peer, SSL_CIPHER_standard_name(cs));
		return -1;
	}
	if (o->pin) {
		if (gb_tls_fingerprint(x, fp, sizeof(fp)) || strcmp(fp, o->pin)) {
			snprintf(err, errlen, "certificate of %s (%s) has SHA-256 %s, not the pinned %s",
				 t->peer, subject, fp, o->pin);
			return -1;
		}
	}
	if (o->name && X509_check_host(x, o->name, 0, 0, NULL) != 1 &&
	    X509_check_ip_asc(x, o->name, 0) != 1) {
		snprintf(err, errlen, "certificate of %s (%s) does not name %s",
			 t->peer, subject, o->name);
		return -1;
	}
	return 0;
}

int gb_tls_handshake(struct gb_tls *t, short *events, char *err,
		     size_t errlen)
{
	int r, w, ssl_err;

	if (t->done)
		return 0;
	ERR_clear_error();
	errno = 0;
	r = SSL_do_handshake(t->ssl);
	if (r == 1) {
		if (!t->c->server && gb_tls_check_server(t, err, errlen))
			return -1;
		t->done = true;
		return 0;
	}
	w = gb_tls_want(t, r, events, &ssl_err);
	if (w == 1)
		return 1;
	gb_tls_why(t, ssl_err, errno, err, errlen);
	return -1;
}

ssize_t gb_tls_recv(struct gb_tls *t, void *buf, size_t len, short *events,
		    char *err, size_t errlen)
{
	int r, w, ssl_err;

	ERR_clear_error();
	errno = 0;
	r = SSL_read(t->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
	if (r > 0)
		return r;
	w = gb_tls_want(t, r, events, &ssl_err);
	if (w == 1)
		return -EAGAIN;
	if (w == 0 && t->alert_in < 0)
		return 0;
	if (ssl_err == SSL_ERROR_SYSCALL && !errno && t->alert_in < 0 &&
	    !ERR_peek_error())
		return 0;
	gb_tls_why(t, ssl_err, errno, err, errlen);
	return -EIO;
}

ssize_t gb_tls_send(struct gb_tls *t, const void *buf, size_t len,
		    short *events, char *err, size_t errlen)
{
	int r, w, ssl_err;

	ERR_clear_error();
	errno = 0;
	r = SSL_write(t->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
	if (r > 0)
		return r;
	w = gb_tls_want(t, r, events, &ssl_err);
	if (w == 1)
		return -EAGAIN;
	gb_tls_why(t, ssl_err, errno, err, errlen);
	return -EIO;
}

bool gb_tls_pending(struct gb_tls *t)
{
	return SSL_pending(t->ssl) > 0;
}

int gb_tls_peer_fingerprint(struct gb_tls *t, char *hex, size_t len)
{
	X509 *x = SSL_get0_peer_certificate(t->ssl);

	return x ? gb_tls_fingerprint(x, hex, len) : -1;
}

int gb_tls_peer_subject(struct gb_tls *t, char *buf, size_t len)
{
	X509 *x = SSL_get0_peer_certificate(t->ssl);

	if (!x)
		return -1;
	gb_tls_subject(x, buf, len);
	return 0;
}

void gb_tls_describe(struct gb_tls *t, char *buf, size_t len)
{
	const SSL_CIPHER *cs = SSL_get_current_cipher(t->ssl);

	snprintf(buf, len, "%s %s", SSL_get_version(t->ssl),
		 cs ? SSL_CIPHER_get_name(cs) : "?");
}

#else /* !GB_TLS: built without OpenSSL (tools/Makefile) */

struct gb_tls_ctx *gb_tls_ctx_new(bool server, const struct gb_tls_opts *o,
				  char *err, size_t errlen)
{
	(void)server;
	(void)o;
	snprintf(err, errlen, "this build has no TLS (no OpenSSL for its target when it was built)");
	return NULL;
}

void gb_tls_ctx_free(struct gb_tls_ctx *c)
{
	(void)c;
}

struct gb_tls *gb_tls_new(struct gb_tls_ctx *c, int fd, const char *peer)
{
	(void)c;
	(void)fd;
	(void)peer;
	return NULL;
}

void gb_tls_free(struct gb_tls *t)
{
	(void)t;
}

int gb_tls_handshake(struct gb_tls *t, short *events, char *err,
		     size_t errlen)
{
	(void)t;
	(void)events;
	snprintf(err, errlen, "no TLS in this build");
	return -1;
}

ssize_t gb_tls_recv(struct gb_tls *t, void *buf, size_t len, short *events,
		    char *err, size_t errlen)
{
	(void)t;
	(void)buf;
	(void)len;
	(void)events;
	snprintf(err, errlen, "no TLS in this build");
	return -EIO;
}

ssize_t gb_tls_send(struct gb_tls *t, const void *buf, size_t len,
		    short *events, char *err, size_t errlen)
{
	return gb_tls_recv(t, (void *)buf, len, events, err, errlen);
}

bool gb_tls_pending(struct gb_tls *t)
{
	(void)t;
	return false;
}

int gb_tls_peer_fingerprint(struct gb_tls *t, char *hex, size_t len)
{
	(void)t;
	(void)hex;
	(void)len;
	return -1;
}

int gb_tls_peer_subject(struct gb_tls *t, char *buf, size_t len)
{
	(void)t;
	(void)buf;
	(void)len;
	return -1;
}

void gb_tls_describe(struct gb_tls *t, char *buf, size_t len)
{
	(void)t;
	snprintf(buf, len, "none");
}

#endif /* GB_TLS */
