// SPDX-License-Identifier: GPL-2.0
/*
 * The Loopback protocol (0x11), module side, as gb-loopback measures it:
 * ping answers with nothing, transfer echoes its payload, sink swallows
 * it.  A transfer's answer carries two latencies gbsim measured itself,
 * in microseconds (CLOCK_MONOTONIC):
 *
 *   reserved1 ("firmware latency"): how long the model took to answer,
 *     from its handler being called to the response being ready,
 *     including any delay configured below;
 *   reserved0 ("APBridge UniPro latency"): how long the request was in
 *     gbsim, from the model getting it to the answer being handed to the
 *     transport (a send hook fills it in at that moment).
 *
 * Knobs (environment, read once at start, a comma-separated list):
 *
 *   GBSIM_LOOPBACK="delay_ms=N,drop=N,corrupt=N"
 *
 *   delay_ms=N   answer every request N ms late
 *   drop=N       never answer the Nth request (1-based, every type
 *                counted) of each loopback connection
 *   corrupt=N    corrupt the echo of the Nth transfer of each connection
 *                (a data byte flipped; the size field, when it has none)
 *
 * docs/loopback.md documents them with the driver.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/loopback.h>

#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"

#define GBSIM_LB_ENV		"GBSIM_LOOPBACK"
#define GBSIM_LB_HDR		sizeof(struct gb_loopback_transfer)
#define GBSIM_LB_DELAY_MAX	60000	/* ms */

static struct {
	unsigned int	delay_ms;
	uint64_t	drop;		/* 0: never */
	uint64_t	corrupt;	/* 0: never */
} gbsim_lb_knobs;

/* An answer held back by delay_ms */
struct gbsim_lb_delayed {
	struct gbsim_lb_conn	*lc;
	uint64_t		timer;
	uint64_t		arrival_ns;
	uint16_t		id;
	uint8_t			type;
	uint8_t			result;
	size_t			len;
	struct gbsim_lb_delayed	*next;
	uint8_t			payload[];
};

/* conn->priv of a loopback connection */
struct gbsim_lb_conn {
	struct gbsim_conn	*conn;
	uint64_t		requests;	/* seen, every type */
	uint64_t		transfers;
	struct gbsim_lb_delayed	*delayed;
	/* the transfer answer about to be sent, for the send hook */
	bool			tx_valid;
	uint16_t		tx_id;
	uint64_t		tx_arrival_ns;
};

static struct gbsim_proto gbsim_proto_loopback;

static uint32_t gbsim_lb_us_since(uint64_t start_ns)
{
	uint64_t us = (gbsim_now_ns() - start_ns) / 1000;

	return us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

/* Checks the 12-byte header of a transfer or sink request */
static bool gbsim_lb_request_ok(const struct gbsim_op *op, uint32_t *size)
{
	char name[96];

	if (op->req_len >= GBSIM_LB_HDR) {
		*size = gbsim_get_le32(op->req);
		if (*size == op->req_len - GBSIM_LB_HDR)
			return true;
	}
	gb_op_fullname(GREYBUS_PROTOCOL_LOOPBACK, op->type, name,
			  sizeof(name));
	gbsim_log_error("cport %u: %s id=0x%04x: %zu payload bytes do not match its size field",
			op->hd_cport, name, op->id, op->req_len);
	return false;
}

/* The echo of a transfer, with the firmware latency so far */
static void gbsim_lb_echo(struct gbsim_op *op, uint64_t arrival_ns)
{
	memcpy(op->rsp, op->req, op->req_len);
	gbsim_put_le32(op->rsp + 4, 0);
	gbsim_put_le32(op->rsp + 8, gbsim_lb_us_since(arrival_ns));
	op->rsp_len = op->req_len;
}

static void gbsim_lb_corrupt(struct gbsim_op *op, uint64_t n)
{
	uint32_t size = gbsim_get_le32(op->rsp);

	if (size)
		op->rsp[GBSIM_LB_HDR] ^= 0xff;
	else
		gbsim_put_le32(op->rsp, 1);
	gbsim_log_info("cport %u: loopback.transfer id=0x%04x: echo %s corrupted (%s corrupt=%llu)",
		       op->hd_cport, op->id, size ? "data" : "size",
		       GBSIM_LB_ENV, (unsigned long long)n);
}

static void gbsim_lb_delayed_fire(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_lb_delayed *d = ctx, **pp;
	struct gbsim_lb_conn *lc = d->lc;
	struct gbsim_conn *conn = lc->conn;

	(void)loop;
	for (pp = &lc->delayed; *pp; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	}
	if (d->type == GB_LOOPBACK_TYPE_TRANSFER && d->len >= GBSIM_LB_HDR) {
		gbsim_put_le32(d->payload + 8, gbsim_lb_us_since(d->arrival_ns));
		lc->tx_valid = true;
		lc->tx_id = d->id;
		lc->tx_arrival_ns = d->arrival_ns;
	}
	gbsim_send_response(conn->sim, conn->hd_cport, d->id, d->type,
			    d->result, d->payload, d->len);
	lc->tx_valid = false;
	free(d);
}

/* Holds the answer op->rsp back for delay_ms; GBSIM_NO_RESPONSE or an error */
static int gbsim_lb_delay(struct gbsim_op *op, int result, uint64_t arrival_ns)
{
	struct gbsim_lb_conn *lc = op->conn->priv;
	size_t len = result == GB_OP_SUCCESS ? op->rsp_len : 0;
	struct gbsim_lb_delayed *d;

	d = calloc(1, sizeof(*d) + len);
	if (!d) {
		gbsim_log_error("cport %u: loopback id=0x%04x: out of memory for a delayed answer",
				op->hd_cport, op->id);
		return GB_OP_NO_MEMORY;
	}
	d->lc = lc;
	d->arrival_ns = arrival_ns;
	d->id = op->id;
	d->type = op->type;
	d->result = (uint8_t)result;
	d->len = len;
	memcpy(d->payload, op->rsp, len);
	d->timer = gbsim_loop_add_timer(op->sim->loop, gbsim_lb_knobs.delay_ms,
					gbsim_lb_delayed_fire, d);
	if (!d->timer) {
		free(d);
		return GB_OP_NO_MEMORY;
	}
	d->next = lc->delayed;
	lc->delayed = d;
	return GBSIM_NO_RESPONSE;
}

static int gbsim_lb_request(struct gbsim_op *op)
{
	struct gbsim_lb_conn *lc = op->conn->priv;
	uint64_t arrival_ns = gbsim_now_ns();
	uint64_t transfer = 0;
	char name[96];
	uint32_t size;
	int result;

	lc->requests++;
	if (gbsim_lb_knobs.drop && lc->requests == gbsim_lb_knobs.drop) {
		gb_op_fullname(GREYBUS_PROTOCOL_LOOPBACK, op->type, name,
				  sizeof(name));
		gbsim_log_info("cport %u: %s id=0x%04x: not answered (%s drop=%llu)",
			       op->hd_cport, name, op->id, GBSIM_LB_ENV,
			       (unsigned long long)gbsim_lb_knobs.drop);
		return GBSIM_NO_RESPONSE;
	}

	op->rsp_len = 0;
	switch (op->type) {
	case GB_LOOPBACK_TYPE_PING:
		result = gbsim_op_len_is(op, 0) ? GB_OP_SUCCESS : GB_OP_INVALID;
		break;
	case GB_LOOPBACK_TYPE_SINK:
		result = gbsim_lb_request_ok(op, &size) ? GB_OP_SUCCESS :
			 GB_OP_INVALID;
		break;
	case GB_LOOPBACK_TYPE_TRANSFER:
		transfer = ++lc->transfers;
		if (!gbsim_lb_request_ok(op, &size)) {
			result = GB_OP_INVALID;
			break;
		}
		if (!gbsim_op_rsp_fits(op, op->req_len)) {
			result = GB_OP_OVERFLOW;
			break;
		}
		gbsim_lb_echo(op, arrival_ns);
		if (gbsim_lb_knobs.corrupt && transfer == gbsim_lb_knobs.corrupt)
			gbsim_lb_corrupt(op, transfer);
		result = GB_OP_SUCCESS;
		break;
	default:
		gb_op_fullname(GREYBUS_PROTOCOL_LOOPBACK, op->type, name,
				  sizeof(name));
		gbsim_log_warn("cport %u: %s id=0x%04x: unknown loopback operation",
			       op->hd_cport, name, op->id);
		return GB_OP_PROTOCOL_BAD;
	}

	if (op->id == GB_OPERATION_ID_NONE)
		return result;		/* nobody waits for an answer */
	if (gbsim_lb_knobs.delay_ms)
		return gbsim_lb_delay(op, result, arrival_ns);

	if (transfer && result == GB_OP_SUCCESS) {
		lc->tx_valid = true;
		lc->tx_id = op->id;
		lc->tx_arrival_ns = arrival_ns;
	}
	return result;
}

/*
 * Every message gbsim sends passes here: the answer to the transfer just
 * handled gets the time it spent in gbsim, now that it leaves.
 */
static enum gbsim_hook_action gbsim_lb_send_hook(struct gbsim_hook *hook,
						 struct gbsim *sim,
						 struct gbsim_hook_msg *m)
{
	struct gb_operation_msg_hdr hdr;
	struct gbsim_lb_conn *lc;
	struct gbsim_conn *conn;

	(void)hook;
	if (m->protocol != GREYBUS_PROTOCOL_LOOPBACK ||
	    m->hd_cport >= sim->num_cports || m->len < sizeof(hdr) + GBSIM_LB_HDR)
		return GBSIM_HOOK_PASS;
	conn = sim->conns[m->hd_cport];
	if (!conn || conn->proto != &gbsim_proto_loopback || !conn->priv)
		return GBSIM_HOOK_PASS;
	lc = conn->priv;
	memcpy(&hdr, m->msg, sizeof(hdr));
	if (!lc->tx_valid || hdr.result != GB_OP_SUCCESS ||
	    hdr.type != (GB_LOOPBACK_TYPE_TRANSFER | GB_MSG_TYPE_RESPONSE) ||
	    le16toh(hdr.operation_id) != lc->tx_id)
		return GBSIM_HOOK_PASS;
	gbsim_put_le32(m->msg + sizeof(hdr) + 4,
		       gbsim_lb_us_since(lc->tx_arrival_ns));
	lc->tx_valid = false;
	return GBSIM_HOOK_PASS;
}

static struct gbsim_hook gbsim_lb_hook = {
	.name	= "loopback-latency",
	.send	= gbsim_lb_send_hook,
};
static struct gbsim *gbsim_lb_hooked;

static int gbsim_lb_conn_init(struct gbsim_conn *conn)
{
	struct gbsim_lb_conn *lc = calloc(1, sizeof(*lc));

	if (!lc)
		return -ENOMEM;
	lc->conn = conn;
	conn->priv = lc;
	/* one simulator per process: hook it once, for good */
	if (!gbsim_lb_hooked) {
		gbsim_hook_add(conn->sim, &gbsim_lb_hook);
		gbsim_lb_hooked = conn->sim;
	}
	return 0;
}

static void gbsim_lb_conn_fini(struct gbsim_conn *conn)
{
	struct gbsim_lb_conn *lc = conn->priv;
	struct gbsim_lb_delayed *d;

	if (!lc)
		return;
	while ((d = lc->delayed)) {
		lc->delayed = d->next;
		gbsim_loop_cancel_timer(conn->sim->loop, d->timer);
		free(d);
	}
	free(lc);
	conn->priv = NULL;
}

static struct gbsim_proto gbsim_proto_loopback = {
	.id		= GREYBUS_PROTOCOL_LOOPBACK,
	.name		= "loopback",
	.request	= gbsim_lb_request,
	.conn_init	= gbsim_lb_conn_init,
	.conn_fini	= gbsim_lb_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_loopback);

/* GBSIM_LOOPBACK: a bad setting stops gbsim before it starts (status 2) */
static void __attribute__((constructor)) gbsim_lb_read_env(void)
{
	const char *env = getenv(GBSIM_LB_ENV);
	char *copy, *tok, *save, *eq;
	uint64_t v;

	if (!env || !*env)
		return;
	copy = strdup(env);
	if (!copy) {
		fprintf(stderr, "gbsim: %s: out of memory\n", GBSIM_LB_ENV);
		exit(2);
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			goto bad;
		*eq = '\0';
		if (!strcmp(tok, "delay_ms")) {
			if (gbsim_parse_uint(eq + 1, GBSIM_LB_DELAY_MAX, &v))
				goto bad;
			gbsim_lb_knobs.delay_ms = (unsigned int)v;
		} else if (!strcmp(tok, "drop")) {
			if (gbsim_parse_uint(eq + 1, UINT64_MAX, &v))
				goto bad;
			gbsim_lb_knobs.drop = v;
		} else if (!strcmp(tok, "corrupt")) {
			if (gbsim_parse_uint(eq + 1, UINT64_MAX, &v))
				goto bad;
			gbsim_lb_knobs.corrupt = v;
		} else {
			goto bad;
		}
	}
	free(copy);
	return;

bad:
	fprintf(stderr, "gbsim: %s=\"%s\": expected delay_ms=0..%u, drop=N, corrupt=N separated by commas\n",
		GBSIM_LB_ENV, env, GBSIM_LB_DELAY_MAX);
	free(copy);
	exit(2);
}
