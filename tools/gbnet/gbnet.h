/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbnet: the SVC and AP bridge (tools/lib/svc, shared with gbsim) for
 * Greybus nodes reached over TCP in greybus-zephyr's framing.  Each node
 * is one TCP connection and, while it is up, one module with one
 * interface; everything the AP sends on a connection to that interface
 * goes down the node's socket with the node's CPort id, and the node's
 * messages come back on the bridge CPort connected to the CPort they
 * name (a node can reach no other).
 *
 * Everything runs on one thread, from the shared event loop; sockets are
 * non-blocking and every buffer is bounded, so a node that floods,
 * stalls or lies costs the others nothing.
 */
#ifndef GBNET_H
#define GBNET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gb_ratelimit.h>
#include <gb_tcp.h>

#include "config.h"
#include "ctl.h"
#include "gbsim.h"
#include "resolver.h"
#include "policy.h"

#define GBNET_NAME		"gbnet"
#define GBNET_CTL_ENV		"GBNET_CTL"
#define GBNET_AP_INTF		1	/* as the CC1352 firmware numbers it */
#define GBNET_FIRST_INTF	2
#define GBNET_OUT_MAX		(256 * 1024)	/* bytes queued to one node */
#define GBNET_BACKOFF_MIN_MS	250
#define GBNET_BACKOFF_MAX_MS	10000
#define GBNET_CONNECT_MS	5000	/* --connect-timeout */
#define GBNET_NODE_MTU		1024	/* well under greybus-zephyr's 2 KB heap */
#define GBNET_NODE_INFLIGHT	8	/* requests in flight per node */
#define GBNET_NODE_QUEUE	64	/* requests waiting for the window */
#define GBNET_FLIGHT_MS		30000	/* an answer not come by then: given up */
#define GBNET_KEEPALIVE_S	10
#define GBNET_FRAME_MS		5000	/* a frame started must end by then */
#define GBNET_SERIAL		0x47424e5400000000ULL	/* "GBNT" + intf id */
#define GBNET_MDNS_SERVICE	"_greybus._tcp"
#define GBNET_MDNS_SERVICE_TLS	"_greybuss._tcp"	/* greybus-zephyr with TLS */
#define GBNET_HANDSHAKE_MS	10000	/* --handshake-timeout */
#define GBNET_MDNS_BROWSE	"/usr/bin/avahi-browse"	/* never from PATH */
#define GBNET_MDNS_MAX		16	/* discovered nodes at once */
#define GBNET_MDNS_RATE		16	/* new discovered nodes per minute */
#define GBNET_CTL_DEFAULT	"/run/gbnet/ctl"	/* gbnet ctl's, as a service's */

enum gbnet_node_state {
	GBNET_NODE_WAIT,	/* backing off before the next attempt */
	GBNET_NODE_RESOLVING,	/* its name is being looked up (resolver.c) */
	GBNET_NODE_CONNECTING,
	GBNET_NODE_HANDSHAKE,	/* TLS handshake under way */
	GBNET_NODE_UP,		/* module inserted */
};


struct gbnet;
struct gbnet_queued;
struct gb_tls_ctx;
struct gb_tls;

/* TLS settings: gbnet's defaults, or a node's own (tls.c) */
struct gbnet_tls_settings {
	char		*ca;		/* CA file the node's certificate chains to */
	char		*pin;		/* or its SHA-256, 64 hex digits */
	char		*cert, *key;	/* ours, for nodes that require one */
	char		*name;		/* the name its certificate carries */
	int		legacy;		/* RSA-CBC accepted: 1, not: 0, unset: -1 */
};

/* A request of the AP the node has not answered yet (limits.c) */
struct gbnet_flight {
	uint16_t	cport;
	uint16_t	id;
	uint64_t	sent_ns;
};

struct gbnet_node {
	struct gbnet	*net;
	uint64_t	serial;		/* names its lookups */
	char		*spec;		/* as given: "HOST[:PORT]" */
	char		name[300];	/* its first word: no TLS settings */
	char		host[256];
	uint16_t	port;
	enum gbnet_node_state state;
	int		fd;
	uint8_t		intf_id;	/* 0 until first up; kept after */
	char		addr[64];	/* the address connected to */

	/* TLS (tls.c): a "tls:" node */
	struct gb_tls_ctx *tls_ctx;
	struct gb_tls	*tls;		/* the session, while connected */
	char		tls_fp[65];	/* the node's certificate: SHA-256 */
	char		tls_subject[160];
	char		tls_what[96];	/* protocol and suite */
	uint64_t	kick_timer;	/* decrypted bytes wait: read again */

	struct gb_tcp_rx rx;
	uint8_t		*out;
	size_t		out_len;
	bool		flush_due;	/* @out waits for the vhd hold's end */

	/* the node's own limits (limits.c) */
	unsigned int	mtu;		/* largest message toward it */
	struct gbnet_flight *flight;	/* node_inflight entries */
	unsigned int	num_flight;
	struct gbnet_queued *queue, *queue_tail;
	unsigned int	num_queued;

	bool		paused;		/* not read: the queue to the AP is full */
	uint64_t	timer;		/* backoff, connect or frame timer */
	uint64_t	frame_timer;
	unsigned int	backoff_ms;

	uint64_t	bytes_in, bytes_out;
	unsigned long	msgs_in, msgs_out, errors, connects;
	char		last_error[512];
	struct gb_ratelimit rl;
	char		*mdns_key;	/* added by discovery: its service */
	struct gbnet_trust *trust;	/* its bundles, what ctl allowed (policy.c) */

	struct gbnet_node *next;
};

struct gbnet {
	struct gbsim	sim;
	struct gbsim_config cfg;
	struct gbsim_transport *tp;	/* the vhd host */
	struct gbnet_policy *policy;	/* rules (policy.c) */
	const char	*config_path;	/* -c FILE, read again on SIGHUP */
	struct gbnet_config_file config;	/* what it said last */
	struct gbnet_node *nodes;
	uint64_t	next_serial;
	struct gbsim_resolver *resolver;	/* started at the first name */
	unsigned int	keepalive_s;
	unsigned int	frame_ms;
	unsigned int	backoff_max_ms;
	unsigned int	connect_ms;
	unsigned int	handshake_ms;
	struct gbnet_tls_settings tls;	/* defaults of every TLS node */
	char		tls_args[2048];	/* the --tls-* options, as words */
	unsigned int	node_mtu;	/* default of every node */
	unsigned int	node_inflight;
	bool		quickack;	/* ACK every read at once (default) */
	unsigned int	paused;		/* nodes not read (back-pressure) */
	unsigned int	flush_due;	/* nodes whose flush_due is set */

	/* DNS-SD discovery through avahi-browse (mdns.c) */
	bool		mdns;		/* wanted (--mdns) */
	bool		mdns_said;	/* its absence was logged */
	bool		mdns_working;	/* avahi-browse has reported */
	const char	*mdns_browse;	/* the program, an absolute path */
	int		mdns_fd;
	int		mdns_pid;
	uint64_t	mdns_timer;
	char		mdns_buf[1024];
	size_t		mdns_len;
	unsigned int	mdns_max;	/* discovered nodes at once */
	unsigned int	mdns_rate;	/* new discovered nodes per minute */
	unsigned int	mdns_nodes;	/* discovered nodes now */
	unsigned int	mdns_recent;	/* added in the window below */
	uint64_t	mdns_window;	/* start of this minute, ns */
	unsigned long	mdns_refused;	/* services not added (caps, address) */
	struct gb_ratelimit mdns_rl;
};

/* node.c */
struct gbnet_node *gbnet_node_add(struct gbnet *net, const char *spec,
				  char *err, size_t errlen);
void gbnet_node_remove(struct gbnet *net, struct gbnet_node *node);
struct gbnet_node *gbnet_node_find(struct gbnet *net, const char *word);
const char *gbnet_node_state_name(enum gbnet_node_state st);
void gbnet_nodes_fini(struct gbnet *net);
/* The queue to the AP drained below its low mark: read paused nodes again */
void gbnet_nodes_resume(void *ctx);
/* The vhd hold ended (struct gbsim_transport.released): send what waits */
void gbnet_nodes_flush(void *ctx);

/* node.c, for limits.c: frame @msg for the node's @cport and send it */
void gbnet_node_write(struct gbnet_node *node, uint16_t cport,
		      const uint8_t *msg, size_t len);
void gbnet_node_log(struct gbnet_node *node, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* limits.c */
int gbnet_limits_init(struct gbnet_node *node);
void gbnet_limits_fini(struct gbnet_node *node);
/* The node went down: nothing is in flight, nothing waits */
void gbnet_limits_reset(struct gbnet_node *node);
/*
 * May the AP's @msg go to the node now?  0 yes, 1 queued (sent later),
 * < 0 refused (a request was answered in the node's name)
 */
int gbnet_limits_send(struct gbnet_node *node, uint16_t cport,
		      const uint8_t *msg, size_t len);
/* The node sent @msg: if it answers a request in flight, the next go */
void gbnet_limits_response(struct gbnet_node *node, uint16_t cport,
			   const uint8_t *msg, size_t len);

/* ctl.c: the commands of gbnet's control socket */
void gbnet_ctl_run(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out);
int gbnet_ctl_main(int argc, char **argv);

/* mdns.c */
void gbnet_mdns_init(struct gbnet *net);
void gbnet_mdns_fini(struct gbnet *net);
/* SIGCHLD: reap avahi-browse without waiting */
void gbnet_mdns_reap(struct gbnet *net);
/* One line of avahi-browse -p -r output (modified in place) */
void gbnet_mdns_line(struct gbnet *net, char *line);

/* tls.c */
int gbnet_tls_word(struct gbnet_tls_settings *s, const char *word, char *err,
		   size_t errlen);
int gbnet_tls_words(struct gbnet_tls_settings *s, const char *words,
		    char *err, size_t errlen);
void gbnet_tls_settings_free(struct gbnet_tls_settings *s);
/* gbnet's defaults again: the config file's words, then the --tls-* ones */
int gbnet_tls_defaults(struct gbnet *net, const char *file_words, char *err,
		       size_t errlen);
struct gb_tls_ctx *gbnet_tls_ctx(struct gbnet *net, struct gbnet_node *node,
				 const struct gbnet_tls_settings *own,
				 char *err, size_t errlen);

/* ratelimit.c */
bool gbnet_ratelimit(struct gb_ratelimit *rl, unsigned int *missed);

#endif /* GBNET_H */
