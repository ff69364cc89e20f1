// SPDX-License-Identifier: GPL-2.0
/*
 * greybus-zephyr's TCP framing (gb_tcp.h): parse, build, the bounded
 * receive buffer, and "HOST:PORT" words.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/greybus.h>

#include "gb_tcp.h"

static uint16_t gb_tcp_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

enum gb_tcp_status gb_tcp_parse(const uint8_t *buf, size_t len,
				size_t max_msg, uint16_t *cport,
				const uint8_t **msg, size_t *msg_len)
{
	const size_t hdr = sizeof(struct gb_operation_msg_hdr);
	size_t size;

	/* the size field is the first two bytes of the header */
	if (len < GB_TCP_PREFIX + 2)
		return GB_TCP_NEED_MORE;
	size = gb_tcp_le16(buf + GB_TCP_PREFIX);
	if (size < hdr)
		return GB_TCP_SIZE_SMALL;
	if (size > max_msg)
		return GB_TCP_SIZE_LARGE;
	if (len - GB_TCP_PREFIX < size)
		return GB_TCP_NEED_MORE;
	*cport = gb_tcp_le16(buf);
	*msg = buf + GB_TCP_PREFIX;
	*msg_len = size;
	return GB_TCP_FRAME;
}

size_t gb_tcp_frame(uint8_t *out, size_t out_len, uint16_t cport,
		    const uint8_t *msg, size_t msg_len)
{
	if (msg_len < sizeof(struct gb_operation_msg_hdr) ||
	    msg_len > UINT16_MAX || gb_tcp_le16(msg) != msg_len ||
	    out_len < GB_TCP_PREFIX || out_len - GB_TCP_PREFIX < msg_len)
		return 0;
	out[0] = (uint8_t)cport;
	out[1] = (uint8_t)(cport >> 8);
	memcpy(out + GB_TCP_PREFIX, msg, msg_len);
	return GB_TCP_PREFIX + msg_len;
}

const char *gb_tcp_status_name(enum gb_tcp_status st)
{
	switch (st) {
	case GB_TCP_NEED_MORE:	return "incomplete";
	case GB_TCP_FRAME:	return "frame";
	case GB_TCP_SIZE_SMALL:	return "size below a header";
	case GB_TCP_SIZE_LARGE:	return "size over the maximum";
	}
	return "unknown";
}

int gb_tcp_rx_init(struct gb_tcp_rx *rx, size_t max_msg)
{
	memset(rx, 0, sizeof(*rx));
	if (max_msg < sizeof(struct gb_operation_msg_hdr) ||
	    max_msg > UINT16_MAX)
		return -EINVAL;
	rx->cap = GB_TCP_PREFIX + max_msg;
	rx->max_msg = max_msg;
	rx->buf = malloc(rx->cap);
	return rx->buf ? 0 : -ENOMEM;
}

void gb_tcp_rx_fini(struct gb_tcp_rx *rx)
{
	free(rx->buf);
	memset(rx, 0, sizeof(*rx));
}

void gb_tcp_rx_added(struct gb_tcp_rx *rx, size_t n)
{
	/* a caller that read more than the room it was given is a bug */
	if (n > rx->cap - rx->len)
		abort();
	rx->len += n;
}

enum gb_tcp_status gb_tcp_rx_next(struct gb_tcp_rx *rx, uint16_t *cport,
				  const uint8_t **msg, size_t *msg_len)
{
	return gb_tcp_parse(rx->buf, rx->len, rx->max_msg, cport, msg,
			    msg_len);
}

void gb_tcp_rx_consume(struct gb_tcp_rx *rx, size_t n)
{
	if (n >= rx->len) {
		rx->len = 0;
		return;
	}
	memmove(rx->buf, rx->buf + n, rx->len - n);
	rx->len -= n;
}

void gb_tcp_rx_reset(struct gb_tcp_rx *rx)
{
	rx->len = 0;
}

static int gb_tcp_port(const char *s, uint16_t *port)
{
	unsigned long v;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v == 0 || v > UINT16_MAX)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

int gb_tcp_split_hostport(const char *spec, char *host, size_t host_len,
			  uint16_t *port, uint16_t def_port)
{
	const char *h = spec, *p = NULL, *colon;
	size_t n;

	*port = def_port;
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close)
			return -EINVAL;
		h = spec + 1;
		n = (size_t)(close - h);
		if (close[1] == ':')
			p = close + 2;
		else if (close[1])
			return -EINVAL;
	} else {
		colon = strchr(spec, ':');
		if (colon && !strchr(colon + 1, ':')) {
			n = (size_t)(colon - spec);
			p = colon + 1;
		} else {
			n = strlen(spec);	/* no port, or a bare IPv6 */
		}
	}
	if (!n || n >= host_len)
		return -EINVAL;
	memcpy(host, h, n);
	host[n] = '\0';
	if (p && gb_tcp_port(p, port))
		return -EINVAL;
	return 0;
}
