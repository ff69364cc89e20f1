// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the log protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-log.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/log.h>

#include "gb_decode.h"

static void gb_log_describe(uint8_t type, bool response,
			       const uint8_t *p, size_t len,
			       struct gb_buf *out)
{
	if (type == GB_LOG_TYPE_SEND_LOG && !response && len >= 2)
		gb_buf_printf(out, " len=%u", gb_get_le16(p));
}

static const char *gb_log_op_name(uint8_t type)
{
	return type == GB_LOG_TYPE_SEND_LOG ? "send_log" : NULL;
}

const struct gb_decoder gb_decoder_log = {
	.id		= GREYBUS_PROTOCOL_LOG,
	.name		= "log",
	.op_name	= gb_log_op_name,
	.describe	= gb_log_describe,
};
