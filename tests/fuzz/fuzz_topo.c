// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: .topo audio topology source, as gbsim reads it from
 * the file GBSIM_AUDIO_TOPOLOGY names (tools/lib/gb_topo.c).  Asserted:
 * a refusal leaves nothing behind and a well-formed diagnostic whose line
 * lies in the input; what compiles has sections that add up to the blob,
 * at most 65535 bytes, counts that match the header, controls whose
 * initial value is in range, and compiles to the same bytes again, the
 * DAIs' data CPort aside.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_topo.h"

#include "fuzz.h"

static size_t fuzz_lines(const char *src, size_t len)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++)
		n += src[i] == '\n';
	return n;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gb_mnfs_diag diag;
	struct gb_topo t, again;
	char *text, line[600];
	uint64_t sum;
	int ret;

	/* Not NUL-terminated, exact size: the parser must honour @len */
	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);

	ret = gb_topo_compile(text, size, "fuzz.topo", 2, &t, &diag);
	FUZZ_ASSERT(ret == 0 || ret == -1);
	if (ret) {
		FUZZ_ASSERT(!t.blob && !t.len);
		FUZZ_ASSERT(memchr(diag.msg, '\0', sizeof(diag.msg)));
		FUZZ_ASSERT(diag.msg[0]);
		FUZZ_ASSERT(diag.line >= 0 &&
			    (size_t)diag.line <= fuzz_lines(text, size));
		FUZZ_ASSERT(diag.column >= 0);
		gb_mnfs_diag_format(&diag, line, sizeof(line));
		FUZZ_ASSERT(strlen(line) < sizeof(line));
		goto out;
	}
	FUZZ_ASSERT(t.blob && t.len >= 24 + 120 && t.len <= GB_TOPO_SIZE_MAX);
	sum = 24 + (uint64_t)le32(t.blob + 4) + le32(t.blob + 8) +
	      le32(t.blob + 12) + le32(t.blob + 16);
	FUZZ_ASSERT(sum == t.len);
	FUZZ_ASSERT(t.blob[0] == t.num_dais && t.num_dais >= 1 && t.num_dais <= 4);
	FUZZ_ASSERT(t.blob[1] == t.num_controls && t.blob[2] == t.num_widgets &&
		    t.blob[3] == t.num_routes);
	FUZZ_ASSERT(le32(t.blob + 4) == 120 * t.num_dais);
	FUZZ_ASSERT(le32(t.blob + 16) == 4 * t.num_routes);
	for (int id = 0; id < 256; id++) {
		const struct gb_topo_ctl *c = &t.ctl[id];

		if (!c->declared)
			continue;
		FUZZ_ASSERT(id != 255 && c->name[0]);
		FUZZ_ASSERT(memchr(c->name, '\0', sizeof(c->name)));
		/* an enumerated control may have a single item */
		FUZZ_ASSERT(c->enumerated ? c->min <= c->max : c->min < c->max);
		FUZZ_ASSERT(c->init >= c->min && c->init <= c->max);
	}
	ret = gb_topo_compile(text, size, "again.topo", 0x0302, &again, NULL);
	FUZZ_ASSERT(ret == 0 && again.len == t.len);
	for (size_t i = 0; i < t.len; i++) {
		size_t off = i >= 24 ? (i - 24) % 120 : 0;
		bool dai_cport = i >= 24 && i < 24 + 120 * t.num_dais &&
				 (off == 32 || off == 33);

		if (!dai_cport)
			FUZZ_ASSERT(again.blob[i] == t.blob[i]);
	}
	gb_topo_release(&again);
	gb_topo_release(&t);
out:
	free(text);
	return 0;
}
