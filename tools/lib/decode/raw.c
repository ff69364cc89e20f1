// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the raw protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-raw.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/raw.h>

#include "gb_decode.h"

static void gb_raw_describe(uint8_t type, bool response,
			       const uint8_t *p, size_t len,
			       struct gb_buf *out)
{
	if (type == GB_RAW_TYPE_SEND && !response && len >= 4)
		gb_buf_printf(out, " len=%u", gb_get_le32(p));
}

static const char *gb_raw_op_name(uint8_t type)
{
	return type == GB_RAW_TYPE_SEND ? "send" : NULL;
}

const struct gb_decoder gb_decoder_raw = {
	.id		= GREYBUS_PROTOCOL_RAW,
	.name		= "raw",
	.op_name	= gb_raw_op_name,
	.describe	= gb_raw_describe,
};
