// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus message framing and name tables for the tools.  Numbers come
 * from include/uapi/greybus only; this file merely gives them names.
 */
#include <errno.h>
#include <string.h>

#include <uapi/greybus/control.h>
#include <uapi/greybus/greybus.h>
#include <uapi/greybus/loopback.h>
#include <uapi/greybus/svc.h>
#include <uapi/greybus/vibrator.h>

#include "gb_msg.h"
#include "decode/gb_decode.h"

#define GB_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const char gb_name_unknown[] = "unknown";

/* ---- Headers ------------------------------------------------------------ */

void gb_msg_header_build(void *buf, uint16_t size, uint16_t operation_id,
			 uint8_t type, uint8_t result)
{
	uint8_t *h = buf;

	h[0] = size & 0xff;
	h[1] = size >> 8;
	h[2] = operation_id & 0xff;
	h[3] = operation_id >> 8;
	h[4] = type;
	h[5] = result;
	h[6] = 0;
	h[7] = 0;
}

static ssize_t gb_msg_build(void *buf, size_t buflen, uint16_t operation_id,
			    uint8_t type, uint8_t result, const void *payload,
			    size_t payload_len)
{
	size_t size = sizeof(struct gb_operation_msg_hdr) + payload_len;

	if (payload_len > GB_OPERATION_MSG_SIZE_MAX ||
	    size > GB_OPERATION_MSG_SIZE_MAX || size > buflen)
		return -EMSGSIZE;
	gb_msg_header_build(buf, (uint16_t)size, operation_id, type, result);
	if (payload_len)
		memmove((uint8_t *)buf + sizeof(struct gb_operation_msg_hdr),
			payload, payload_len);
	return (ssize_t)size;
}

ssize_t gb_msg_build_request(void *buf, size_t buflen, uint16_t operation_id,
			     uint8_t type, const void *payload,
			     size_t payload_len)
{
	return gb_msg_build(buf, buflen, operation_id,
			    type & GB_MSG_TYPE_MASK, 0, payload, payload_len);
}

ssize_t gb_msg_build_response(void *buf, size_t buflen, uint16_t operation_id,
			      uint8_t request_type, uint8_t result,
			      const void *payload, size_t payload_len)
{
	return gb_msg_build(buf, buflen, operation_id,
			    request_type | GB_MSG_TYPE_RESPONSE, result,
			    payload, payload_len);
}

enum gb_msg_error gb_msg_parse(const void *buf, size_t received,
			       struct gb_msg_info *info)
{
	const uint8_t *h = buf;
	uint16_t size;

	if (received < sizeof(struct gb_operation_msg_hdr))
		return GB_MSG_SHORT;
	size = (uint16_t)(h[0] | h[1] << 8);
	if (size < sizeof(struct gb_operation_msg_hdr))
		return GB_MSG_SIZE_TOO_SMALL;
	if (size > received)
		return GB_MSG_TRUNCATED;

	info->size = size;
	info->operation_id = (uint16_t)(h[2] | h[3] << 8);
	info->type = h[4];
	info->result = h[5];
	info->pad[0] = h[6];
	info->pad[1] = h[7];
	info->response = h[4] & GB_MSG_TYPE_RESPONSE;
	info->payload = h + sizeof(struct gb_operation_msg_hdr);
	info->payload_len = size - sizeof(struct gb_operation_msg_hdr);
	return GB_MSG_OK;
}

const char *gb_msg_strerror(enum gb_msg_error error)
{
	switch (error) {
	case GB_MSG_OK:
		return "message is well formed";
	case GB_MSG_SHORT:
		return "message is shorter than its 8-byte header";
	case GB_MSG_TRUNCATED:
		return "header size is larger than the bytes received";
	case GB_MSG_SIZE_TOO_SMALL:
		return "header size is smaller than the header";
	}
	return gb_name_unknown;
}

/* ---- Name tables -------------------------------------------------------- */

static const char *gb_lookup(const char *const *table, size_t n, size_t i)
{
	return i < n && table[i] ? table[i] : gb_name_unknown;
}

static int gb_reverse(const char *const *table, size_t n, const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (table[i] && !strcmp(table[i], name))
			return (int)i;
	return -1;
}

static const char *const gb_result_names[256] = {
	[GB_OP_SUCCESS]		= "success",
	[GB_OP_INTERRUPTED]	= "interrupted",
	[GB_OP_TIMEOUT]		= "timeout",
	[GB_OP_NO_MEMORY]	= "no_memory",
	[GB_OP_PROTOCOL_BAD]	= "protocol_bad",
	[GB_OP_OVERFLOW]	= "overflow",
	[GB_OP_INVALID]		= "invalid",
	[GB_OP_RETRY]		= "retry",
	[GB_OP_NONEXISTENT]	= "nonexistent",
	[GB_OP_INVALID_STATE]	= "invalid_state",
	[GB_OP_UNKNOWN_ERROR]	= "unknown_error",
	[GB_OP_MALFUNCTION]	= "malfunction",
};

const char *gb_result_name(uint8_t result)
{
	return gb_lookup(gb_result_names, GB_ARRAY_SIZE(gb_result_names),
			 result);
}

int gb_result_from_name(const char *name)
{
	return gb_reverse(gb_result_names, GB_ARRAY_SIZE(gb_result_names),
			  name);
}

int gb_result_to_errno(uint8_t result)
{
	switch (result) {
	case GB_OP_SUCCESS:		return 0;
	case GB_OP_INTERRUPTED:		return -EINTR;
	case GB_OP_TIMEOUT:		return -ETIMEDOUT;
	case GB_OP_NO_MEMORY:		return -ENOMEM;
	case GB_OP_PROTOCOL_BAD:	return -EPROTONOSUPPORT;
	case GB_OP_OVERFLOW:		return -EMSGSIZE;
	case GB_OP_INVALID:		return -EINVAL;
	case GB_OP_RETRY:		return -EAGAIN;
	case GB_OP_NONEXISTENT:		return -ENODEV;
	case GB_OP_MALFUNCTION:		return -EILSEQ;
	default:			return -EIO;
	}
}

uint8_t gb_errno_to_result(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:			return GB_OP_SUCCESS;
	case EINTR:		return GB_OP_INTERRUPTED;
	case ETIMEDOUT:		return GB_OP_TIMEOUT;
	case ENOMEM:		return GB_OP_NO_MEMORY;
	case EPROTONOSUPPORT:	return GB_OP_PROTOCOL_BAD;
	case EMSGSIZE:		return GB_OP_OVERFLOW;
	case EINVAL:		return GB_OP_INVALID;
	case EAGAIN:		return GB_OP_RETRY;
	case ENODEV:		return GB_OP_NONEXISTENT;
	case EILSEQ:		return GB_OP_MALFUNCTION;
	default:		return GB_OP_UNKNOWN_ERROR;
	}
}

static const char *const gb_protocol_names[256] = {
	[GREYBUS_PROTOCOL_CONTROL]		= "control",
	[GREYBUS_PROTOCOL_AP]			= "ap",
	[GREYBUS_PROTOCOL_GPIO]			= "gpio",
	[GREYBUS_PROTOCOL_I2C]			= "i2c",
	[GREYBUS_PROTOCOL_UART]			= "uart",
	[GREYBUS_PROTOCOL_HID]			= "hid",
	[GREYBUS_PROTOCOL_USB]			= "usb",
	[GREYBUS_PROTOCOL_SDIO]			= "sdio",
	[GREYBUS_PROTOCOL_POWER_SUPPLY]		= "power_supply",
	[GREYBUS_PROTOCOL_PWM]			= "pwm",
	[GREYBUS_PROTOCOL_SPI]			= "spi",
	[GREYBUS_PROTOCOL_DISPLAY]		= "display",
	[GREYBUS_PROTOCOL_CAMERA_MGMT]		= "camera_mgmt",
	[GREYBUS_PROTOCOL_SENSOR]		= "sensor",
	[GREYBUS_PROTOCOL_LIGHTS]		= "lights",
	[GREYBUS_PROTOCOL_VIBRATOR]		= "vibrator",
	[GREYBUS_PROTOCOL_LOOPBACK]		= "loopback",
	[GREYBUS_PROTOCOL_AUDIO_MGMT]		= "audio_mgmt",
	[GREYBUS_PROTOCOL_AUDIO_DATA]		= "audio_data",
	[GREYBUS_PROTOCOL_SVC]			= "svc",
	[GREYBUS_PROTOCOL_BOOTROM]		= "bootrom",
	[GREYBUS_PROTOCOL_CAMERA_DATA]		= "camera_data",
	[GREYBUS_PROTOCOL_FW_DOWNLOAD]		= "fw_download",
	[GREYBUS_PROTOCOL_FW_MANAGEMENT]	= "fw_management",
	[GREYBUS_PROTOCOL_AUTHENTICATION]	= "authentication",
	[GREYBUS_PROTOCOL_LOG]			= "log",
	[GREYBUS_PROTOCOL_RAW]			= "raw",
	[GREYBUS_PROTOCOL_VENDOR]		= "vendor",
};

const char *gb_protocol_name(uint8_t id)
{
	return gb_lookup(gb_protocol_names, GB_ARRAY_SIZE(gb_protocol_names),
			 id);
}

int gb_protocol_from_name(const char *name)
{
	return gb_reverse(gb_protocol_names, GB_ARRAY_SIZE(gb_protocol_names),
			  name);
}

static const char *const gb_class_names[256] = {
	[GREYBUS_CLASS_CONTROL]		= "control",
	[GREYBUS_CLASS_AP]		= "ap",
	[GREYBUS_CLASS_HID]		= "hid",
	[GREYBUS_CLASS_POWER_SUPPLY]	= "power_supply",
	[GREYBUS_CLASS_BRIDGED_PHY]	= "bridged_phy",
	[GREYBUS_CLASS_DISPLAY]		= "display",
	[GREYBUS_CLASS_CAMERA]		= "camera",
	[GREYBUS_CLASS_SENSOR]		= "sensor",
	[GREYBUS_CLASS_LIGHTS]		= "lights",
	[GREYBUS_CLASS_VIBRATOR]	= "vibrator",
	[GREYBUS_CLASS_LOOPBACK]	= "loopback",
	[GREYBUS_CLASS_AUDIO]		= "audio",
	[GREYBUS_CLASS_SVC]		= "svc",
	[GREYBUS_CLASS_BOOTROM]		= "bootrom",
	[GREYBUS_CLASS_FW_MANAGEMENT]	= "fw_management",
	[GREYBUS_CLASS_LOG]		= "log",
	[GREYBUS_CLASS_RAW]		= "raw",
	[GREYBUS_CLASS_VENDOR]		= "vendor",
};

const char *gb_class_name(uint8_t class_id)
{
	return gb_lookup(gb_class_names, GB_ARRAY_SIZE(gb_class_names),
			 class_id);
}

int gb_class_from_name(const char *name)
{
	return gb_reverse(gb_class_names, GB_ARRAY_SIZE(gb_class_names),
			  name);
}

/* Operations; 0x00 and 0x7f are filled in for every protocol below. */
#define GB_OP_TYPES	(GB_MSG_TYPE_MASK + 1)

static const char *const gb_control_ops[GB_OP_TYPES] = {
	[GB_CONTROL_TYPE_VERSION]		= "version",
	[GB_CONTROL_TYPE_PROBE_AP]		= "probe_ap",
	[GB_CONTROL_TYPE_GET_MANIFEST_SIZE]	= "get_manifest_size",
	[GB_CONTROL_TYPE_GET_MANIFEST]		= "get_manifest",
	[GB_CONTROL_TYPE_CONNECTED]		= "connected",
	[GB_CONTROL_TYPE_DISCONNECTED]		= "disconnected",
	[GB_CONTROL_TYPE_TIMESYNC_ENABLE]	= "timesync_enable",
	[GB_CONTROL_TYPE_TIMESYNC_DISABLE]	= "timesync_disable",
	[GB_CONTROL_TYPE_TIMESYNC_AUTHORITATIVE] = "timesync_authoritative",
	[GB_CONTROL_TYPE_BUNDLE_VERSION]	= "bundle_version",
	[GB_CONTROL_TYPE_DISCONNECTING]		= "disconnecting",
	[GB_CONTROL_TYPE_TIMESYNC_GET_LAST_EVENT] = "timesync_get_last_event",
	[GB_CONTROL_TYPE_MODE_SWITCH]		= "mode_switch",
	[GB_CONTROL_TYPE_BUNDLE_SUSPEND]	= "bundle_suspend",
	[GB_CONTROL_TYPE_BUNDLE_RESUME]		= "bundle_resume",
	[GB_CONTROL_TYPE_BUNDLE_DEACTIVATE]	= "bundle_deactivate",
	[GB_CONTROL_TYPE_BUNDLE_ACTIVATE]	= "bundle_activate",
	[GB_CONTROL_TYPE_INTF_SUSPEND_PREPARE]	= "intf_suspend_prepare",
	[GB_CONTROL_TYPE_INTF_DEACTIVATE_PREPARE] = "intf_deactivate_prepare",
	[GB_CONTROL_TYPE_INTF_HIBERNATE_ABORT]	= "intf_hibernate_abort",
};

static const char *const gb_svc_ops[GB_OP_TYPES] = {
	[GB_SVC_TYPE_PROTOCOL_VERSION]		= "protocol_version",
	[GB_SVC_TYPE_SVC_HELLO]			= "svc_hello",
	[GB_SVC_TYPE_INTF_DEVICE_ID]		= "intf_device_id",
	[GB_SVC_TYPE_INTF_RESET]		= "intf_reset",
	[GB_SVC_TYPE_CONN_CREATE]		= "conn_create",
	[GB_SVC_TYPE_CONN_DESTROY]		= "conn_destroy",
	[GB_SVC_TYPE_DME_PEER_GET]		= "dme_peer_get",
	[GB_SVC_TYPE_DME_PEER_SET]		= "dme_peer_set",
	[GB_SVC_TYPE_ROUTE_CREATE]		= "route_create",
	[GB_SVC_TYPE_ROUTE_DESTROY]		= "route_destroy",
	[GB_SVC_TYPE_TIMESYNC_ENABLE]		= "timesync_enable",
	[GB_SVC_TYPE_TIMESYNC_DISABLE]		= "timesync_disable",
	[GB_SVC_TYPE_TIMESYNC_AUTHORITATIVE]	= "timesync_authoritative",
	[GB_SVC_TYPE_INTF_SET_PWRM]		= "intf_set_pwrm",
	[GB_SVC_TYPE_INTF_EJECT]		= "intf_eject",
	[GB_SVC_TYPE_PING]			= "ping",
	[GB_SVC_TYPE_PWRMON_RAIL_COUNT_GET]	= "pwrmon_rail_count_get",
	[GB_SVC_TYPE_PWRMON_RAIL_NAMES_GET]	= "pwrmon_rail_names_get",
	[GB_SVC_TYPE_PWRMON_SAMPLE_GET]		= "pwrmon_sample_get",
	[GB_SVC_TYPE_PWRMON_INTF_SAMPLE_GET]	= "pwrmon_intf_sample_get",
	[GB_SVC_TYPE_TIMESYNC_WAKE_PINS_ACQUIRE] = "timesync_wake_pins_acquire",
	[GB_SVC_TYPE_TIMESYNC_WAKE_PINS_RELEASE] = "timesync_wake_pins_release",
	[GB_SVC_TYPE_TIMESYNC_PING]		= "timesync_ping",
	[GB_SVC_TYPE_MODULE_INSERTED]		= "module_inserted",
	[GB_SVC_TYPE_MODULE_REMOVED]		= "module_removed",
	[GB_SVC_TYPE_INTF_VSYS_ENABLE]		= "intf_vsys_enable",
	[GB_SVC_TYPE_INTF_VSYS_DISABLE]		= "intf_vsys_disable",
	[GB_SVC_TYPE_INTF_REFCLK_ENABLE]	= "intf_refclk_enable",
	[GB_SVC_TYPE_INTF_REFCLK_DISABLE]	= "intf_refclk_disable",
	[GB_SVC_TYPE_INTF_UNIPRO_ENABLE]	= "intf_unipro_enable",
	[GB_SVC_TYPE_INTF_UNIPRO_DISABLE]	= "intf_unipro_disable",
	[GB_SVC_TYPE_INTF_ACTIVATE]		= "intf_activate",
	[GB_SVC_TYPE_INTF_RESUME]		= "intf_resume",
	[GB_SVC_TYPE_INTF_MAILBOX_EVENT]	= "intf_mailbox_event",
	[GB_SVC_TYPE_INTF_OOPS]			= "intf_oops",
};

static const char *const gb_vibrator_ops[GB_OP_TYPES] = {
	[GB_VIBRATOR_TYPE_ON]			= "on",
	[GB_VIBRATOR_TYPE_OFF]			= "off",
};

static const char *const gb_loopback_ops[GB_OP_TYPES] = {
	[GB_LOOPBACK_TYPE_PING]			= "ping",
	[GB_LOOPBACK_TYPE_TRANSFER]		= "transfer",
	[GB_LOOPBACK_TYPE_SINK]			= "sink",
};

static const char *const *gb_op_table(uint8_t protocol)
{
	switch (protocol) {
	case GREYBUS_PROTOCOL_CONTROL:
		return gb_control_ops;
	case GREYBUS_PROTOCOL_SVC:
		return gb_svc_ops;
	case GREYBUS_PROTOCOL_VIBRATOR:
		return gb_vibrator_ops;
	case GREYBUS_PROTOCOL_LOOPBACK:
		return gb_loopback_ops;
	default:
		return NULL;
	}
}

/* The operations every protocol shares */
static const char *gb_op_generic(uint8_t type)
{
	switch (type) {
	case GB_REQUEST_TYPE_CPORT_SHUTDOWN:
		return "cport_shutdown";
	case GB_REQUEST_TYPE_INVALID:
		return "invalid";
	default:
		return NULL;
	}
}

const char *gb_op_name(uint8_t protocol, uint8_t type)
{
	const char *const *table = gb_op_table(protocol);
	const struct gb_decoder *dec;
	const char *name;

	type &= GB_MSG_TYPE_MASK;
	name = gb_op_generic(type);
	if (name)
		return name;
	if (table)
		return gb_lookup(table, GB_OP_TYPES, type);
	/* the other protocols' names live with their decoders */
	dec = gb_decoder_find(protocol);
	name = dec && dec->op_name ? dec->op_name(type) : NULL;
	return name ? name : gb_name_unknown;
}

int gb_op_type_from_name(uint8_t protocol, const char *name)
{
	const char *const *table = gb_op_table(protocol);

	if (!name)
		return -1;
	if (!strcmp(name, "cport_shutdown"))
		return GB_REQUEST_TYPE_CPORT_SHUTDOWN;
	if (!strcmp(name, "invalid"))
		return GB_REQUEST_TYPE_INVALID;
	return table ? gb_reverse(table, GB_OP_TYPES, name) : -1;
}
