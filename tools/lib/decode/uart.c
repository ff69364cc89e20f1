// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the uart protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-uart.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/uart.h>

#include "gb_decode.h"

static void gb_uart_describe(uint8_t type, bool response, const uint8_t *p,
				size_t len, struct gb_buf *out)
{
	if (response)
		return;
	switch (type) {
	case GB_UART_TYPE_SEND_DATA:
		if (len >= 2)
			gb_buf_printf(out, " size=%u", gb_get_le16(p));
		break;
	case GB_UART_TYPE_RECEIVE_DATA:
		if (len >= 3)
			gb_buf_printf(out, " size=%u flags=0x%02x",
					 gb_get_le16(p), p[2]);
		break;
	case GB_UART_TYPE_RECEIVE_CREDITS:
		if (len >= 2)
			gb_buf_printf(out, " count=%u", gb_get_le16(p));
		break;
	case GB_UART_TYPE_SET_LINE_CODING:
		if (len >= 8)
			gb_buf_printf(out, " rate=%u format=%u parity=%u data_bits=%u flow=%u",
					 gb_get_le32(p), p[4], p[5], p[6],
					 p[7]);
		break;
	case GB_UART_TYPE_SET_CONTROL_LINE_STATE:
	case GB_UART_TYPE_SERIAL_STATE:
		if (len >= 1)
			gb_buf_printf(out, " control=0x%02x", p[0]);
		break;
	case GB_UART_TYPE_SEND_BREAK:
		if (len >= 1)
			gb_buf_printf(out, " state=%u", p[0]);
		break;
	case GB_UART_TYPE_FLUSH_FIFOS:
		if (len >= 1)
			gb_buf_printf(out, " flags=0x%02x", p[0]);
		break;
	}
}

static const char *const gb_uart_ops[] = {
	[GB_UART_TYPE_SEND_DATA]		= "send_data",
	[GB_UART_TYPE_RECEIVE_DATA]		= "receive_data",
	[GB_UART_TYPE_SET_LINE_CODING]		= "set_line_coding",
	[GB_UART_TYPE_SET_CONTROL_LINE_STATE]	= "set_control_line_state",
	[GB_UART_TYPE_SEND_BREAK]		= "send_break",
	[GB_UART_TYPE_SERIAL_STATE]		= "serial_state",
	[GB_UART_TYPE_RECEIVE_CREDITS]		= "receive_credits",
	[GB_UART_TYPE_FLUSH_FIFOS]		= "flush_fifos",
};

static const char *gb_uart_op_name(uint8_t type)
{
	if (type < sizeof(gb_uart_ops) / sizeof(gb_uart_ops[0]))
		return gb_uart_ops[type];
	return NULL;
}

const struct gb_decoder gb_decoder_uart = {
	.id		= GREYBUS_PROTOCOL_UART,
	.name		= "uart",
	.op_name	= gb_uart_op_name,
	.describe	= gb_uart_describe,
};
