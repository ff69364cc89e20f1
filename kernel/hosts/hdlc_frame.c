// SPDX-License-Identifier: GPL-2.0
/*
 * HDLC-like framing of the Greybus serial link: CRC-16/X-25, the encoder
 * and the receiver's state machine (greybus/hdlc_frame.h).
 *
 * This file is compiled twice: into gb-hdlc.ko, and into the tools'
 * libgb.a through tools/lib/hdlc_frame_user.c.  Keep it that way: no
 * allocation, no logging, no locking, nothing from the kernel beyond
 * what kcompat.h can mirror.
 *
 * The bytes come from the peer and are untrusted: the receiver writes
 * only below rx->size, whatever arrives, and every byte sequence ends in
 * a defined state.
 */
#ifdef __KERNEL__
#include <linux/export.h>
#include <linux/string.h>
#include <linux/types.h>
#include <greybus/hdlc_frame.h>
#else
#include "kcompat.h"
#include "../include/greybus/hdlc_frame.h"
#endif

/* CRC-16/X-25 (reflected polynomial 0x8408) four bits at a time */
static const u16 gb_hdlc_fcs_nibble[16] = {
	0x0000, 0x1081, 0x2102, 0x3183, 0x4204, 0x5285, 0x6306, 0x7387,
	0x8408, 0x9489, 0xa50a, 0xb58b, 0xc60c, 0xd68d, 0xe70e, 0xf78f,
};

static inline u16 gb_hdlc_fcs_byte(u16 fcs, u8 b)
{
	fcs = (fcs >> 4) ^ gb_hdlc_fcs_nibble[(fcs ^ b) & 0xf];
	return (fcs >> 4) ^ gb_hdlc_fcs_nibble[(fcs ^ (b >> 4)) & 0xf];
}

/**
 * gb_hdlc_fcs() - run the frame check sequence over some bytes
 * @fcs: the value so far, GB_HDLC_FCS_INIT to start
 * @data: the bytes
 * @len: how many
 *
 * The FCS sent is the complement of the result over addr..payload, low
 * byte first; over a whole good frame, addr..FCS, the result is
 * GB_HDLC_FCS_GOOD.
 *
 * Return: the new value.
 */
u16 gb_hdlc_fcs(u16 fcs, const u8 *data, size_t len)
{
	while (len--)
		fcs = gb_hdlc_fcs_byte(fcs, *data++);
	return fcs;
}

static inline bool gb_hdlc_needs_escape(u8 b)
{
	return b == GB_HDLC_FLAG || b == GB_HDLC_ESCAPE;
}

/* Append @b escaped, if there is room; @pos advances anyway */
static inline void gb_hdlc_put(u8 *out, size_t size, size_t *pos, u8 b)
{
	if (gb_hdlc_needs_escape(b)) {
		if (*pos < size)
			out[*pos] = GB_HDLC_ESCAPE;
		(*pos)++;
		b ^= GB_HDLC_ESCAPE_XOR;
	}
	if (*pos < size)
		out[*pos] = b;
	(*pos)++;
}

/**
 * gb_hdlc_encode() - build one frame, ready for the wire
 * @out: where to write it
 * @size: room at @out; GB_HDLC_ENCODED_MAX(payload) always suffices
 * @addr: the address byte
 * @ctrl: the control byte
 * @head: the first part of the payload (may be NULL if @head_len is 0)
 * @head_len: its length
 * @body: the rest of the payload (may be NULL if @body_len is 0)
 * @body_len: its length
 *
 * Writes an opening flag, the escaped addr, ctrl, payload and FCS, and a
 * closing flag.  The payload comes in two parts so that a CPort id and a
 * message need not be copied together first.
 *
 * Return: the frame's length, or 0 if it does not fit in @size (then
 * @out holds nothing useful).
 */
size_t gb_hdlc_encode(u8 *out, size_t size, u8 addr, u8 ctrl,
		      const void *head, size_t head_len,
		      const void *body, size_t body_len)
{
	const u8 *h = head, *b = body;
	u16 fcs = GB_HDLC_FCS_INIT;
	size_t pos = 0, i;

	if (size)
		out[pos] = GB_HDLC_FLAG;
	pos++;
	fcs = gb_hdlc_fcs_byte(fcs, addr);
	gb_hdlc_put(out, size, &pos, addr);
	fcs = gb_hdlc_fcs_byte(fcs, ctrl);
	gb_hdlc_put(out, size, &pos, ctrl);
	for (i = 0; i < head_len; i++) {
		fcs = gb_hdlc_fcs_byte(fcs, h[i]);
		gb_hdlc_put(out, size, &pos, h[i]);
	}
	for (i = 0; i < body_len; i++) {
		fcs = gb_hdlc_fcs_byte(fcs, b[i]);
		gb_hdlc_put(out, size, &pos, b[i]);
	}
	fcs = ~fcs;
	gb_hdlc_put(out, size, &pos, fcs & 0xff);
	gb_hdlc_put(out, size, &pos, fcs >> 8);
	if (pos < size)
		out[pos] = GB_HDLC_FLAG;
	pos++;

	return pos <= size ? pos : 0;
}

/**
 * gb_hdlc_rx_reset() - forget any frame in progress
 * @rx: the receiver
 */
void gb_hdlc_rx_reset(struct gb_hdlc_rx *rx)
{
	rx->len = 0;
	rx->fcs = GB_HDLC_FCS_INIT;
	rx->escape = false;
	rx->overflow = false;
	rx->done = false;
}

/* A flag ended a frame (or idle fill): what it was */
static enum gb_hdlc_rx_result gb_hdlc_rx_end(struct gb_hdlc_rx *rx)
{
	if (rx->escape)
		return GB_HDLC_RX_ABORT;
	if (rx->overflow)
		return GB_HDLC_RX_OVERSIZE;
	if (!rx->len)
		return GB_HDLC_RX_MORE;
	if (rx->len < GB_HDLC_OVERHEAD)
		return GB_HDLC_RX_SHORT;
	if (rx->fcs != GB_HDLC_FCS_GOOD)
		return GB_HDLC_RX_BAD_FCS;
	rx->len -= 2;
	return GB_HDLC_RX_FRAME;
}

/**
 * gb_hdlc_rx_feed() - take bytes from the wire until a frame ends
 * @rx: the receiver
 * @data: the bytes
 * @len: how many
 * @used: set to how many were taken; the caller feeds the rest next
 *
 * Stops after the flag that ends a frame, good or bad, and says what it
 * was; a flag after an escape aborts the frame, and every flag clears the
 * escape state.  Empty frames (consecutive flags) are idle fill and end
 * nothing.
 *
 * Return: a &enum gb_hdlc_rx_result; GB_HDLC_RX_MORE when all of @data
 * was taken without a frame ending.
 */
enum gb_hdlc_rx_result gb_hdlc_rx_feed(struct gb_hdlc_rx *rx, const u8 *data,
				       size_t len, size_t *used)
{
	enum gb_hdlc_rx_result res;
	size_t i;
	u8 b;

	if (rx->done)
		gb_hdlc_rx_reset(rx);

	for (i = 0; i < len; i++) {
		b = data[i];
		if (b == GB_HDLC_FLAG) {
			res = gb_hdlc_rx_end(rx);
			if (res == GB_HDLC_RX_MORE)
				continue;
			/* a good frame stays in @buf until the next call */
			if (res == GB_HDLC_RX_FRAME)
				rx->done = true;
			else
				gb_hdlc_rx_reset(rx);
			*used = i + 1;
			return res;
		}
		if (b == GB_HDLC_ESCAPE && !rx->escape) {
			rx->escape = true;
			continue;
		}
		if (rx->escape) {
			b ^= GB_HDLC_ESCAPE_XOR;
			rx->escape = false;
		}
		if (rx->overflow)
			continue;
		if (rx->len >= rx->size) {
			rx->overflow = true;
			continue;
		}
		rx->buf[rx->len++] = b;
		rx->fcs = gb_hdlc_fcs_byte(rx->fcs, b);
	}
	*used = len;
	return GB_HDLC_RX_MORE;
}
