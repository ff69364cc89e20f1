// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the receiver gb-hdlc.ko reads the CC1352 ROM
 * bootloader's answers with (kernel/hosts/cc1352_bl.c, built as the
 * module builds it), and its packet builder.
 *
 * Input: one byte choosing the first mode (ACK or packet) and the
 * feeding pattern, then the bytes from the wire, fed in chunks whose
 * lengths come from the input.  After each result the mode switches as
 * the kernel's upload does (an ACK then a packet, or ACK again).
 * Asserted: the receiver never takes more than it is given nor less than
 * one byte, never holds more body than its buffer, a packet it delivers
 * has the length its size byte said and a good checksum, and rebuilding
 * that packet gives the bytes it came from.
 */
#include <stdint.h>
#include <string.h>

#include "kcompat.h"
#include "../../kernel/include/greybus/cc1352_bl.h"

#include "fuzz.h"

static void fuzz_cc1352_packet(const struct cc1352_bl_rx *rx)
{
	uint8_t out[CC1352_BL_PACKET_MAX];
	size_t n;

	FUZZ_ASSERT(rx->len >= 1 && rx->len <= sizeof(rx->body));
	FUZZ_ASSERT(rx->len == rx->want);
	FUZZ_ASSERT(cc1352_bl_checksum(rx->body, rx->len) == rx->sum);
	n = cc1352_bl_packet(out, sizeof(out), rx->body, rx->len);
	FUZZ_ASSERT(n == rx->len + 2 && out[0] == n && out[1] == rx->sum);
	FUZZ_ASSERT(!memcmp(out + 2, rx->body, rx->len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cc1352_bl_rx rx;
	size_t pos = 1, seed;

	if (!size)
		return 0;
	seed = data[0];
	cc1352_bl_rx_reset(&rx, seed & 1 ? CC1352_BL_RX_PACKET :
					   CC1352_BL_RX_ACK);
	while (pos < size) {
		size_t left = size - pos, chunk, used = 0;
		enum cc1352_bl_rx_result r;

		chunk = 1 + (seed + data[pos]) % 64;
		if (chunk > left)
			chunk = left;
		r = cc1352_bl_rx_feed(&rx, data + pos, chunk, &used);
		FUZZ_ASSERT(used >= 1 && used <= chunk);
		FUZZ_ASSERT(rx.len <= rx.want || rx.want == 0 ||
			    rx.len <= sizeof(rx.body));
		pos += used;
		switch (r) {
		case CC1352_BL_RX_MORE:
			FUZZ_ASSERT(used == chunk);
			break;
		case CC1352_BL_RX_GOT_PACKET:
			FUZZ_ASSERT(rx.mode == CC1352_BL_RX_PACKET);
			fuzz_cc1352_packet(&rx);
			cc1352_bl_rx_reset(&rx, CC1352_BL_RX_ACK);
			break;
		case CC1352_BL_RX_GOT_ACK:
			/* an answer packet may follow, as after CRC32 */
			FUZZ_ASSERT(rx.mode == CC1352_BL_RX_ACK);
			cc1352_bl_rx_reset(&rx, (seed + pos) & 1 ?
					   CC1352_BL_RX_PACKET : CC1352_BL_RX_ACK);
			break;
		case CC1352_BL_RX_GOT_NACK:
			FUZZ_ASSERT(rx.mode == CC1352_BL_RX_ACK);
			break;
		default:
			break;
		}
	}
	return 0;
}
