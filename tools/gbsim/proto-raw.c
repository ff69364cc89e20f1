// SPDX-License-Identifier: GPL-2.0
/*
 * The Raw protocol (0xfe), module side: an echo.  Every SEND from the
 * AP is answered, then sent back as the module's own SEND, byte for
 * byte ("raw echo N bytes" in the log).
 */
#include <uapi/greybus/raw.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_RAW_TIMEOUT	2000	/* ms */

static int gbsim_raw_request(struct gbsim_op *op)
{
	if (op->type != GB_RAW_TYPE_SEND)
		return GB_OP_PROTOCOL_BAD;
	if (op->req_len < 4 || gbsim_get_le32(op->req) != op->req_len - 4) {
		gbsim_log_error("cport %u: raw.send id=0x%04x: %zu bytes do not match its size field",
				op->hd_cport, op->id, op->req_len);
		return GB_OP_INVALID;
	}
	gbsim_log_info("cport %u: raw echo %zu bytes", op->hd_cport,
		       op->req_len - 4);
	/* Sent before the response: the AP takes the two independently */
	gbsim_send_request(op->sim, op->hd_cport, GB_RAW_TYPE_SEND, op->req,
			   op->req_len, GBSIM_RAW_TIMEOUT, NULL, NULL);
	return GB_OP_SUCCESS;
}

static struct gbsim_proto gbsim_proto_raw = {
	.id		= GREYBUS_PROTOCOL_RAW,
	.name		= "raw",
	.request	= gbsim_raw_request,
};
GBSIM_PROTO_REGISTER(gbsim_proto_raw);
