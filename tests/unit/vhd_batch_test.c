// SPDX-License-Identifier: GPL-2.0
/*
 * gb-vhd's batched framing (tools/lib/gb_vhd_batch.c): packing events
 * back-to-back and walking them again, and what is not a whole event.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "gb_vhd_batch.h"
#include "tap.h"

static void test_round_trip(void)
{
	static uint8_t buf[3 * GB_VHD_EVENT_SIZE_MAX];
	struct gb_vhd_message m = { .cport_id = 7 };
	struct gb_vhd_event_hdr hdr;
	const uint8_t *payload;
	uint8_t msg[12] = { 12, 0, 0x34, 0x12, 0x02 };
	size_t len = 0, off = 0, n;

	n = gb_vhd_batch_put(buf, sizeof(buf), GB_VHD_RECV, &m, sizeof(m),
			     msg, sizeof(msg));
	CHECK(n == 8 + 4 + 12, "RECV of a 12-byte message is 24 bytes, not %zu", n);
	len += n;
	n = gb_vhd_batch_put(buf + len, sizeof(buf) - len, GB_VHD_DESTROY,
			     NULL, 0, NULL, 0);
	CHECK(n == 8, "an empty event is its header");
	len += n;
	n = gb_vhd_batch_put(buf + len, sizeof(buf) - len, GB_VHD_ECHO_REQUEST,
			     NULL, 0, msg, 5);
	len += n;

	CHECK(gb_vhd_batch_next(buf, len, &off, &hdr, &payload) == 1, "first");
	CHECK(hdr.type == GB_VHD_RECV && hdr.len == 16, "RECV of 16 bytes");
	CHECK(!memcmp(payload, &m, sizeof(m)) &&
	      !memcmp(payload + sizeof(m), msg, sizeof(msg)), "its payload");
	CHECK(gb_vhd_batch_next(buf, len, &off, &hdr, &payload) == 1 &&
	      hdr.type == GB_VHD_DESTROY && hdr.len == 0, "second: DESTROY");
	CHECK(gb_vhd_batch_next(buf, len, &off, &hdr, &payload) == 1 &&
	      hdr.type == GB_VHD_ECHO_REQUEST && hdr.len == 5 &&
	      !memcmp(payload, msg, 5), "third: ECHO_REQUEST of 5 bytes");
	CHECK(gb_vhd_batch_next(buf, len, &off, &hdr, &payload) == 0 &&
	      off == len, "then the end");
}

static void test_partial(void)
{
	uint8_t buf[64];
	struct gb_vhd_event_hdr hdr;
	const uint8_t *payload;
	size_t len, off = 0;

	len = gb_vhd_batch_put(buf, sizeof(buf), GB_VHD_ECHO_REQUEST, NULL, 0,
			       "abcdefgh", 8);
	CHECK(gb_vhd_event_len(buf, len) == 16, "whole: 16 bytes");
	CHECK(gb_vhd_event_len(buf, len - 1) == 0, "a byte short: not whole");
	CHECK(gb_vhd_event_len(buf, 7) == 0, "part of a header: not whole");
	CHECK(gb_vhd_batch_next(buf, len + 5, &off, &hdr, &payload) == 1 &&
	      off == len, "the whole event first");
	CHECK(gb_vhd_batch_next(buf, len + 5, &off, &hdr, &payload) == -EBADMSG &&
	      off == len, "then 5 stray bytes: -EBADMSG, the offset kept");
}

static void test_room(void)
{
	static uint8_t big[GB_VHD_EVENT_SIZE_MAX + 16];
	uint8_t buf[32];

	CHECK(gb_vhd_batch_put(buf, sizeof(buf), GB_VHD_ECHO_REQUEST, NULL, 0,
			       big, 25) == 0, "33 bytes do not fit in 32");
	CHECK(gb_vhd_batch_put(buf, sizeof(buf), GB_VHD_ECHO_REQUEST, NULL, 0,
			       big, 24) == 32, "32 do");
	CHECK(gb_vhd_batch_put(big, sizeof(big), GB_VHD_ECHO_REQUEST, NULL, 0,
			       big, GB_VHD_EVENT_SIZE_MAX - 7) == 0,
	      "no event above GB_VHD_EVENT_SIZE_MAX");
	CHECK(gb_vhd_batch_put(buf, sizeof(buf), GB_VHD_RECV, big, SIZE_MAX,
			       big, 2) == 0, "no overflowing lengths");
}

int main(void)
{
	tap_run("vhd batch: events packed and walked back", test_round_trip);
	tap_run("vhd batch: a part of an event is not one", test_partial);
	tap_run("vhd batch: an event too large is refused", test_room);
	return tap_exit_status();
}
