// SPDX-License-Identifier: GPL-2.0
/*
 * Protocol 0xff as the kernel's test driver (gb-test-protocol) speaks it:
 * type 0x02 "echo" answers with the request payload unchanged.  Anything
 * else is refused.  A vendor protocol id, so only our test manifests
 * (manifests/test-vendor.mnfs) use it.
 */
#include <string.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_TEST_TYPE_ECHO	0x02

static int gbsim_test_request(struct gbsim_op *op)
{
	char name[96];

	switch (op->type) {
	case GBSIM_TEST_TYPE_ECHO:
		if (!gbsim_op_rsp_fits(op, op->req_len))
			return GB_OP_OVERFLOW;
		memcpy(op->rsp, op->req, op->req_len);
		op->rsp_len = op->req_len;
		return GB_OP_SUCCESS;
	default:
		gb_op_fullname(GREYBUS_PROTOCOL_VENDOR, op->type, name,
				  sizeof(name));
		gbsim_log_warn("cport %u: %s id=0x%04x: unknown test operation",
			       op->hd_cport, name, op->id);
		return GB_OP_PROTOCOL_BAD;
	}
}

static struct gbsim_proto gbsim_proto_test = {
	.id		= GREYBUS_PROTOCOL_VENDOR,
	.name		= "test",
	.request	= gbsim_test_request,
};
GBSIM_PROTO_REGISTER(gbsim_proto_test);
