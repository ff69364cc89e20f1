// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the loopback protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-loopback.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/loopback.h>

#include "gb_decode.h"

static void gb_lb_describe(uint8_t type, bool response, const uint8_t *p,
			      size_t len, struct gb_buf *out)
{
	if (type != GB_LOOPBACK_TYPE_TRANSFER && type != GB_LOOPBACK_TYPE_SINK)
		return;
	if (len < sizeof(struct gb_loopback_transfer))
		return;
	gb_buf_printf(out, " size=%u", gb_get_le32(p));
	if (response && type == GB_LOOPBACK_TYPE_TRANSFER)
		gb_buf_printf(out, " unipro_us=%u firmware_us=%u",
				 gb_get_le32(p + 4), gb_get_le32(p + 8));
}

const struct gb_decoder gb_decoder_loopback = {
	.id		= GREYBUS_PROTOCOL_LOOPBACK,
	.name		= "loopback",
	.describe	= gb_lb_describe,
};
