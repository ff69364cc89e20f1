/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus operation messages for the tools: building and parsing the
 * 8-byte header, result codes, and the names of protocols, bundle classes
 * and operations for logs and command lines.
 *
 * Every *_name() function returns a static string and never NULL: values
 * without a name give gb_name_unknown ("unknown"), which callers may
 * compare by pointer.  Every *_from_name() returns the number, or -1.
 * Names are lower_snake_case, e.g. "intf_vsys_enable", "audio_mgmt".
 */
#ifndef GB_MSG_H
#define GB_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <uapi/greybus/greybus.h>

extern const char gb_name_unknown[];

/* ---- Headers ------------------------------------------------------------ */

enum gb_msg_error {
	GB_MSG_OK = 0,
	GB_MSG_SHORT,		/* fewer bytes received than a header */
	GB_MSG_TRUNCATED,	/* size field larger than the bytes received */
	GB_MSG_SIZE_TOO_SMALL,	/* size field smaller than a header */
};

/* A parsed message; @payload points into the caller's buffer */
struct gb_msg_info {
	uint16_t size;		/* the header's size field */
	uint16_t operation_id;
	uint8_t type;		/* as on the wire: response bit included */
	uint8_t result;
	uint8_t pad[2];
	bool response;		/* type & GB_MSG_TYPE_RESPONSE */
	const uint8_t *payload;
	size_t payload_len;	/* size - 8 */
};

/* Writes an 8-byte header at @buf (pad bytes zero) */
void gb_msg_header_build(void *buf, uint16_t size, uint16_t operation_id,
			 uint8_t type, uint8_t result);

/*
 * Writes header + payload into @buf.  Returns the message length, or
 * -EMSGSIZE if it would not fit @buflen or exceed 65535 bytes.  A
 * response's type is @request_type with the response bit set.
 */
ssize_t gb_msg_build_request(void *buf, size_t buflen, uint16_t operation_id,
			     uint8_t type, const void *payload,
			     size_t payload_len);
ssize_t gb_msg_build_response(void *buf, size_t buflen, uint16_t operation_id,
			      uint8_t request_type, uint8_t result,
			      const void *payload, size_t payload_len);

/*
 * Parses the header of @received bytes at @buf, as Linux does: bytes
 * beyond the size field are ignored, pad bytes are reported but not
 * checked.  @info is filled only on GB_MSG_OK.
 */
enum gb_msg_error gb_msg_parse(const void *buf, size_t received,
			       struct gb_msg_info *info);
const char *gb_msg_strerror(enum gb_msg_error error);

/* ---- Result codes ------------------------------------------------------- */

const char *gb_result_name(uint8_t result);	/* "success", "timeout", ... */
int gb_result_from_name(const char *name);
/* What Linux makes of a result it receives (0, -ETIMEDOUT, ..., -EIO) */
int gb_result_to_errno(uint8_t result);
/* What Linux sends for an errno (GB_OP_UNKNOWN_ERROR for unlisted ones) */
uint8_t gb_errno_to_result(int err);

/* ---- Names -------------------------------------------------------------- */

/*
 * Operation @type of @protocol (a GREYBUS_PROTOCOL_* id); the response bit
 * of @type is ignored.  Known: every protocol's cport_shutdown (0x00) and
 * invalid (0x7f); all of Control and SVC; Vibrator; Loopback; the others
 * as their decoders (decode/gb_decode.h) name them.
 */
const char *gb_op_name(uint8_t protocol, uint8_t type);
int gb_op_type_from_name(uint8_t protocol, const char *name);

const char *gb_protocol_name(uint8_t id);	/* "control", "gpio", ... */
int gb_protocol_from_name(const char *name);
const char *gb_class_name(uint8_t class_id);	/* "control", "audio", ... */
int gb_class_from_name(const char *name);

#endif /* GB_MSG_H */
