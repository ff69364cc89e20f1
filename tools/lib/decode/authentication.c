// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the authentication protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-cap.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/firmware.h>

#include "gb_decode.h"

static const char *gb_cap_op_name(uint8_t type)
{
	switch (type) {
	case GB_CAP_TYPE_GET_ENDPOINT_UID:	return "get_endpoint_uid";
	case GB_CAP_TYPE_GET_IMS_CERTIFICATE:	return "get_ims_certificate";
	case GB_CAP_TYPE_AUTHENTICATE:		return "authenticate";
	}
	return NULL;
}

const struct gb_decoder gb_decoder_cap = {
	.id		= GREYBUS_PROTOCOL_AUTHENTICATION,
	.name		= "cap",
	.op_name	= gb_cap_op_name,
};
