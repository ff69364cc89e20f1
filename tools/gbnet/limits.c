// SPDX-License-Identifier: GPL-2.0
/*
 * A node's own limits, kept by gbnet for it.  A greybus-zephyr node
 * allocates every message from a small heap (2 KB by default) and waits
 * for ever when it cannot: a message of about 2 KB hangs it for good, and
 * a few dozen requests at once stall it (../shared/transports.md).  So,
 * per node:
 *
 * - an MTU (--node-mtu, default GBNET_NODE_MTU): a message from the AP
 *   above it never reaches the wire; a request is answered at once with
 *   GB_OP_OVERFLOW (the kernel's operation fails instead of timing out),
 *   with one rate-limited line;
 * - a window of requests in flight (--node-inflight, default
 *   GBNET_NODE_INFLIGHT): further requests wait in a bounded queue
 *   (GBNET_NODE_QUEUE) and go out as the node answers; a request for a
 *   full queue is answered GB_OP_RETRY.  An entry whose answer does not
 *   come within GBNET_FLIGHT_MS is given up (the AP's operation has timed
 *   out long before), so a node that ignores a request costs one slot for
 *   a while, not for ever.
 *
 * Responses and unidirectional requests (operation id 0) are not counted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/greybus.h>

#include "gbnet.h"
#include "log.h"
#include "loop.h"

#define GBNET_FLIGHT_NS	((uint64_t)GBNET_FLIGHT_MS * 1000000ULL)

struct gbnet_queued {
	struct gbnet_queued *next;
	uint16_t	cport;
	size_t		len;
	uint8_t		msg[];
};

static uint16_t gbnet_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* A request with an answer to wait for */
static bool gbnet_is_request(const uint8_t *msg, size_t len)
{
	return len >= sizeof(struct gb_operation_msg_hdr) &&
	       !(msg[4] & GB_MSG_TYPE_RESPONSE) && gbnet_le16(msg + 2);
}

/* Answer the AP's request in the node's name with @result */
static void gbnet_limits_refuse(struct gbnet_node *node, uint16_t cport,
				const uint8_t *msg, uint8_t result)
{
	struct gb_operation_msg_hdr rsp = {
		.size = htole16(sizeof(rsp)),
		.operation_id = htole16(gbnet_le16(msg + 2)),
		.type = (uint8_t)(msg[4] | GB_MSG_TYPE_RESPONSE),
		.result = result,
	};

	gbsim_link_deliver(&node->net->sim, node->intf_id, cport,
			   (const uint8_t *)&rsp, sizeof(rsp));
}

/* Entries whose answer is overdue are given up */
static void gbnet_flight_expire(struct gbnet_node *node, uint64_t now)
{
	unsigned int j = 0;

	for (unsigned int i = 0; i < node->num_flight; i++)
		if (now - node->flight[i].sent_ns < GBNET_FLIGHT_NS)
			node->flight[j++] = node->flight[i];
	node->num_flight = j;
}

static void gbnet_flight_add(struct gbnet_node *node, uint16_t cport,
			     const uint8_t *msg, uint64_t now)
{
	struct gbnet_flight *f = &node->flight[node->num_flight++];

	f->cport = cport;
	f->id = gbnet_le16(msg + 2);
	f->sent_ns = now;
}

int gbnet_limits_init(struct gbnet_node *node)
{
	node->flight = calloc(node->net->node_inflight, sizeof(*node->flight));
	return node->flight ? 0 : -ENOMEM;
}

void gbnet_limits_reset(struct gbnet_node *node)
{
	struct gbnet_queued *q;

	node->num_flight = 0;
	while ((q = node->queue)) {
		node->queue = q->next;
		free(q);
	}
	node->queue_tail = NULL;
	node->num_queued = 0;
}

void gbnet_limits_fini(struct gbnet_node *node)
{
	gbnet_limits_reset(node);
	free(node->flight);
	node->flight = NULL;
}

int gbnet_limits_send(struct gbnet_node *node, uint16_t cport,
		      const uint8_t *msg, size_t len)
{
	uint64_t now = gbsim_now_ns();
	struct gbnet_queued *q;

	if (len > node->mtu) {
		node->errors++;
		gbnet_node_log(node, true, "cport %u: message of %zu bytes over the node's mtu %u: refused%s",
			       cport, len, node->mtu,
			       gbnet_is_request(msg, len) ? " (GB_OP_OVERFLOW)" : "");
		if (gbnet_is_request(msg, len))
			gbnet_limits_refuse(node, cport, msg, GB_OP_OVERFLOW);
		return -EMSGSIZE;
	}
	if (!gbnet_is_request(msg, len))
		return 0;
	if (node->num_flight == node->net->node_inflight)
		gbnet_flight_expire(node, now);
	if (node->num_flight < node->net->node_inflight && !node->queue) {
		gbnet_flight_add(node, cport, msg, now);
		return 0;
	}
	if (node->num_queued >= GBNET_NODE_QUEUE) {
		node->errors++;
		gbnet_node_log(node, true, "cport %u: %u requests in flight and %u queued: refused (GB_OP_RETRY)",
			       cport, node->num_flight, node->num_queued);
		gbnet_limits_refuse(node, cport, msg, GB_OP_RETRY);
		return -EBUSY;
	}
	q = malloc(sizeof(*q) + len);
	if (!q) {
		gbnet_limits_refuse(node, cport, msg, GB_OP_NO_MEMORY);
		return -ENOMEM;
	}
	q->next = NULL;
	q->cport = cport;
	q->len = len;
	memcpy(q->msg, msg, len);
	if (node->queue_tail)
		node->queue_tail->next = q;
	else
		node->queue = q;
	node->queue_tail = q;
	node->num_queued++;
	return 1;
}

void gbnet_limits_response(struct gbnet_node *node, uint16_t cport,
			   const uint8_t *msg, size_t len)
{
	uint16_t id;
	uint64_t now = gbsim_now_ns();

	if (len < sizeof(struct gb_operation_msg_hdr) ||
	    !(msg[4] & GB_MSG_TYPE_RESPONSE))
		return;
	id = gbnet_le16(msg + 2);
	for (unsigned int i = 0; i < node->num_flight; i++) {
		if (node->flight[i].cport == cport && node->flight[i].id == id) {
			node->flight[i] = node->flight[--node->num_flight];
			break;
		}
	}
	gbnet_flight_expire(node, now);
	/* the next queued requests go out, as far as the window allows */
	while (node->queue && node->num_flight < node->net->node_inflight &&
	       node->state == GBNET_NODE_UP) {
		struct gbnet_queued *q = node->queue;

		node->queue = q->next;
		if (!node->queue)
			node->queue_tail = NULL;
		node->num_queued--;
		gbnet_flight_add(node, q->cport, q->msg, now);
		gbnet_node_write(node, q->cport, q->msg, q->len);
		free(q);
	}
}
