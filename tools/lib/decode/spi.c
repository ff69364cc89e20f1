// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the spi protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-spi.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/spi.h>

#include "gb_decode.h"

static void gb_spi_describe(uint8_t type, bool response, const uint8_t *p,
			       size_t len, struct gb_buf *out)
{
	if (response) {
		if (type == GB_SPI_TYPE_TRANSFER)
			gb_buf_printf(out, " len=%zu", len);
		else if (type == GB_SPI_TYPE_MASTER_CONFIG && len >= 17)
			gb_buf_printf(out, " num_cs=%u", p[16]);
		return;
	}
	if (type == GB_SPI_TYPE_DEVICE_CONFIG && len >= 1)
		gb_buf_printf(out, " cs=%u", p[0]);
	else if (type == GB_SPI_TYPE_TRANSFER && len >= 4)
		gb_buf_printf(out, " cs=%u count=%u", p[0],
				 gb_get_le16(p + 2));
}

static const char *gb_spi_op_name(uint8_t type)
{
	switch (type) {
	case GB_SPI_TYPE_MASTER_CONFIG:
		return "master_config";
	case GB_SPI_TYPE_DEVICE_CONFIG:
		return "device_config";
	case GB_SPI_TYPE_TRANSFER:
		return "transfer";
	default:
		return NULL;
	}
}

const struct gb_decoder gb_decoder_spi = {
	.id		= GREYBUS_PROTOCOL_SPI,
	.name		= "spi",
	.op_name	= gb_spi_op_name,
	.describe	= gb_spi_describe,
};
