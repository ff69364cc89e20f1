/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus over TCP in greybus-zephyr's framing: each message travels as
 * a __le16 CPort id (the node's own CPort) followed by the Greybus
 * message, whose header's size field counts header and payload.  There
 * is nothing else on the stream: no magic, no checksum, no padding.
 *
 * gb_tcp_rx is the receiving side's buffer: bounded (one largest frame),
 * fed with whatever read() returned, emptied one whole frame at a time.
 * Every length is checked before anything is read from the bytes.
 */
#ifndef GB_TCP_H
#define GB_TCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GB_TCP_DEFAULT_PORT	4242
#define GB_TCP_PREFIX		2	/* the __le16 CPort id */

enum gb_tcp_status {
	GB_TCP_NEED_MORE = 0,	/* no whole frame yet */
	GB_TCP_FRAME,		/* one frame: cport, msg, msg_len set */
	GB_TCP_SIZE_SMALL,	/* size field below a header: bad framing */
	GB_TCP_SIZE_LARGE,	/* size field above the allowed maximum */
};

/*
 * Look at the start of @buf (@len bytes): a whole frame of a message no
 * larger than @max_msg (header included)?  On GB_TCP_FRAME, *cport,
 * *msg (points into @buf) and *msg_len (the header's size) are set and
 * the frame is GB_TCP_PREFIX + *msg_len bytes long.
 */
enum gb_tcp_status gb_tcp_parse(const uint8_t *buf, size_t len,
				size_t max_msg, uint16_t *cport,
				const uint8_t **msg, size_t *msg_len);

/*
 * Write the frame of @msg (@msg_len bytes) for @cport into @out
 * (@out_len bytes).  Returns the frame's length, or 0 if it does not
 * fit or @msg_len cannot be a Greybus message (below a header, above
 * 65535 or not what the header's size field says).
 */
size_t gb_tcp_frame(uint8_t *out, size_t out_len, uint16_t cport,
		    const uint8_t *msg, size_t msg_len);

const char *gb_tcp_status_name(enum gb_tcp_status st);

/* The receiving buffer of one connection */
struct gb_tcp_rx {
	uint8_t	*buf;
	size_t	len;		/* bytes held */
	size_t	cap;		/* GB_TCP_PREFIX + max_msg */
	size_t	max_msg;
};

int gb_tcp_rx_init(struct gb_tcp_rx *rx, size_t max_msg);
void gb_tcp_rx_fini(struct gb_tcp_rx *rx);
/* Room left for the next read() (never 0 while a frame is incomplete) */
static inline size_t gb_tcp_rx_room(const struct gb_tcp_rx *rx)
{
	return rx->cap - rx->len;
}
static inline uint8_t *gb_tcp_rx_tail(struct gb_tcp_rx *rx)
{
	return rx->buf + rx->len;
}
/* @n bytes were read into the tail */
void gb_tcp_rx_added(struct gb_tcp_rx *rx, size_t n);
/*
 * The next whole frame, as gb_tcp_parse() says; it stays in the buffer
 * until gb_tcp_rx_consume() with the frame's length.
 */
enum gb_tcp_status gb_tcp_rx_next(struct gb_tcp_rx *rx, uint16_t *cport,
				  const uint8_t **msg, size_t *msg_len);
void gb_tcp_rx_consume(struct gb_tcp_rx *rx, size_t n);
void gb_tcp_rx_reset(struct gb_tcp_rx *rx);

/*
 * "HOST", "HOST:PORT", "[V6ADDR]" or "[V6ADDR]:PORT" (a bare V6ADDR
 * with more than one colon is taken whole, without a port).  Writes the
 * host into @host (@host_len bytes) and the port (default @def_port).
 * -EINVAL for an empty host, a bad port or a host too long.
 */
int gb_tcp_split_hostport(const char *spec, char *host, size_t host_len,
			  uint16_t *port, uint16_t def_port);

#endif /* GB_TCP_H */
