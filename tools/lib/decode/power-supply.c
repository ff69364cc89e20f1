// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the power supply protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-power-supply.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/power_supply.h>

#include "gb_decode.h"

static void gb_psy_describe(uint8_t type, bool response,
			       const uint8_t *p, size_t len,
			       struct gb_buf *out)
{
	if (response) {
		if (type == GB_POWER_SUPPLY_TYPE_GET_PROPERTY && len == 4)
			gb_buf_printf(out, " value=%d",
					 (int32_t)gb_get_le32(p));
		return;
	}
	if ((type == GB_POWER_SUPPLY_TYPE_GET_PROPERTY ||
	     type == GB_POWER_SUPPLY_TYPE_SET_PROPERTY) && len >= 2)
		gb_buf_printf(out, " psy=%u prop=0x%02x", p[0], p[1]);
	else if (type == GB_POWER_SUPPLY_TYPE_EVENT && len == 2)
		gb_buf_printf(out, " psy=%u event=0x%02x", p[0], p[1]);
}

static const char *gb_psy_op_name(uint8_t type)
{
	switch (type) {
	case GB_POWER_SUPPLY_TYPE_GET_SUPPLIES:
		return "get_supplies";
	case GB_POWER_SUPPLY_TYPE_GET_DESCRIPTION:
		return "get_description";
	case GB_POWER_SUPPLY_TYPE_GET_PROP_DESCRIPTORS:
		return "get_prop_descriptors";
	case GB_POWER_SUPPLY_TYPE_GET_PROPERTY:
		return "get_property";
	case GB_POWER_SUPPLY_TYPE_SET_PROPERTY:
		return "set_property";
	case GB_POWER_SUPPLY_TYPE_EVENT:
		return "event";
	default:
		return NULL;
	}
}

const struct gb_decoder gb_decoder_power_supply = {
	.id		= GREYBUS_PROTOCOL_POWER_SUPPLY,
	.name		= "power_supply",
	.op_name	= gb_psy_op_name,
	.describe	= gb_psy_describe,
};
