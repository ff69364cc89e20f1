/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * The ES2 "APBridgeA" USB bridge: what gb-es2 (kernel/hosts/es2*.c) and
 * gbsim's emulated bridge (tools/gbsim/es2.c) agree on.  docs/es2.md
 * describes the protocol; the numbers are protocol-reference section 6.
 *
 * Every Greybus message travels whole in one bulk transfer on a single
 * pipe pair, so the AP-side CPort id rides in byte 6 of the header
 * (pad[0]); hence at most 256 CPorts.  Vendor control requests go to
 * interface 0 (bmRequestType 0x41 out, 0xc1 in).
 */
#ifndef _UAPI_GREYBUS_ES2_H
#define _UAPI_GREYBUS_ES2_H

#include "greybus.h"

#define GB_ES2_USB_VENDOR		0x18d1
#define GB_ES2_USB_PRODUCT		0x1eaf

#define GB_ES2_MSG_SIZE_MAX		2048	/* header included */
#define GB_ES2_CPORTS_MAX		255	/* the id must fit pad[0] */
#define GB_ES2_CPORT_PAD		6	/* header byte with the id */
#define GB_ES2_CPORT_CDSI0		16	/* camera CPorts, reserved */
#define GB_ES2_CPORT_CDSI1		17

/* Vendor requests (bRequest) */
#define GB_ES2_REQ_LOG			0x02	/* in: up to 64 bytes text */
#define GB_ES2_REQ_CPORT_COUNT		0x04	/* in: __le16 count */
#define GB_ES2_REQ_RESET_CPORT		0x05	/* wValue = cport */
#define GB_ES2_REQ_LATENCY_TAG_EN	0x06	/* wValue = cport */
#define GB_ES2_REQ_LATENCY_TAG_DIS	0x07	/* wValue = cport */
#define GB_ES2_REQ_CPORT_FLAGS		0x11	/* wValue = cport, __le32 */
#define GB_ES2_REQ_ARPC_RUN		0x12	/* struct gb_es2_arpc_hdr + */

#define GB_ES2_CPORT_FLAG_CONTROL	0x01
#define GB_ES2_CPORT_FLAG_HIGH_PRIO	0x02

struct gb_es2_cport_flags {
	__le32	flags;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_es2_cport_flags, 4);

/*
 * ARPC: a request is the data of vendor request ARPC_RUN; its response
 * comes back on the second bulk IN endpoint.
 */
#define GB_ES2_ARPC_CPORT_CONNECTED	0x01
#define GB_ES2_ARPC_CPORT_QUIESCE	0x02
#define GB_ES2_ARPC_CPORT_CLEAR		0x03
#define GB_ES2_ARPC_CPORT_FLUSH		0x04
#define GB_ES2_ARPC_CPORT_SHUTDOWN	0x05

#define GB_ES2_ARPC_OK			0x00
#define GB_ES2_ARPC_NOMEM		0x01
#define GB_ES2_ARPC_INVALID		0x02
#define GB_ES2_ARPC_TIMEOUT		0x03
#define GB_ES2_ARPC_UNKNOWN		0xff

#define GB_ES2_ARPC_RSP_SIZE_MAX	128

struct gb_es2_arpc_hdr {
	__le16	id;
	__le16	size;		/* this header + payload */
	__u8	type;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_es2_arpc_hdr, 5);

struct gb_es2_arpc_rsp {
	__le16	id;
	__u8	result;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_es2_arpc_rsp, 3);

/* CONNECTED, CLEAR, FLUSH */
struct gb_es2_arpc_cport {
	__le16	cport_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_es2_arpc_cport, 2);

struct gb_es2_arpc_quiesce {
	__le16	cport_id;
	__le16	peer_space;
	__le16	timeout;	/* ms */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_es2_arpc_quiesce, 6);

struct gb_es2_arpc_shutdown {
	__le16	cport_id;
	__le16	timeout;	/* ms */
	__u8	phase;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_es2_arpc_shutdown, 5);

#endif /* _UAPI_GREYBUS_ES2_H */
