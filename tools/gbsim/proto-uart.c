// SPDX-License-Identifier: GPL-2.0
/*
 * The UART protocol (0x04), module side: a serial port whose far end
 * echoes.  Every SEND_DATA is answered, then its bytes come back to the AP
 * as RECEIVE_DATA (unless echo is off; in two when one message cannot
 * hold them) and its credits are returned with RECEIVE_CREDITS.  Line
 * coding, control lines, break and FIFO flushes are logged as INFO lines
 * a test can grep:
 *
 *   INFO    uart cport 4: line rate=115200 data_bits=8 parity=none stop=1 flow=none
 *   INFO    uart cport 4: control dtr=1 rts=1
 *   INFO    uart cport 4: data "hello\n" (6 bytes)
 *
 * Data the module sends on its own (a device on the far end talking) goes
 * through the control socket: `gbsim ctl request IFID:CPORT 0x03 HEX`, the
 * payload being size le16, flags u8, data; SERIAL_STATE (0x07) likewise.
 *
 * Knob (environment, read once at start): GBSIM_UART="echo=0" stops the
 * echo; credits are still returned.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/uart.h>

#include <gb_msg.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_UART_ENV		"GBSIM_UART"
#define GBSIM_UART_TIMEOUT_MS	1000
#define GBSIM_UART_LOG_BYTES	64

static bool gbsim_uart_echo = true;

/* Printable bytes as they are, the rest as \xNN (for the log) */
static void gbsim_uart_quote(struct gb_buf *b, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < GBSIM_UART_LOG_BYTES; i++) {
		if (p[i] == '\n')
			gb_buf_printf(b, "\\n");
		else if (p[i] < 0x20 || p[i] > 0x7e || p[i] == '"' ||
			 p[i] == '\\')
			gb_buf_printf(b, "\\x%02x", p[i]);
		else
			gb_buf_printf(b, "%c", p[i]);
	}
	if (len > GBSIM_UART_LOG_BYTES)
		gb_buf_printf(b, "...");
}

static void gbsim_uart_send(struct gbsim_op *op, uint8_t type,
			    const uint8_t *payload, size_t len)
{
	if (gbsim_send_request(op->sim, op->hd_cport, type, payload, len,
			       GBSIM_UART_TIMEOUT_MS, NULL, NULL) < 0)
		gbsim_log_error("uart cport %u: could not send %s",
				op->hd_cport, gb_op_name(GREYBUS_PROTOCOL_UART, type));
}

static int gbsim_uart_send_data(struct gbsim_op *op)
{
	uint8_t credits[2], *echo;
	char text[GBSIM_UART_LOG_BYTES * 4 + 8];
	struct gb_buf b = { text, 0, sizeof(text) };
	size_t max, off, chunk;
	uint16_t size;

	if (op->req_len < 2)
		goto bad;
	size = gbsim_get_le16(op->req);
	if (!size || op->req_len != 2u + size)
		goto bad;
	gbsim_uart_quote(&b, op->req + 2, size);
	gbsim_log_info("uart cport %u: data \"%s\" (%u bytes)", op->hd_cport,
		       text, size);

	if (gbsim_uart_echo) {
		/* The echo has a longer header: it may take two messages */
		max = op->sim->mtu - sizeof(struct gb_operation_msg_hdr) -
		      sizeof(struct gb_uart_recv_data_request);
		echo = malloc(3u + size);
		if (!echo)
			return GB_OP_NO_MEMORY;
		for (off = 0; off < size; off += chunk) {
			chunk = size - off < max ? size - off : max;
			gbsim_put_le16(echo, chunk);
			echo[2] = 0;
			memcpy(echo + 3, op->req + 2 + off, chunk);
			gbsim_uart_send(op, GB_UART_TYPE_RECEIVE_DATA, echo,
					3u + chunk);
		}
		free(echo);
	}
	gbsim_put_le16(credits, size);
	gbsim_uart_send(op, GB_UART_TYPE_RECEIVE_CREDITS, credits,
			sizeof(credits));
	return GB_OP_SUCCESS;

bad:
	gbsim_log_error("uart cport %u: send_data id=0x%04x: %zu payload bytes do not match its size field",
			op->hd_cport, op->id, op->req_len);
	return GB_OP_INVALID;
}

static int gbsim_uart_line_coding(struct gbsim_op *op)
{
	static const char *const parity[] = {
		"none", "odd", "even", "mark", "space"
	};
	static const char *const stop[] = { "1", "1.5", "2" };
	const uint8_t *r = op->req;

	if (!gbsim_op_len_is(op, sizeof(struct gb_uart_set_line_coding_request)))
		return GB_OP_INVALID;
	if (r[4] > GB_SERIAL_2_STOP_BITS || r[5] > GB_SERIAL_SPACE_PARITY ||
	    r[6] < 5 || r[6] > 8) {
		gbsim_log_error("uart cport %u: set_line_coding id=0x%04x: format %u parity %u data_bits %u out of range",
				op->hd_cport, op->id, r[4], r[5], r[6]);
		return GB_OP_INVALID;
	}
	gbsim_log_info("uart cport %u: line rate=%u data_bits=%u parity=%s stop=%s flow=%s",
		       op->hd_cport, gbsim_get_le32(r), r[6], parity[r[5]],
		       stop[r[4]],
		       r[7] & GB_SERIAL_AUTO_RTSCTS_EN ? "rtscts" : "none");
	return GB_OP_SUCCESS;
}

static int gbsim_uart_request(struct gbsim_op *op)
{
	char name[96];

	op->rsp_len = 0;
	switch (op->type) {
	case GB_UART_TYPE_SEND_DATA:
		return gbsim_uart_send_data(op);
	case GB_UART_TYPE_SET_LINE_CODING:
		return gbsim_uart_line_coding(op);
	case GB_UART_TYPE_SET_CONTROL_LINE_STATE:
		if (!gbsim_op_len_is(op, 1))
			return GB_OP_INVALID;
		gbsim_log_info("uart cport %u: control dtr=%d rts=%d",
			       op->hd_cport,
			       !!(op->req[0] & GB_UART_CTRL_DTR),
			       !!(op->req[0] & GB_UART_CTRL_RTS));
		return GB_OP_SUCCESS;
	case GB_UART_TYPE_SEND_BREAK:
		if (!gbsim_op_len_is(op, 1) || op->req[0] > 1)
			return GB_OP_INVALID;
		gbsim_log_info("uart cport %u: break %s", op->hd_cport,
			       op->req[0] ? "on" : "off");
		return GB_OP_SUCCESS;
	case GB_UART_TYPE_FLUSH_FIFOS:
		if (!gbsim_op_len_is(op, 1))
			return GB_OP_INVALID;
		gbsim_log_info("uart cport %u: flush%s%s", op->hd_cport,
			       op->req[0] & GB_SERIAL_FLAG_FLUSH_TRANSMITTER ?
			       " transmitter" : "",
			       op->req[0] & GB_SERIAL_FLAG_FLUSH_RECEIVER ?
			       " receiver" : "");
		return GB_OP_SUCCESS;
	default:
		gb_op_fullname(GREYBUS_PROTOCOL_UART, op->type, name,
				  sizeof(name));
		gbsim_log_warn("cport %u: %s id=0x%04x: unknown uart operation",
			       op->hd_cport, name, op->id);
		return GB_OP_PROTOCOL_BAD;
	}
}

static struct gbsim_proto gbsim_proto_uart = {
	.id		= GREYBUS_PROTOCOL_UART,
	.name		= "uart",
	.request	= gbsim_uart_request,
};
GBSIM_PROTO_REGISTER(gbsim_proto_uart);

/* GBSIM_UART: a bad setting stops gbsim before it starts (status 2) */
static void __attribute__((constructor)) gbsim_uart_read_env(void)
{
	const char *env = getenv(GBSIM_UART_ENV);

	if (!env || !*env)
		return;
	if (!strcmp(env, "echo=0")) {
		gbsim_uart_echo = false;
	} else if (strcmp(env, "echo=1")) {
		fprintf(stderr, "gbsim: %s=\"%s\": expected echo=0 or echo=1\n",
			GBSIM_UART_ENV, env);
		exit(2);
	}
}
