// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the control protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/control.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/control.h>

#include "gb_decode.h"

static void gb_control_describe(uint8_t type, bool response,
				   const uint8_t *p, size_t len,
				   struct gb_buf *out)
{
	switch (type) {
	case GB_CONTROL_TYPE_VERSION:
	case GB_CONTROL_TYPE_BUNDLE_VERSION:
		if (!response && type == GB_CONTROL_TYPE_BUNDLE_VERSION) {
			if (len >= 1)
				gb_buf_printf(out, " bundle=%u", p[0]);
		} else if (len >= 2) {
			gb_buf_printf(out, " major=%u minor=%u", p[0], p[1]);
		}
		break;
	case GB_CONTROL_TYPE_GET_MANIFEST_SIZE:
		if (response && len >= 2)
			gb_buf_printf(out, " size=%u", gb_get_le16(p));
		break;
	case GB_CONTROL_TYPE_CONNECTED:
	case GB_CONTROL_TYPE_DISCONNECTED:
	case GB_CONTROL_TYPE_DISCONNECTING:
		if (!response && len >= 2)
			gb_buf_printf(out, " cport=%u", gb_get_le16(p));
		break;
	case GB_CONTROL_TYPE_BUNDLE_SUSPEND:
	case GB_CONTROL_TYPE_BUNDLE_RESUME:
	case GB_CONTROL_TYPE_BUNDLE_DEACTIVATE:
	case GB_CONTROL_TYPE_BUNDLE_ACTIVATE:
		if (len >= 1)
			gb_buf_printf(out, response ? " status=%u" : " bundle=%u",
					 p[0]);
		break;
	case GB_CONTROL_TYPE_INTF_SUSPEND_PREPARE:
	case GB_CONTROL_TYPE_INTF_DEACTIVATE_PREPARE:
	case GB_CONTROL_TYPE_INTF_HIBERNATE_ABORT:
		if (response && len >= 1)
			gb_buf_printf(out, " status=%u", p[0]);
		break;
	}
}

const struct gb_decoder gb_decoder_control = {
	.id		= GREYBUS_PROTOCOL_CONTROL,
	.name		= "control",
	.describe	= gb_control_describe,
};
