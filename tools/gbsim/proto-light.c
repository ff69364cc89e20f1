// SPDX-License-Identifier: GPL-2.0
/*
 * The Lights protocol (0x0f), module side: an LED controller with one
 * light, "gbsim", of two channels: 0 a red notification LED (max
 * brightness 255, blinks by itself, multicolour) and 1 a white flash
 * (which the AP may not support).  Every setting the AP makes is
 * logged: "light 0 channel 0 brightness=N", "... blink on=N off=N",
 * "... color=0xRRGGBB".
 */
#include <string.h>

#include <uapi/greybus/lights.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_LIGHT_CHANNELS	2

static const struct {
	uint8_t		max;
	uint32_t	flags;
	uint32_t	color;
	const char	*color_name;
	uint32_t	mode;
	const char	*mode_name;
} gbsim_light_channels[GBSIM_LIGHT_CHANNELS] = {
	{ 255, GB_LIGHT_CHANNEL_BLINK | GB_LIGHT_CHANNEL_MULTICOLOR,
	  0xff0000, "red", 0x40, "notification" },
	{ 1, 0, 0xffffff, "white", GB_CHANNEL_MODE_FLASH, "flash" },
};

/* A request naming light 0 and one of its channels, of exactly n bytes */
static bool gbsim_light_ok(const struct gbsim_op *op, size_t n)
{
	return gbsim_op_len_is(op, n) && op->req[0] == 0 &&
	       op->req[1] < GBSIM_LIGHT_CHANNELS;
}

static int gbsim_light_request(struct gbsim_op *op)
{
	uint8_t *r = op->rsp;
	int c;

	switch (op->type) {
	case GB_LIGHTS_TYPE_GET_LIGHTS:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		r[0] = 1;
		op->rsp_len = 1;
		return GB_OP_SUCCESS;
	case GB_LIGHTS_TYPE_GET_LIGHT_CONFIG:
		if (!gbsim_op_len_is(op, 1) || op->req[0] != 0)
			return GB_OP_INVALID;
		if (!gbsim_op_rsp_fits(op, 33))
			return GB_OP_OVERFLOW;
		memset(r, 0, 33);
		r[0] = GBSIM_LIGHT_CHANNELS;
		memcpy(r + 1, "gbsim", 5);
		op->rsp_len = 33;
		return GB_OP_SUCCESS;
	case GB_LIGHTS_TYPE_GET_CHANNEL_CONFIG:
		if (!gbsim_light_ok(op, 2))
			return GB_OP_INVALID;
		if (!gbsim_op_rsp_fits(op, 77))
			return GB_OP_OVERFLOW;
		c = op->req[1];
		memset(r, 0, 77);
		r[0] = gbsim_light_channels[c].max;
		gbsim_put_le32(r + 1, gbsim_light_channels[c].flags);
		gbsim_put_le32(r + 5, gbsim_light_channels[c].color);
		memcpy(r + 9, gbsim_light_channels[c].color_name,
		       strlen(gbsim_light_channels[c].color_name));
		gbsim_put_le32(r + 41, gbsim_light_channels[c].mode);
		memcpy(r + 45, gbsim_light_channels[c].mode_name,
		       strlen(gbsim_light_channels[c].mode_name));
		op->rsp_len = 77;
		return GB_OP_SUCCESS;
	case GB_LIGHTS_TYPE_SET_BRIGHTNESS:
		if (!gbsim_light_ok(op, 3))
			return GB_OP_INVALID;
		gbsim_log_info("cport %u: light 0 channel %u brightness=%u",
			       op->hd_cport, op->req[1], op->req[2]);
		return GB_OP_SUCCESS;
	case GB_LIGHTS_TYPE_SET_BLINK:
		if (!gbsim_light_ok(op, 6))
			return GB_OP_INVALID;
		gbsim_log_info("cport %u: light 0 channel %u blink on=%u off=%u",
			       op->hd_cport, op->req[1],
			       gbsim_get_le16(op->req + 2),
			       gbsim_get_le16(op->req + 4));
		return GB_OP_SUCCESS;
	case GB_LIGHTS_TYPE_SET_COLOR:
		if (!gbsim_light_ok(op, 6))
			return GB_OP_INVALID;
		gbsim_log_info("cport %u: light 0 channel %u color=0x%06x",
			       op->hd_cport, op->req[1],
			       gbsim_get_le32(op->req + 2));
		return GB_OP_SUCCESS;
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

static const char *gbsim_light_op_name(uint8_t type)
{
	static const char *const names[] = {
		[GB_LIGHTS_TYPE_GET_LIGHTS]		= "get_lights",
		[GB_LIGHTS_TYPE_GET_LIGHT_CONFIG]	= "get_light_config",
		[GB_LIGHTS_TYPE_GET_CHANNEL_CONFIG]	= "get_channel_config",
		[GB_LIGHTS_TYPE_GET_CHANNEL_FLASH_CONFIG] = "get_channel_flash_config",
		[GB_LIGHTS_TYPE_SET_BRIGHTNESS]		= "set_brightness",
		[GB_LIGHTS_TYPE_SET_BLINK]		= "set_blink",
		[GB_LIGHTS_TYPE_SET_COLOR]		= "set_color",
		[GB_LIGHTS_TYPE_SET_FADE]		= "set_fade",
		[GB_LIGHTS_TYPE_EVENT]			= "event",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

static struct gbsim_proto gbsim_proto_light = {
	.id		= GREYBUS_PROTOCOL_LIGHTS,
	.name		= "lights",
	.request	= gbsim_light_request,
	.op_name	= gbsim_light_op_name,
};
GBSIM_PROTO_REGISTER(gbsim_proto_light);
