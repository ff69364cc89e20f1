// SPDX-License-Identifier: GPL-2.0
/*
 * The default model, for CPorts whose protocol has no proto-*.c: the
 * module implements nothing, so every request is refused with
 * GB_OP_PROTOCOL_BAD and logged, which makes a missing model obvious in
 * the log instead of looking like a working device.
 */
#include "gbsim.h"
#include "log.h"
#include "proto.h"

static int gbsim_stub_request(struct gbsim_op *op)
{
	char name[96];

	gb_op_fullname(op->conn->protocol, op->type, name, sizeof(name));
	gbsim_log_warn("cport %u: %s id=0x%04x: no model for protocol 0x%02x: answering protocol_bad",
		       op->hd_cport, name, op->id, op->conn->protocol);
	return GB_OP_PROTOCOL_BAD;
}

/* Not registered under an id: gbsim_proto_get() falls back to it */
struct gbsim_proto gbsim_proto_default = {
	.id		= 0,
	.name		= "none",
	.request	= gbsim_stub_request,
};
