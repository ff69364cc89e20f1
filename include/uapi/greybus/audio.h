/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Audio Management (0x12) and Audio Data (0x13) protocols.  The module
 * describes itself with a topology blob: a fixed header, then its DAIs,
 * its controls, its widgets (each followed by its own controls) and the
 * routes between widgets.  Controls and widgets vary in size: an
 * enumerated control ends with its item names, a widget with its
 * controls; the header gives each section's size in bytes.
 */
#ifndef _UAPI_GREYBUS_AUDIO_H
#define _UAPI_GREYBUS_AUDIO_H

#include "greybus.h"

#define GB_AUDIO_TYPE_GET_TOPOLOGY_SIZE		0x02
#define GB_AUDIO_TYPE_GET_TOPOLOGY		0x03
#define GB_AUDIO_TYPE_GET_CONTROL		0x04
#define GB_AUDIO_TYPE_SET_CONTROL		0x05
#define GB_AUDIO_TYPE_ENABLE_WIDGET		0x06
#define GB_AUDIO_TYPE_DISABLE_WIDGET		0x07
#define GB_AUDIO_TYPE_GET_PCM			0x08
#define GB_AUDIO_TYPE_SET_PCM			0x09
#define GB_AUDIO_TYPE_SET_TX_DATA_SIZE		0x0a
#define GB_AUDIO_TYPE_ACTIVATE_TX		0x0c
#define GB_AUDIO_TYPE_DEACTIVATE_TX		0x0d
#define GB_AUDIO_TYPE_SET_RX_DATA_SIZE		0x0e
#define GB_AUDIO_TYPE_ACTIVATE_RX		0x10
#define GB_AUDIO_TYPE_DEACTIVATE_RX		0x11
#define GB_AUDIO_TYPE_JACK_EVENT		0x12
#define GB_AUDIO_TYPE_BUTTON_EVENT		0x13
#define GB_AUDIO_TYPE_STREAMING_EVENT		0x14
#define GB_AUDIO_TYPE_SEND_DATA			0x15	/* Audio Data */

#define GB_AUDIO_PCM_NAME_MAX			32
#define GB_AUDIO_DAI_NAME_MAX			32
#define GB_AUDIO_CONTROL_NAME_MAX		32
#define GB_AUDIO_WIDGET_NAME_MAX		32
#define GB_AUDIO_ENUM_NAME_MAX			64

/* PCM formats and rates: the bit numbers of ALSA's SNDRV_PCM_FMTBIT_* */
#define GB_AUDIO_PCM_FMT_S8			0x00000001
#define GB_AUDIO_PCM_FMT_U8			0x00000002
#define GB_AUDIO_PCM_FMT_S16_LE			0x00000004
#define GB_AUDIO_PCM_FMT_S16_BE			0x00000008
#define GB_AUDIO_PCM_FMT_S24_LE			0x00000040
#define GB_AUDIO_PCM_FMT_S32_LE			0x00000400

#define GB_AUDIO_PCM_RATE_8000			0x00000002
#define GB_AUDIO_PCM_RATE_16000			0x00000008
#define GB_AUDIO_PCM_RATE_44100			0x00000040
#define GB_AUDIO_PCM_RATE_48000			0x00000080

/* Control element types (ALSA's numbers) */
#define GB_AUDIO_CTL_ELEM_TYPE_BOOLEAN		0x01
#define GB_AUDIO_CTL_ELEM_TYPE_INTEGER		0x02
#define GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED	0x03
#define GB_AUDIO_CTL_ELEM_TYPE_INTEGER64	0x06

#define GB_AUDIO_CTL_ELEM_IFACE_MIXER		0x02

#define GB_AUDIO_ACCESS_READ			0x00000001
#define GB_AUDIO_ACCESS_WRITE			0x00000002

/* Widget types: the order of ASoC's enum snd_soc_dapm_type */
#define GB_AUDIO_WIDGET_TYPE_INPUT		0x00
#define GB_AUDIO_WIDGET_TYPE_OUTPUT		0x01
#define GB_AUDIO_WIDGET_TYPE_MUX		0x02
#define GB_AUDIO_WIDGET_TYPE_MIXER		0x05
#define GB_AUDIO_WIDGET_TYPE_PGA		0x07
#define GB_AUDIO_WIDGET_TYPE_ADC		0x09
#define GB_AUDIO_WIDGET_TYPE_DAC		0x0a
#define GB_AUDIO_WIDGET_TYPE_MIC		0x0c
#define GB_AUDIO_WIDGET_TYPE_HP			0x0d
#define GB_AUDIO_WIDGET_TYPE_SPK		0x0e
#define GB_AUDIO_WIDGET_TYPE_LINE		0x0f
#define GB_AUDIO_WIDGET_TYPE_SWITCH		0x10
#define GB_AUDIO_WIDGET_TYPE_AIF_IN		0x17
#define GB_AUDIO_WIDGET_TYPE_AIF_OUT		0x18
#define GB_AUDIO_WIDGET_TYPE_MAX		0x1c

#define GB_AUDIO_WIDGET_STATE_DISABLED		0x01
#define GB_AUDIO_WIDGET_STATE_ENABLED		0x02

/* GET/SET_CONTROL index meaning "the whole control" */
#define GB_AUDIO_INVALID_INDEX			0xff

struct gb_audio_pcm {
	__u8	stream_name[GB_AUDIO_PCM_NAME_MAX];
	__le32	formats;
	__le32	rates;
	__u8	chan_min;
	__u8	chan_max;		/* 0: no such stream */
	__u8	sig_bits;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_pcm, 43);

struct gb_audio_dai {
	__u8	name[GB_AUDIO_DAI_NAME_MAX];
	__le16	data_cport;		/* the module's Audio Data CPort */
	struct gb_audio_pcm capture;
	struct gb_audio_pcm playback;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_dai, 120);

struct gb_audio_integer {
	__le32	min;
	__le32	max;
	__le32	step;
} GB_PACKED;

struct gb_audio_integer64 {
	__le64	min;
	__le64	max;
	__le64	step;
} GB_PACKED;

/* Followed by names_length bytes: items NUL-terminated names */
struct gb_audio_enumerated {
	__le32	items;
	__le16	names_length;
	__u8	names[];
} GB_PACKED;

struct gb_audio_ctl_elem_info {
	__u8	type;			/* GB_AUDIO_CTL_ELEM_TYPE_* */
	__le16	dimen[4];
	union {
		struct gb_audio_integer		integer;
		struct gb_audio_integer64	integer64;
		struct gb_audio_enumerated	enumerated;
	} value;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_ctl_elem_info, 33);

struct gb_audio_ctl_elem_value {
	__le64	timestamp;
	union {
		__le32	integer_value[2];
		__le64	integer64_value[2];
		__le32	enumerated_item[2];
	} value;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_ctl_elem_value, 24);

/*
 * A control takes sizeof(struct gb_audio_control) bytes, except an
 * enumerated one: GB_AUDIO_CONTROL_ENUM_SIZE plus its names_length.
 */
struct gb_audio_control {
	__u8	name[GB_AUDIO_CONTROL_NAME_MAX];
	__u8	id;
	__u8	iface;
	__le16	data_cport;
	__le32	access;
	__u8	count;
	__u8	count_values;		/* 1 (mono) or 2 (stereo) */
	struct gb_audio_ctl_elem_info info;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_control, 75);

/* 42 bytes of control, 9 of info, 6 of enumerated */
#define GB_AUDIO_CONTROL_ENUM_SIZE		57

/* Followed by its ncontrols controls */
struct gb_audio_widget {
	__u8	name[GB_AUDIO_WIDGET_NAME_MAX];
	__u8	sname[GB_AUDIO_WIDGET_NAME_MAX];	/* stream name */
	__u8	id;
	__u8	type;			/* GB_AUDIO_WIDGET_TYPE_* */
	__u8	state;
	__u8	ncontrols;
	struct gb_audio_control ctl[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_widget, 68);

struct gb_audio_route {
	__u8	source_id;		/* widget ids */
	__u8	destination_id;
	__u8	control_id;		/* a control of the destination */
	__u8	index;			/* for a mux: the item selecting this */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_route, 4);

/* Followed by the dais, controls, widgets and routes */
struct gb_audio_topology {
	__u8	num_dais;
	__u8	num_controls;
	__u8	num_widgets;
	__u8	num_routes;
	__le32	size_dais;
	__le32	size_controls;
	__le32	size_widgets;
	__le32	size_routes;
	__le32	jack_type;
	__u8	data[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_topology, 24);

struct gb_audio_get_topology_size_response {
	__le16	size;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_get_topology_size_response, 2);

struct gb_audio_get_control_request {
	__u8	control_id;
	__u8	index;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_get_control_request, 2);

struct gb_audio_get_control_response {
	struct gb_audio_ctl_elem_value value;
} GB_PACKED;

struct gb_audio_set_control_request {
	__u8	control_id;
	__u8	index;
	struct gb_audio_ctl_elem_value value;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_set_control_request, 26);

struct gb_audio_enable_widget_request {
	__u8	widget_id;
} GB_PACKED;

struct gb_audio_disable_widget_request {
	__u8	widget_id;
} GB_PACKED;

struct gb_audio_set_pcm_request {
	__le16	data_cport;
	__le32	format;
	__le32	rate;
	__u8	channels;
	__u8	sig_bits;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_set_pcm_request, 12);

/* SET_TX_DATA_SIZE, SET_RX_DATA_SIZE */
struct gb_audio_set_data_size_request {
	__le16	data_cport;
	__le16	size;
} GB_PACKED;

/* ACTIVATE/DEACTIVATE_TX/RX */
struct gb_audio_data_cport_request {
	__le16	data_cport;
} GB_PACKED;

struct gb_audio_send_data_request {
	__le64	timestamp;
	__u8	data[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_audio_send_data_request, 8);

#endif /* _UAPI_GREYBUS_AUDIO_H */
