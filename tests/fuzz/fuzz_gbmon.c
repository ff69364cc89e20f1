// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: gbmon's input, whatever it is.  The bytes are read
 * both as a pcapng file (tools/lib/gb_pcapng.c's reader, each packet as a
 * monitor record) and as the kernel monitor's record stream
 * (tools/gbmon/source.c), and every record goes through gbmon's matcher
 * and printer (tools/gbmon/ops.c) and the protocol decoders, text and
 * JSON, output to /dev/null.  Asserted: the reader never returns a packet
 * outside the input, and consumes the input in bounded steps.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gb_pcapng.h>

#include "../../tools/gbmon/gbmon.h"
#include "../../tools/gbmon/source.h"

#include "fuzz.h"

static FILE *devnull;

static void fuzz_pcapng(const uint8_t *data, size_t size, bool json)
{
	struct gbmon_opts o = {
		.filter = { -1, -1, -1, -1, -1, false }, .json = json,
		.out = devnull,
	};
	struct gbmon *gm = gbmon_new(&o);
	struct gb_pcapng_reader r;
	struct gb_pcapng_packet p;
	size_t packets = 0;
	int ret;

	FUZZ_ASSERT(gm);
	gb_pcapng_reader_init(&r, data, size);
	while ((ret = gb_pcapng_next(&r, &p)) > 0) {
		struct gb_mon_hdr h;
		const uint8_t *msg;
		size_t len;
		char why[96];

		FUZZ_ASSERT(p.data >= data && p.data + p.cap_len <= data + size);
		FUZZ_ASSERT(++packets <= size / 12);
		if (!gb_pcapng_record(&p, &h, &msg, &len, why, sizeof(why))) {
			FUZZ_ASSERT(msg + len <= p.data + p.cap_len);
			gbmon_record(gm, &h, msg, len);
		}
	}
	FUZZ_ASSERT(ret == 0 || r.error[0]);
	gbmon_finish(gm);
}

static void fuzz_stream(const uint8_t *data, size_t size)
{
	struct gbmon_opts o = {
		.filter = { -1, -1, -1, -1, -1, false }, .out = devnull,
	};
	struct gbmon *gm = gbmon_new(&o);
	size_t off = 0, used;

	FUZZ_ASSERT(gm);
	while (off < size && !gbmon_feed(gm, NULL, data + off, size - off, &used)) {
		FUZZ_ASSERT(used > 0 && used <= size - off);
		off += used;
	}
	gbmon_finish(gm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	FUZZ_ASSERT(devnull);
	fuzz_pcapng(data, size, size & 1);
	fuzz_stream(data, size);
	return 0;
}
