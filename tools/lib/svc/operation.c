// SPDX-License-Identifier: GPL-2.0
/*
 * Operations as gbsim sees them: requests from the AP run through the
 * hooks and a handler and get their response; requests gbsim sends wait
 * here, by bridge CPort and operation id, until the AP answers or they
 * time out.  Every message gbsim sends leaves through gbsim_transmit(),
 * which logs it and gives the hooks their chance to drop or delay it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"
#include "transport.h"

struct gbsim_pending {
	struct gbsim	*sim;
	uint16_t	hd_cport;
	uint16_t	id;
	uint8_t		type;
	uint64_t	timer;
	gbsim_response_cb cb;
	void		*ctx;
	struct gbsim_pending *next;
};

struct gbsim_delayed {
	struct gbsim	*sim;
	uint16_t	hd_cport;
	uint64_t	timer;
	struct gbsim_delayed *next;
	size_t		len;
	uint8_t		msg[];
};

/* Who is at the far end of a bridge CPort, for the log and the hooks */
struct gbsim_peer {
	bool		svc;
	int		intf_id;	/* -1: SVC or nobody */
	int		intf_cport;
	int		protocol;	/* -1: no connection, unknown */
};

static void gbsim_peer_of(struct gbsim *sim, uint16_t hd_cport,
			  struct gbsim_peer *peer)
{
	struct gbsim_conn *conn = NULL;

	peer->svc = hd_cport == 0;
	peer->intf_id = -1;
	peer->intf_cport = -1;
	peer->protocol = peer->svc ? GREYBUS_PROTOCOL_SVC : -1;
	if (!peer->svc && hd_cport < sim->num_cports)
		conn = sim->conns[hd_cport];
	if (conn) {
		peer->intf_id = conn->intf_id;
		peer->intf_cport = conn->intf_cport;
		peer->protocol = conn->protocol;
	}
}

void gbsim_log_from_ap(struct gbsim *sim, uint16_t hd_cport,
		       const uint8_t *msg, size_t len, const char *note)
{
	struct gbsim_peer peer;

	gbsim_peer_of(sim, hd_cport, &peer);
	gbsim_log_msg(peer.svc ? GBSIM_AP_TO_SVC : GBSIM_AP_TO_MOD, hd_cport,
		      peer.intf_id, peer.intf_cport, peer.protocol, msg, len,
		      note);
}

void gbsim_hook_add(struct gbsim *sim, struct gbsim_hook *hook)
{
	hook->next = sim->hooks;
	sim->hooks = hook;
}

void gbsim_hook_del(struct gbsim *sim, struct gbsim_hook *hook)
{
	struct gbsim_hook **pp;

	for (pp = &sim->hooks; *pp; pp = &(*pp)->next) {
		if (*pp == hook) {
			*pp = hook->next;
			return;
		}
	}
}

static void gbsim_hook_msg_init(struct gbsim *sim, struct gbsim_hook_msg *m,
				uint16_t hd_cport, uint8_t *msg, size_t len)
{
	struct gbsim_peer peer;

	gbsim_peer_of(sim, hd_cport, &peer);
	memset(m, 0, sizeof(*m));
	m->hd_cport = hd_cport;
	m->has_intf = peer.intf_id >= 0;
	m->intf_id = m->has_intf ? (uint8_t)peer.intf_id : 0;
	m->protocol = peer.protocol < 0 ? GREYBUS_PROTOCOL_VENDOR :
		      (uint8_t)peer.protocol;
	m->msg = msg;
	m->len = len;
	m->copies = 1;
	m->short_len = -1;
}

static int gbsim_transmit_now(struct gbsim *sim, uint16_t hd_cport,
			      const uint8_t *msg, size_t len)
{
	struct gbsim_peer peer;
	int ret;

	gbsim_peer_of(sim, hd_cport, &peer);
	gbsim_log_msg(peer.svc ? GBSIM_SVC_TO_AP : GBSIM_MOD_TO_AP, hd_cport,
		      peer.intf_id, peer.intf_cport, peer.protocol, msg, len,
		      NULL);
	if (!sim->tp || !sim->host_created)
		return -ENODEV;
	/* gb-vhd takes messages on other CPorts only while they are enabled */
	if (hd_cport != GB_SVC_CPORT_ID && !sim->cport_enabled[hd_cport]) {
		gbsim_log_error("cport %u: not enabled by the AP: message of %zu bytes not sent",
				hd_cport, len);
		return -ENOTCONN;
	}
	ret = sim->tp->ops->send(sim->tp, hd_cport, msg, len);
	if (ret)
		gbsim_log_error("cport %u: sending %zu bytes to the AP failed: %s",
				hd_cport, len, strerror(-ret));
	return ret;
}

static void gbsim_delayed_fire(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_delayed *d = ctx, **pp;
	struct gbsim *sim = d->sim;

	(void)loop;
	for (pp = &sim->delayed; *pp; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	}
	gbsim_transmit_now(sim, d->hd_cport, d->msg, d->len);
	free(d);
}

static int gbsim_transmit_later(struct gbsim *sim, uint16_t hd_cport,
				const uint8_t *msg, size_t len,
				unsigned int delay_ms)
{
	struct gbsim_delayed *d = malloc(sizeof(*d) + len);

	if (!d)
		return -ENOMEM;
	d->sim = sim;
	d->hd_cport = hd_cport;
	d->len = len;
	memcpy(d->msg, msg, len);
	d->timer = gbsim_loop_add_timer(sim->loop, delay_ms, gbsim_delayed_fire,
					d);
	if (!d->timer) {
		free(d);
		return -ENOMEM;
	}
	d->next = sim->delayed;
	sim->delayed = d;
	return 0;
}

/*
 * Every message gbsim sends: the hooks may drop it, edit it, hold it back
 * (on top of delay_ms) or send it more than once.
 */
static int gbsim_transmit(struct gbsim *sim, uint16_t hd_cport, uint8_t *msg,
			  size_t len, unsigned int delay_ms)
{
	struct gbsim_hook_msg m;
	struct gbsim_hook *hook;
	struct gbsim_peer peer;
	int ret = 0;

	gbsim_hook_msg_init(sim, &m, hd_cport, msg, len);
	for (hook = sim->hooks; hook; hook = hook->next) {
		if (!hook->send)
			continue;
		switch (hook->send(hook, sim, &m)) {
		case GBSIM_HOOK_PASS:
		case GBSIM_HOOK_ANSWER:
			continue;
		case GBSIM_HOOK_DROP:
			gbsim_peer_of(sim, hd_cport, &peer);
			gbsim_log_msg(peer.svc ? GBSIM_SVC_TO_AP : GBSIM_MOD_TO_AP,
				      hd_cport, peer.intf_id, peer.intf_cport,
				      peer.protocol, m.msg, m.len,
				      "dropped by hook");
			return 0;
		case GBSIM_HOOK_DELAY:
			delay_ms += m.delay_ms;
			m.delay_ms = 0;
			continue;
		}
	}
	for (unsigned int i = 0; i < m.copies && !ret; i++) {
		if (delay_ms)
			ret = gbsim_transmit_later(sim, hd_cport, m.msg, m.len,
						   delay_ms);
		else
			ret = gbsim_transmit_now(sim, hd_cport, m.msg, m.len);
	}
	return ret;
}

static void gbsim_put_header(uint8_t *msg, size_t len, uint16_t id,
			     uint8_t type, uint8_t result)
{
	struct gb_operation_msg_hdr hdr = {
		.size = htole16((uint16_t)len),
		.operation_id = htole16(id),
		.type = type,
		.result = result,
	};

	memcpy(msg, &hdr, sizeof(hdr));
}

/* How a hook wants the response of the request it saw sent */
struct gbsim_rsp_opts {
	unsigned int	delay_ms;
	int		short_len;	/* >= 0: cut the payload to this */
	unsigned int	copies;
	unsigned int	extra_len;	/* zero bytes added to a success */
};

static int gbsim_send_response_opts(struct gbsim *sim, uint16_t hd_cport,
				    uint16_t id, uint8_t req_type,
				    uint8_t result, const void *payload,
				    size_t len, const struct gbsim_rsp_opts *o)
{
	size_t hlen = sizeof(struct gb_operation_msg_hdr);
	size_t extra = 0;
	uint8_t *msg;
	int ret = 0;

	if (result != GB_OP_SUCCESS)
		len = 0;	/* error responses carry no payload */
	if (hlen + len > sim->mtu) {
		gbsim_log_error("cport %u: response id=0x%04x of %zu bytes exceeds the MTU (%u): answering overflow",
				hd_cport, id, hlen + len, sim->mtu);
		result = GB_OP_OVERFLOW;
		len = 0;
	}
	if (o->short_len >= 0 && len > (size_t)o->short_len)
		len = (size_t)o->short_len;
	if (result == GB_OP_SUCCESS && o->extra_len) {
		extra = o->extra_len;
		if (hlen + len + extra > sim->mtu)
			extra = sim->mtu - hlen - len;
	}
	msg = calloc(1, hlen + len + extra);
	if (!msg)
		return -ENOMEM;
	gbsim_put_header(msg, hlen + len + extra, id,
			 req_type | GB_MSG_TYPE_RESPONSE, result);
	if (len)
		memcpy(msg + hlen, payload, len);
	for (unsigned int i = 0; i < o->copies && !ret; i++)
		ret = gbsim_transmit(sim, hd_cport, msg, hlen + len + extra,
				     o->delay_ms);
	free(msg);
	return ret;
}

int gbsim_send_response(struct gbsim *sim, uint16_t hd_cport, uint16_t id,
			uint8_t req_type, uint8_t result, const void *payload,
			size_t len)
{
	static const struct gbsim_rsp_opts plain = {
		.short_len = -1, .copies = 1,
	};

	return gbsim_send_response_opts(sim, hd_cport, id, req_type, result,
					payload, len, &plain);
}

static struct gbsim_pending *gbsim_pending_take(struct gbsim *sim,
						uint16_t hd_cport, uint16_t id)
{
	struct gbsim_pending **pp, *p;

	for (pp = &sim->pending; (p = *pp); pp = &p->next) {
		if (p->hd_cport == hd_cport && p->id == id) {
			*pp = p->next;
			return p;
		}
	}
	return NULL;
}

static bool gbsim_id_busy(struct gbsim *sim, uint16_t hd_cport, uint16_t id)
{
	for (struct gbsim_pending *p = sim->pending; p; p = p->next)
		if (p->hd_cport == hd_cport && p->id == id)
			return true;
	return false;
}

static void gbsim_pending_timeout(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_pending *p = ctx;
	struct gbsim *sim = p->sim;
	char name[96];

	(void)loop;
	p = gbsim_pending_take(sim, p->hd_cport, p->id);
	if (!p)
		return;
	gb_op_fullname(p->hd_cport == GB_SVC_CPORT_ID ? GREYBUS_PROTOCOL_SVC :
			  sim->conns[p->hd_cport] ?
			  sim->conns[p->hd_cport]->protocol : GREYBUS_PROTOCOL_VENDOR,
			  p->type, name, sizeof(name));
	gbsim_log_error("cport %u: %s id=0x%04x: no response from the AP",
			p->hd_cport, name, p->id);
	if (p->cb)
		p->cb(sim, p->ctx, -ETIMEDOUT, 0, NULL, 0);
	free(p);
}

int gbsim_send_request_id(struct gbsim *sim, uint16_t hd_cport, uint8_t type,
			  int op_id, const void *payload, size_t len,
			  unsigned int timeout_ms, gbsim_response_cb cb,
			  void *ctx)
{
	size_t hlen = sizeof(struct gb_operation_msg_hdr);
	struct gbsim_pending *p = NULL;
	uint8_t *msg;
	uint16_t id;
	int ret, tries;

	if (hd_cport >= sim->num_cports || hlen + len > sim->mtu ||
	    op_id > UINT16_MAX)
		return -EINVAL;

	if (op_id >= 0) {
		id = (uint16_t)op_id;
	} else {
		/* ids 1..65535 in turn, never one still waiting on this cport */
		for (tries = 0; tries < 65535; tries++) {
			id = ++sim->next_op_id[hd_cport];
			if (!id)
				id = sim->next_op_id[hd_cport] = 1;
			if (!gbsim_id_busy(sim, hd_cport, id))
				break;
		}
		if (tries == 65535)
			return -EBUSY;
	}

	msg = malloc(hlen + len);
	if (!msg)
		return -ENOMEM;
	/* id 0 expects no answer; a busy id is sent but not waited for */
	if (id != GB_OPERATION_ID_NONE && !gbsim_id_busy(sim, hd_cport, id)) {
		p = calloc(1, sizeof(*p));
		if (!p) {
			free(msg);
			return -ENOMEM;
		}
		p->sim = sim;
		p->hd_cport = hd_cport;
		p->id = id;
		p->type = type;
		p->cb = cb;
		p->ctx = ctx;
		p->timer = gbsim_loop_add_timer(sim->loop, timeout_ms,
						gbsim_pending_timeout, p);
		if (!p->timer) {
			free(p);
			free(msg);
			return -ENOMEM;
		}
		p->next = sim->pending;
		sim->pending = p;
	}

	gbsim_put_header(msg, hlen + len, id, type, 0);
	if (len)
		memcpy(msg + hlen, payload, len);
	ret = gbsim_transmit(sim, hd_cport, msg, hlen + len, 0);
	free(msg);
	if (ret && p) {
		p = gbsim_pending_take(sim, hd_cport, id);
		if (p) {
			gbsim_loop_cancel_timer(sim->loop, p->timer);
			free(p);
		}
	}
	return ret ? ret : id;
}

int gbsim_send_request(struct gbsim *sim, uint16_t hd_cport, uint8_t type,
		       const void *payload, size_t len, unsigned int timeout_ms,
		       gbsim_response_cb cb, void *ctx)
{
	int ret = gbsim_send_request_id(sim, hd_cport, type, -1, payload, len,
					timeout_ms, cb, ctx);

	return ret < 0 ? ret : 0;
}

int gbsim_forward(struct gbsim *sim, uint16_t hd_cport, const uint8_t *msg,
		  size_t len)
{
	return gbsim_transmit_now(sim, hd_cport, msg, len);
}

int gbsim_inject(struct gbsim *sim, uint16_t hd_cport, const uint8_t *msg,
		 size_t len)
{
	struct gbsim_peer peer;

	gbsim_peer_of(sim, hd_cport, &peer);
	gbsim_log_msg(peer.svc ? GBSIM_SVC_TO_AP : GBSIM_MOD_TO_AP, hd_cport,
		      peer.intf_id, peer.intf_cport, peer.protocol, msg, len,
		      "injected");
	if (!sim->tp || !sim->host_created)
		return -ENODEV;
	return sim->tp->ops->send(sim->tp, hd_cport, msg, len);
}

void gbsim_handle_response(struct gbsim *sim, uint16_t hd_cport,
			   const uint8_t *msg, size_t len)
{
	struct gb_operation_msg_hdr hdr;
	struct gbsim_pending *p;
	uint16_t id;

	memcpy(&hdr, msg, sizeof(hdr));
	id = le16toh(hdr.operation_id);
	p = gbsim_pending_take(sim, hd_cport, id);
	if (!p) {
		if (sim->cfg->extra && sim->cfg->extra->stray_response &&
		    sim->cfg->extra->stray_response(sim, hd_cport, msg, len))
			return;
		gbsim_log_from_ap(sim, hd_cport, msg, len,
				  "dropped: no request with this id");
		gbsim_log_error("cport %u: response id=0x%04x matches no request gbsim sent: dropped",
				hd_cport, id);
		return;
	}
	gbsim_log_from_ap(sim, hd_cport, msg, len, NULL);
	gbsim_loop_cancel_timer(sim->loop, p->timer);
	if ((hdr.type & GB_MSG_TYPE_MASK) != p->type) {
		gbsim_log_error("cport %u: response id=0x%04x has type 0x%02x, request had 0x%02x",
				hd_cport, id, hdr.type, p->type);
		if (p->cb)
			p->cb(sim, p->ctx, -EPROTO, hdr.result, NULL, 0);
	} else if (p->cb) {
		p->cb(sim, p->ctx, 0, hdr.result, msg + sizeof(hdr),
		      len - sizeof(hdr));
	}
	free(p);
}

void gbsim_cancel_requests(struct gbsim *sim, int hd_cport)
{
	struct gbsim_pending **pp = &sim->pending, *p;
	struct gbsim_delayed **dp = &sim->delayed, *d;

	while ((p = *pp)) {
		if (hd_cport >= 0 && p->hd_cport != hd_cport) {
			pp = &p->next;
			continue;
		}
		*pp = p->next;
		gbsim_loop_cancel_timer(sim->loop, p->timer);
		if (p->cb)
			p->cb(sim, p->ctx, -ESHUTDOWN, 0, NULL, 0);
		free(p);
		pp = &sim->pending;	/* the callback may have changed the list */
	}
	while ((d = *dp)) {
		if (hd_cport >= 0 && d->hd_cport != hd_cport) {
			dp = &d->next;
			continue;
		}
		*dp = d->next;
		gbsim_loop_cancel_timer(sim->loop, d->timer);
		free(d);
	}
}

void gbsim_run_request(struct gbsim *sim, uint16_t hd_cport,
		       struct gbsim_conn *conn, struct gbsim_intf *intf,
		       const uint8_t *msg, size_t len,
		       int (*handler)(struct gbsim_op *op))
{
	struct gb_operation_msg_hdr hdr;
	struct gbsim_rsp_opts opts;
	struct gbsim_hook_msg m;
	struct gbsim_hook *hook;
	struct gbsim_op op;
	int result;

	memcpy(&hdr, msg, sizeof(hdr));
	gbsim_log_from_ap(sim, hd_cport, msg, len, NULL);
	if (hdr.result)
		gbsim_log_warn("cport %u: request id=0x%04x type 0x%02x has result 0x%02x set",
			       hd_cport, le16toh(hdr.operation_id), hdr.type,
			       hdr.result);

	op = (struct gbsim_op){
		.sim = sim,
		.conn = conn,
		.intf = intf,
		.hd_cport = hd_cport,
		.id = le16toh(hdr.operation_id),
		.type = hdr.type,
		.req = msg + sizeof(hdr),
		.req_len = len - sizeof(hdr),
		.rsp = sim->rsp_buf,
		.rsp_max = sim->mtu - sizeof(hdr),
	};

	/* the hooks see a copy they may not change: it is the AP's */
	gbsim_hook_msg_init(sim, &m, hd_cport, (uint8_t *)msg, len);
	for (hook = sim->hooks; hook; hook = hook->next) {
		if (!hook->request)
			continue;
		switch (hook->request(hook, sim, &m)) {
		case GBSIM_HOOK_PASS:
		case GBSIM_HOOK_DELAY:
			continue;
		case GBSIM_HOOK_DROP:
			gbsim_log_info("cport %u: request id=0x%04x ignored (hook %s)",
				       hd_cport, op.id, hook->name);
			return;
		case GBSIM_HOOK_ANSWER:
			m.short_len = -1;
			opts = (struct gbsim_rsp_opts){
				m.delay_ms, -1, m.copies, 0,
			};
			if (op.id != GB_OPERATION_ID_NONE)
				gbsim_send_response_opts(sim, hd_cport, op.id,
							 op.type, m.result,
							 NULL, 0, &opts);
			return;
		}
	}
	opts = (struct gbsim_rsp_opts){
		m.delay_ms, m.short_len, m.copies, m.extra_len,
	};

	result = handler(&op);
	if (result == GBSIM_NO_RESPONSE)
		return;
	if (op.id == GB_OPERATION_ID_NONE)
		return;	/* unidirectional: nobody waits for an answer */
	if (op.rsp_len > op.rsp_max) {
		gbsim_log_error("cport %u: handler produced %zu response bytes, limit %zu",
				hd_cport, op.rsp_len, op.rsp_max);
		result = GB_OP_OVERFLOW;
	}
	gbsim_send_response_opts(sim, hd_cport, op.id, op.type, (uint8_t)result,
				 op.rsp, op.rsp_len, &opts);
}
