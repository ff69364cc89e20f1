/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * gb-vhd: a Greybus AP bridge (host device) backed by a userspace process,
 * through the character device /dev/greybus-vhd.  docs/vhd.md is the full
 * contract; this header is its summary.
 *
 * The file carries events.  Each event is a struct gb_vhd_event_hdr
 * followed by exactly hdr.len bytes of payload, whose layout depends on
 * hdr.type.  The fields of the vhd structures below are in the host's
 * byte order; the Greybus messages they carry are in wire format (little
 * endian), header included.
 *
 *  - write(): one whole event per call; the byte count must be exactly
 *    sizeof(hdr) + hdr.len.  A bad event fails with -EINVAL and changes
 *    nothing; a good one returns the byte count.  write() never blocks.
 *  - read(): one whole event per call.  If the buffer is too small for the
 *    next event the call fails with -EMSGSIZE and the event stays queued;
 *    GB_VHD_EVENT_SIZE_MAX always fits.  Blocks unless O_NONBLOCK
 *    (-EAGAIN); poll() reports EPOLLIN when an event is queued and always
 *    EPOLLOUT.
 *  - Batched I/O (a host created with version 3, from CREATED until
 *    DESTROY or close): read() returns as many whole events as fit in the
 *    buffer, back-to-back, oldest first (at least one; -EMSGSIZE only if
 *    the oldest alone does not fit).  write() takes whole events
 *    back-to-back, each with its own header, each checked and carried out
 *    in order as if written alone.  The first one refused (a malformed
 *    one, or one whose header runs past the end of the write) stops the
 *    write: it and everything after it are not consumed, the kernel logs
 *    why (rate-limited), and write() returns the bytes of the events
 *    before it, which were carried out; or, if it was the first, fails
 *    with its error as above.  So a short count means "the event at this
 *    offset was refused"; writing the rest again returns its error.  A
 *    DESTROY ends a batch the same way (the rest is not consumed: the
 *    file takes one event per write() again).
 *  - close(): removes the host device and everything under it, as if the
 *    bridge had been unplugged.
 *
 * "to kernel" events are written by the process, "to user" events are
 * read by it.  CPort ids are the bridge's (host device) CPort ids.
 */
#ifndef _UAPI_GREYBUS_VHD_H
#define _UAPI_GREYBUS_VHD_H

#include "greybus.h"

/*
 * CREATE's version: 1 is the base ABI.  2 adds AUTHORIZE and the BUNDLE
 * event; a host created with version 1 never sees either, so older
 * clients do not notice.  3 is version 2 plus batched read() and write()
 * (above); hosts of versions 1 and 2 keep one event per call.  A kernel
 * without a version refuses it with -EINVAL, so a client asks for 3 and
 * falls back to 2 or 1.
 */
#define GB_VHD_VERSION			1
#define GB_VHD_VERSION_AUTH		2
#define GB_VHD_VERSION_BATCH		3
#define GB_VHD_VERSION_MAX		GB_VHD_VERSION_BATCH
#define GB_VHD_DEVICE_NAME		"greybus-vhd"

enum gb_vhd_event_type {
	/* to kernel */

	/*
	 * Create the host device.  Only when the file has none (first
	 * write, or after DESTROY).  Answered by CREATED.
	 */
	GB_VHD_CREATE		= 1,	/* struct gb_vhd_create */
	/*
	 * Remove the host device as close() would; the file stays open,
	 * events not read yet are discarded, and CREATE may follow.
	 */
	GB_VHD_DESTROY		= 2,	/* no payload */
	/*
	 * A message from the network arrives on a bridge CPort: CPort 0
	 * (the SVC's) at any time, any other CPort only while the AP has
	 * it enabled (between CPORT_ENABLE and CPORT_DISABLE).
	 */
	GB_VHD_RECV		= 3,	/* struct gb_vhd_message: from network */
	/*
	 * Transport self-test and benchmark baseline: the payload (up to
	 * GB_VHD_ECHO_SIZE_MAX bytes) comes back as ECHO_REPLY, without
	 * Greybus being involved.  Allowed with or without a host device.
	 */
	GB_VHD_ECHO_REQUEST	= 4,	/* any payload: returned as ECHO_REPLY */
	/*
	 * The bridge latched a TimeSync strobe (the SVC's pulse on its wake
	 * line) at the given time.  Only with a host device; a timestamp
	 * in the future is refused.  docs/timesync.md.
	 */
	GB_VHD_TIMESYNC_STROBE	= 5,	/* struct gb_vhd_strobe */
	/*
	 * Version 2 and 3 hosts only: set the host's authorized_default, or
	 * authorize or deauthorize one bundle of this host.  The state
	 * changes before write() returns; the driver binds or unbinds
	 * afterwards.  A bundle this host does not have: -ENODEV.
	 */
	GB_VHD_AUTHORIZE	= 6,	/* struct gb_vhd_authorize */

	/* to user */

	/* The host device exists: always the first event after CREATE */
	GB_VHD_CREATED		= 0x81,	/* struct gb_vhd_created */
	/*
	 * The AP sends a message on a bridge CPort.  The kernel reports the
	 * message as sent when it queues this event: there is nothing to
	 * acknowledge and nothing can be cancelled afterwards.
	 */
	GB_VHD_SEND		= 0x82,	/* struct gb_vhd_message: from the AP */
	/* Host-driver callbacks on one CPort: notifications, no answer */
	GB_VHD_CPORT_ENABLE	= 0x83,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_DISABLE	= 0x84,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_FLUSH	= 0x85,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_CONNECTED	= 0x86,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_QUIESCE	= 0x87,	/* struct gb_vhd_cport */
	GB_VHD_CPORT_CLEAR	= 0x88,	/* struct gb_vhd_cport */
	/* Only with GB_VHD_CREATE_BRIDGE_SHUTDOWN, see below */
	GB_VHD_CPORT_SHUTDOWN	= 0x89,	/* struct gb_vhd_cport */
	GB_VHD_ECHO_REPLY	= 0x8a,	/* the ECHO_REQUEST payload */
	/*
	 * The AP asks the bridge to reset the Greybus network (the SVC
	 * watchdog's "reset" action): the process restarts its SVC (version
	 * and hello on CPort 0) and re-inserts its modules.
	 */
	GB_VHD_RESET		= 0x8b,	/* no payload */
	/*
	 * Version 2 and 3 hosts only: a bundle was registered, authorized or
	 * not; the process may authorize it (AUTHORIZE).
	 */
	GB_VHD_BUNDLE		= 0x8c,	/* struct gb_vhd_bundle */
};

struct gb_vhd_event_hdr {
	__u32	type;		/* enum gb_vhd_event_type */
	__u32	len;		/* payload bytes following this header */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_event_hdr, 8);

/* GB_VHD_CREATE */
struct gb_vhd_create {
	__u32	version;	/* GB_VHD_VERSION */
	__u16	num_cports;	/* bridge CPorts, 1..GB_VHD_CPORTS_MAX */
	__u16	mtu;		/* largest message, header included, >= 64 */
	__u32	flags;		/* GB_VHD_CREATE_*; unknown bits: -EINVAL */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_create, 12);

#define GB_VHD_CPORTS_MAX		(GB_CPORT_ID_MAX + 1)
#define GB_VHD_MTU_MIN			64

/*
 * The bridge shuts CPorts down itself: the AP reports each CPort Shutdown
 * phase as a CPORT_SHUTDOWN event instead of sending the CPort Shutdown
 * operation (type 0x00) to the module.  Without the flag the operation
 * travels as a SEND like any other request.
 */
#define GB_VHD_CREATE_BRIDGE_SHUTDOWN	0x00000001
#define GB_VHD_CREATE_FLAGS		GB_VHD_CREATE_BRIDGE_SHUTDOWN

/* GB_VHD_CREATED: the host device exists, named "greybus<bus_id>" */
struct gb_vhd_created {
	__u32	bus_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_created, 4);

/*
 * GB_VHD_RECV / GB_VHD_SEND: one Greybus message (operation header
 * included, 8..mtu bytes) on bridge CPort @cport_id.  On RECV the header's
 * size field must equal the message length.
 */
struct gb_vhd_message {
	__u16	cport_id;
	__u16	pad;		/* must be 0 */
	__u8	data[];		/* struct gb_operation_msg_hdr + payload */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_message, 4);

/* GB_VHD_CPORT_*: host-driver callbacks on one bridge CPort */
struct gb_vhd_cport {
	__u16	cport_id;
	__u16	pad;		/* 0 */
	__u32	arg;		/* ENABLE: connection flags; QUIESCE: peer space;
				 * SHUTDOWN: phase; others 0
				 */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_cport, 8);

/*
 * GB_VHD_TIMESYNC_STROBE: CLOCK_MONOTONIC of the machine the kernel runs
 * on, in nanoseconds, when the bridge saw the strobe's edge.
 */
struct gb_vhd_strobe {
	__u64	timestamp_ns;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_strobe, 8);

/* GB_VHD_AUTHORIZE */
struct gb_vhd_authorize {
	__u8	scope;		/* GB_VHD_AUTH_* */
	__u8	intf_id;	/* BUNDLE: the bundle's interface; else 0 */
	__u8	bundle_id;	/* BUNDLE: the bundle; else 0 */
	__u8	authorized;	/* 0 or 1 */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_authorize, 4);

#define GB_VHD_AUTH_DEFAULT		0	/* the host's authorized_default */
#define GB_VHD_AUTH_BUNDLE		1	/* one bundle's authorized */

/* GB_VHD_BUNDLE */
struct gb_vhd_bundle {
	__u8	intf_id;
	__u8	bundle_id;
	__u8	bundle_class;	/* from the manifest */
	__u8	authorized;	/* its state when registered */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_vhd_bundle, 4);

#define GB_VHD_EVENT_SIZE_MAX \
	(sizeof(struct gb_vhd_event_hdr) + sizeof(struct gb_vhd_message) + \
	 GB_OPERATION_MSG_SIZE_MAX)
#define GB_VHD_ECHO_SIZE_MAX \
	(GB_VHD_EVENT_SIZE_MAX - sizeof(struct gb_vhd_event_hdr))

/*
 * The read queue is bounded.  SEND and ECHO_REPLY events may fill it up to
 * GB_VHD_QUEUE_EVENTS_MAX events or GB_VHD_QUEUE_BYTES_MAX bytes; beyond
 * that the AP's message fails with -ENOSPC and ECHO_REQUEST fails with
 * -ENOSPC.  The small CREATED, CPORT_* and RESET events may use
 * GB_VHD_QUEUE_CTRL_RESERVE more slots, so a flood of messages never hides
 * a state change.
 */
#define GB_VHD_QUEUE_EVENTS_MAX		1024
#define GB_VHD_QUEUE_BYTES_MAX		(4 << 20)
#define GB_VHD_QUEUE_CTRL_RESERVE	256

#endif /* _UAPI_GREYBUS_VHD_H */
