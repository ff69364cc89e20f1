// SPDX-License-Identifier: GPL-2.0
/*
 * The serial link's HDLC framing (kernel/hosts/hdlc_frame.c, the code
 * gb-hdlc.ko runs): CRC-16/X-25 vectors, escapes everywhere, and the
 * receiver on good, bad, aborted, short, oversized and split input.
 */
#include <stdint.h>

#include "gb_hdlc.h"
#include "tap.h"

/* Feeds @len bytes and collects the results in @res (at most @max) */
static size_t feed_all(struct gb_hdlc_rx *rx, const uint8_t *data, size_t len,
		       enum gb_hdlc_rx_result *res, size_t max,
		       uint8_t frames[][64], size_t *frame_len)
{
	size_t n = 0, used;

	while (len) {
		enum gb_hdlc_rx_result r = gb_hdlc_rx_feed(rx, data, len, &used);

		CHECK(used >= 1 && used <= len, "used %zu of %zu", used, len);
		data += used;
		len -= used;
		if (r == GB_HDLC_RX_MORE)
			continue;
		if (n < max) {
			res[n] = r;
			if (r == GB_HDLC_RX_FRAME && frames) {
				memcpy(frames[n], rx->buf, rx->len);
				frame_len[n] = rx->len;
			}
		}
		n++;
	}
	return n;
}

static void test_crc(void)
{
	static const uint8_t check[] = "123456789";
	uint16_t fcs = gb_hdlc_fcs(GB_HDLC_FCS_INIT, check, 9);
	uint8_t frame[16];

	CHECK((uint16_t)~fcs == 0x906e, "check value 0x%04x", (uint16_t)~fcs);
	memcpy(frame, check, 9);
	frame[9] = (uint8_t)(~fcs & 0xff);
	frame[10] = (uint8_t)(~fcs >> 8);
	CHECK(gb_hdlc_fcs(GB_HDLC_FCS_INIT, frame, 11) == GB_HDLC_FCS_GOOD,
	      "residue 0x%04x", gb_hdlc_fcs(GB_HDLC_FCS_INIT, frame, 11));
}

static void test_encode_plain(void)
{
	static const uint8_t payload[] = { 0x01 };
	uint8_t out[GB_HDLC_ENCODED_MAX(1)];
	size_t n;
	uint16_t fcs;

	n = gb_hdlc_encode(out, sizeof(out), GB_HDLC_ADDR_CONTROL,
			   GB_HDLC_CTRL_UI, payload, 1, NULL, 0);
	fcs = (uint16_t)~gb_hdlc_fcs(GB_HDLC_FCS_INIT,
				     (const uint8_t[]){ 0x03, 0x03, 0x01 }, 3);
	CHECK(n == 7, "SVC_START is 7 bytes, got %zu", n);
	CHECK(out[0] == 0x7e && out[1] == 0x03 && out[2] == 0x03 &&
	      out[3] == 0x01 && out[4] == (fcs & 0xff) && out[5] == (fcs >> 8) &&
	      out[6] == 0x7e, "bytes");
	CHECK(gb_hdlc_encode(out, 6, GB_HDLC_ADDR_CONTROL, GB_HDLC_CTRL_UI,
			     payload, 1, NULL, 0) == 0, "one byte short: 0");
}

/* Every byte value in addr, ctrl and payload; escapes counted */
static void test_escapes(void)
{
	uint8_t payload[256], out[GB_HDLC_ENCODED_MAX(256)], buf[260];
	struct gb_hdlc_rx rx = { .buf = buf, .size = sizeof(buf) };
	enum gb_hdlc_rx_result res[4];
	size_t n, i, flags = 0;

	for (i = 0; i < 256; i++)
		payload[i] = (uint8_t)i;
	n = gb_hdlc_encode(out, sizeof(out), 0x7e, 0x7d, payload, 100,
			   payload + 100, 156);
	CHECK(n > 0, "encodes");
	for (i = 0; i < n; i++)
		flags += out[i] == 0x7e;
	CHECK(flags == 2, "only the two flags are 0x7e (%zu)", flags);
	gb_hdlc_rx_reset(&rx);
	CHECK(feed_all(&rx, out, n, res, 4, NULL, NULL) == 1 &&
	      res[0] == GB_HDLC_RX_FRAME, "decodes");
	CHECK(rx.len == 258 && rx.buf[0] == 0x7e && rx.buf[1] == 0x7d &&
	      !memcmp(rx.buf + 2, payload, 256), "round trip");
}

/* Find payloads whose FCS needs escaping in either byte, and decode them */
static void test_escaped_fcs(void)
{
	uint8_t out[GB_HDLC_ENCODED_MAX(2)], buf[16];
	struct gb_hdlc_rx rx = { .buf = buf, .size = sizeof(buf) };
	enum gb_hdlc_rx_result res[2];
	unsigned int found_lo = 0, found_hi = 0;

	for (unsigned int v = 0; v < 65536; v++) {
		uint8_t p[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
		uint16_t fcs = (uint16_t)~gb_hdlc_fcs(
			gb_hdlc_fcs(GB_HDLC_FCS_INIT,
				    (const uint8_t[]){ 1, 3 }, 2), p, 2);
		bool lo = (fcs & 0xff) == 0x7e || (fcs & 0xff) == 0x7d;
		bool hi = (fcs >> 8) == 0x7e || (fcs >> 8) == 0x7d;
		size_t n;

		if (!lo && !hi)
			continue;
		found_lo += lo;
		found_hi += hi;
		n = gb_hdlc_encode(out, sizeof(out), 1, 3, p, 2, NULL, 0);
		gb_hdlc_rx_reset(&rx);
		if (feed_all(&rx, out, n, res, 2, NULL, NULL) != 1 ||
		    res[0] != GB_HDLC_RX_FRAME || rx.len != 4 ||
		    memcmp(rx.buf + 2, p, 2)) {
			CHECK(0, "payload %02x %02x (fcs 0x%04x)", p[0], p[1], fcs);
			return;
		}
	}
	CHECK(found_lo && found_hi, "escaped FCS bytes seen: %u low, %u high",
	      found_lo, found_hi);
}

static void test_rx_errors(void)
{
	uint8_t good[GB_HDLC_ENCODED_MAX(8)], stream[512], buf[16];
	uint8_t frames[8][64];
	size_t frame_len[8];
	struct gb_hdlc_rx rx = { .buf = buf, .size = sizeof(buf) };
	enum gb_hdlc_rx_result res[8];
	size_t g, n = 0, got;

	g = gb_hdlc_encode(good, sizeof(good), 1, 3, "greybus!", 8, NULL, 0);
	/* noise, good, bad FCS, abort, short, oversized, good; shared flags */
	memcpy(stream + n, "\x11\x22", 2);
	n += 2;
	memcpy(stream + n, good, g);
	n += g;
	memcpy(stream + n, good + 1, g - 1);
	stream[n + 4] ^= 0x01;		/* a payload bit flipped */
	n += g - 1;
	memcpy(stream + n, "\x01\x03\x7d\x7e", 4);
	n += 4;
	memcpy(stream + n, "\x01\x03\x7e", 3);
	n += 3;
	memset(stream + n, 0x55, 40);
	n += 40;
	stream[n++] = 0x7e;
	memcpy(stream + n, good, g);
	n += g;

	gb_hdlc_rx_reset(&rx);
	got = feed_all(&rx, stream, n, res, 8, frames, frame_len);
	CHECK(got == 7, "7 results, got %zu", got);
	CHECK(res[0] == GB_HDLC_RX_SHORT, "noise before the first flag: %d", res[0]);
	CHECK(res[1] == GB_HDLC_RX_FRAME && frame_len[1] == 10 &&
	      !memcmp(frames[1] + 2, "greybus!", 8), "good frame");
	CHECK(res[2] == GB_HDLC_RX_BAD_FCS, "flipped bit: %d", res[2]);
	CHECK(res[3] == GB_HDLC_RX_ABORT, "escape + flag: %d", res[3]);
	CHECK(res[4] == GB_HDLC_RX_SHORT, "two bytes: %d", res[4]);
	CHECK(res[5] == GB_HDLC_RX_OVERSIZE, "40 bytes in 16: %d", res[5]);
	CHECK(res[6] == GB_HDLC_RX_FRAME && frame_len[6] == 10,
	      "good frame after all that");
}

/* A frame split at every possible point, one byte at a time too */
static void test_split(void)
{
	uint8_t good[GB_HDLC_ENCODED_MAX(8)], buf[16];
	struct gb_hdlc_rx rx = { .buf = buf, .size = sizeof(buf) };
	enum gb_hdlc_rx_result res[2];
	size_t g, cut;

	g = gb_hdlc_encode(good, sizeof(good), 1, 3, "\x7e\x7d\x7e\x7d", 4,
			   "abcd", 4);
	for (cut = 1; cut < g; cut++) {
		size_t a, b;

		gb_hdlc_rx_reset(&rx);
		a = feed_all(&rx, good, cut, res, 2, NULL, NULL);
		b = feed_all(&rx, good + cut, g - cut, res + a, 2 - a, NULL, NULL);
		CHECK(a + b == 1 && res[0] == GB_HDLC_RX_FRAME && rx.len == 10,
		      "cut at %zu", cut);
	}
	gb_hdlc_rx_reset(&rx);
	for (cut = 0; cut < g; cut++) {
		size_t used;
		enum gb_hdlc_rx_result r = gb_hdlc_rx_feed(&rx, good + cut, 1, &used);

		CHECK(used == 1, "one byte");
		CHECK((r == GB_HDLC_RX_FRAME) == (cut == g - 1), "byte %zu: %d", cut, r);
	}
}

/* Exactly the buffer size is accepted, one more byte is oversize */
static void test_limit(void)
{
	uint8_t payload[16] = { 0 }, out[GB_HDLC_ENCODED_MAX(16)], buf[20];
	struct gb_hdlc_rx rx = { .buf = buf, .size = sizeof(buf) };
	enum gb_hdlc_rx_result res[2];
	size_t n;

	n = gb_hdlc_encode(out, sizeof(out), 1, 3, payload, 16, NULL, 0);
	gb_hdlc_rx_reset(&rx);
	CHECK(feed_all(&rx, out, n, res, 2, NULL, NULL) == 1 &&
	      res[0] == GB_HDLC_RX_FRAME && rx.len == 18, "16 payload bytes fit 20");
	rx.size = 19;
	gb_hdlc_rx_reset(&rx);
	CHECK(feed_all(&rx, out, n, res, 2, NULL, NULL) == 1 &&
	      res[0] == GB_HDLC_RX_OVERSIZE, "not 19");
}

int main(void)
{
	tap_run("hdlc: CRC-16/X-25 check value and residue", test_crc);
	tap_run("hdlc: encode a control frame", test_encode_plain);
	tap_run("hdlc: every byte value escaped and back", test_escapes);
	tap_run("hdlc: escaped FCS bytes", test_escaped_fcs);
	tap_run("hdlc: receiver errors are told apart", test_rx_errors);
	tap_run("hdlc: split input", test_split);
	tap_run("hdlc: receive buffer limit", test_limit);
	return tap_exit_status();
}
