// SPDX-License-Identifier: GPL-2.0
/*
 * gbsim as Greybus nodes over TCP (--node tcp:ADDR:PORT): no SVC and no
 * AP bridge here; each module listens on its own socket (ADDR:PORT for
 * the first module, PORT+1 for the second, ...) and talks to one client
 * at a time in greybus-zephyr's framing (__le16 CPort id of the module,
 * then the message), as a Zephyr node does.  Whoever connects plays the
 * SVC and the bridge (gbnet).
 *
 * The simulator core still believes it talks to a bridge: this file is a
 * transport whose bridge CPorts are made up here, one per module CPort
 * that has carried a message, with the SVC connection created on the
 * spot.  So every model and every fault hook works as behind gb-vhd.
 *
 * --node tls:ADDR:PORT serves the same over TLS (gb_tls.c): the
 * handshake runs in the loop after accept(), with the client-verify
 * mode, the TLS host name the client's certificate must carry and the
 * suites of greybus-zephyr's GREYBUS_ENABLE_TLS; under --personality
 * zephyr, TLS 1.2 only, RSA-CBC suites unless --tls-suites says
 * otherwise, and a client with no certificate sees TCP closed without
 * an alert.  --tls-stall accepts and never answers (a node stuck in its
 * handshake).
 *
 * The "tcp" command of gbsim ctl breaks the stream on purpose (see
 * gbsim_cmd_tcp()).
 *
 * --personality zephyr plays a greybus-zephyr node as observed
 * (../shared/transports.md): each message written as two send()s, the
 * CPort prefix then the message, on a socket with Nagle's algorithm on
 * (so the message waits for the host's ACK of the prefix), and a message
 * from the host that does not fit its heap (GBSIM_ZEPHYR_HEAP bytes less
 * its bookkeeping: about 2 KB), or more than
 * GBSIM_ZEPHYR_BURST requests read at once, hang the node for good (its
 * heap allocation waits for ever: nothing read or written).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gb_resolve.h>
#include <gb_tcp.h>
#include <gb_tls.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "transport.h"

#define GBSIM_NODE_OUT_MAX	(1024 * 1024)	/* bytes queued per client */
#define GBSIM_NODE_BAD_CPORT	0xfff0		/* "tcp IFID bad-cport" */
#define GBSIM_ZEPHYR_HEAP	2048		/* greybus-zephyr's default heap */
#define GBSIM_ZEPHYR_HEAP_OVERHEAD 32		/* its own bookkeeping, about */
#define GBSIM_ZEPHYR_BURST	16		/* requests read at once: it stalls */

/* What the next message sent to the client suffers ("tcp" command) */
enum gbsim_node_fault {
	GBSIM_NODE_FAULT_NONE,
	GBSIM_NODE_FAULT_CUT,		/* half of it, then close */
	GBSIM_NODE_FAULT_HALF_HEADER,	/* CPort + half a header, then stall */
	GBSIM_NODE_FAULT_LONG_SIZE,	/* size field beyond the data, stall */
	GBSIM_NODE_FAULT_OVER_MTU,	/* size field 65535 */
	GBSIM_NODE_FAULT_BAD_CPORT,	/* a CPort the module does not have */
};

struct gbsim_node {
	struct gbsim_node_set *set;
	uint8_t		intf_id;
	uint16_t	port;
	int		lfd;		/* listening */
	int		fd;		/* the client, or -1 */
	struct gb_tcp_rx rx;
	uint8_t		*out;
	size_t		out_len;
	bool		stalled;	/* neither reads nor writes */
	size_t		split_left;	/* zephyr: bytes of this send() part left */
	bool		split_prefix;	/* zephyr: that part is a prefix */
	enum gbsim_node_fault fault;
	struct gb_tls	*tls;		/* tls: the client's session */
	bool		handshaking;	/* tls: not up yet */
	unsigned long	clients, frames_in, frames_out;
};

struct gbsim_node_port {
	struct gbsim_node *node;	/* NULL: free */
	uint16_t	intf_cport;
};

struct gbsim_node_set {
	struct gbsim_transport *tp;
	struct gbsim_node *nodes;
	size_t		num_nodes;
	struct gbsim_node_port *ports;	/* by bridge CPort (tp->num_cports) */
	bool		zephyr;		/* --personality zephyr */
	struct gb_tls_ctx *tls;		/* --node tls: */
	bool		tls_stall;
};

static struct gbsim_node_set *gbsim_node_set_of(struct gbsim *sim)
{
	if (!sim->tp || sim->tp->ops != &gbsim_node_transport)
		return NULL;
	return sim->tp->priv;
}

static struct gbsim_node *gbsim_node_find(struct gbsim_node_set *set,
					  uint8_t intf_id)
{
	for (size_t i = 0; i < set->num_nodes; i++)
		if (set->nodes[i].intf_id == intf_id)
			return &set->nodes[i];
	return NULL;
}

/* The client went (or is sent away): the module is as before it came */
static void gbsim_node_drop(struct gbsim_node *node, const char *why)
{
	struct gbsim_node_set *set = node->set;
	struct gbsim *sim = set->tp->sim;
	struct gbsim_intf *intf = sim->intfs[node->intf_id];

	if (node->fd < 0)
		return;
	gbsim_log_info("node %u: client gone (%s)", node->intf_id, why);
	gbsim_loop_del_fd(set->tp->loop, node->fd);
	gb_tls_free(node->tls);
	node->tls = NULL;
	node->handshaking = false;
	close(node->fd);
	node->fd = -1;
	node->stalled = false;
	node->fault = GBSIM_NODE_FAULT_NONE;
	node->out_len = 0;
	node->split_left = 0;
	node->split_prefix = false;
	gb_tcp_rx_reset(&node->rx);
	for (unsigned int i = 1; i < set->tp->num_cports; i++) {
		if (set->ports[i].node != node)
			continue;
		if (sim->conns[i])
			gbsim_conn_destroy(sim, sim->conns[i]);
		sim->cport_enabled[i] = false;
		set->ports[i].node = NULL;
	}
	if (intf)
		gbsim_intf_power_off(sim, intf);
	sim->routes[node->intf_id].present = false;
}

static void gbsim_node_update_events(struct gbsim_node *node)
{
	short ev = node->stalled ? 0 : POLLIN;

	if (node->handshaking)
		return;		/* the handshake says what it waits for */

	if (node->out_len && !node->stalled)
		ev |= POLLOUT;
	gbsim_loop_set_events(node->set->tp->loop, node->fd, ev);
}

/*
 * How much of the queue the next send() takes: all of it, or as a
 * greybus-zephyr node writes, the rest of the CPort prefix or of the
 * message now at the head (node->split_left bytes; 0 = a prefix next)
 */
static size_t gbsim_node_chunk(struct gbsim_node *node)
{
	size_t size;

	if (!node->set->zephyr)
		return node->out_len;
	if (!node->split_left) {
		if (node->split_prefix) {
			/* the message after its prefix: its header says how long */
			size = node->out_len >= 2 ?
			       (size_t)(node->out[0] | node->out[1] << 8) : node->out_len;
			node->split_left = size ? size : node->out_len;
			node->split_prefix = false;
		} else {
			node->split_left = GB_TCP_PREFIX;
			node->split_prefix = true;
		}
	}
	return node->split_left < node->out_len ? node->split_left : node->out_len;
}

/* send(), or SSL_write() on a TLS node: n, or -1 with errno */
static ssize_t gbsim_node_write(struct gbsim_node *node, const void *buf,
				size_t len)
{
	char err[256];
	short ev;
	ssize_t n;

	if (!node->tls)
		return send(node->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	n = gb_tls_send(node->tls, buf, len, &ev, err, sizeof(err));
	if (n >= 0)
		return n;
	if (n == -EAGAIN) {
		errno = EAGAIN;
		return -1;
	}
	gbsim_log_error("node %u: %s", node->intf_id, err);
	errno = EIO;
	return -1;
}

static void gbsim_node_flush(struct gbsim_node *node)
{
	ssize_t n;

	if (node->handshaking)
		return;
	while (node->out_len && !node->stalled) {
		n = gbsim_node_write(node, node->out, gbsim_node_chunk(node));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			gbsim_node_drop(node, n < 0 ? strerror(errno) : "closed");
			return;
		}
		memmove(node->out, node->out + n, node->out_len - (size_t)n);
		node->out_len -= (size_t)n;
		if (node->set->zephyr)
			node->split_left -= (size_t)n;
	}
	gbsim_node_update_events(node);
}

/* The bridge CPort standing for the module's CPort (made on first use) */
static int gbsim_node_hd_cport(struct gbsim_node *node, uint16_t intf_cport)
{
	struct gbsim_node_set *set = node->set;
	struct gbsim *sim = set->tp->sim;
	unsigned int free_port = 0;
	char err[160];

	for (unsigned int i = 1; i < set->tp->num_cports; i++) {
		if (set->ports[i].node == node &&
		    set->ports[i].intf_cport == intf_cport)
			return (int)i;
		if (!set->ports[i].node && !free_port)
			free_port = i;
	}
	if (!free_port)
		return -ENOSPC;
	if (!gbsim_conn_create(sim, (uint16_t)free_port, node->intf_id,
			       intf_cport, 0, err, sizeof(err))) {
		gbsim_log_error("node %u: cport %u: %s", node->intf_id,
				intf_cport, err);
		return -ENOENT;
	}
	set->ports[free_port].node = node;
	set->ports[free_port].intf_cport = intf_cport;
	sim->cport_enabled[free_port] = true;
	return (int)free_port;
}

static void gbsim_node_frames(struct gbsim_node *node)
{
	struct gbsim *sim = node->set->tp->sim;
	enum gb_tcp_status st;
	const uint8_t *msg;
	unsigned int requests = 0;
	size_t msg_len;
	uint16_t cport;
	int hd;

	while (node->fd >= 0 && !node->stalled) {
		st = gb_tcp_rx_next(&node->rx, &cport, &msg, &msg_len);
		if (st == GB_TCP_NEED_MORE)
			return;
		if (st != GB_TCP_FRAME) {
			gbsim_log_error("node %u: bad framing from the client: %s",
					node->intf_id, gb_tcp_status_name(st));
			gbsim_node_drop(node, "bad framing");
			return;
		}
		node->frames_in++;
		if (!(msg[4] & GB_MSG_TYPE_RESPONSE))
			requests++;
		if (node->set->zephyr && requests > GBSIM_ZEPHYR_BURST) {
			gbsim_log_warn("node %u: more than %u requests at once: the node stalls (zephyr heap)",
				       node->intf_id, GBSIM_ZEPHYR_BURST);
			node->stalled = true;
			gbsim_node_update_events(node);
			return;
		}
		if (node->set->zephyr &&
		    msg_len > GBSIM_ZEPHYR_HEAP - GBSIM_ZEPHYR_HEAP_OVERHEAD) {
			/* its heap allocation waits for ever */
			gbsim_log_warn("node %u: message of %zu bytes: the node hangs (zephyr heap %u)",
				       node->intf_id, msg_len, GBSIM_ZEPHYR_HEAP);
			node->stalled = true;
			gbsim_node_update_events(node);
			return;
		}
		hd = gbsim_node_hd_cport(node, cport);
		if (hd > 0)
			gbsim_host_message(sim, (uint16_t)hd, msg, msg_len);
		else
			gbsim_log_error("node %u: message for cport %u dropped",
					node->intf_id, cport);
		if (node->fd >= 0)
			gb_tcp_rx_consume(&node->rx, GB_TCP_PREFIX + msg_len);
	}
}

/* TLS: the handshake goes on; true once it is over */
static bool gbsim_node_handshake(struct gbsim_node *node)
{
	char err[512], what[96];
	short ev = 0;
	int ret;

	ret = gb_tls_handshake(node->tls, &ev, err, sizeof(err));
	if (ret < 0) {
		gbsim_log_error("node %u: TLS: %s", node->intf_id, err);
		gbsim_node_drop(node, "TLS handshake failed");
		return false;
	}
	if (ret > 0) {
		gbsim_loop_set_events(node->set->tp->loop, node->fd, ev);
		return false;
	}
	node->handshaking = false;
	gb_tls_describe(node->tls, what, sizeof(what));
	gbsim_log_info("node %u: TLS up: %s", node->intf_id, what);
	gbsim_node_update_events(node);
	gbsim_node_flush(node);
	return node->fd >= 0;
}

static void gbsim_node_io(struct gbsim_loop *loop, int fd, short revents,
			  void *ctx)
{
	struct gbsim_node *node = ctx;
	unsigned int reads = 0;
	char err[512];
	short ev;
	ssize_t n;

	(void)loop;
	(void)fd;
	if (node->handshaking && !gbsim_node_handshake(node))
		return;
	if (revents & POLLOUT)
		gbsim_node_flush(node);
	if (node->fd < 0 || node->stalled ||
	    !(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
again:
	if (!node->tls) {
		n = recv(node->fd, gb_tcp_rx_tail(&node->rx),
			 gb_tcp_rx_room(&node->rx), MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
	} else {
		n = gb_tls_recv(node->tls, gb_tcp_rx_tail(&node->rx),
				gb_tcp_rx_room(&node->rx), &ev, err,
				sizeof(err));
		if (n == -EAGAIN)
			return;
		if (n < 0) {
			gbsim_log_error("node %u: %s", node->intf_id, err);
			errno = EIO;
		}
	}
	if (n <= 0) {
		gbsim_node_drop(node, n < 0 ? strerror(errno) : "closed by the client");
		return;
	}
	gb_tcp_rx_added(&node->rx, (size_t)n);
	gbsim_node_frames(node);
	/* a TLS record read whole may hold more than there was room for */
	if (node->fd >= 0 && node->tls && !node->stalled &&
	    gb_tls_pending(node->tls) && gb_tcp_rx_room(&node->rx) &&
	    ++reads < 64)
		goto again;
}

static void gbsim_node_accept(struct gbsim_loop *loop, int fd, short revents,
			      void *ctx)
{
	struct gbsim_node *node = ctx;
	struct gbsim *sim = node->set->tp->sim;
	struct gbsim_intf *intf = sim->intfs[node->intf_id];
	int one = 1, cfd;

	(void)revents;
	cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0)
		return;
	if (node->fd >= 0 || !intf) {
		/* one host at a time, as a Zephyr node */
		gbsim_log_warn("node %u: second client refused", node->intf_id);
		close(cfd);
		return;
	}
	/* greybus-zephyr leaves Nagle's algorithm on */
	if (!node->set->zephyr)
		setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (node->set->tls) {
		node->tls = gb_tls_new(node->set->tls, cfd, "the client");
		if (!node->tls) {
			gbsim_log_error("node %u: TLS: out of memory", node->intf_id);
			close(cfd);
			return;
		}
		node->handshaking = true;
	}
	if (gbsim_loop_add_fd(loop, cfd, node->set->tls_stall ? 0 : POLLIN,
			      gbsim_node_io, node)) {
		gb_tls_free(node->tls);
		node->tls = NULL;
		node->handshaking = false;
		close(cfd);
		return;
	}
	node->fd = cfd;
	node->clients++;
	/*
	 * The far end is the SVC now: the link is up, the route there, and
	 * every CPort connected (Control checks that before CONNECTED)
	 */
	intf->vsys = intf->refclk = intf->unipro = intf->active = true;
	sim->routes[node->intf_id].present = true;
	gbsim_node_hd_cport(node, GREYBUS_CONTROL_CPORT_ID);
	for (size_t i = 0; i < intf->num_cports; i++)
		gbsim_node_hd_cport(node, intf->cports[i].id);
	gbsim_log_info("node %u: client connected", node->intf_id);
}

static int gbsim_node_listen(struct gbsim_node *node, const char *host,
			     char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int one = 1, fd, ret;

	ret = gb_resolve(host, node->port, &ss, &len, err, errlen);
	if (ret)
		return ret;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 1)) {
		ret = -errno;
		snprintf(err, errlen, "module %u: listening on %s port %u: %s",
			 node->intf_id, host, node->port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	node->lfd = fd;
	return gbsim_loop_add_fd(node->set->tp->loop, fd, POLLIN,
				 gbsim_node_accept, node);
}

static void gbsim_node_close(struct gbsim_transport *tp);

static int gbsim_node_open(struct gbsim_transport *tp, char *err,
			   size_t errlen)
{
	struct gbsim *sim = tp->sim;
	struct gbsim_node_set *set;
	char host[256];
	uint16_t port;
	size_t n = 0;

	bool tls = !strncmp(tp->device, "tls:", 4);

	if ((!tls && strncmp(tp->device, "tcp:", 4)) ||
	    gb_tcp_split_hostport(tp->device + 4, host, sizeof(host), &port,
				  GB_TCP_DEFAULT_PORT)) {
		snprintf(err, errlen, "--node %s: expected tcp:ADDR[:PORT] or tls:ADDR[:PORT]",
			 tp->device);
		return -EINVAL;
	}
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		if (!sim->modules[id])
			continue;
		if (sim->modules[id]->num_intfs != 1) {
			snprintf(err, errlen, "module %u: a node has one interface",
				 id);
			return -EINVAL;
		}
		n++;
	}
	if (!n || port + n - 1 > UINT16_MAX) {
		snprintf(err, errlen, n ? "too many modules from port %u" :
			 "no module to serve (port %u)", port);
		return -EINVAL;
	}
	if (tp->personality && strcmp(tp->personality, "full") &&
	    strcmp(tp->personality, "zephyr")) {
		snprintf(err, errlen, "--personality %s: a node is full (default) or zephyr",
			 tp->personality);
		return -EINVAL;
	}
	set = calloc(1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	tp->priv = set;
	set->tp = tp;
	set->zephyr = tp->personality && !strcmp(tp->personality, "zephyr");
	if (set->zephyr)
		gbsim_log_info("node: personality zephyr (split writes, Nagle on, %u-byte heap)",
			       GBSIM_ZEPHYR_HEAP);
	if (tls) {
		struct gb_tls_opts o = *(const struct gb_tls_opts *)tp->tls;

		if (set->zephyr) {
			o.tls12_only = true;
			o.bare_close = true;
			if (!tp->tls_suites_set)
				o.suites = GB_TLS_SUITES_RSA_CBC;
		}
		set->tls_stall = tp->tls_stall;
		set->tls = gb_tls_ctx_new(true, &o, err, errlen);
		if (!set->tls) {
			gbsim_node_close(tp);
			return -EINVAL;
		}
	}
	set->nodes = calloc(n, sizeof(*set->nodes));
	set->ports = calloc(tp->num_cports, sizeof(*set->ports));
	if (!set->nodes || !set->ports) {
		gbsim_node_close(tp);
		return -ENOMEM;
	}
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		struct gbsim_node *node;

		if (!sim->modules[id])
			continue;
		node = &set->nodes[set->num_nodes++];
		node->set = set;
		node->intf_id = (uint8_t)id;
		node->port = (uint16_t)(port + set->num_nodes - 1);
		node->lfd = node->fd = -1;
		node->out = malloc(GBSIM_NODE_OUT_MAX);
		if (!node->out || gb_tcp_rx_init(&node->rx, tp->mtu) ||
		    gbsim_node_listen(node, host, err, errlen)) {
			if (!node->out)
				snprintf(err, errlen, "out of memory");
			gbsim_node_close(tp);
			return -EINVAL;
		}
		gbsim_log_info("module %u: node listening on %s port %u",
			       id, host, node->port);
	}
	/* messages may flow as soon as a client connects */
	sim->host_created = true;
	return 0;
}

static int gbsim_node_send(struct gbsim_transport *tp, uint16_t hd_cport,
			   const void *msg, size_t len)
{
	struct gbsim_node_set *set = tp->priv;
	struct gbsim_node *node;
	uint8_t *f;
	size_t n;

	if (hd_cport >= tp->num_cports || !set->ports[hd_cport].node)
		return -ENOTCONN;
	node = set->ports[hd_cport].node;
	if (node->fd < 0)
		return -ENOTCONN;
	if (GBSIM_NODE_OUT_MAX - node->out_len < GB_TCP_PREFIX + len)
		return -ENOBUFS;
	f = node->out + node->out_len;
	n = gb_tcp_frame(f, GBSIM_NODE_OUT_MAX - node->out_len,
			 set->ports[hd_cport].intf_cport, msg, len);
	if (!n)
		return -EMSGSIZE;
	node->frames_out++;
	switch (node->fault) {
	case GBSIM_NODE_FAULT_NONE:
		break;
	case GBSIM_NODE_FAULT_CUT:
		n = GB_TCP_PREFIX + len / 2;
		break;
	case GBSIM_NODE_FAULT_HALF_HEADER:
		n = GB_TCP_PREFIX + sizeof(struct gb_operation_msg_hdr) / 2;
		break;
	case GBSIM_NODE_FAULT_LONG_SIZE:
		gbsim_put_le16(f + GB_TCP_PREFIX, (uint16_t)(len + 64));
		break;
	case GBSIM_NODE_FAULT_OVER_MTU:
		gbsim_put_le16(f + GB_TCP_PREFIX, UINT16_MAX);
		break;
	case GBSIM_NODE_FAULT_BAD_CPORT:
		gbsim_put_le16(f, GBSIM_NODE_BAD_CPORT);
		break;
	}
	node->out_len += n;
	if (node->fault != GBSIM_NODE_FAULT_NONE)
		gbsim_log_info("node %u: fault applied to a message of %zu bytes",
			       node->intf_id, len);
	switch (node->fault) {
	case GBSIM_NODE_FAULT_CUT:
		node->fault = GBSIM_NODE_FAULT_NONE;
		gbsim_node_flush(node);
		if (node->fd >= 0)
			gbsim_node_drop(node, "cut mid-message on purpose");
		return 0;
	case GBSIM_NODE_FAULT_HALF_HEADER:
	case GBSIM_NODE_FAULT_LONG_SIZE:
		node->fault = GBSIM_NODE_FAULT_NONE;
		gbsim_node_flush(node);
		if (node->fd >= 0) {
			node->stalled = true;	/* the rest never comes */
			gbsim_node_update_events(node);
		}
		return 0;
	default:
		node->fault = GBSIM_NODE_FAULT_NONE;
		gbsim_node_flush(node);
		return 0;
	}
}

static void gbsim_node_close(struct gbsim_transport *tp)
{
	struct gbsim_node_set *set = tp->priv;

	if (!set)
		return;
	for (size_t i = 0; i < set->num_nodes; i++) {
		struct gbsim_node *node = &set->nodes[i];

		gbsim_node_drop(node, "gbsim stops");
		if (node->lfd >= 0) {
			gbsim_loop_del_fd(tp->loop, node->lfd);
			close(node->lfd);
		}
		gb_tcp_rx_fini(&node->rx);
		free(node->out);
	}
	gb_tls_ctx_free(set->tls);
	free(set->nodes);
	free(set->ports);
	free(set);
	tp->priv = NULL;
}

const struct gbsim_transport_ops gbsim_node_transport = {
	.name	= "node",
	.open	= gbsim_node_open,
	.send	= gbsim_node_send,
	.close	= gbsim_node_close,
};

/* Unidirectional Control requests of a type nobody has: "tcp N flood" */
static int gbsim_node_flood(struct gbsim_node *node, unsigned long count,
			    struct gbsim_ctl_out *out)
{
	uint8_t msg[sizeof(struct gb_operation_msg_hdr)];
	uint8_t frame[GB_TCP_PREFIX + sizeof(msg)];
	unsigned long sent = 0;

	memset(msg, 0, sizeof(msg));
	gbsim_put_le16(msg, sizeof(msg));
	msg[4] = 0x7e;	/* type: unknown to every Control implementation */
	gb_tcp_frame(frame, sizeof(frame), GREYBUS_CONTROL_CPORT_ID, msg,
		     sizeof(msg));
	while (sent < count && node->fd >= 0) {
		if (GBSIM_NODE_OUT_MAX - node->out_len < sizeof(frame)) {
			gbsim_node_flush(node);
			if (GBSIM_NODE_OUT_MAX - node->out_len < sizeof(frame))
				break;	/* the client does not read: stop */
		}
		memcpy(node->out + node->out_len, frame, sizeof(frame));
		node->out_len += sizeof(frame);
		sent++;
	}
	if (node->fd >= 0)
		gbsim_node_flush(node);
	gbsim_ctl_printf(out, "%lu\n", sent);
	return 0;
}

int gbsim_cmd_tcp(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out)
{
	static const struct {
		const char *name;
		enum gbsim_node_fault fault;
	} next[] = {
		{ "cut", GBSIM_NODE_FAULT_CUT },
		{ "half-header", GBSIM_NODE_FAULT_HALF_HEADER },
		{ "long-size", GBSIM_NODE_FAULT_LONG_SIZE },
		{ "over-mtu", GBSIM_NODE_FAULT_OVER_MTU },
		{ "bad-cport", GBSIM_NODE_FAULT_BAD_CPORT },
	};
	struct gbsim_node_set *set = gbsim_node_set_of(sim);
	struct gbsim_node *node;
	uint64_t v;

	if (!set)
		return gbsim_ctl_fail(out, "not a TCP node (--node)");
	if (argc == 1) {
		for (size_t i = 0; i < set->num_nodes; i++) {
			node = &set->nodes[i];
			gbsim_ctl_printf(out, "%u port=%u client=%s%s clients=%lu in=%lu out=%lu\n",
					 node->intf_id, node->port,
					 node->fd >= 0 ? "yes" : "no",
					 node->stalled ? " stalled" : "",
					 node->clients, node->frames_in,
					 node->frames_out);
		}
		return 0;
	}
	if (argc < 3 || gbsim_parse_uint(argv[1], GBSIM_INTF_MAX - 1, &v))
		return gbsim_ctl_fail(out, "usage: tcp [IFID ACTION]");
	node = gbsim_node_find(set, (uint8_t)v);
	if (!node)
		return gbsim_ctl_fail(out, "no node at interface %s", argv[1]);
	if (!strcmp(argv[2], "resume")) {
		node->stalled = false;
		if (node->fd >= 0) {
			gbsim_node_flush(node);
			gbsim_node_frames(node);
		}
		return 0;
	}
	if (node->fd < 0)
		return gbsim_ctl_fail(out, "node %u has no client", node->intf_id);
	if (!strcmp(argv[2], "close")) {
		gbsim_node_drop(node, "closed on purpose");
		return 0;
	}
	if (!strcmp(argv[2], "stall")) {
		node->stalled = true;
		gbsim_node_update_events(node);
		return 0;
	}
	if (!strcmp(argv[2], "flood")) {
		if (argc < 4 || gbsim_parse_uint(argv[3], 100000000, &v) || !v)
			return gbsim_ctl_fail(out, "usage: tcp IFID flood COUNT");
		return gbsim_node_flood(node, (unsigned long)v, out);
	}
	for (size_t i = 0; i < sizeof(next) / sizeof(next[0]); i++) {
		if (!strcmp(argv[2], next[i].name)) {
			node->fault = next[i].fault;
			return 0;
		}
	}
	return gbsim_ctl_fail(out, "unknown tcp action '%s'", argv[2]);
}
