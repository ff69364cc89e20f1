// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the serial link's HDLC receiver and encoder
 * (kernel/hosts/hdlc_frame.c, built as gb-hdlc.ko builds it).
 *
 * Input: one byte choosing the receive buffer size (4..259) and the
 * feeding pattern, then the bytes from the wire.  They are fed in chunks
 * whose lengths come from the input itself.  Asserted: the receiver never
 * uses more than it is given nor less than one byte, a frame never exceeds
 * the buffer and its FCS is right, and every frame re-encodes to bytes
 * that decode to the same frame, with no flag inside.
 */
#include <stdint.h>
#include <string.h>

#include "gb_hdlc.h"

#include "fuzz.h"

#define FUZZ_HDLC_BUF_MAX	259

static void fuzz_hdlc_roundtrip(const uint8_t *frame, size_t len)
{
	static uint8_t out[GB_HDLC_ENCODED_MAX(FUZZ_HDLC_BUF_MAX)];
	uint8_t buf[FUZZ_HDLC_BUF_MAX + 2];
	struct gb_hdlc_rx rx = { .buf = buf, .size = len + 2 };
	enum gb_hdlc_rx_result r;
	size_t n, used, i;

	n = gb_hdlc_encode(out, sizeof(out), frame[0], frame[1], frame + 2,
			   len - 2, NULL, 0);
	FUZZ_ASSERT(n >= len + 4 && n <= GB_HDLC_ENCODED_MAX(len - 2));
	FUZZ_ASSERT(!gb_hdlc_encode(out, n - 1, frame[0], frame[1], frame + 2,
				    len - 2, NULL, 0));
	for (i = 1; i + 1 < n; i++)
		FUZZ_ASSERT(out[i] != GB_HDLC_FLAG);
	gb_hdlc_rx_reset(&rx);
	r = gb_hdlc_rx_feed(&rx, out, n, &used);
	FUZZ_ASSERT(r == GB_HDLC_RX_FRAME && used == n);
	FUZZ_ASSERT(rx.len == len && !memcmp(rx.buf, frame, len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t buf[FUZZ_HDLC_BUF_MAX];
	struct gb_hdlc_rx rx = { .buf = buf };
	size_t pos = 1, chunk_seed;

	if (!size)
		return 0;
	rx.size = GB_HDLC_OVERHEAD + data[0] % (FUZZ_HDLC_BUF_MAX - 3);
	chunk_seed = data[0];
	gb_hdlc_rx_reset(&rx);

	while (pos < size) {
		size_t left = size - pos, chunk, used = 0;
		enum gb_hdlc_rx_result r;

		/* chunk lengths vary with the bytes being fed */
		chunk = 1 + (chunk_seed * 31 + data[pos]) % 64;
		chunk_seed = chunk_seed * 7 + data[pos];
		if (chunk > left)
			chunk = left;
		r = gb_hdlc_rx_feed(&rx, data + pos, chunk, &used);
		FUZZ_ASSERT(used >= 1 && used <= chunk);
		FUZZ_ASSERT(r == GB_HDLC_RX_MORE ? used == chunk :
			    data[pos + used - 1] == GB_HDLC_FLAG);
		FUZZ_ASSERT(rx.len <= rx.size);
		if (r == GB_HDLC_RX_FRAME) {
			uint8_t fcs[2];

			FUZZ_ASSERT(rx.len >= 2 && rx.len + 2 <= rx.size);
			fcs[0] = rx.buf[rx.len];
			fcs[1] = rx.buf[rx.len + 1];
			FUZZ_ASSERT(gb_hdlc_fcs(gb_hdlc_fcs(GB_HDLC_FCS_INIT, rx.buf,
							    rx.len), fcs, 2) ==
				    GB_HDLC_FCS_GOOD);
			fuzz_hdlc_roundtrip(rx.buf, rx.len);
		}
		pos += used;
	}
	return 0;
}
