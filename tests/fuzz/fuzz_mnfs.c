// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: .mnfs manifest source, as mnfc and gbsim read it from
 * files a user wrote (tools/lib/gb_mnfs.c).  Whatever compiles is also
 * checked and decompiled; asserted: diagnostics are well formed and
 * point into the input, and decompiled source compiles back to the
 * identical blob.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_manifest.h"

#include "fuzz.h"

static size_t fuzz_lines(const char *src, size_t len)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++)
		n += src[i] == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gb_manifest_report rep;
	struct gb_mnfs_diag diag;
	uint8_t *blob = NULL, *again = NULL;
	size_t blob_len = 0, again_len = 0, src_len;
	char *text, *src = NULL, line[600], err[256];
	int ret;

	/* Not NUL-terminated, exact size: the parser must honour @len */
	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);

	memset(&diag, 0, sizeof(diag));
	ret = gb_mnfs_compile(text, size, "fuzz.mnfs", &blob, &blob_len, &diag);
	FUZZ_ASSERT(ret == 0 || ret == -1);
	if (ret) {
		FUZZ_ASSERT(!blob);
		FUZZ_ASSERT(memchr(diag.msg, '\0', sizeof(diag.msg)));
		FUZZ_ASSERT(diag.msg[0]);
		FUZZ_ASSERT(diag.line >= 0 &&
			    (size_t)diag.line <= fuzz_lines(text, size));
		FUZZ_ASSERT(diag.column >= 0);
		gb_mnfs_diag_format(&diag, line, sizeof(line));
		FUZZ_ASSERT(strlen(line) < sizeof(line));
		gb_mnfs_diag_format(&diag, line, 5);
		goto out;
	}
	FUZZ_ASSERT(blob && blob_len >= 4 && blob_len <= 0xffff);
	FUZZ_ASSERT((size_t)(blob[0] | blob[1] << 8) == blob_len);

	gb_manifest_check(blob, blob_len, &rep);
	ret = gb_mnfs_decompile(blob, blob_len, &src, &src_len, &rep, err,
				sizeof(err));
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL || ret == -ENOTSUP ||
		    ret == -ENOMEM);
	if (ret)
		goto out;
	ret = gb_mnfs_compile(src, src_len, "again.mnfs", &again, &again_len,
			      &diag);
	FUZZ_ASSERT(ret == 0);
	FUZZ_ASSERT(again_len == blob_len && !memcmp(again, blob, blob_len));
out:
	free(again);
	free(src);
	free(blob);
	free(text);
	return 0;
}
