/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * The Greybus monitor: every message the core hands to a host driver or
 * receives from one, as a stream of records.  docs/gbmon.md ("The kernel
 * monitor") is the full contract; this header is its summary.
 *
 * Files (debugfs, mode 0400, root only):
 *   /sys/kernel/debug/greybus/monitor            every host device
 *   /sys/kernel/debug/greybus/greybusN/monitor   host device greybusN
 *
 * Each open file is one reader with its own ring, allocated at open:
 * greybus.monitor_ring_size bytes (module parameter, rounded up to a
 * power of two, 128 KiB..64 MiB) and a snap length of
 * greybus.monitor_snaplen bytes (0..65535), both read at open.
 *
 *  - read(): as many whole records as fit in the buffer, never part of
 *    one; a buffer too small for the next record fails with -EMSGSIZE
 *    (GB_MON_RECORD_MAX bytes always fit).  Blocks while the ring is
 *    empty unless O_NONBLOCK (-EAGAIN).  When the host device of a
 *    per-host file goes, a read() waiting for records returns 0 (end of
 *    file); right after, the file is removed and debugfs fails every
 *    further call but close() with -EIO.  poll(): EPOLLIN with records
 *    to read, EPOLLHUP once the host device is gone.
 *  - write(), ioctl(), mmap(): not supported.
 *
 * A record is a struct gb_mon_hdr, then cap_len captured bytes (the
 * Greybus message from its first byte: operation header, then payload),
 * then zero padding to a multiple of 8 bytes: every header in the stream
 * starts 8-byte aligned, at round_up(hdr_len + cap_len, 8) after the
 * previous one.  Readers take hdr_len from the record, not sizeof(): a
 * later version may append fields.  Every field is little endian.
 *
 * A reader that falls behind loses records, never slows the bus: a
 * record that does not fit in the ring is dropped and counted.  The
 * next record delivered says how many were lost just before it (@lost);
 * if the ring empties while a loss is pending, read() delivers a
 * GB_MON_KIND_LOST record carrying the count.
 */
#ifndef _UAPI_GREYBUS_MONITOR_H
#define _UAPI_GREYBUS_MONITOR_H

#include "greybus.h"

#define GB_MON_VERSION		1

/* Values of gb_mon_hdr.kind */
enum gb_mon_kind {
	/*
	 * A message: handed to the host driver (out, before the driver
	 * sees it) or received from it (in, as delivered, before the core
	 * checks it).  cap_len bytes of it follow.
	 */
	GB_MON_KIND_MESSAGE	= 1,
	/*
	 * The host driver failed to send an outgoing message (its
	 * message_send() or its completion reported @status).  The message
	 * itself was recorded as GB_MON_KIND_MESSAGE before; no bytes.
	 */
	GB_MON_KIND_SEND_ERROR	= 2,
	/*
	 * An operation ended without its exchange: an outgoing one timed
	 * out or was cancelled before its response (@status: -ETIMEDOUT,
	 * -EINTR, -ESHUTDOWN, ...), or, with GB_MON_F_IN, a received
	 * request was dropped unhandled (connection disabled).  @type,
	 * @operation_id identify it; no bytes.
	 */
	GB_MON_KIND_CANCEL	= 3,
	/* Only @lost and @timestamp_ns are meaningful; no bytes */
	GB_MON_KIND_LOST	= 4,
};

/* Bits of gb_mon_hdr.flags */
#define GB_MON_F_IN		0x00000001	/* network -> AP; clear: AP -> network */
#define GB_MON_F_RESPONSE	0x00000002	/* a response (type bit 0x80) */
#define GB_MON_F_CANCELLED	0x00000004	/* GB_MON_KIND_CANCEL */
#define GB_MON_F_ERROR		0x00000008	/* @status is not 0 */
#define GB_MON_F_TRUNCATED	0x00000010	/* cap_len < msg_len */
#define GB_MON_F_MALFORMED	0x00000020	/* in: framing is wrong (short, size field) */
#define GB_MON_F_NO_CONNECTION	0x00000040	/* in: no connection on that CPort */

/* intf_id, bundle_id, intf_cport_id when there is none (the SVC's CPort) */
#define GB_MON_ID_NONE		0xff
#define GB_MON_CPORT_NONE	0xffff

struct gb_mon_hdr {
	__u8	version;	/* GB_MON_VERSION */
	__u8	kind;		/* enum gb_mon_kind */
	__le16	hdr_len;	/* bytes of this header; the capture follows */
	__le32	flags;		/* GB_MON_F_* */
	__le64	timestamp_ns;	/* CLOCK_MONOTONIC when the core saw it */
	__le64	frame_time;	/* the host's FrameTime then, 0 without TimeSync */
	__le32	lost;		/* records this reader lost just before this one */
	__le32	msg_len;	/* bytes of the message (in: as received) */
	__le32	cap_len;	/* bytes captured: min(msg_len, snap length) */
	__le16	bus_id;		/* the host device, N of greybusN */
	__le16	hd_cport_id;	/* the bridge (host side) CPort */
	__le16	intf_cport_id;	/* the interface's CPort, or GB_MON_CPORT_NONE */
	__le16	operation_id;	/* from the operation header */
	__u8	intf_id;	/* the interface, or GB_MON_ID_NONE */
	__u8	bundle_id;	/* the bundle, or GB_MON_ID_NONE (SVC, control) */
	__u8	protocol_id;	/* GREYBUS_PROTOCOL_* of the connection */
	__u8	type;		/* from the operation header, 0x80 bit included */
	__u8	result;		/* from the operation header (responses) */
	__u8	pad[3];		/* zero */
	__le32	status;		/* 0 or a negative errno (two's complement) */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_mon_hdr, 56);

#define GB_MON_SNAPLEN_MAX	GB_OPERATION_MSG_SIZE_MAX
/* The largest record, padding included: a read() buffer this big always fits */
#define GB_MON_RECORD_MAX	(56 + GB_MON_SNAPLEN_MAX + 1)

#endif /* _UAPI_GREYBUS_MONITOR_H */
