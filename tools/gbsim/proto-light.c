// SPDX-License-Identifier: GPL-2.0
/*
 * The Lights protocol (0x0f), module side: an LED controller with one
 * light, "gbsim", of two channels: 0 a red notification LED (max
 * brightness 255, blinks by itself, multicolour) and 1 a white flash
 * (which the AP may not support).  Every setting the AP makes is
 * logged: "light 0 channel 0 brightness=N", "... blink on=N off=N",
 * "... color=0xRRGGBB".
 *
 * Knobs, in GBSIM_LIGHTS="KEY=VALUE,..." or at run time with
 * `gbsim ctl lights set KEY=VALUE...` (`lights set defaults` undoes
 * them), for the answers given from then on:
 *
 *   max=N          channel 0's max brightness (255)
 *   color=0xRRGGBB channel 0's colour (0xff0000); with max, what a
 *                  module changes before it sends EVENT (LIGHT_CONFIG)
 *   lights=N       GET_LIGHTS says N lights (1; only light 0 exists)
 *   channels=N     GET_LIGHT_CONFIG says N channels (2; only 0 and 1
 *                  exist)
 *   light_len=N    GET_LIGHT_CONFIG answers N bytes (33)
 *   channel_len=N  GET_CHANNEL_CONFIG answers N bytes (77)
 *
 * (answers longer than the real ones are padded with zeros).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/lights.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_LIGHT_CHANNELS	2
#define GBSIM_LIGHT_ENV		"GBSIM_LIGHTS"
#define GBSIM_LIGHT_CONFIG_LEN	33
#define GBSIM_CHANNEL_CONFIG_LEN	77

#define GBSIM_LIGHT_KNOBS_DEFAULT {			\
	.max = 255,					\
	.color = 0xff0000,				\
	.lights = 1,					\
	.channels = GBSIM_LIGHT_CHANNELS,		\
	.light_len = GBSIM_LIGHT_CONFIG_LEN,		\
	.channel_len = GBSIM_CHANNEL_CONFIG_LEN,	\
}

static struct gbsim_light_knobs {
	unsigned int	max;
	uint32_t	color;
	unsigned int	lights;
	unsigned int	channels;
	unsigned int	light_len;
	unsigned int	channel_len;
} gbsim_light_knobs = GBSIM_LIGHT_KNOBS_DEFAULT;
static bool gbsim_light_knobs_read;

/* One KEY=VALUE of GBSIM_LIGHTS (or "lights set"); false if not one */
static bool gbsim_light_knob(const char *tok)
{
	struct gbsim_light_knobs *k = &gbsim_light_knobs;
	uint64_t v;

	if (!strcmp(tok, "defaults"))
		*k = (struct gbsim_light_knobs)GBSIM_LIGHT_KNOBS_DEFAULT;
	else if (gbsim_knob_num(tok, "max", 255, &v))
		k->max = v;
	else if (gbsim_knob_num(tok, "color", 0xffffffff, &v))
		k->color = v;
	else if (gbsim_knob_num(tok, "lights", 255, &v))
		k->lights = v;
	else if (gbsim_knob_num(tok, "channels", 255, &v))
		k->channels = v;
	else if (gbsim_knob_num(tok, "light_len", 1024, &v))
		k->light_len = v;
	else if (gbsim_knob_num(tok, "channel_len", 1024, &v))
		k->channel_len = v;
	else
		return false;
	return true;
}

static void gbsim_light_read_knobs(void)
{
	gbsim_knobs_from_env(GBSIM_LIGHT_ENV, gbsim_light_knob,
			     &gbsim_light_knobs_read);
}

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
	const struct gbsim_light_knobs *k = &gbsim_light_knobs;
	uint8_t full[GBSIM_CHANNEL_CONFIG_LEN];
	uint8_t *r = op->rsp;
	size_t n;
	int c;

	gbsim_light_read_knobs();
	switch (op->type) {
	case GB_LIGHTS_TYPE_GET_LIGHTS:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		r[0] = k->lights;
		op->rsp_len = 1;
		return GB_OP_SUCCESS;
	case GB_LIGHTS_TYPE_GET_LIGHT_CONFIG:
		if (!gbsim_op_len_is(op, 1) || op->req[0] != 0)
			return GB_OP_INVALID;
		n = k->light_len;
		memset(full, 0, sizeof(full));
		full[0] = k->channels;
		memcpy(full + 1, "gbsim", 5);
		goto answer;
	case GB_LIGHTS_TYPE_GET_CHANNEL_CONFIG:
		if (!gbsim_light_ok(op, 2))
			return GB_OP_INVALID;
		n = k->channel_len;
		c = op->req[1];
		memset(full, 0, sizeof(full));
		full[0] = c ? gbsim_light_channels[c].max : k->max;
		gbsim_put_le32(full + 1, gbsim_light_channels[c].flags);
		gbsim_put_le32(full + 5, c ? gbsim_light_channels[c].color :
					    k->color);
		memcpy(full + 9, gbsim_light_channels[c].color_name,
		       strlen(gbsim_light_channels[c].color_name));
		gbsim_put_le32(full + 41, gbsim_light_channels[c].mode);
		memcpy(full + 45, gbsim_light_channels[c].mode_name,
		       strlen(gbsim_light_channels[c].mode_name));
answer:
		/* n bytes of the answer: cut short, or padded with zeros */
		if (!gbsim_op_rsp_fits(op, n))
			return GB_OP_OVERFLOW;
		memset(r, 0, n);
		memcpy(r, full, n < sizeof(full) ? n : sizeof(full));
		op->rsp_len = n;
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

/* "lights set KEY=VALUE...": the knobs, for the answers from now on */
int gbsim_cmd_lights(struct gbsim *sim, int argc, char **argv,
		     struct gbsim_ctl_out *out)
{
	(void)sim;
	gbsim_light_read_knobs();
	return gbsim_ctl_set_knobs(out, argc, argv, "lights",
				   "max, color, lights, channels, light_len, channel_len, defaults",
				   gbsim_light_knob);
}

static struct gbsim_proto gbsim_proto_light = {
	.id		= GREYBUS_PROTOCOL_LIGHTS,
	.name		= "lights",
	.request	= gbsim_light_request,
};
GBSIM_PROTO_REGISTER(gbsim_proto_light);
