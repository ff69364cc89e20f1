// SPDX-License-Identifier: GPL-2.0
/*
 * One node: a TCP connection kept up (non-blocking connect, keepalive,
 * exponential backoff between attempts), and while it is up, a module
 * of one interface behind the shared SVC.  The interface id is chosen at
 * the first connection (the lowest free from 2) and kept for the node
 * while gbnet runs, so a node that comes back gets the same one.
 *
 * A node that breaks the framing, names a CPort no connection of the AP
 * reaches, starts a message it does not finish in time, or does not read
 * what it is sent, is disconnected, with one rate-limited line.
 *
 * What the AP sends a node while gbnet handles what one read() of the
 * vhd device returned (several messages, on a version 3 host) is framed
 * into the node's buffer and sent when that read is handled
 * (gbnet_nodes_flush()): one send() for all of them.  What one read()
 * from a node returned goes to the AP the same way, in one write()
 * (gbsim_vhd_hold()).
 *
 * A "tls:" node runs its TLS handshake in the loop between the connect
 * and the module's insertion, bounded by --handshake-timeout; its bytes
 * then go through the session (gb_tls.c) instead of send() and recv().
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <gb_resolve.h>
#include <gb_tls.h>

#include "gbnet.h"
#include "log.h"
#include "loop.h"
#include "transport.h"

static void gbnet_node_connect(struct gbnet_node *node);
static void gbnet_node_unpause(struct gbnet_node *node);
static void gbnet_node_kick(struct gbsim_loop *loop, void *ctx);

const char *gbnet_node_state_name(enum gbnet_node_state st)
{
	switch (st) {
	case GBNET_NODE_WAIT:		return "down";
	case GBNET_NODE_RESOLVING:	return "resolving";
	case GBNET_NODE_CONNECTING:	return "connecting";
	case GBNET_NODE_HANDSHAKE:	return "handshake";
	case GBNET_NODE_UP:		return "up";
	}
	return "unknown";
}

static struct gbsim_loop *gbnet_loop(struct gbnet_node *node)
{
	return node->net->sim.loop;
}

void gbnet_node_log(struct gbnet_node *node, bool error, const char *fmt, ...)
{
	unsigned int missed;
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (error)
		snprintf(node->last_error, sizeof(node->last_error), "%s", line);
	if (!gbnet_ratelimit(&node->rl, &missed))
		return;
	if (error)
		gbsim_log_error("node %s: %s%s", node->name, line,
				missed ? " (and lines suppressed)" : "");
	else
		gbsim_log_info("node %s: %s", node->name, line);
}

static void gbnet_cancel(struct gbnet_node *node, uint64_t *timer)
{
	if (*timer)
		gbsim_loop_cancel_timer(gbnet_loop(node), *timer);
	*timer = 0;
}

static void gbnet_node_retry(struct gbsim_loop *loop, void *ctx)
{
	struct gbnet_node *node = ctx;

	(void)loop;
	node->timer = 0;
	gbnet_node_connect(node);
}

/* Close whatever there is, take the module out, try again later */
static void gbnet_node_down(struct gbnet_node *node, bool error,
			    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void gbnet_node_down(struct gbnet_node *node, bool error,
			    const char *fmt, ...)
{
	struct gbnet *net = node->net;
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (error)
		node->errors++;
	if (node->state == GBNET_NODE_UP) {
		gbnet_node_log(node, error, "down: %s", why);
		gbsim_module_remove(&net->sim, node->intf_id, "disconnected");
	} else {
		gbnet_node_log(node, error, "%s", why);
	}
	gbnet_cancel(node, &node->timer);
	gbnet_cancel(node, &node->frame_timer);
	gbnet_cancel(node, &node->kick_timer);
	gb_tls_free(node->tls);
	node->tls = NULL;
	if (node->fd >= 0) {
		gbsim_loop_del_fd(gbnet_loop(node), node->fd);
		close(node->fd);
		node->fd = -1;
	}
	gb_tcp_rx_reset(&node->rx);
	node->out_len = 0;
	gbnet_limits_reset(node);
	gbnet_node_unpause(node);
	node->state = GBNET_NODE_WAIT;
	node->timer = gbsim_loop_add_timer(gbnet_loop(node), node->backoff_ms,
					   gbnet_node_retry, node);
	node->backoff_ms = node->backoff_ms * 2 > net->backoff_max_ms ?
			   net->backoff_max_ms : node->backoff_ms * 2;
}

static void gbnet_node_events(struct gbnet_node *node)
{
	gbsim_loop_set_events(gbnet_loop(node), node->fd,
			      (node->paused ? 0 : POLLIN) |
			      (node->out_len ? POLLOUT : 0));
}

static void gbnet_node_unpause(struct gbnet_node *node)
{
	if (!node->paused)
		return;
	node->paused = false;
	node->net->paused--;
}

/*
 * Back-pressure: while the queue of messages to the AP (one for every
 * node) is above its high mark, a node is not read, so that a node
 * flooding faster than the kernel reads fills its own TCP window, not
 * the queue the other nodes' messages need.  Its frame timer stops
 * meanwhile (the wait is gbnet's, not the node's).
 */
static bool gbnet_node_pause(struct gbnet_node *node)
{
	struct gbsim_transport *tp = node->net->sim.tp;

	if (!tp || !tp->ops->backlog ||
	    tp->ops->backlog(tp) < GBSIM_BACKLOG_HIGH)
		return false;
	if (!node->paused) {
		node->paused = true;
		node->net->paused++;
		gbnet_cancel(node, &node->frame_timer);
		gbnet_node_events(node);
	}
	return true;
}

static void gbnet_node_frame_late(struct gbsim_loop *loop, void *ctx);

void gbnet_nodes_resume(void *ctx)
{
	struct gbnet *net = ctx;

	if (!net->paused)
		return;
	for (struct gbnet_node *n = net->nodes; n; n = n->next) {
		if (!n->paused)
			continue;
		gbnet_node_unpause(n);
		if (n->fd < 0)
			continue;
		gbnet_node_events(n);
		if (n->tls && gb_tls_pending(n->tls) && !n->kick_timer)
			n->kick_timer = gbsim_loop_add_timer(gbnet_loop(n), 0,
							     gbnet_node_kick, n);
		if (n->rx.len && !n->frame_timer)
			n->frame_timer = gbsim_loop_add_timer(gbnet_loop(n),
							      net->frame_ms,
							      gbnet_node_frame_late,
							      n);
	}
}

static void gbnet_node_flush(struct gbnet_node *node)
{
	char err[512];
	short ev;
	ssize_t n;

	node->flush_due = false;	/* net->flush_due is only a hint */

	while (node->out_len) {
		if (node->tls) {
			n = gb_tls_send(node->tls, node->out, node->out_len, &ev,
					err, sizeof(err));
			if (n == -EAGAIN)
				break;
			if (n < 0) {
				gbnet_node_down(node, true, "%s", err);
				return;
			}
		} else {
			n = send(node->fd, node->out, node->out_len,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			gbnet_node_down(node, true, "send: %s",
					n < 0 ? strerror(errno) : "closed");
			return;
		}
		node->bytes_out += (size_t)n;
		memmove(node->out, node->out + n, node->out_len - (size_t)n);
		node->out_len -= (size_t)n;
	}
	gbnet_node_events(node);
}

static int gbnet_node_send(struct gbnet_node *node, uint16_t intf_cport,
			   const uint8_t *msg, size_t len)
{
	size_t n;

	if (node->state != GBNET_NODE_UP)
		return -ENOTCONN;
	if (node->flush_due &&
	    GBNET_OUT_MAX - node->out_len < GB_TCP_PREFIX + len) {
		gbnet_node_flush(node);	/* make room first */
		if (node->state != GBNET_NODE_UP)
			return -ENOTCONN;
	}
	if (GBNET_OUT_MAX - node->out_len < GB_TCP_PREFIX + len) {
		/* the AP is not to wait for a node that does not read */
		gbnet_node_down(node, true, "does not read: %u bytes queued",
				(unsigned int)node->out_len);
		return -ENOBUFS;
	}
	n = gb_tcp_frame(node->out + node->out_len, GBNET_OUT_MAX - node->out_len,
			 intf_cport, msg, len);
	if (!n)
		return -EMSGSIZE;
	node->out_len += n;
	node->msgs_out++;
	/* more may follow for this node from the same read of the AP's */
	if (gbsim_vhd_held(node->net->tp)) {
		if (!node->flush_due) {
			node->flush_due = true;
			node->net->flush_due++;
		}
		return 0;
	}
	gbnet_node_flush(node);
	return 0;
}

void gbnet_nodes_flush(void *ctx)
{
	struct gbnet *net = ctx;

	if (!net->flush_due)
		return;
	net->flush_due = 0;
	for (struct gbnet_node *n = net->nodes; n; n = n->next) {
		if (!n->flush_due)
			continue;
		n->flush_due = false;
		if (n->state == GBNET_NODE_UP && n->fd >= 0)
			gbnet_node_flush(n);
	}
}

void gbnet_node_write(struct gbnet_node *node, uint16_t cport,
		      const uint8_t *msg, size_t len)
{
	gbnet_node_send(node, cport, msg, len);
}

/* The AP's message for the node's CPort (struct gbsim_link_ops) */
static int gbnet_link_send(void *ctx, uint16_t intf_cport, const uint8_t *msg,
			   size_t len)
{
	struct gbnet_node *node = ctx;
	int ret;

	if (node->state != GBNET_NODE_UP)
		return -ENOTCONN;
	/* the node's MTU and window of requests in flight */
	ret = gbnet_limits_send(node, intf_cport, msg, len);
	if (ret)
		return ret < 0 ? ret : 0;
	return gbnet_node_send(node, intf_cport, msg, len);
}

static const struct gbsim_link_ops gbnet_link_ops = {
	.send = gbnet_link_send,
};

static void gbnet_node_frame_late(struct gbsim_loop *loop, void *ctx)
{
	struct gbnet_node *node = ctx;

	(void)loop;
	node->frame_timer = 0;
	gbnet_node_down(node, true, "message incomplete after %u ms (%zu bytes of it)",
			node->net->frame_ms, node->rx.len);
}

static void gbnet_node_frames(struct gbnet_node *node)
{
	enum gb_tcp_status st;
	const uint8_t *msg;
	uint8_t hdr[8];		/* the header of a message consumed */
	bool ended = false;
	size_t msg_len;
	uint16_t cport;
	int ret;

	for (;;) {
		st = gb_tcp_rx_next(&node->rx, &cport, &msg, &msg_len);
		if (st == GB_TCP_NEED_MORE)
			break;
		if (st != GB_TCP_FRAME) {
			gbnet_node_down(node, true, "bad framing: %s (limit %zu bytes)",
					gb_tcp_status_name(st), node->rx.max_msg);
			return;
		}
		node->msgs_in++;
		ret = gbsim_link_deliver(&node->net->sim, node->intf_id, cport,
					 msg, msg_len);
		if (ret == -ENOENT) {
			gbnet_node_down(node, true, "message for cport %u, which no connection reaches",
					cport);
			return;
		}
		if (ret) {
			/* the AP side refused it: the node is not at fault */
			node->errors++;
			gbnet_node_log(node, true, "cport %u: message of %zu bytes not delivered: %s",
				       cport, msg_len, strerror(-ret));
		}
		/* an answer frees its slot: queued requests may go (or fail) */
		memcpy(hdr, msg, sizeof(hdr));
		gb_tcp_rx_consume(&node->rx, GB_TCP_PREFIX + msg_len);
		ended = true;
		gbnet_limits_response(node, cport, hdr, sizeof(hdr));
		if (node->state != GBNET_NODE_UP)
			return;
	}
	/*
	 * A message begun must end in time: a slow sender holds nothing.
	 * The clock runs from the first byte of the message now at the
	 * head of the buffer: a frame that ended restarts it, so a node
	 * streaming whole frames whose reads end mid-frame is never late.
	 */
	if (ended || !node->rx.len)
		gbnet_cancel(node, &node->frame_timer);
	if (node->rx.len && !node->frame_timer)
		node->frame_timer = gbsim_loop_add_timer(gbnet_loop(node),
							 node->net->frame_ms,
							 gbnet_node_frame_late,
							 node);
}


/* recv(), or the TLS session's: n, 0 closed, -1 with errno (EIO: said in @err) */
static ssize_t gbnet_node_recv(struct gbnet_node *node, char *err,
			       size_t errlen)
{
	short ev;
	ssize_t n;

	if (!node->tls)
		return recv(node->fd, gb_tcp_rx_tail(&node->rx),
			    gb_tcp_rx_room(&node->rx), MSG_DONTWAIT);
	n = gb_tls_recv(node->tls, gb_tcp_rx_tail(&node->rx),
			gb_tcp_rx_room(&node->rx), &ev, err, errlen);
	if (n >= 0)
		return n;
	errno = n == -EAGAIN ? EAGAIN : EIO;
	return -1;
}

static void gbnet_node_io(struct gbsim_loop *loop, int fd, short revents,
			  void *ctx)
{
	struct gbnet_node *node = ctx;
	unsigned int reads = 0;
	char err[512];
	int one = 1;
	ssize_t n;

	(void)loop;
	(void)fd;
	if (revents & POLLOUT) {
		gbnet_node_flush(node);
		if (node->state != GBNET_NODE_UP)
			return;
	}
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	if (gbnet_node_pause(node)) {
		/* not read, so a hang-up would be reported at every poll() */
		if (revents & (POLLHUP | POLLERR))
			gbnet_node_down(node, true, "lost while not read (the AP's queue was full)");
		return;
	}
	/* one read per wakeup, at most one largest message: fair to others */
again:
	n = gbnet_node_recv(node, err, sizeof(err));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0) {
		gbnet_node_down(node, true, "%s",
				errno == EIO && node->tls ? err : strerror(errno));
		return;
	}
	if (!n) {
		if (node->rx.len)
			gbnet_node_down(node, true, "closed mid-message (%zu bytes of it)",
					node->rx.len);
		else
			gbnet_node_down(node, false, "closed by the node");
		return;
	}
	/*
	 * ACK at once, again after every read: greybus-zephyr writes the
	 * CPort prefix and the message in two send()s with Nagle's
	 * algorithm on, so its message waits for our ACK of the prefix;
	 * a delayed ACK would cost 40 ms or more per message.
	 */
	if (node->net->quickack)
		setsockopt(node->fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
	node->bytes_in += (size_t)n;
	gb_tcp_rx_added(&node->rx, (size_t)n);
	/* its messages go to the AP in one write() */
	gbsim_vhd_hold(node->net->tp);
	gbnet_node_frames(node);
	gbsim_vhd_release(node->net->tp);
	/*
	 * TLS: a record is decrypted whole, so bytes can wait in the
	 * session that poll() will never announce: read them now (a few
	 * times), or from a timer (fair to the other nodes)
	 */
	if (node->state != GBNET_NODE_UP || !node->tls ||
	    !gb_tls_pending(node->tls) || node->paused)
		return;
	if (gb_tcp_rx_room(&node->rx) && ++reads < 4 && !gbnet_node_pause(node))
		goto again;
	if (!node->paused && !node->kick_timer)
		node->kick_timer = gbsim_loop_add_timer(gbnet_loop(node), 0,
							gbnet_node_kick, node);
}

static void gbnet_node_kick(struct gbsim_loop *loop, void *ctx)
{
	struct gbnet_node *node = ctx;

	node->kick_timer = 0;
	if (node->state == GBNET_NODE_UP && node->tls && !node->paused)
		gbnet_node_io(loop, node->fd, POLLIN, node);
}

/* The lowest interface id from 2 that no other node holds */
static int gbnet_pick_intf(struct gbnet *net)
{
	for (unsigned int id = GBNET_FIRST_INTF; id < GBSIM_INTF_MAX; id++) {
		bool taken = net->sim.intfs[id] != NULL;

		for (struct gbnet_node *n = net->nodes; n && !taken; n = n->next)
			taken = n->intf_id == id;
		if (!taken)
			return (int)id;
	}
	return -ENOSPC;
}

static void gbnet_node_up(struct gbnet_node *node)
{
	struct gbnet *net = node->net;
	struct gbsim_module_cfg mc = {
		.num_intfs = 1,
		.vid = GBSIM_DEFAULT_VID,
		.pid = GBSIM_DEFAULT_PID,
		.ddbl1_mfr = GBSIM_DEFAULT_DDBL1_MFR,
		.ddbl1_prod = GBSIM_DEFAULT_DDBL1_PROD,
		.init_status = GBSIM_DEFAULT_INIT_STATUS,
		.kind = GBSIM_INTF_GREYBUS,
	};
	unsigned int ka = net->keepalive_s, cnt = 3, intvl;
	struct gbsim_module *m;
	char err[160];
	int one = 1, id;

	if (!node->intf_id) {
		id = gbnet_pick_intf(net);
		if (id < 0) {
			gbnet_node_down(node, true, "no interface id left");
			return;
		}
		node->intf_id = (uint8_t)id;
	}
	/* silent past keepalive_s (dead peer, unacked data): down */
	intvl = ka / cnt ? ka / cnt : 1;
	setsockopt(node->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (net->quickack)
		setsockopt(node->fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
	setsockopt(node->fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(node->fd, IPPROTO_TCP, TCP_KEEPIDLE, &intvl, sizeof(intvl));
	setsockopt(node->fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(node->fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	ka *= 1000;
	setsockopt(node->fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ka, sizeof(ka));

	mc.id = node->intf_id;
	mc.serial = GBNET_SERIAL | node->intf_id;
	mc.serial_set = true;
	m = gbsim_module_create_linked(&mc, &gbnet_link_ops, node, err,
				       sizeof(err));
	if (!m || gbsim_module_insert(&net->sim, m, err, sizeof(err))) {
		gbsim_module_destroy(m);
		gbnet_node_down(node, true, "module %u: %s", node->intf_id, err);
		return;
	}
	node->state = GBNET_NODE_UP;
	node->connects++;
	node->backoff_ms = GBNET_BACKOFF_MIN_MS;
	gbnet_node_events(node);
	gbnet_node_log(node, false, "up at %s: interface %u", node->addr,
		       node->intf_id);
}

static void gbnet_node_handshake_late(struct gbsim_loop *loop, void *ctx)
{
	struct gbnet_node *node = ctx;

	(void)loop;
	node->timer = 0;
	gbnet_node_down(node, true, "TLS handshake with %s: not over after %u ms (a greybus-zephyr node serving another host, or stalled)",
			node->addr, node->net->handshake_ms);
}

/* The handshake goes on; once over, the node's module comes */
static void gbnet_node_tls_io(struct gbsim_loop *loop, int fd, short revents,
			      void *ctx)
{
	struct gbnet_node *node = ctx;
	char err[512];
	short ev = 0;
	int ret;

	(void)revents;
	ret = gb_tls_handshake(node->tls, &ev, err, sizeof(err));
	if (ret < 0) {
		gbnet_node_down(node, true, "%s", err);
		return;
	}
	if (ret > 0) {
		gbsim_loop_set_events(loop, fd, ev);
		return;
	}
	gbnet_cancel(node, &node->timer);
	gb_tls_peer_fingerprint(node->tls, node->tls_fp, sizeof(node->tls_fp));
	gb_tls_peer_subject(node->tls, node->tls_subject,
			    sizeof(node->tls_subject));
	gb_tls_describe(node->tls, node->tls_what, sizeof(node->tls_what));
	gbnet_node_log(node, false, "TLS: %s, certificate %s, SHA-256 %s",
		       node->tls_what, node->tls_subject, node->tls_fp);
	gbsim_loop_del_fd(loop, fd);
	if (gbsim_loop_add_fd(loop, fd, POLLIN, gbnet_node_io, node)) {
		gbnet_node_down(node, true, "out of memory");
		return;
	}
	gbnet_node_up(node);
}

static void gbnet_node_tls_start(struct gbnet_node *node)
{
	node->tls = gb_tls_new(node->tls_ctx, node->fd, node->addr);
	node->state = GBNET_NODE_HANDSHAKE;
	if (!node->tls ||
	    gbsim_loop_add_fd(gbnet_loop(node), node->fd, POLLOUT,
			      gbnet_node_tls_io, node)) {
		gbnet_node_down(node, true, "out of memory");
		return;
	}
	node->timer = gbsim_loop_add_timer(gbnet_loop(node),
					   node->net->handshake_ms,
					   gbnet_node_handshake_late, node);
}

static void gbnet_node_connected(struct gbsim_loop *loop, int fd,
				 short revents, void *ctx)
{
	struct gbnet_node *node = ctx;
	socklen_t len = sizeof(int);
	int err = 0;

	(void)loop;
	(void)revents;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
		gbnet_node_down(node, true, "connect to %s: %s", node->addr,
				strerror(err ? err : errno));
		return;
	}
	gbnet_cancel(node, &node->timer);
	gbsim_loop_del_fd(gbnet_loop(node), fd);
	if (node->tls_ctx) {
		gbnet_node_tls_start(node);
		return;
	}
	if (gbsim_loop_add_fd(gbnet_loop(node), fd, POLLIN, gbnet_node_io,
			      node)) {
		gbnet_node_down(node, true, "out of memory");
		return;
	}
	gbnet_node_up(node);
}

static void gbnet_node_connect_late(struct gbsim_loop *loop, void *ctx)
{
	struct gbnet_node *node = ctx;

	(void)loop;
	node->timer = 0;
	gbnet_node_down(node, true, "connect to %s: no answer in %u ms",
			node->addr, node->net->connect_ms);
}

static void gbnet_addr_name(const struct sockaddr *sa, char *out, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	unsigned int port = 0;

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
		port = ntohs(in->sin_port);
		snprintf(out, len, "%s:%u", ip, port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
		port = ntohs(in6->sin6_port);
		snprintf(out, len, "[%s]:%u", ip, port);
	} else {
		snprintf(out, len, "?");
	}
}

static void gbnet_node_dial(struct gbnet_node *node,
			    const struct sockaddr_storage *ss, socklen_t len)
{
	int fd;

	gbnet_addr_name((const struct sockaddr *)ss, node->addr,
			sizeof(node->addr));
	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		gbnet_node_down(node, true, "socket: %s", strerror(errno));
		return;
	}
	if (connect(fd, (const struct sockaddr *)ss, len) && errno != EINPROGRESS) {
		int e = errno;

		close(fd);
		gbnet_node_down(node, true, "connect to %s: %s", node->addr,
				strerror(e));
		return;
	}
	node->fd = fd;
	node->state = GBNET_NODE_CONNECTING;
	if (gbsim_loop_add_fd(gbnet_loop(node), fd, POLLOUT,
			      gbnet_node_connected, node)) {
		gbnet_node_down(node, true, "out of memory");
		return;
	}
	node->timer = gbsim_loop_add_timer(gbnet_loop(node),
					   node->net->connect_ms,
					   gbnet_node_connect_late, node);
}

/* A name looked up (resolver.c): the node, if it is still waiting for it */
static void gbnet_node_resolved(void *ctx, uint64_t key, int ret,
				const struct sockaddr_storage *ss,
				socklen_t len, const char *err)
{
	struct gbnet *net = ctx;
	struct gbnet_node *node = net->nodes;

	while (node && node->serial != key)
		node = node->next;
	if (!node || node->state != GBNET_NODE_RESOLVING)
		return;
	if (ret) {
		gbnet_node_down(node, true, "%s", err);
		return;
	}
	gbnet_node_dial(node, ss, len);
}

static void gbnet_node_connect(struct gbnet_node *node)
{
	struct gbnet *net = node->net;
	struct sockaddr_storage ss;
	char err[160];
	socklen_t len;
	int ret;

	/*
	 * An address is used as it is; a name is looked up again at each
	 * attempt (a node may move), by the resolver's thread: a lookup
	 * takes as long as DNS does, and the loop serves every other node
	 */
	ret = gb_resolve_numeric(node->host, node->port, &ss, &len, err,
				 sizeof(err));
	if (!ret) {
		gbnet_node_dial(node, &ss, len);
		return;
	}
	if (ret != -ENOENT) {
		gbnet_node_down(node, true, "%s", err);
		return;
	}
	if (!net->resolver)
		net->resolver = gbsim_resolver_new(gbnet_loop(node), gb_resolve,
						   gbnet_node_resolved, net);
	if (!net->resolver ||
	    gbsim_resolver_ask(net->resolver, node->serial, node->host,
			       node->port)) {
		gbnet_node_down(node, true, "%s: cannot look the name up now",
				node->host);
		return;
	}
	node->state = GBNET_NODE_RESOLVING;
}

struct gbnet_node *gbnet_node_add(struct gbnet *net, const char *spec,
				  char *err, size_t errlen)
{
	struct gbnet_tls_settings own = { .legacy = -1 };
	struct gbnet_node *node, **pp;
	char first[300];
	size_t n = strcspn(spec, " \t");
	bool tls = !strncmp(spec, "tls:", 4);

	node = calloc(1, sizeof(*node));
	if (!node) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	node->net = net;
	node->serial = ++net->next_serial;
	node->fd = -1;
	node->backoff_ms = GBNET_BACKOFF_MIN_MS;
	snprintf(first, sizeof(first), "%.*s", (int)n, spec);
	snprintf(node->name, sizeof(node->name), "%s", first);
	if (n >= sizeof(first) ||
	    gb_tcp_split_hostport(first + (tls ? 4 : 0), node->host,
				  sizeof(node->host), &node->port,
				  GB_TCP_DEFAULT_PORT)) {
		snprintf(err, errlen, "'%s': expected [tls:]HOST[:PORT] or [tls:][V6ADDR][:PORT]",
			 spec);
		free(node);
		return NULL;
	}
	if (spec[n] && !tls) {
		snprintf(err, errlen, "'%s': settings after the address are TLS settings: give tls:%s",
			 spec, first);
		free(node);
		return NULL;
	}
	for (struct gbnet_node *n = net->nodes; n; n = n->next) {
		if (!strcmp(n->host, node->host) && n->port == node->port) {
			snprintf(err, errlen, "'%s': node already known", spec);
			free(node);
			return NULL;
		}
	}
	node->spec = strdup(spec);
	if (tls && node->spec) {
		if (gbnet_tls_words(&own, spec + n, err, errlen) ||
		    !(node->tls_ctx = gbnet_tls_ctx(net, node, &own, err,
						    errlen))) {
			gbnet_tls_settings_free(&own);
			free(node->spec);
			free(node);
			return NULL;
		}
		gbnet_tls_settings_free(&own);
	}
	node->out = malloc(GBNET_OUT_MAX);
	node->mtu = net->node_mtu < net->cfg.mtu ? net->node_mtu : net->cfg.mtu;
	if (!node->spec || !node->out ||
	    gb_tcp_rx_init(&node->rx, net->cfg.mtu) || gbnet_limits_init(node)) {
		snprintf(err, errlen, "out of memory");
		gb_tls_ctx_free(node->tls_ctx);
		free(node->spec);
		free(node->out);
		gb_tcp_rx_fini(&node->rx);
		gbnet_limits_fini(node);
		free(node);
		return NULL;
	}
	for (pp = &net->nodes; *pp; pp = &(*pp)->next)
		;
	*pp = node;
	gbnet_node_connect(node);
	return node;
}

void gbnet_node_remove(struct gbnet *net, struct gbnet_node *node)
{
	struct gbnet_node **pp;

	for (pp = &net->nodes; *pp && *pp != node; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = node->next;
	if (node->state == GBNET_NODE_UP)
		gbsim_module_remove(&net->sim, node->intf_id, "removed");
	gbnet_node_unpause(node);
	gbnet_cancel(node, &node->timer);
	gbnet_cancel(node, &node->frame_timer);
	gbnet_cancel(node, &node->kick_timer);
	gb_tls_free(node->tls);
	gb_tls_ctx_free(node->tls_ctx);
	if (node->fd >= 0) {
		gbsim_loop_del_fd(gbnet_loop(node), node->fd);
		close(node->fd);
	}
	gb_tcp_rx_fini(&node->rx);
	gbnet_limits_fini(node);
	free(node->out);
	free(node->spec);
	if (node->mdns_key)
		net->mdns_nodes--;
	free(node->mdns_key);
	gbnet_policy_node_free(node);
	free(node);
}

struct gbnet_node *gbnet_node_find(struct gbnet *net, const char *word)
{
	char host[256];
	uint16_t port;
	char *end;
	unsigned long id = strtoul(word, &end, 0);

	for (struct gbnet_node *n = net->nodes; n; n = n->next) {
		size_t k = strcspn(n->spec, " \t");

		/* the whole spec, or a TLS node's address without its settings */
		if (!strcmp(n->spec, word) ||
		    (strlen(word) == k && !strncmp(n->spec, word, k)))
			return n;
	}
	if (*word && !*end) {
		for (struct gbnet_node *n = net->nodes; n; n = n->next)
			if (n->intf_id && n->intf_id == id)
				return n;
	}
	if (gb_tcp_split_hostport(word, host, sizeof(host), &port,
				  GB_TCP_DEFAULT_PORT))
		return NULL;
	for (struct gbnet_node *n = net->nodes; n; n = n->next)
		if (!strcmp(n->host, host) && n->port == port)
			return n;
	return NULL;
}

void gbnet_nodes_fini(struct gbnet *net)
{
	while (net->nodes)
		gbnet_node_remove(net, net->nodes);
	gbsim_resolver_free(net->resolver);
	net->resolver = NULL;
}
