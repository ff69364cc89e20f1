/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HDLC-like framing of the Greybus serial link (BeaglePlay's CC1352,
 * Zephyr's UART transport; docs/hdlc.md): a frame is
 *
 *	0x7E addr ctrl payload... FCS-lo FCS-hi 0x7E
 *
 * with 0x7E and 0x7D escaped as 0x7D, byte ^ 0x20 everywhere between the
 * flags, and a CRC-16/X-25 frame check sequence over addr..payload.
 *
 * The encoder and the decoder are pure: no allocation, no locking, no
 * logging.  kernel/hosts/hdlc_frame.c is built into gb-hdlc.ko and, through
 * tools/lib/hdlc_frame_user.c, into gbsim, the unit tests and a fuzzer.
 */
#ifndef __GREYBUS_HDLC_FRAME_H
#define __GREYBUS_HDLC_FRAME_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kcompat.h"
#endif

#define GB_HDLC_FLAG		0x7e
#define GB_HDLC_ESCAPE		0x7d
#define GB_HDLC_ESCAPE_XOR	0x20

/* Address byte: what the frame carries */
#define GB_HDLC_ADDR_GREYBUS	0x01	/* __le16 cport + Greybus message */
#define GB_HDLC_ADDR_DEBUG	0x02	/* text from the peer, for the log */
#define GB_HDLC_ADDR_CONTROL	0x03	/* one GB_HDLC_CONTROL_* byte */
#define GB_HDLC_ADDR_MGMT	0x04	/* the CC1352 firmware's own */

/* Control byte of an unnumbered-information frame, the only kind sent */
#define GB_HDLC_CTRL_UI		0x03

#define GB_HDLC_CONTROL_SVC_START	0x01
#define GB_HDLC_CONTROL_SVC_STOP	0x02

#define GB_HDLC_FCS_INIT	0xffff
/* The CRC over addr..FCS of a good frame */
#define GB_HDLC_FCS_GOOD	0xf0b8

/* Address, control and FCS around the payload */
#define GB_HDLC_OVERHEAD	4
/* The CPort id before the Greybus message */
#define GB_HDLC_CPORT_SIZE	2

/*
 * Bytes on the wire for a frame of @n payload bytes at worst (every byte
 * between the flags escaped), both flags included.
 */
#define GB_HDLC_ENCODED_MAX(n)	(2 + 2 * ((n) + GB_HDLC_OVERHEAD))

u16 gb_hdlc_fcs(u16 fcs, const u8 *data, size_t len);

size_t gb_hdlc_encode(u8 *out, size_t size, u8 addr, u8 ctrl,
		      const void *head, size_t head_len,
		      const void *body, size_t body_len);

/**
 * struct gb_hdlc_rx - the receiver's state
 * @buf: where a frame is assembled, addr..FCS, @size bytes
 * @size: the largest frame accepted, addr..FCS
 * @len: bytes in @buf so far; after GB_HDLC_RX_FRAME, the frame's
 *	length without its FCS
 * @fcs: the CRC over the bytes in @buf
 * @escape: the previous byte was an escape
 * @overflow: the frame in progress outgrew @buf; the rest is discarded
 * @done: a result was returned; the next byte starts a new frame
 *
 * Set @buf and @size (at least GB_HDLC_OVERHEAD), then gb_hdlc_rx_reset().
 * Bytes before the first flag count as a frame: they end as a bad or
 * short one, so that noise is never silently taken for idle fill.
 */
struct gb_hdlc_rx {
	u8	*buf;
	size_t	size;
	size_t	len;
	u16	fcs;
	bool	escape;
	bool	overflow;
	bool	done;
};

/**
 * enum gb_hdlc_rx_result - what gb_hdlc_rx_feed() stopped for
 * @GB_HDLC_RX_MORE: all input taken, no frame ended
 * @GB_HDLC_RX_FRAME: a good frame: @buf holds addr, ctrl and the payload
 *	(@len bytes, FCS removed), valid until the next call
 * @GB_HDLC_RX_BAD_FCS: a frame whose FCS is wrong
 * @GB_HDLC_RX_ABORT: an escape followed by a flag
 * @GB_HDLC_RX_OVERSIZE: a frame longer than @size
 * @GB_HDLC_RX_SHORT: a frame too short for addr, ctrl and FCS
 */
enum gb_hdlc_rx_result {
	GB_HDLC_RX_MORE,
	GB_HDLC_RX_FRAME,
	GB_HDLC_RX_BAD_FCS,
	GB_HDLC_RX_ABORT,
	GB_HDLC_RX_OVERSIZE,
	GB_HDLC_RX_SHORT,
};

void gb_hdlc_rx_reset(struct gb_hdlc_rx *rx);
enum gb_hdlc_rx_result gb_hdlc_rx_feed(struct gb_hdlc_rx *rx, const u8 *data,
				       size_t len, size_t *used);

#endif /* __GREYBUS_HDLC_FRAME_H */
