// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the hid protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-hid.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/hid.h>

#include "gb_decode.h"

static void gb_hid_describe(uint8_t type, bool response,
			       const uint8_t *p, size_t len,
			       struct gb_buf *out)
{
	if (response) {
		if (type == GB_HID_TYPE_GET_DESC && len >= 3)
			gb_buf_printf(out, " report_desc_len=%u",
					 gb_get_le16(p + 1));
		else if (type == GB_HID_TYPE_GET_REPORT)
			gb_buf_printf(out, " len=%zu", len);
		return;
	}
	if ((type == GB_HID_TYPE_GET_REPORT ||
	     type == GB_HID_TYPE_SET_REPORT) && len >= 2)
		gb_buf_printf(out, " report_type=%u report_id=%u", p[0], p[1]);
	else if (type == GB_HID_TYPE_IRQ_EVENT && len == 8 /* modifiers, reserved, 6 keys */)
		gb_buf_printf(out, " mods=0x%02x key=0x%02x", p[0], p[2]);
}

static const char *gb_hid_op_name(uint8_t type)
{
	switch (type) {
	case GB_HID_TYPE_GET_DESC:
		return "get_desc";
	case GB_HID_TYPE_GET_REPORT_DESC:
		return "get_report_desc";
	case GB_HID_TYPE_PWR_ON:
		return "pwr_on";
	case GB_HID_TYPE_PWR_OFF:
		return "pwr_off";
	case GB_HID_TYPE_GET_REPORT:
		return "get_report";
	case GB_HID_TYPE_SET_REPORT:
		return "set_report";
	case GB_HID_TYPE_IRQ_EVENT:
		return "irq_event";
	default:
		return NULL;
	}
}

const struct gb_decoder gb_decoder_hid = {
	.id		= GREYBUS_PROTOCOL_HID,
	.name		= "hid",
	.op_name	= gb_hid_op_name,
	.describe	= gb_hid_describe,
};
