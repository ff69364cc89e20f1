/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Greybus interface manifest: a header followed by descriptors, each a
 * multiple of 4 bytes long.  Returned whole by Control GET_MANIFEST.
 */
#ifndef _UAPI_GREYBUS_MANIFEST_H
#define _UAPI_GREYBUS_MANIFEST_H

#include "greybus.h"

#define GREYBUS_MANIFEST_SIZE_MAX	0xffff

enum greybus_descriptor_type {
	GREYBUS_TYPE_INVALID		= 0x00,
	GREYBUS_TYPE_INTERFACE		= 0x01,
	GREYBUS_TYPE_STRING		= 0x02,
	GREYBUS_TYPE_BUNDLE		= 0x03,
	GREYBUS_TYPE_CPORT		= 0x04,
};

/* Interface descriptor feature bits */
#define GREYBUS_INTERFACE_FEATURE_TIMESYNC	0x01

/* Control bundle and CPort: implicit in every interface */
#define GREYBUS_CONTROL_BUNDLE_ID	0
/* Reserved: means "no bundle" to Linux, never a bundle of a manifest */
#define GREYBUS_BUNDLE_ID_NONE		0xff
#define GREYBUS_CONTROL_CPORT_ID	0

struct greybus_manifest_header {
	__le16	size;		/* whole manifest, header included */
	__u8	version_major;
	__u8	version_minor;
} GB_PACKED;
GB_ASSERT_SIZE(struct greybus_manifest_header, 4);

struct greybus_descriptor_header {
	__le16	size;		/* whole descriptor, this header included */
	__u8	type;		/* enum greybus_descriptor_type */
	__u8	pad;
} GB_PACKED;
GB_ASSERT_SIZE(struct greybus_descriptor_header, 4);

struct greybus_descriptor_interface {
	__u8	vendor_stringid;	/* 0 = none */
	__u8	product_stringid;	/* 0 = none */
	__u8	features;		/* GREYBUS_INTERFACE_FEATURE_* */
	__u8	pad;
} GB_PACKED;
GB_ASSERT_SIZE(struct greybus_descriptor_interface, 4);

/* Followed by @length bytes of UTF-8 (no NUL), zero-padded to 4 bytes */
struct greybus_descriptor_string {
	__u8	length;
	__u8	id;		/* never 0 */
	__u8	string[];
} GB_PACKED;
GB_ASSERT_SIZE(struct greybus_descriptor_string, 2);

struct greybus_descriptor_bundle {
	__u8	id;		/* unique within the interface */
	__u8	class;		/* GREYBUS_CLASS_* */
	__u8	pad[2];
} GB_PACKED;
GB_ASSERT_SIZE(struct greybus_descriptor_bundle, 4);

struct greybus_descriptor_cport {
	__le16	id;		/* unique within the interface, never 0 */
	__u8	bundle;		/* owning bundle id */
	__u8	protocol_id;	/* GREYBUS_PROTOCOL_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct greybus_descriptor_cport, 4);

struct greybus_descriptor {
	struct greybus_descriptor_header		header;
	union {
		struct greybus_descriptor_string	string;
		struct greybus_descriptor_interface	interface;
		struct greybus_descriptor_bundle	bundle;
		struct greybus_descriptor_cport		cport;
	};
} GB_PACKED;

/* Descriptor sizes on the wire, header included */
#define GREYBUS_DESC_INTERFACE_SIZE	8
#define GREYBUS_DESC_BUNDLE_SIZE	8
#define GREYBUS_DESC_CPORT_SIZE		8
/* A string descriptor of @len bytes: header, length, id, text, padding */
#define GREYBUS_DESC_STRING_SIZE(len)	((6 + (len) + 3) & ~3)

struct greybus_manifest {
	struct greybus_manifest_header		header;
	struct greybus_descriptor		descriptors[];
} GB_PACKED;

#endif /* _UAPI_GREYBUS_MANIFEST_H */
