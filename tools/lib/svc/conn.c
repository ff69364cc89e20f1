// SPDX-License-Identifier: GPL-2.0
/*
 * Connections: the SVC's table of bridge CPort <-> interface CPort pairs,
 * and the routing of every message on them to the interface's Control
 * model (interface CPort 0) or to the protocol model its manifest names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

bool gbsim_conn_stale(struct gbsim *sim, const struct gbsim_conn *conn)
{
	struct gbsim_intf *intf = sim->intfs[conn->intf_id];

	return !intf || intf->module->seq != conn->module_seq;
}

/* A connection of a module gone is in the way of a new one: forget it */
static void gbsim_conn_drop_stale(struct gbsim *sim, struct gbsim_conn *conn)
{
	gbsim_log_warn("cport %u: connection to %u:%u of a module gone was never destroyed: dropped",
		       conn->hd_cport, conn->intf_id, conn->intf_cport);
	gbsim_conn_destroy(sim, conn);
}

struct gbsim_conn *gbsim_conn_create(struct gbsim *sim, uint16_t hd_cport,
				     uint8_t intf_id, uint16_t intf_cport,
				     uint8_t flags, char *err, size_t errlen)
{
	struct gbsim_intf *intf = sim->intfs[intf_id];
	struct gbsim_cport *cport = NULL;
	struct gbsim_conn *conn;
	int ret;

	if (hd_cport == GB_SVC_CPORT_ID || hd_cport >= sim->num_cports) {
		snprintf(err, errlen, "bridge cport %u out of range 1..%u",
			 hd_cport, sim->num_cports - 1);
		return NULL;
	}
	if (sim->conns[hd_cport] && gbsim_conn_stale(sim, sim->conns[hd_cport]))
		gbsim_conn_drop_stale(sim, sim->conns[hd_cport]);
	if (sim->conns[hd_cport]) {
		snprintf(err, errlen, "bridge cport %u already connected to %u:%u",
			 hd_cport, sim->conns[hd_cport]->intf_id,
			 sim->conns[hd_cport]->intf_cport);
		return NULL;
	}
	if (!intf) {
		snprintf(err, errlen, "no module at interface %u", intf_id);
		return NULL;
	}
	if (!intf->active || !intf->unipro) {
		snprintf(err, errlen, "interface %u is not active", intf_id);
		return NULL;
	}
	if (!sim->routes[intf_id].present) {
		snprintf(err, errlen, "no route to interface %u", intf_id);
		return NULL;
	}
	/* a linked module's far end knows its CPorts: it refuses, not us */
	if (intf_cport != GREYBUS_CONTROL_CPORT_ID && !intf->module->link) {
		cport = gbsim_intf_find_cport(intf, intf_cport);
		if (!cport) {
			snprintf(err, errlen, "interface %u has no cport %u",
				 intf_id, intf_cport);
			return NULL;
		}
	}
	for (unsigned int i = 1; i < sim->num_cports; i++) {
		struct gbsim_conn *c = sim->conns[i];

		if (c && c->intf_id == intf_id && c->intf_cport == intf_cport &&
		    gbsim_conn_stale(sim, c)) {
			gbsim_conn_drop_stale(sim, c);
			continue;
		}
		if (c && c->intf_id == intf_id && c->intf_cport == intf_cport) {
			snprintf(err, errlen, "interface cport %u:%u already connected to bridge cport %u",
				 intf_id, intf_cport, i);
			return NULL;
		}
	}

	conn = calloc(1, sizeof(*conn));
	if (!conn) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	conn->sim = sim;
	conn->hd_cport = hd_cport;
	conn->intf_id = intf_id;
	conn->intf_cport = intf_cport;
	conn->module_seq = intf->module->seq;
	conn->flags = flags;
	conn->protocol = cport ? cport->protocol :
			 intf_cport == GREYBUS_CONTROL_CPORT_ID ?
			 GREYBUS_PROTOCOL_CONTROL : GREYBUS_PROTOCOL_VENDOR;
	conn->bundle_id = cport ? cport->bundle_id : GREYBUS_CONTROL_BUNDLE_ID;
	conn->proto = intf->module->link ? &gbsim_proto_default :
		      gbsim_proto_get(conn->protocol);
	if (conn->proto->conn_init) {
		ret = conn->proto->conn_init(conn);
		if (ret) {
			snprintf(err, errlen, "%s model refused the connection: %s",
				 conn->proto->name, strerror(-ret));
			free(conn);
			return NULL;
		}
	}
	sim->conns[hd_cport] = conn;
	return conn;
}

void gbsim_conn_destroy(struct gbsim *sim, struct gbsim_conn *conn)
{
	struct gbsim_intf *intf = sim->intfs[conn->intf_id];
	struct gbsim_cport *cport;

	if (gbsim_conn_stale(sim, conn))
		intf = NULL;	/* the interface there now is another one */
	sim->conns[conn->hd_cport] = NULL;
	gbsim_cancel_requests(sim, conn->hd_cport);
	if (conn->proto->conn_fini)
		conn->proto->conn_fini(conn);
	if (intf && conn->intf_cport != GREYBUS_CONTROL_CPORT_ID) {
		cport = gbsim_intf_find_cport(intf, conn->intf_cport);
		if (cport)
			cport->connected = false;
	}
	free(conn);
}

void gbsim_conns_purge(struct gbsim *sim, int intf_id)
{
	for (unsigned int i = 1; i < sim->num_cports; i++) {
		struct gbsim_conn *c = sim->conns[i];

		if (!c || (intf_id >= 0 && c->intf_id != intf_id))
			continue;
		if (intf_id >= 0)
			gbsim_log_warn("cport %u: stale connection to %u:%u dropped",
				       i, c->intf_id, c->intf_cport);
		gbsim_conn_destroy(sim, c);
	}
}

/* CPort Shutdown (type 0x00): the same on every connection */
static int gbsim_cport_shutdown(struct gbsim_op *op)
{
	struct gb_cport_shutdown_request req;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	if (req.phase != 1 && req.phase != 2)
		gbsim_log_warn("cport %u: cport shutdown with phase %u",
			       op->hd_cport, req.phase);
	return GB_OP_SUCCESS;
}

static int gbsim_conn_request(struct gbsim_op *op)
{
	struct gbsim_conn *conn = op->conn;
	struct gbsim_bundle *bundle;
	struct gbsim_cport *cport;
	char name[96];

	if (op->type == GB_REQUEST_TYPE_CPORT_SHUTDOWN)
		return gbsim_cport_shutdown(op);

	/* A hibernated link carries nothing until the SVC resumes it */
	if (op->intf->hibernated) {
		gb_op_fullname(conn->protocol, op->type, name, sizeof(name));
		gbsim_log_error("cport %u: %s to hibernated interface %u: refused",
				op->hd_cport, name, conn->intf_id);
		return GB_OP_INVALID_STATE;
	}

	if (conn->intf_cport != GREYBUS_CONTROL_CPORT_ID) {
		cport = gbsim_intf_find_cport(op->intf, conn->intf_cport);
		bundle = gbsim_intf_find_bundle(op->intf, conn->bundle_id);
		gb_op_fullname(conn->protocol, op->type, name, sizeof(name));
		if (cport && !cport->connected)
			gbsim_log_warn("cport %u: %s before control connected for %u:%u",
				       op->hd_cport, name, conn->intf_id,
				       conn->intf_cport);
		if (bundle && bundle->state == GBSIM_BUNDLE_SUSPENDED) {
			gbsim_log_error("cport %u: %s to suspended bundle %u of interface %u: refused",
					op->hd_cport, name, bundle->id,
					conn->intf_id);
			return GB_OP_INVALID_STATE;
		}
	}

	if (!conn->proto->request)
		return GB_OP_PROTOCOL_BAD;
	return conn->proto->request(op);
}

void gbsim_conn_message(struct gbsim *sim, uint16_t hd_cport,
			const uint8_t *msg, size_t len)
{
	struct gbsim_conn *conn = hd_cport < sim->num_cports ?
				  sim->conns[hd_cport] : NULL;
	struct gb_operation_msg_hdr hdr;
	struct gbsim_intf *intf;

	memcpy(&hdr, msg, sizeof(hdr));
	if (!conn) {
		gbsim_log_from_ap(sim, hd_cport, msg, len,
				  "dropped: no connection");
		gbsim_log_error("cport %u: message type 0x%02x id=0x%04x on a cport with no SVC connection: dropped",
				hd_cport, hdr.type, le16toh(hdr.operation_id));
		return;
	}
	intf = gbsim_conn_stale(sim, conn) ? NULL : sim->intfs[conn->intf_id];
	if (!intf || !intf->active) {
		gbsim_log_from_ap(sim, hd_cport, msg, len,
				  intf ? "dropped: interface not active" :
				  "dropped: no module");
		gbsim_log_warn("cport %u: message for interface %u, %s: dropped",
			       hd_cport, conn->intf_id,
			       intf ? "which is not active" : "which is gone");
		return;
	}

	if (intf->module->link) {
		int ret;

		gbsim_log_from_ap(sim, hd_cport, msg, len, NULL);
		ret = intf->module->link->send(intf->module->link_ctx,
					       conn->intf_cport, msg, len);
		if (ret)
			gbsim_log_warn("cport %u: message for %u:%u not passed on: %s",
				       hd_cport, conn->intf_id, conn->intf_cport,
				       strerror(-ret));
		return;
	}
	if (hdr.type & GB_MSG_TYPE_RESPONSE) {
		gbsim_handle_response(sim, hd_cport, msg, len);
		return;
	}
	gbsim_run_request(sim, hd_cport, conn, intf, msg, len,
			  gbsim_conn_request);
}

int gbsim_link_deliver(struct gbsim *sim, uint8_t intf_id,
		       uint16_t intf_cport, const uint8_t *msg, size_t len)
{
	for (unsigned int i = 1; i < sim->num_cports; i++) {
		struct gbsim_conn *c = sim->conns[i];

		if (c && c->intf_id == intf_id && c->intf_cport == intf_cport &&
		    !gbsim_conn_stale(sim, c))
			return gbsim_forward(sim, (uint16_t)i, msg, len);
	}
	return -ENOENT;
}
