// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the bootrom protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-bootrom.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/bootrom.h>

#include "gb_decode.h"

static void gb_br_describe(uint8_t type, bool response,
			      const uint8_t *p, size_t len,
			      struct gb_buf *out)
{
	if (type == GB_BOOTROM_TYPE_FIRMWARE_SIZE && !response && len >= 1)
		gb_buf_printf(out, " stage=%u", p[0]);
	else if (type == GB_BOOTROM_TYPE_FIRMWARE_SIZE && response && len >= 4)
		gb_buf_printf(out, " size=%u", gb_get_le32(p));
	else if (type == GB_BOOTROM_TYPE_GET_FIRMWARE && !response && len >= 8)
		gb_buf_printf(out, " offset=%u size=%u", gb_get_le32(p),
				 gb_get_le32(p + 4));
	else if (type == GB_BOOTROM_TYPE_READY_TO_BOOT && !response && len >= 1)
		gb_buf_printf(out, " status=%u", p[0]);
}

static const char *gb_br_op_name(uint8_t type)
{
	switch (type) {
	case GB_BOOTROM_TYPE_VERSION:		return "version";
	case GB_BOOTROM_TYPE_FIRMWARE_SIZE:	return "firmware_size";
	case GB_BOOTROM_TYPE_GET_FIRMWARE:	return "get_firmware";
	case GB_BOOTROM_TYPE_READY_TO_BOOT:	return "ready_to_boot";
	case GB_BOOTROM_TYPE_AP_READY:		return "ap_ready";
	case GB_BOOTROM_TYPE_GET_VID_PID:	return "get_vid_pid";
	}
	return NULL;
}

const struct gb_decoder gb_decoder_bootrom = {
	.id		= GREYBUS_PROTOCOL_BOOTROM,
	.name		= "bootrom",
	.op_name	= gb_br_op_name,
	.describe	= gb_br_describe,
};
