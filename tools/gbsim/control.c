// SPDX-License-Identifier: GPL-2.0
/*
 * The Control protocol, module side: what an interface answers on its
 * CPort 0 (version, manifest, connected/disconnected, bundle and
 * interface power management).  Registered as the model of protocol 0x00
 * like any other, so the dispatcher needs no special case for it.
 */
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/control.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

static void gbsim_control_refuse(struct gbsim_op *op, const char *why,
				 unsigned int arg)
{
	char name[64];

	gb_op_fullname(GREYBUS_PROTOCOL_CONTROL, op->type, name, sizeof(name));
	gbsim_log_error("intf %u: %s id=0x%04x refused: %s %u", op->intf->id,
			name, op->id, why, arg);
}

/* Is some bridge CPort connected to interface CPort cport_id? */
static bool gbsim_control_has_conn(struct gbsim_op *op, uint16_t cport_id)
{
	struct gbsim *sim = op->sim;

	for (unsigned int i = 1; i < sim->num_cports; i++) {
		struct gbsim_conn *c = sim->conns[i];

		if (c && c->intf_id == op->intf->id &&
		    c->intf_cport == cport_id && !gbsim_conn_stale(sim, c))
			return true;
	}
	return false;
}

static int gbsim_control_version(struct gbsim_op *op)
{
	struct gb_protocol_version_request req;
	struct gb_protocol_version_response rsp = {
		.major = GB_CONTROL_VERSION_MAJOR,
		.minor = GB_CONTROL_VERSION_MINOR,
	};

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	/* answer the version offered, or ours if that is lower */
	if (req.major < rsp.major ||
	    (req.major == rsp.major && req.minor < rsp.minor)) {
		rsp.major = req.major;
		rsp.minor = req.minor;
	}
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_control_manifest_size(struct gbsim_op *op)
{
	struct gb_control_get_manifest_size_response rsp;

	if (!gbsim_op_len_is(op, 0))
		return GB_OP_INVALID;
	rsp.size = htole16((uint16_t)op->intf->manifest_len);
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_control_manifest(struct gbsim_op *op)
{
	if (!gbsim_op_len_is(op, 0))
		return GB_OP_INVALID;
	if (!gbsim_op_rsp_fits(op, op->intf->manifest_len))
		return GB_OP_OVERFLOW;
	memcpy(op->rsp, op->intf->manifest, op->intf->manifest_len);
	op->rsp_len = op->intf->manifest_len;
	return GB_OP_SUCCESS;
}

/* connected, disconnecting, disconnected */
static int gbsim_control_cport(struct gbsim_op *op)
{
	struct gb_control_cport_request req;
	struct gbsim_cport *cport = NULL;
	uint16_t id;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	id = le16toh(req.cport_id);
	if (id != GREYBUS_CONTROL_CPORT_ID) {
		cport = gbsim_intf_find_cport(op->intf, id);
		if (!cport) {
			gbsim_control_refuse(op, "the manifest has no cport", id);
			return GB_OP_INVALID;
		}
	}

	switch (op->type) {
	case GB_CONTROL_TYPE_CONNECTED:
		if (!gbsim_control_has_conn(op, id)) {
			gbsim_control_refuse(op, "no SVC connection to cport", id);
			return GB_OP_INVALID;
		}
		if (cport)
			cport->connected = true;
		break;
	case GB_CONTROL_TYPE_DISCONNECTED:
		if (cport)
			cport->connected = false;
		break;
	case GB_CONTROL_TYPE_DISCONNECTING:
		break;
	}
	return GB_OP_SUCCESS;
}

static int gbsim_control_bundle_version(struct gbsim_op *op)
{
	struct gb_control_bundle_version_request req;
	struct gb_control_bundle_version_response rsp = { 0, 1 };

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	if (!gbsim_intf_find_bundle(op->intf, req.bundle_id)) {
		gbsim_control_refuse(op, "no bundle", req.bundle_id);
		return GB_OP_INVALID;
	}
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

/* suspend, resume, deactivate, activate: the answer is a status byte */
static int gbsim_control_bundle_pm(struct gbsim_op *op)
{
	struct gb_control_bundle_pm_request req;
	struct gb_control_bundle_pm_response rsp = { GB_CONTROL_BUNDLE_PM_OK };
	struct gbsim_bundle *b;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	b = gbsim_intf_find_bundle(op->intf, req.bundle_id);
	if (!b) {
		gbsim_control_refuse(op, "no bundle", req.bundle_id);
		rsp.status = GB_CONTROL_BUNDLE_PM_INVAL;
		goto out;
	}

	switch (op->type) {
	case GB_CONTROL_TYPE_BUNDLE_ACTIVATE:
		/* activating an active bundle is fine: it stays active */
		b->state = GBSIM_BUNDLE_ACTIVE;
		break;
	case GB_CONTROL_TYPE_BUNDLE_DEACTIVATE:
		b->state = GBSIM_BUNDLE_OFF;
		break;
	case GB_CONTROL_TYPE_BUNDLE_SUSPEND:
		if (b->refuse_suspend) {
			gbsim_control_refuse(op, "busy, told to refuse: bundle",
					     b->id);
			rsp.status = GB_CONTROL_BUNDLE_PM_BUSY;
			break;
		}
		if (b->state != GBSIM_BUNDLE_ACTIVE) {
			gbsim_control_refuse(op, "not active: bundle", b->id);
			rsp.status = GB_CONTROL_BUNDLE_PM_NA;
			break;
		}
		b->state = GBSIM_BUNDLE_SUSPENDED;
		break;
	case GB_CONTROL_TYPE_BUNDLE_RESUME:
		if (b->refuse_resume) {
			gbsim_control_refuse(op, "resume failed, told to refuse: bundle",
					     b->id);
			rsp.status = GB_CONTROL_BUNDLE_PM_FAIL;
			break;
		}
		if (b->state != GBSIM_BUNDLE_SUSPENDED) {
			gbsim_control_refuse(op, "not suspended: bundle", b->id);
			rsp.status = GB_CONTROL_BUNDLE_PM_NA;
			break;
		}
		b->state = GBSIM_BUNDLE_ACTIVE;
		break;
	}
out:
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_control_intf_pm(struct gbsim_op *op)
{
	struct gb_control_intf_pm_response rsp = { GB_CONTROL_INTF_PM_OK };

	if (!gbsim_op_len_is(op, 0))
		return GB_OP_INVALID;
	if (op->type == GB_CONTROL_TYPE_INTF_SUSPEND_PREPARE &&
	    op->intf->refuse_suspend) {
		gbsim_control_refuse(op, "busy, told to refuse: interface",
				     op->intf->id);
		rsp.status = GB_CONTROL_INTF_PM_BUSY;
	} else if (op->type == GB_CONTROL_TYPE_INTF_SUSPEND_PREPARE) {
		for (size_t i = 0; i < op->intf->num_bundles; i++) {
			if (op->intf->bundles[i].state == GBSIM_BUNDLE_ACTIVE) {
				gbsim_control_refuse(op, "still active: bundle",
						     op->intf->bundles[i].id);
				rsp.status = GB_CONTROL_INTF_PM_NA;
				break;
			}
		}
	}
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_control_request(struct gbsim_op *op)
{
	if (op->conn->intf_cport != GREYBUS_CONTROL_CPORT_ID) {
		gbsim_control_refuse(op, "control protocol on cport",
				     op->conn->intf_cport);
		return GB_OP_PROTOCOL_BAD;
	}

	switch (op->type) {
	case GB_CONTROL_TYPE_VERSION:
		return gbsim_control_version(op);
	case GB_CONTROL_TYPE_GET_MANIFEST_SIZE:
		return gbsim_control_manifest_size(op);
	case GB_CONTROL_TYPE_GET_MANIFEST:
		return gbsim_control_manifest(op);
	case GB_CONTROL_TYPE_CONNECTED:
	case GB_CONTROL_TYPE_DISCONNECTED:
	case GB_CONTROL_TYPE_DISCONNECTING:
		return gbsim_control_cport(op);
	case GB_CONTROL_TYPE_BUNDLE_VERSION:
		return gbsim_control_bundle_version(op);
	case GB_CONTROL_TYPE_BUNDLE_SUSPEND:
	case GB_CONTROL_TYPE_BUNDLE_RESUME:
	case GB_CONTROL_TYPE_BUNDLE_DEACTIVATE:
	case GB_CONTROL_TYPE_BUNDLE_ACTIVATE:
		return gbsim_control_bundle_pm(op);
	case GB_CONTROL_TYPE_INTF_SUSPEND_PREPARE:
	case GB_CONTROL_TYPE_INTF_DEACTIVATE_PREPARE:
	case GB_CONTROL_TYPE_INTF_HIBERNATE_ABORT:
		return gbsim_control_intf_pm(op);
	case GB_CONTROL_TYPE_TIMESYNC_ENABLE:
	case GB_CONTROL_TYPE_TIMESYNC_DISABLE:
	case GB_CONTROL_TYPE_TIMESYNC_AUTHORITATIVE:
	case GB_CONTROL_TYPE_TIMESYNC_GET_LAST_EVENT:
		return gbsim_timesync_control(op);
	case GB_CONTROL_TYPE_MODE_SWITCH:
		gbsim_log_info("intf %u: mode switch requested", op->intf->id);
		return GBSIM_NO_RESPONSE;
	default:
		gbsim_control_refuse(op, "not modelled: type", op->type);
		return GB_OP_PROTOCOL_BAD;
	}
}

static struct gbsim_proto gbsim_proto_control = {
	.id		= GREYBUS_PROTOCOL_CONTROL,
	.name		= "control",
	.request	= gbsim_control_request,
};
GBSIM_PROTO_REGISTER(gbsim_proto_control);
