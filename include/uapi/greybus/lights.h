/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Lights protocol: a module has lights, each with channels (one LED
 * colour or function each) the AP sets brightness, blink and colour of.
 */
#ifndef _UAPI_GREYBUS_LIGHTS_H
#define _UAPI_GREYBUS_LIGHTS_H

#include "greybus.h"

#define GB_LIGHTS_TYPE_GET_LIGHTS		0x02
#define GB_LIGHTS_TYPE_GET_LIGHT_CONFIG		0x03
#define GB_LIGHTS_TYPE_GET_CHANNEL_CONFIG	0x04
#define GB_LIGHTS_TYPE_GET_CHANNEL_FLASH_CONFIG	0x05
#define GB_LIGHTS_TYPE_SET_BRIGHTNESS		0x06
#define GB_LIGHTS_TYPE_SET_BLINK		0x07
#define GB_LIGHTS_TYPE_SET_COLOR		0x08
#define GB_LIGHTS_TYPE_SET_FADE			0x09
#define GB_LIGHTS_TYPE_EVENT			0x0a
#define GB_LIGHTS_TYPE_SET_FLASH_INTENSITY	0x0b
#define GB_LIGHTS_TYPE_SET_FLASH_STROBE		0x0c
#define GB_LIGHTS_TYPE_SET_FLASH_TIMEOUT	0x0d
#define GB_LIGHTS_TYPE_GET_FLASH_FAULT		0x0e

/* EVENT events */
#define GB_LIGHTS_LIGHT_CONFIG			0x01

/* Channel flags */
#define GB_LIGHT_CHANNEL_MULTICOLOR		0x01
#define GB_LIGHT_CHANNEL_FADER			0x02
#define GB_LIGHT_CHANNEL_BLINK			0x04

/* Channel modes */
#define GB_CHANNEL_MODE_NONE			0x00000000
#define GB_CHANNEL_MODE_FLASH			0x00000100
#define GB_CHANNEL_MODE_TORCH			0x00000200
#define GB_CHANNEL_MODE_INDICATOR		0x00000400

#define GB_LIGHTS_NAME_MAX			32

struct gb_lights_get_lights_response {
	__u8	lights_count;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_get_lights_response, 1);

struct gb_lights_get_light_config_request {
	__u8	id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_get_light_config_request, 1);

/* Names are NUL-padded, not necessarily NUL-terminated */
struct gb_lights_get_light_config_response {
	__u8	channel_count;
	__u8	name[GB_LIGHTS_NAME_MAX];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_get_light_config_response, 33);

struct gb_lights_get_channel_config_request {
	__u8	light_id;
	__u8	channel_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_get_channel_config_request, 2);

struct gb_lights_get_channel_config_response {
	__u8	max_brightness;
	__le32	flags;
	__le32	color;
	__u8	color_name[GB_LIGHTS_NAME_MAX];
	__le32	mode;
	__u8	mode_name[GB_LIGHTS_NAME_MAX];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_get_channel_config_response, 77);

struct gb_lights_set_brightness_request {
	__u8	light_id;
	__u8	channel_id;
	__u8	brightness;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_set_brightness_request, 3);

struct gb_lights_set_blink_request {
	__u8	light_id;
	__u8	channel_id;
	__le16	time_on_ms;
	__le16	time_off_ms;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_set_blink_request, 6);

struct gb_lights_set_color_request {
	__u8	light_id;
	__u8	channel_id;
	__le32	color;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_set_color_request, 6);

/* Module -> AP */
struct gb_lights_event_request {
	__u8	light_id;
	__u8	event;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_lights_event_request, 2);

#endif /* _UAPI_GREYBUS_LIGHTS_H */
