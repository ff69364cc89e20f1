// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the sdio protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-sdio.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/sdio.h>

#include "gb_decode.h"

static void gb_sdio_describe(uint8_t type, bool response, const uint8_t *p,
				size_t len, struct gb_buf *out)
{
	if (response) {
		if (type == GB_SDIO_TYPE_COMMAND && len >= 4)
			gb_buf_printf(out, " resp0=0x%08x", gb_get_le32(p));
		else if (type == GB_SDIO_TYPE_TRANSFER && len >= 4)
			gb_buf_printf(out, " blocks=%u blksz=%u",
					 gb_get_le16(p), gb_get_le16(p + 2));
		return;
	}
	if (type == GB_SDIO_TYPE_COMMAND && len >= 11)
		gb_buf_printf(out, " cmd=%u flags=0x%02x type=%u arg=0x%08x blocks=%u blksz=%u",
				 p[0], p[1], p[2], gb_get_le32(p + 3),
				 gb_get_le16(p + 7), gb_get_le16(p + 9));
	else if (type == GB_SDIO_TYPE_TRANSFER && len >= 5)
		gb_buf_printf(out, " flags=0x%02x blocks=%u blksz=%u", p[0],
				 gb_get_le16(p + 1), gb_get_le16(p + 3));
	else if (type == GB_SDIO_TYPE_SET_IOS && len >= 14)
		gb_buf_printf(out, " clock=%u vdd=0x%x power=%u width=%u",
				 gb_get_le32(p), gb_get_le32(p + 4), p[9],
				 p[10]);
	else if (type == GB_SDIO_TYPE_EVENT && len >= 1)
		gb_buf_printf(out, " event=0x%02x", p[0]);
}

static const char *gb_sdio_op_name(uint8_t type)
{
	switch (type) {
	case GB_SDIO_TYPE_GET_CAPABILITIES:
		return "get_capabilities";
	case GB_SDIO_TYPE_SET_IOS:
		return "set_ios";
	case GB_SDIO_TYPE_COMMAND:
		return "command";
	case GB_SDIO_TYPE_TRANSFER:
		return "transfer";
	case GB_SDIO_TYPE_EVENT:
		return "event";
	}
	return NULL;
}

const struct gb_decoder gb_decoder_sdio = {
	.id		= GREYBUS_PROTOCOL_SDIO,
	.name		= "sdio",
	.op_name	= gb_sdio_op_name,
	.describe	= gb_sdio_describe,
};
