// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the lights protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-light.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/lights.h>

#include "gb_decode.h"

static const char *gb_light_op_name(uint8_t type)
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

const struct gb_decoder gb_decoder_lights = {
	.id		= GREYBUS_PROTOCOL_LIGHTS,
	.name		= "lights",
	.op_name	= gb_light_op_name,
};
