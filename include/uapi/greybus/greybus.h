/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Greybus wire format: the operation message header, result codes, the
 * protocol and bundle-class numbers.  Shared by the kernel and the tools.
 *
 * Every multi-byte field is little endian and every structure is packed.
 */
#ifndef _UAPI_GREYBUS_GREYBUS_H
#define _UAPI_GREYBUS_GREYBUS_H

#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/build_bug.h>
#endif

#define GB_PACKED		__attribute__((packed))
/*
 * Fail the build when a wire structure does not have its specified size,
 * without <assert.h> in userspace: the kernel has static_assert() from
 * <linux/build_bug.h>, C++11 has it as a keyword and C11 as
 * _Static_assert.  Older C (C99 is the floor: structures end in flexible
 * arrays) and C++98 get the same check, without the message, from an
 * array declaration whose size turns negative when the size is wrong;
 * every check declares the same extern array, which nothing defines.
 * C++ cannot include manifest.h: its bundle descriptor has a field
 * named class.
 */
#if defined(__KERNEL__) || (defined(__cplusplus) && __cplusplus >= 201103L)
#define GB_ASSERT_SIZE(type, size) \
	static_assert(sizeof(type) == (size), #type " has the wrong size")
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define GB_ASSERT_SIZE(type, size) \
	_Static_assert(sizeof(type) == (size), #type " has the wrong size")
#else
#define GB_ASSERT_SIZE(type, size) \
	extern char gb_assert_size[sizeof(type) == (size) ? 1 : -1]
#endif

/* Greybus (and manifest) version this implementation speaks */
#define GREYBUS_VERSION_MAJOR		0x00
#define GREYBUS_VERSION_MINOR		0x01

/* Operation message header, in front of every request and response */
struct gb_operation_msg_hdr {
	__le16	size;		/* header + payload, in bytes */
	__le16	operation_id;	/* 0 only for unidirectional requests */
	__u8	type;		/* GB_MSG_TYPE_RESPONSE set in responses */
	__u8	result;		/* GB_OP_* in responses, 0 in requests */
	__u8	pad[2];		/* zero on the wire */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_operation_msg_hdr, 8);

#define GB_MSG_TYPE_RESPONSE		0x80
#define GB_MSG_TYPE_MASK		0x7f

#define GB_OPERATION_MSG_SIZE_MIN	sizeof(struct gb_operation_msg_hdr)
#define GB_OPERATION_MSG_SIZE_MAX	0xffff
#define GB_OPERATION_ID_NONE		0	/* unidirectional */

#define GB_CPORT_ID_MAX			4095
#define GB_CPORT_ID_BAD			0xffff

/* Operation types every protocol shares */
#define GB_REQUEST_TYPE_CPORT_SHUTDOWN	0x00
#define GB_REQUEST_TYPE_INVALID		0x7f

struct gb_cport_shutdown_request {
	__u8	phase;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_cport_shutdown_request, 1);

/* The version operation (type 0x01) of the protocols that have one */
#define GB_REQUEST_TYPE_PROTOCOL_VERSION 0x01

struct gb_protocol_version_request {
	__u8	major;
	__u8	minor;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_protocol_version_request, 2);

struct gb_protocol_version_response {
	__u8	major;
	__u8	minor;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_protocol_version_response, 2);

/* Result codes carried in the header of a response */
#define GB_OP_SUCCESS			0x00
#define GB_OP_INTERRUPTED		0x01
#define GB_OP_TIMEOUT			0x02
#define GB_OP_NO_MEMORY			0x03
#define GB_OP_PROTOCOL_BAD		0x04
#define GB_OP_OVERFLOW			0x05
#define GB_OP_INVALID			0x06
#define GB_OP_RETRY			0x07
#define GB_OP_NONEXISTENT		0x08
#define GB_OP_INVALID_STATE		0x09	/* spec 1.0 only */
#define GB_OP_UNKNOWN_ERROR		0xfe
#define GB_OP_MALFUNCTION		0xff

/* Protocol ids, as found in a manifest's cport descriptors */
#define GREYBUS_PROTOCOL_CONTROL	0x00
#define GREYBUS_PROTOCOL_AP		0x01	/* unused */
#define GREYBUS_PROTOCOL_GPIO		0x02
#define GREYBUS_PROTOCOL_I2C		0x03
#define GREYBUS_PROTOCOL_UART		0x04
#define GREYBUS_PROTOCOL_HID		0x05
#define GREYBUS_PROTOCOL_USB		0x06
#define GREYBUS_PROTOCOL_SDIO		0x07
#define GREYBUS_PROTOCOL_POWER_SUPPLY	0x08
#define GREYBUS_PROTOCOL_PWM		0x09
/* 0x0a is unused */
#define GREYBUS_PROTOCOL_SPI		0x0b
#define GREYBUS_PROTOCOL_DISPLAY	0x0c
#define GREYBUS_PROTOCOL_CAMERA_MGMT	0x0d
#define GREYBUS_PROTOCOL_SENSOR		0x0e
#define GREYBUS_PROTOCOL_LIGHTS		0x0f
#define GREYBUS_PROTOCOL_VIBRATOR	0x10
#define GREYBUS_PROTOCOL_LOOPBACK	0x11
#define GREYBUS_PROTOCOL_AUDIO_MGMT	0x12
#define GREYBUS_PROTOCOL_AUDIO_DATA	0x13
#define GREYBUS_PROTOCOL_SVC		0x14
#define GREYBUS_PROTOCOL_BOOTROM	0x15
#define GREYBUS_PROTOCOL_CAMERA_DATA	0x16
#define GREYBUS_PROTOCOL_FW_DOWNLOAD	0x17
#define GREYBUS_PROTOCOL_FW_MANAGEMENT	0x18
#define GREYBUS_PROTOCOL_AUTHENTICATION	0x19
#define GREYBUS_PROTOCOL_LOG		0x1a
#define GREYBUS_PROTOCOL_RAW		0xfe
#define GREYBUS_PROTOCOL_VENDOR		0xff

/* Bundle classes, as found in a manifest's bundle descriptors */
#define GREYBUS_CLASS_CONTROL		0x00
#define GREYBUS_CLASS_AP		0x01	/* unused */
#define GREYBUS_CLASS_HID		0x05
#define GREYBUS_CLASS_POWER_SUPPLY	0x08
#define GREYBUS_CLASS_BRIDGED_PHY	0x0a
#define GREYBUS_CLASS_DISPLAY		0x0c
#define GREYBUS_CLASS_CAMERA		0x0d
#define GREYBUS_CLASS_SENSOR		0x0e
#define GREYBUS_CLASS_LIGHTS		0x0f
#define GREYBUS_CLASS_VIBRATOR		0x10
#define GREYBUS_CLASS_LOOPBACK		0x11
#define GREYBUS_CLASS_AUDIO		0x12
#define GREYBUS_CLASS_SVC		0x14	/* unused */
#define GREYBUS_CLASS_BOOTROM		0x15
#define GREYBUS_CLASS_FW_MANAGEMENT	0x16
#define GREYBUS_CLASS_LOG		0x17
#define GREYBUS_CLASS_RAW		0xfe
#define GREYBUS_CLASS_VENDOR		0xff

#endif /* _UAPI_GREYBUS_GREYBUS_H */
