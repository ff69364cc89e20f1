/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TLS on a non-blocking TCP socket, for gbnet (client) and gbsim's TCP
 * node (server), on OpenSSL (docs/gbnet.md, TLS: why OpenSSL).  Nothing
 * here blocks: each call does what the socket allows and says which
 * poll() events it waits for.  Failures come back as one sentence a
 * user can act on ("certificate of 10.0.0.5:4242 not signed by
 * /etc/greybus/ca.pem").
 *
 * What greybus-zephyr's TLS nodes do (../shared/transports.md) is what
 * the server side can play: TLS 1.2 only, RSA-key-transport CBC suites
 * or ECDHE-ECDSA with GCM, a CertificateRequest naming no CA, the
 * client's certificate checked against the node's configured host name,
 * and no certificate at all answered by closing TCP without an alert.
 */
#ifndef GB_TLS_H
#define GB_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Which suites: the client's "legacy" accepts RSA key transport */
enum gb_tls_suites {
	GB_TLS_SUITES_DEFAULT,	/* forward secrecy, TLS 1.2 and 1.3 */
	GB_TLS_SUITES_LEGACY,	/* client: RSA-CBC too (greybus-zephyr default) */
	GB_TLS_SUITES_RSA_CBC,	/* server: only TLS_RSA_WITH_AES_*_CBC_* */
	GB_TLS_SUITES_ECDHE_GCM, /* server: only ECDHE-ECDSA AES-GCM/CBC */
};

enum gb_tls_verify {
	GB_TLS_VERIFY_NONE,
	GB_TLS_VERIFY_OPTIONAL,
	GB_TLS_VERIFY_REQUIRED,
};

struct gb_tls_opts {
	const char	*ca;	/* PEM file of the CA(s) the peer must chain to */
	const char	*pin;	/* SHA-256 of the peer's certificate, hex */
	const char	*cert;	/* our certificate (PEM) */
	const char	*key;	/* its key (PEM) */
	const char	*name;	/* the name the peer's certificate must carry */
	enum gb_tls_suites suites;
	enum gb_tls_verify verify;	/* server: the client's certificate */
	bool		tls12_only;	/* server: as greybus-zephyr (mbedTLS) */
	bool		bare_close;	/* server: no client certificate: close, no alert */
};

struct gb_tls_ctx;
struct gb_tls;

/* NULL, with why in @err */
struct gb_tls_ctx *gb_tls_ctx_new(bool server, const struct gb_tls_opts *o,
				  char *err, size_t errlen);
void gb_tls_ctx_free(struct gb_tls_ctx *c);

/* A session on @fd (connected, non-blocking); @peer names it in errors */
struct gb_tls *gb_tls_new(struct gb_tls_ctx *c, int fd, const char *peer);
void gb_tls_free(struct gb_tls *t);

/*
 * Go on with the handshake: 0 done, 1 not yet (wait for *@events),
 * -1 failed (why in @err)
 */
int gb_tls_handshake(struct gb_tls *t, short *events, char *err,
		     size_t errlen);
/*
 * > 0 bytes, 0 the peer closed, -EAGAIN (wait for *@events), -EIO (why
 * in @err)
 */
ssize_t gb_tls_recv(struct gb_tls *t, void *buf, size_t len, short *events,
		    char *err, size_t errlen);
ssize_t gb_tls_send(struct gb_tls *t, const void *buf, size_t len,
		    short *events, char *err, size_t errlen);
/* Bytes already decrypted, that poll() will not announce */
bool gb_tls_pending(struct gb_tls *t);

/* The peer's certificate: SHA-256 in hex (64 digits), subject (RFC 2253) */
int gb_tls_peer_fingerprint(struct gb_tls *t, char *hex, size_t len);
int gb_tls_peer_subject(struct gb_tls *t, char *buf, size_t len);
/* "TLSv1.2 ECDHE-ECDSA-AES128-GCM-SHA256" */
void gb_tls_describe(struct gb_tls *t, char *buf, size_t len);

/* "ab:CD 01..." to 64 lower-case hex digits; 0 or -1 */
int gb_tls_pin_normalize(const char *in, char *out, size_t len);

#endif /* GB_TLS_H */
