// SPDX-License-Identifier: GPL-2.0
/*
 * Component Authentication (0x19), module side: an endpoint whose UID
 * is its interface's serial number (8 bytes, little endian), which holds
 * one IMS certificate per class 1..6 (id 1: the text "GBSIM-IMS-C-1"),
 * and which answers an authentication of a known type (1..3) for its own
 * UID with the challenge echoed in the first half of the response, 0xa5
 * in the second, and the signature "GBSIM-SIG".  Anything else gets the
 * protocol's result codes (not found, wrong endpoint, bad type).
 */
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/firmware.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_CAP_SIGNATURE	"GBSIM-SIG"

static int gbsim_cap_request(struct gbsim_op *op)
{
	uint8_t uid[8];
	char cert[32];
	uint32_t class_id, id, type;
	size_t n;

	gbsim_put_le64(uid, op->intf->serial);
	switch (op->type) {
	case GB_CAP_TYPE_GET_ENDPOINT_UID:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		memcpy(op->rsp, uid, 8);
		op->rsp_len = 8;
		return GB_OP_SUCCESS;
	case GB_CAP_TYPE_GET_IMS_CERTIFICATE:
		if (!gbsim_op_len_is(op, 8))
			return GB_OP_INVALID;
		class_id = gbsim_get_le32(op->req);
		id = gbsim_get_le32(op->req + 4);
		if (class_id < 1 || class_id > 6) {
			op->rsp[0] = 0x01;	/* class invalid */
			op->rsp_len = 1;
		} else if (id != 1) {
			op->rsp[0] = 0x03;	/* not found */
			op->rsp_len = 1;
		} else {
			n = (size_t)snprintf(cert, sizeof(cert), "GBSIM-IMS-%u-%u",
					     class_id, id);
			if (!gbsim_op_rsp_fits(op, 1 + n))
				return GB_OP_NO_MEMORY;
			op->rsp[0] = 0x00;
			memcpy(op->rsp + 1, cert, n);
			op->rsp_len = 1 + n;
		}
		gbsim_log_info("cap %u: certificate class %u id %u: result %u",
			       op->intf->id, class_id, id, op->rsp[0]);
		return GB_OP_SUCCESS;
	case GB_CAP_TYPE_AUTHENTICATE:
		if (!gbsim_op_len_is(op, 44) ||
		    !gbsim_op_rsp_fits(op, 65 + strlen(GBSIM_CAP_SIGNATURE)))
			return GB_OP_INVALID;
		type = gbsim_get_le32(op->req);
		memset(op->rsp, 0, 65);
		op->rsp_len = 65;
		if (type < 1 || type > 3) {
			op->rsp[0] = 0x01;	/* bad type */
		} else if (memcmp(op->req + 4, uid, 8)) {
			op->rsp[0] = 0x02;	/* wrong endpoint */
		} else {
			op->rsp[0] = 0x00;
			memcpy(op->rsp + 1, op->req + 12, 32);
			memset(op->rsp + 33, 0xa5, 32);
			memcpy(op->rsp + 65, GBSIM_CAP_SIGNATURE,
			       strlen(GBSIM_CAP_SIGNATURE));
			op->rsp_len += strlen(GBSIM_CAP_SIGNATURE);
		}
		gbsim_log_info("cap %u: authenticate type %u: result %u",
			       op->intf->id, type, op->rsp[0]);
		return GB_OP_SUCCESS;
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

static struct gbsim_proto gbsim_proto_cap = {
	.id		= GREYBUS_PROTOCOL_AUTHENTICATION,
	.name		= "cap",
	.request	= gbsim_cap_request,
};
GBSIM_PROTO_REGISTER(gbsim_proto_cap);
