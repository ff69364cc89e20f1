// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's receive side (tools/lib/gb_tcp.c): the input is a TCP stream
 * from a hostile node, fed to the bounded receive buffer in read()s of
 * sizes the input also picks.  Every frame handed out must lie inside
 * the buffer, carry a size between a header and the maximum, and build
 * back into the same bytes; the buffer never overflows; a framing error
 * is final.  The first line of the input is also tried as HOST[:PORT].
 */
#include <stdint.h>
#include <string.h>

#include <uapi/greybus/greybus.h>

#include "fuzz.h"
#include "gb_tcp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t frame[GB_TCP_PREFIX + 1024];
	struct gb_tcp_rx rx;
	char spec[128], host[64];
	size_t max_msg, off = 2;
	enum gb_tcp_status st = GB_TCP_NEED_MORE;
	uint16_t port;

	if (size < 2)
		return 0;
	max_msg = sizeof(struct gb_operation_msg_hdr) + (data[0] | (data[1] & 3) << 8);
	FUZZ_ASSERT(!gb_tcp_rx_init(&rx, max_msg));

	while (off < size && st != GB_TCP_SIZE_SMALL && st != GB_TCP_SIZE_LARGE) {
		/* a chunk length byte, then that many stream bytes */
		size_t chunk = data[off++] % 64 + 1, room = gb_tcp_rx_room(&rx);

		if (chunk > size - off)
			chunk = size - off;
		if (chunk > room)
			chunk = room;
		FUZZ_ASSERT(room > 0);
		memcpy(gb_tcp_rx_tail(&rx), data + off, chunk);
		gb_tcp_rx_added(&rx, chunk);
		off += chunk;
		for (;;) {
			const uint8_t *msg;
			size_t len, n;
			uint16_t cport;

			st = gb_tcp_rx_next(&rx, &cport, &msg, &len);
			if (st != GB_TCP_FRAME)
				break;
			FUZZ_ASSERT(len >= sizeof(struct gb_operation_msg_hdr));
			FUZZ_ASSERT(len <= max_msg);
			FUZZ_ASSERT(msg == rx.buf + GB_TCP_PREFIX);
			FUZZ_ASSERT(GB_TCP_PREFIX + len <= rx.len);
			n = gb_tcp_frame(frame, sizeof(frame), cport, msg, len);
			FUZZ_ASSERT(n == GB_TCP_PREFIX + len);
			FUZZ_ASSERT(!memcmp(frame, rx.buf, n));
			gb_tcp_rx_consume(&rx, n);
		}
		FUZZ_ASSERT(rx.len <= rx.cap);
	}
	gb_tcp_rx_fini(&rx);

	/* the same bytes as a node address */
	size = size - 2 < sizeof(spec) - 1 ? size - 2 : sizeof(spec) - 1;
	memcpy(spec, data + 2, size);
	spec[size] = '\0';
	if (!gb_tcp_split_hostport(spec, host, sizeof(host), &port, 4242)) {
		FUZZ_ASSERT(host[0] && strlen(host) < sizeof(host));
		FUZZ_ASSERT(port != 0);
	}
	return 0;
}
