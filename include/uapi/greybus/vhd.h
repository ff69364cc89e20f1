/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * gb-vhd: a Greybus AP bridge (host device) backed by a userspace process,
 * through the character device /dev/greybus-vhd.  See docs/vhd.md.
 *
 * The file carries events.  Each event is a struct gb_vhd_event_hdr
 * followed by exactly hdr.len bytes of payload, whose layout depends on
 * hdr.type.
 *
 *  - write(): one whole event per call; the byte count must be exactly
 *    sizeof(hdr) + hdr.len.  A bad event fails with -EINVAL and changes
 *    nothing.
 *  - read(): one whole event per call.  If the buffer is too small for the
 *    next event the call fails with -EMSGSIZE and the event stays queued;
 *    GB_VHD_EVENT_SIZE_MAX always fits.  Blocks unless O_NONBLOCK
 *    (-EAGAIN); poll() reports EPOLLIN when an event is queued.
 *  - close(): removes the host device and everything under it, as if the
 *    bridge had been unplugged.
 *
 * "to kernel" events are written by the process, "to user" events are
 * read by it.  CPort ids are the bridge's (host device) CPort ids.
 */
#ifndef _UAPI_GREYBUS_VHD_H
#define _UAPI_GREYBUS_VHD_H

#include "greybus.h"

#define GB_VHD_VERSION			1
#define GB_VHD_DEVICE_NAME		"greybus-vhd"

enum gb_vhd_event_type {
	/* to kernel */
	GB_VHD_CREATE		= 1,	/* struct gb_vhd_create */
	GB_VHD_DESTROY		= 2,	/* no payload */
	GB_VHD_RECV		= 3,	/* struct gb_vhd_message: from network */
	GB_VHD_ECHO_REQUEST	= 4,	/* any payload: returned as ECHO_REPLY */

	/* to user */
	GB_VHD_CREATED		= 0x81,	/* struct gb_vhd_created */
	GB_VHD_SEND		= 0x82,	/* struct gb_vhd_message: from the AP */
	GB_VHD_CPORT_ENABLE	= 0x83,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_DISABLE	= 0x84,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_FLUSH	= 0x85,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_CONNECTED	= 0x86,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_QUIESCE	= 0x87,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_CLEAR	= 0x88,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_SHUTDOWN	= 0x89,	/* struct gb_vhd_cport */
	GB_VHD_ECHO_REPLY	= 0x8a,	/* the ECHO_REQUEST payload */
	GB_VHD_RESET		= 0x8b,	/* no payload: reset the network */
};

struct gb_vhd_event_hdr {
	__u32	type;		/* enum gb_vhd_event_type */
	__u32	len;		/* payload bytes following this header */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_event_hdr, 8);

/* GB_VHD_CREATE: must be the first event written, and only once */
struct gb_vhd_create {
	__u32	version;	/* GB_VHD_VERSION */
	__u16	num_cports;	/* bridge CPorts, 1..GB_VHD_CPORTS_MAX */
	__u16	mtu;		/* largest message, header included, >= 64 */
	__u32	flags;		/* must be 0 */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_create, 12);

#define GB_VHD_CPORTS_MAX		(GB_CPORT_ID_MAX + 1)
#define GB_VHD_MTU_MIN			64

/* GB_VHD_CREATED: the host device exists, named "greybus<bus_id>" */
struct gb_vhd_created {
	__u32	bus_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_created, 4);

/*
 * GB_VHD_RECV / GB_VHD_SEND: one Greybus message (operation header
 * included) on bridge CPort @cport_id.  On RECV the header's size field
 * must equal the message length.
 */
struct gb_vhd_message {
	__u16	cport_id;
	__u16	pad;		/* must be 0 */
	__u8	data[];		/* struct gb_operation_msg_hdr + payload */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_message, 4);

/* Host-driver callbacks on one bridge CPort */
struct gb_vhd_cport {
	__u16	cport_id;
	__u16	pad;
	__u32	arg;		/* ENABLE: connection flags; QUIESCE: peer space;
				 * SHUTDOWN: phase; others 0
				 */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_cport, 8);

#define GB_VHD_EVENT_SIZE_MAX \
	(sizeof(struct gb_vhd_event_hdr) + sizeof(struct gb_vhd_message) + \
	 GB_OPERATION_MSG_SIZE_MAX)

#endif /* _UAPI_GREYBUS_VHD_H */
