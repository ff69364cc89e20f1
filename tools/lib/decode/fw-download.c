// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the fw download protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-fw-download.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/firmware.h>

#include "gb_decode.h"

static void gb_fwd_describe(uint8_t type, bool response,
			       const uint8_t *p, size_t len,
			       struct gb_buf *out)
{
	if (type == GB_FW_DOWNLOAD_TYPE_FIND_FIRMWARE && !response &&
	    len >= GB_FIRMWARE_TAG_MAX_SIZE)
		gb_buf_printf(out, " tag=%.*s", GB_FIRMWARE_TAG_MAX_SIZE,
				 (const char *)p);
	else if (type == GB_FW_DOWNLOAD_TYPE_FIND_FIRMWARE && response &&
		 len >= 5)
		gb_buf_printf(out, " id=%u size=%u", p[0],
				 gb_get_le32(p + 1));
	else if (type == GB_FW_DOWNLOAD_TYPE_FETCH_FIRMWARE && !response &&
		 len >= 9)
		gb_buf_printf(out, " id=%u offset=%u size=%u", p[0],
				 gb_get_le32(p + 1), gb_get_le32(p + 5));
	else if (type == GB_FW_DOWNLOAD_TYPE_RELEASE_FIRMWARE && !response &&
		 len >= 1)
		gb_buf_printf(out, " id=%u", p[0]);
}

static const char *gb_fwd_op_name(uint8_t type)
{
	switch (type) {
	case GB_FW_DOWNLOAD_TYPE_FIND_FIRMWARE:		return "find_firmware";
	case GB_FW_DOWNLOAD_TYPE_FETCH_FIRMWARE:	return "fetch_firmware";
	case GB_FW_DOWNLOAD_TYPE_RELEASE_FIRMWARE:	return "release_firmware";
	}
	return NULL;
}

const struct gb_decoder gb_decoder_fw_download = {
	.id		= GREYBUS_PROTOCOL_FW_DOWNLOAD,
	.name		= "fw_download",
	.op_name	= gb_fwd_op_name,
	.describe	= gb_fwd_describe,
};
