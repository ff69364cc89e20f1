// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the svc protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/lib/svc/svc.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/svc.h>

#include "gb_decode.h"

static void gb_svc_describe(uint8_t type, bool response,
			       const uint8_t *p, size_t len,
			       struct gb_buf *out)
{
	if (response) {
		switch (type) {
		case GB_REQUEST_TYPE_PROTOCOL_VERSION:
			if (len >= 2)
				gb_buf_printf(out, " major=%u minor=%u", p[0], p[1]);
			break;
		case GB_SVC_TYPE_DME_PEER_GET:
			if (len >= 6)
				gb_buf_printf(out, " result_code=%u value=0x%08x",
						 gb_get_le16(p),
						 gb_get_le32(p + 2));
			break;
		case GB_SVC_TYPE_DME_PEER_SET:
			if (len >= 2)
				gb_buf_printf(out, " result_code=%u",
						 gb_get_le16(p));
			break;
		case GB_SVC_TYPE_INTF_SET_PWRM:
		case GB_SVC_TYPE_INTF_VSYS_ENABLE:
		case GB_SVC_TYPE_INTF_VSYS_DISABLE:
		case GB_SVC_TYPE_INTF_REFCLK_ENABLE:
		case GB_SVC_TYPE_INTF_REFCLK_DISABLE:
		case GB_SVC_TYPE_INTF_UNIPRO_ENABLE:
		case GB_SVC_TYPE_INTF_UNIPRO_DISABLE:
			if (len >= 1)
				gb_buf_printf(out, " result_code=%u", p[0]);
			break;
		case GB_SVC_TYPE_INTF_ACTIVATE:
			if (len >= 2)
				gb_buf_printf(out, " status=%u intf_type=%u",
						 p[0], p[1]);
			break;
		case GB_SVC_TYPE_INTF_RESUME:
			if (len >= 1)
				gb_buf_printf(out, " status=%u", p[0]);
			break;
		case GB_SVC_TYPE_PWRMON_RAIL_COUNT_GET:
			if (len >= 1)
				gb_buf_printf(out, " rail_count=%u", p[0]);
			break;
		case GB_SVC_TYPE_PWRMON_SAMPLE_GET:
		case GB_SVC_TYPE_PWRMON_INTF_SAMPLE_GET:
			if (len >= 5)
				gb_buf_printf(out, " result=%u value=%u", p[0],
						 gb_get_le32(p + 1));
			break;
		}
		return;
	}

	switch (type) {
	case GB_REQUEST_TYPE_PROTOCOL_VERSION:
		if (len >= 2)
			gb_buf_printf(out, " major=%u minor=%u", p[0], p[1]);
		break;
	case GB_SVC_TYPE_SVC_HELLO:
		if (len >= 3)
			gb_buf_printf(out, " endo_id=0x%04x intf=%u",
					 gb_get_le16(p), p[2]);
		break;
	case GB_SVC_TYPE_INTF_DEVICE_ID:
		if (len >= 2)
			gb_buf_printf(out, " intf=%u device_id=%u", p[0], p[1]);
		break;
	case GB_SVC_TYPE_CONN_CREATE:
		if (len >= 8)
			gb_buf_printf(out, " intf1=%u cport1=%u intf2=%u cport2=%u tc=%u flags=0x%02x",
					 p[0], gb_get_le16(p + 1), p[3],
					 gb_get_le16(p + 4), p[6], p[7]);
		break;
	case GB_SVC_TYPE_CONN_DESTROY:
		if (len >= 6)
			gb_buf_printf(out, " intf1=%u cport1=%u intf2=%u cport2=%u",
					 p[0], gb_get_le16(p + 1), p[3],
					 gb_get_le16(p + 4));
		break;
	case GB_SVC_TYPE_DME_PEER_GET:
		if (len >= 5)
			gb_buf_printf(out, " intf=%u attr=0x%04x selector=%u",
					 p[0], gb_get_le16(p + 1),
					 gb_get_le16(p + 3));
		break;
	case GB_SVC_TYPE_DME_PEER_SET:
		if (len >= 9)
			gb_buf_printf(out, " intf=%u attr=0x%04x selector=%u value=0x%08x",
					 p[0], gb_get_le16(p + 1),
					 gb_get_le16(p + 3),
					 gb_get_le32(p + 5));
		break;
	case GB_SVC_TYPE_ROUTE_CREATE:
		if (len >= 4)
			gb_buf_printf(out, " intf1=%u dev1=%u intf2=%u dev2=%u",
					 p[0], p[1], p[2], p[3]);
		break;
	case GB_SVC_TYPE_ROUTE_DESTROY:
		if (len >= 2)
			gb_buf_printf(out, " intf1=%u intf2=%u", p[0], p[1]);
		break;
	case GB_SVC_TYPE_INTF_SET_PWRM:
		if (len >= 8)
			gb_buf_printf(out, " intf=%u tx_mode=0x%02x rx_mode=0x%02x",
					 p[0], p[2], p[7]);
		break;
	case GB_SVC_TYPE_PWRMON_SAMPLE_GET:
		if (len >= 2)
			gb_buf_printf(out, " rail=%u type=%u", p[0], p[1]);
		break;
	case GB_SVC_TYPE_PWRMON_INTF_SAMPLE_GET:
		if (len >= 2)
			gb_buf_printf(out, " intf=%u type=%u", p[0], p[1]);
		break;
	case GB_SVC_TYPE_MODULE_INSERTED:
		if (len >= 4)
			gb_buf_printf(out, " intf=%u count=%u flags=0x%04x",
					 p[0], p[1], gb_get_le16(p + 2));
		break;
	case GB_SVC_TYPE_INTF_MAILBOX_EVENT:
		if (len >= 7)
			gb_buf_printf(out, " intf=%u result_code=%u mailbox=0x%08x",
					 p[0], gb_get_le16(p + 1),
					 gb_get_le32(p + 3));
		break;
	case GB_SVC_TYPE_INTF_OOPS:
		if (len >= 2)
			gb_buf_printf(out, " intf=%u reason=%u", p[0], p[1]);
		break;
	case GB_SVC_TYPE_INTF_RESET:
	case GB_SVC_TYPE_INTF_EJECT:
	case GB_SVC_TYPE_MODULE_REMOVED:
	case GB_SVC_TYPE_INTF_VSYS_ENABLE:
	case GB_SVC_TYPE_INTF_VSYS_DISABLE:
	case GB_SVC_TYPE_INTF_REFCLK_ENABLE:
	case GB_SVC_TYPE_INTF_REFCLK_DISABLE:
	case GB_SVC_TYPE_INTF_UNIPRO_ENABLE:
	case GB_SVC_TYPE_INTF_UNIPRO_DISABLE:
	case GB_SVC_TYPE_INTF_ACTIVATE:
	case GB_SVC_TYPE_INTF_RESUME:
		if (len >= 1)
			gb_buf_printf(out, " intf=%u", p[0]);
		break;
	}
}

const struct gb_decoder gb_decoder_svc = {
	.id		= GREYBUS_PROTOCOL_SVC,
	.name		= "svc",
	.describe	= gb_svc_describe,
};
