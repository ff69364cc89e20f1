// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of protocol decoders and what every message shares: the
 * full operation name and the CPort Shutdown operation.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

#include <gb_msg.h>

#include "gb_decode.h"

extern const struct gb_decoder gb_decoder_control, gb_decoder_svc,
	gb_decoder_audio_mgmt, gb_decoder_audio_data, gb_decoder_bootrom,
	gb_decoder_cap, gb_decoder_fw_download, gb_decoder_fw_mgmt,
	gb_decoder_gpio, gb_decoder_hid, gb_decoder_i2c, gb_decoder_lights,
	gb_decoder_log, gb_decoder_loopback, gb_decoder_power_supply,
	gb_decoder_pwm, gb_decoder_raw, gb_decoder_sdio, gb_decoder_spi,
	gb_decoder_test, gb_decoder_uart;

static const struct gb_decoder *const gb_decoders[] = {
	&gb_decoder_control, &gb_decoder_svc, &gb_decoder_audio_mgmt,
	&gb_decoder_audio_data, &gb_decoder_bootrom, &gb_decoder_cap,
	&gb_decoder_fw_download, &gb_decoder_fw_mgmt, &gb_decoder_gpio,
	&gb_decoder_hid, &gb_decoder_i2c, &gb_decoder_lights, &gb_decoder_log,
	&gb_decoder_loopback, &gb_decoder_power_supply, &gb_decoder_pwm,
	&gb_decoder_raw, &gb_decoder_sdio, &gb_decoder_spi, &gb_decoder_test,
	&gb_decoder_uart,
};

void gb_buf_printf(struct gb_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len + 1 >= b->max)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->max - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	b->len += (size_t)n;
	if (b->len >= b->max)
		b->len = b->max - 1;	/* cut; vsnprintf kept the NUL */
}

const struct gb_decoder *gb_decoder_find(uint8_t protocol)
{
	for (size_t i = 0; i < sizeof(gb_decoders) / sizeof(gb_decoders[0]); i++)
		if (gb_decoders[i]->id == protocol)
			return gb_decoders[i];
	return NULL;
}

/* Lower-case a name and turn anything but [a-z0-9] into '_' */
static void gb_name_token(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++) {
		unsigned char c = (unsigned char)in[i];

		out[i] = isalnum(c) ? (char)tolower(c) : '_';
	}
	out[i] = '\0';
}

void gb_op_fullname(uint8_t protocol, uint8_t type, char *buf, size_t len)
{
	const struct gb_decoder *dec = gb_decoder_find(protocol);
	const char *pname = dec ? dec->name : gb_protocol_name(protocol);
	const char *oname = NULL;
	char ptok[32], otok[48];

	if (pname == gb_name_unknown)
		pname = NULL;
	type &= GB_MSG_TYPE_MASK;
	if (dec && dec->op_name)
		oname = dec->op_name(type);
	if (!oname)
		oname = gb_op_name(protocol, type);
	if (oname == gb_name_unknown)
		oname = NULL;

	if (pname)
		gb_name_token(pname, ptok, sizeof(ptok));
	else
		snprintf(ptok, sizeof(ptok), "proto_0x%02x", protocol);
	if (oname)
		gb_name_token(oname, otok, sizeof(otok));
	else
		snprintf(otok, sizeof(otok), "type_0x%02x", type);
	snprintf(buf, len, "%s.%s", ptok, otok);
}

void gb_decode_payload(struct gb_buf *out, int protocol, uint8_t type,
		       uint8_t result, const uint8_t *payload, size_t len)
{
	bool response = type & GB_MSG_TYPE_RESPONSE;
	const struct gb_decoder *dec;

	type &= GB_MSG_TYPE_MASK;
	if (type == GB_REQUEST_TYPE_CPORT_SHUTDOWN) {
		/* the one operation every protocol shares */
		if (!response && len >= 1)
			gb_buf_printf(out, " phase=%u", payload[0]);
		return;
	}
	if (protocol < 0 || protocol > 0xff || (response && result))
		return;	/* error responses carry no payload worth decoding */
	dec = gb_decoder_find((uint8_t)protocol);
	if (dec && dec->describe)
		dec->describe(type, response, payload, len, out);
}
