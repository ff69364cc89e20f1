// SPDX-License-Identifier: GPL-2.0
/*
 * The Log protocol (0x1a), module side: a log source.  The AP never
 * sends requests on it; the module's SEND_LOG requests come from
 * `gbsim ctl request IFID:CPORT log.send_log HEX` (le16 length, then the
 * text), so a case decides what the module says, malformed or not.
 */
#include <uapi/greybus/log.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

static const char *gbsim_log_op_name(uint8_t type)
{
	return type == GB_LOG_TYPE_SEND_LOG ? "send_log" : NULL;
}

static void gbsim_log_describe(uint8_t type, bool response,
			       const uint8_t *p, size_t len,
			       struct gbsim_buf *out)
{
	if (type == GB_LOG_TYPE_SEND_LOG && !response && len >= 2)
		gbsim_buf_printf(out, " len=%u", gbsim_get_le16(p));
}

static struct gbsim_proto gbsim_proto_log = {
	.id		= GREYBUS_PROTOCOL_LOG,
	.name		= "log",
	.describe	= gbsim_log_describe,
	.op_name	= gbsim_log_op_name,
};
GBSIM_PROTO_REGISTER(gbsim_proto_log);
