// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the fw management protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-fw-mgmt.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/firmware.h>

#include "gb_decode.h"

static void gb_fwm_describe(uint8_t type, bool response,
			       const uint8_t *p, size_t len,
			       struct gb_buf *out)
{
	if (response)
		return;
	if (type == GB_FW_MGMT_TYPE_LOAD_AND_VALIDATE_FW && len >= 2)
		gb_buf_printf(out, " request_id=%u method=%u", p[0], p[1]);
	else if ((type == GB_FW_MGMT_TYPE_LOADED_FW ||
		  type == GB_FW_MGMT_TYPE_BACKEND_FW_UPDATED) && len >= 2)
		gb_buf_printf(out, " request_id=%u status=%u", p[0], p[1]);
	else if (type == GB_FW_MGMT_TYPE_BACKEND_FW_UPDATE && len >= 1)
		gb_buf_printf(out, " request_id=%u", p[0]);
}

static const char *gb_fwm_op_name(uint8_t type)
{
	switch (type) {
	case GB_FW_MGMT_TYPE_INTERFACE_FW_VERSION:	return "interface_fw_version";
	case GB_FW_MGMT_TYPE_LOAD_AND_VALIDATE_FW:	return "load_and_validate_fw";
	case GB_FW_MGMT_TYPE_LOADED_FW:			return "loaded_fw";
	case GB_FW_MGMT_TYPE_BACKEND_FW_VERSION:	return "backend_fw_version";
	case GB_FW_MGMT_TYPE_BACKEND_FW_UPDATE:		return "backend_fw_update";
	case GB_FW_MGMT_TYPE_BACKEND_FW_UPDATED:	return "backend_fw_updated";
	}
	return NULL;
}

const struct gb_decoder gb_decoder_fw_mgmt = {
	.id		= GREYBUS_PROTOCOL_FW_MANAGEMENT,
	.name		= "fw_mgmt",
	.op_name	= gb_fwm_op_name,
	.describe	= gb_fwm_describe,
};
