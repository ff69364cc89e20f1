// SPDX-License-Identifier: GPL-2.0
/*
 * Message framing and name tables (tools/lib/gb_msg.c).
 */
#include <errno.h>
#include <stdint.h>

#include <uapi/greybus/control.h>
#include <uapi/greybus/svc.h>

#include "gb_msg.h"
#include "tap.h"

static void test_build_request(void)
{
	static const uint8_t want[] = {
		0x0a, 0x00, 0x34, 0x12, 0x21, 0x00, 0x00, 0x00, 0xaa, 0xbb
	};
	uint8_t buf[16], payload[2] = { 0xaa, 0xbb };
	ssize_t n;

	memset(buf, 0xff, sizeof(buf));
	n = gb_msg_build_request(buf, sizeof(buf), 0x1234,
				 GB_SVC_TYPE_INTF_VSYS_ENABLE, payload, 2);
	CHECK(n == 10, "length %zd", n);
	CHECK(!memcmp(buf, want, sizeof(want)), "bytes");
	CHECK(gb_msg_build_request(buf, 9, 1, 2, payload, 2) == -EMSGSIZE,
	      "overflow of the buffer");
	CHECK(gb_msg_build_request(buf, 0x20000, 1, 2, payload, 0xfff8) ==
	      -EMSGSIZE, "over 65535");
}

static void test_build_response(void)
{
	uint8_t buf[8];
	struct gb_msg_info info;

	CHECK(gb_msg_build_response(buf, sizeof(buf), 7,
				    GB_CONTROL_TYPE_GET_MANIFEST_SIZE,
				    GB_OP_INVALID, NULL, 0) == 8, "length");
	CHECK(buf[4] == 0x83 && buf[5] == GB_OP_INVALID, "type/result %02x %02x",
	      buf[4], buf[5]);
	CHECK(gb_msg_parse(buf, sizeof(buf), &info) == GB_MSG_OK, "parse");
	CHECK(info.response && info.operation_id == 7 &&
	      info.payload_len == 0 && info.size == 8, "fields");
}

static void test_parse_errors(void)
{
	uint8_t buf[12] = { 0x0c, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00 };
	struct gb_msg_info info;

	CHECK(gb_msg_parse(buf, 7, &info) == GB_MSG_SHORT, "short");
	CHECK(gb_msg_parse(buf, 8, &info) == GB_MSG_TRUNCATED, "truncated");
	CHECK(gb_msg_parse(buf, 12, &info) == GB_MSG_OK, "exact");
	CHECK(info.payload == buf + 8 && info.payload_len == 4, "payload");
	buf[0] = 0x07;
	CHECK(gb_msg_parse(buf, 12, &info) == GB_MSG_SIZE_TOO_SMALL,
	      "size below header");
	buf[0] = 0x08;
	CHECK(gb_msg_parse(buf, 12, &info) == GB_MSG_OK && info.payload_len == 0,
	      "bytes past size are ignored");
	CHECK(strcmp(gb_msg_strerror(GB_MSG_SHORT),
		     gb_msg_strerror(GB_MSG_TRUNCATED)) &&
	      strcmp(gb_msg_strerror(GB_MSG_TRUNCATED),
		     gb_msg_strerror(GB_MSG_SIZE_TOO_SMALL)),
	      "distinct messages");
}

static void test_op_names(void)
{
	CHECK(!strcmp(gb_op_name(GREYBUS_PROTOCOL_SVC,
				 GB_SVC_TYPE_INTF_VSYS_ENABLE),
		      "intf_vsys_enable"), "svc vsys");
	CHECK(!strcmp(gb_op_name(GREYBUS_PROTOCOL_SVC, 0x80 |
				 GB_SVC_TYPE_MODULE_INSERTED),
		      "module_inserted"), "response bit ignored");
	CHECK(!strcmp(gb_op_name(GREYBUS_PROTOCOL_CONTROL,
				 GB_CONTROL_TYPE_GET_MANIFEST_SIZE),
		      "get_manifest_size"), "control");
	CHECK(!strcmp(gb_op_name(GREYBUS_PROTOCOL_CONTROL,
				 GB_CONTROL_TYPE_BUNDLE_ACTIVATE),
		      "bundle_activate"), "bundle_activate");
	CHECK(!strcmp(gb_op_name(GREYBUS_PROTOCOL_GPIO, 0x00),
		      "cport_shutdown"), "generic shutdown");
	CHECK(!strcmp(gb_op_name(GREYBUS_PROTOCOL_LOOPBACK, 0x03), "transfer"),
	      "loopback");
	CHECK(!strcmp(gb_op_name(GREYBUS_PROTOCOL_VIBRATOR, 0x02), "on"),
	      "vibrator");
	CHECK(gb_op_name(GREYBUS_PROTOCOL_SVC, 0x70) == gb_name_unknown,
	      "unknown svc op");
	CHECK(gb_op_name(0xee, 0x05) == gb_name_unknown, "unknown protocol");
	CHECK(gb_op_type_from_name(GREYBUS_PROTOCOL_SVC, "intf_oops") ==
	      GB_SVC_TYPE_INTF_OOPS, "reverse");
	CHECK(gb_op_type_from_name(GREYBUS_PROTOCOL_SVC, "nope") == -1,
	      "reverse unknown");
	/* Every named operation maps back to itself. */
	for (int t = 0; t < 0x80; t++) {
		const char *s = gb_op_name(GREYBUS_PROTOCOL_SVC, (uint8_t)t);

		if (s != gb_name_unknown)
			CHECK(gb_op_type_from_name(GREYBUS_PROTOCOL_SVC, s) == t,
			      "svc %s", s);
		s = gb_op_name(GREYBUS_PROTOCOL_CONTROL, (uint8_t)t);
		if (s != gb_name_unknown)
			CHECK(gb_op_type_from_name(GREYBUS_PROTOCOL_CONTROL,
						   s) == t, "control %s", s);
	}
}

static void test_protocol_class_names(void)
{
	static const struct { uint8_t id; const char *name; } protos[] = {
		{ 0x00, "control" }, { 0x02, "gpio" }, { 0x03, "i2c" },
		{ 0x10, "vibrator" }, { 0x11, "loopback" },
		{ 0x12, "audio_mgmt" }, { 0x13, "audio_data" },
		{ 0x14, "svc" }, { 0xfe, "raw" }, { 0xff, "vendor" },
	};
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++) {
		CHECK(!strcmp(gb_protocol_name(protos[i].id), protos[i].name),
		      "protocol 0x%02x is %s", protos[i].id,
		      gb_protocol_name(protos[i].id));
		CHECK(gb_protocol_from_name(protos[i].name) == protos[i].id,
		      "reverse %s", protos[i].name);
	}
	CHECK(gb_protocol_name(0x0a) == gb_name_unknown, "0x0a unused");
	CHECK(!strcmp(gb_class_name(0x0a), "bridged_phy") &&
	      !strcmp(gb_class_name(0x12), "audio") &&
	      !strcmp(gb_class_name(0xff), "vendor"), "classes");
	CHECK(gb_class_name(0x02) == gb_name_unknown, "class 0x02");
	CHECK(gb_class_from_name("loopback") == 0x11 &&
	      gb_class_from_name(NULL) == -1, "class reverse");
}

static void test_results(void)
{
	CHECK(!strcmp(gb_result_name(GB_OP_SUCCESS), "success") &&
	      !strcmp(gb_result_name(GB_OP_TIMEOUT), "timeout") &&
	      !strcmp(gb_result_name(GB_OP_MALFUNCTION), "malfunction"),
	      "names");
	CHECK(gb_result_name(0x40) == gb_name_unknown, "reserved");
	CHECK(gb_result_from_name("nonexistent") == GB_OP_NONEXISTENT,
	      "reverse");
	CHECK(gb_result_to_errno(GB_OP_OVERFLOW) == -EMSGSIZE &&
	      gb_result_to_errno(GB_OP_INVALID_STATE) == -EIO &&
	      gb_result_to_errno(0x42) == -EIO, "to errno");
	CHECK(gb_errno_to_result(-ENODEV) == GB_OP_NONEXISTENT &&
	      gb_errno_to_result(0) == GB_OP_SUCCESS &&
	      gb_errno_to_result(-EPERM) == GB_OP_UNKNOWN_ERROR, "from errno");
}

int main(void)
{
	tap_run("msg: build a request", test_build_request);
	tap_run("msg: build and parse a response", test_build_response);
	tap_run("msg: parse errors are distinct", test_parse_errors);
	tap_run("msg: operation names", test_op_names);
	tap_run("msg: protocol and class names", test_protocol_class_names);
	tap_run("msg: result codes", test_results);
	return tap_exit_status();
}
