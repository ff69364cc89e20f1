// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the vendor test protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-test.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>

#include "gb_decode.h"

/* The kernel's test driver (gb-test-protocol) echoes with type 0x02 */
#define GB_VENDOR_TEST_TYPE_ECHO	0x02

static void gb_test_describe(uint8_t type, bool response,
				const uint8_t *p, size_t len,
				struct gb_buf *out)
{
	size_t i;

	(void)response;
	if (type != GB_VENDOR_TEST_TYPE_ECHO)
		return;
	/* short printable payloads ("ping") are shown as text */
	for (i = 0; i < len && i < 32; i++)
		if (p[i] < 0x20 || p[i] > 0x7e || p[i] == '"')
			break;
	if (i == len && len <= 32)
		gb_buf_printf(out, " data=\"%.*s\"", (int)len, (const char *)p);
	else
		gb_buf_printf(out, " len=%zu", len);
}

static const char *gb_test_op_name(uint8_t type)
{
	return type == GB_VENDOR_TEST_TYPE_ECHO ? "echo" : NULL;
}

const struct gb_decoder gb_decoder_test = {
	.id		= GREYBUS_PROTOCOL_VENDOR,
	.name		= "test",
	.op_name	= gb_test_op_name,
	.describe	= gb_test_describe,
};
