// SPDX-License-Identifier: GPL-2.0
/*
 * greybus-zephyr's TCP framing and gbnet's bounded receive buffer
 * (tools/lib/gb_tcp.c): every length is checked before it is used.
 */
#include <errno.h>
#include <stdint.h>

#include "gb_tcp.h"
#include "tap.h"

/* cport, then a header of @size with @extra payload bytes (0x5a) */
static size_t put(uint8_t *p, uint16_t cport, uint16_t size, size_t bytes)
{
	memset(p, 0x5a, 2 + bytes);
	p[0] = (uint8_t)cport;
	p[1] = (uint8_t)(cport >> 8);
	if (bytes >= 2) {
		p[2] = (uint8_t)size;
		p[3] = (uint8_t)(size >> 8);
	}
	return 2 + bytes;
}

static void test_parse(void)
{
	uint8_t b[64];
	const uint8_t *msg;
	size_t len, n;
	uint16_t cport;

	n = put(b, 0x0102, 12, 12);
	CHECK(gb_tcp_parse(b, n, 256, &cport, &msg, &len) == GB_TCP_FRAME,
	      "whole frame");
	CHECK(cport == 0x0102 && len == 12 && msg == b + 2, "fields");
	for (size_t i = 0; i < n; i++)
		CHECK(gb_tcp_parse(b, i, 256, &cport, &msg, &len) ==
		      GB_TCP_NEED_MORE, "%zu bytes: incomplete", i);
	put(b, 1, 7, 10);
	CHECK(gb_tcp_parse(b, 12, 256, &cport, &msg, &len) == GB_TCP_SIZE_SMALL,
	      "size below a header");
	put(b, 1, 0, 10);
	CHECK(gb_tcp_parse(b, 4, 256, &cport, &msg, &len) == GB_TCP_SIZE_SMALL,
	      "size 0 seen from 4 bytes on");
	put(b, 1, 257, 10);
	CHECK(gb_tcp_parse(b, 4, 256, &cport, &msg, &len) == GB_TCP_SIZE_LARGE,
	      "size over the maximum, refused before the data");
	put(b, 1, 256, 10);
	CHECK(gb_tcp_parse(b, 12, 256, &cport, &msg, &len) == GB_TCP_NEED_MORE,
	      "size at the maximum waits for the data");
	put(b, 1, 0xffff, 10);
	CHECK(gb_tcp_parse(b, 12, 0xffff, &cport, &msg, &len) == GB_TCP_NEED_MORE,
	      "65535 allowed when the maximum says so");
}

static void test_frame(void)
{
	uint8_t msg[16], out[32];
	const uint8_t *m;
	uint16_t cport;
	size_t len;

	memset(msg, 0, sizeof(msg));
	msg[0] = sizeof(msg);
	CHECK(gb_tcp_frame(out, sizeof(out), 0xabcd, msg, sizeof(msg)) == 18,
	      "frame length");
	CHECK(out[0] == 0xcd && out[1] == 0xab, "cport little-endian");
	CHECK(gb_tcp_parse(out, 18, 64, &cport, &m, &len) == GB_TCP_FRAME &&
	      cport == 0xabcd && len == 16 && !memcmp(m, msg, 16), "round trip");
	CHECK(gb_tcp_frame(out, 17, 1, msg, sizeof(msg)) == 0, "no room");
	CHECK(gb_tcp_frame(out, 1, 1, msg, sizeof(msg)) == 0, "less than a prefix");
	CHECK(gb_tcp_frame(out, sizeof(out), 1, msg, 7) == 0, "below a header");
	msg[0] = 15;
	CHECK(gb_tcp_frame(out, sizeof(out), 1, msg, sizeof(msg)) == 0,
	      "size field not the length");
}

static void test_rx(void)
{
	struct gb_tcp_rx rx;
	uint8_t s[64];
	const uint8_t *msg;
	size_t n = 0, len;
	uint16_t cport;
	unsigned int frames = 0;

	CHECK(gb_tcp_rx_init(&rx, 7) == -EINVAL, "maximum below a header");
	CHECK(gb_tcp_rx_init(&rx, 65536) == -EINVAL, "maximum above 65535");
	CHECK(gb_tcp_rx_init(&rx, 16) == 0, "init");
	CHECK(gb_tcp_rx_room(&rx) == 18, "room for one largest frame");
	n += put(s + n, 3, 8, 8);
	n += put(s + n, 4, 16, 16);
	n += put(s + n, 5, 10, 10);
	/* one byte at a time: frames come out whole, in order */
	for (size_t i = 0; i < n; i++) {
		*gb_tcp_rx_tail(&rx) = s[i];
		gb_tcp_rx_added(&rx, 1);
		while (gb_tcp_rx_next(&rx, &cport, &msg, &len) == GB_TCP_FRAME) {
			CHECK(cport == 3 + frames, "frame %u cport %u", frames, cport);
			gb_tcp_rx_consume(&rx, 2 + len);
			frames++;
		}
		CHECK(gb_tcp_rx_room(&rx) > 0, "room left at byte %zu", i);
	}
	CHECK(frames == 3 && rx.len == 0, "3 frames, nothing left");
	put(s, 1, 17, 4);
	memcpy(gb_tcp_rx_tail(&rx), s, 6);
	gb_tcp_rx_added(&rx, 6);
	CHECK(gb_tcp_rx_next(&rx, &cport, &msg, &len) == GB_TCP_SIZE_LARGE,
	      "over the buffer's maximum");
	gb_tcp_rx_reset(&rx);
	CHECK(rx.len == 0, "reset");
	gb_tcp_rx_fini(&rx);
}

static void test_hostport(void)
{
	char h[64];
	uint16_t p;

	CHECK(!gb_tcp_split_hostport("10.0.0.1", h, sizeof(h), &p, 4242) &&
	      !strcmp(h, "10.0.0.1") && p == 4242, "v4, default port");
	CHECK(!gb_tcp_split_hostport("node.local:99", h, sizeof(h), &p, 4242) &&
	      !strcmp(h, "node.local") && p == 99, "name and port");
	CHECK(!gb_tcp_split_hostport("[fe80::1]:4243", h, sizeof(h), &p, 4242) &&
	      !strcmp(h, "fe80::1") && p == 4243, "[v6]:port");
	CHECK(!gb_tcp_split_hostport("[::1]", h, sizeof(h), &p, 4242) &&
	      !strcmp(h, "::1") && p == 4242, "[v6]");
	CHECK(!gb_tcp_split_hostport("2001:db8::2", h, sizeof(h), &p, 4242) &&
	      !strcmp(h, "2001:db8::2") && p == 4242, "bare v6");
	CHECK(gb_tcp_split_hostport("", h, sizeof(h), &p, 1) == -EINVAL, "empty");
	CHECK(gb_tcp_split_hostport("a:", h, sizeof(h), &p, 1) == -EINVAL, "no port");
	CHECK(gb_tcp_split_hostport("a:0", h, sizeof(h), &p, 1) == -EINVAL, "port 0");
	CHECK(gb_tcp_split_hostport("a:65536", h, sizeof(h), &p, 1) == -EINVAL,
	      "port too large");
	CHECK(gb_tcp_split_hostport("a:-1", h, sizeof(h), &p, 1) == -EINVAL,
	      "negative port");
	CHECK(gb_tcp_split_hostport("[::1", h, sizeof(h), &p, 1) == -EINVAL,
	      "unclosed bracket");
	CHECK(gb_tcp_split_hostport("[::1]x", h, sizeof(h), &p, 1) == -EINVAL,
	      "junk after the bracket");
	CHECK(gb_tcp_split_hostport("abcdef", h, 4, &p, 1) == -EINVAL,
	      "host too long");
}

int main(void)
{
	tap_run("tcp: parse", test_parse);
	tap_run("tcp: frame", test_frame);
	tap_run("tcp: receive buffer", test_rx);
	tap_run("tcp: host and port", test_hostport);
	return tap_exit_status();
}
