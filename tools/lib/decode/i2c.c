// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the i2c protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-i2c.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/i2c.h>

#include "gb_decode.h"

static const char *gb_i2c_op_name(uint8_t type)
{
	switch (type) {
	case GB_I2C_TYPE_FUNCTIONALITY:
		return "functionality";
	case GB_I2C_TYPE_TRANSFER:
		return "transfer";
	default:
		return NULL;
	}
}

const struct gb_decoder gb_decoder_i2c = {
	.id		= GREYBUS_PROTOCOL_I2C,
	.name		= "i2c",
	.op_name	= gb_i2c_op_name,
};
