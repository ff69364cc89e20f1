// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the audio protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-audio.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/audio.h>

#include "gb_decode.h"

static const char *gb_audio_data_op_name(uint8_t type)
{
	return type == GB_AUDIO_TYPE_SEND_DATA ? "send_data" : NULL;
}

static void gb_audio_describe(uint8_t type, bool response,
				 const uint8_t *p, size_t len,
				 struct gb_buf *out)
{
	if ((type == GB_AUDIO_TYPE_GET_CONTROL ||
	     type == GB_AUDIO_TYPE_SET_CONTROL) && !response && len >= 2)
		gb_buf_printf(out, " control=%u", p[0]);
	else if (type == GB_AUDIO_TYPE_GET_TOPOLOGY_SIZE && response && len >= 2)
		gb_buf_printf(out, " size=%u", gb_get_le16(p));
}

static const char *gb_audio_op_name(uint8_t type)
{
	switch (type) {
	case GB_AUDIO_TYPE_GET_TOPOLOGY_SIZE:	return "get_topology_size";
	case GB_AUDIO_TYPE_GET_TOPOLOGY:	return "get_topology";
	case GB_AUDIO_TYPE_GET_CONTROL:		return "get_control";
	case GB_AUDIO_TYPE_SET_CONTROL:		return "set_control";
	case GB_AUDIO_TYPE_ENABLE_WIDGET:	return "enable_widget";
	case GB_AUDIO_TYPE_DISABLE_WIDGET:	return "disable_widget";
	case GB_AUDIO_TYPE_GET_PCM:		return "get_pcm";
	case GB_AUDIO_TYPE_SET_PCM:		return "set_pcm";
	case GB_AUDIO_TYPE_SET_TX_DATA_SIZE:	return "set_tx_data_size";
	case GB_AUDIO_TYPE_ACTIVATE_TX:		return "activate_tx";
	case GB_AUDIO_TYPE_DEACTIVATE_TX:	return "deactivate_tx";
	case GB_AUDIO_TYPE_SET_RX_DATA_SIZE:	return "set_rx_data_size";
	case GB_AUDIO_TYPE_ACTIVATE_RX:		return "activate_rx";
	case GB_AUDIO_TYPE_DEACTIVATE_RX:	return "deactivate_rx";
	case GB_AUDIO_TYPE_JACK_EVENT:		return "jack_event";
	case GB_AUDIO_TYPE_BUTTON_EVENT:	return "button_event";
	case GB_AUDIO_TYPE_STREAMING_EVENT:	return "streaming_event";
	}
	return NULL;
}

const struct gb_decoder gb_decoder_audio_mgmt = {
	.id		= GREYBUS_PROTOCOL_AUDIO_MGMT,
	.name		= "audio_mgmt",
	.op_name	= gb_audio_op_name,
	.describe	= gb_audio_describe,
};

const struct gb_decoder gb_decoder_audio_data = {
	.id		= GREYBUS_PROTOCOL_AUDIO_DATA,
	.name		= "audio_data",
	.op_name	= gb_audio_data_op_name,
};
