// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: manifest blobs as a module sends them.
 *
 * The checker is kernel/core/manifest_check.c itself, compiled for
 * userspace through tools/lib/manifest_check_user.c and its kcompat.h
 * shim (linked in by tests/fuzz/run), so a finding here is a finding in
 * greybus.ko.  The tools' decoder, explainer and decompiler run on the
 * same bytes, and the properties the headers promise are asserted:
 * the decoder accepts exactly what the checker accepts, and decompiled
 * source compiles back to the identical blob.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/greybus.h>

#include "gb_manifest.h"

#include "fuzz.h"

static void fuzz_decoded(const struct gb_mnf_info *info, size_t len)
{
	FUZZ_ASSERT(info->size == len);
	FUZZ_ASSERT(info->n_bundles <= 256);
	for (size_t i = 0; i < info->n_bundles; i++)
		FUZZ_ASSERT(gb_mnf_find_bundle(info, info->bundles[i].id));
	for (size_t i = 0; i < info->n_cports; i++)
		FUZZ_ASSERT(info->cports[i].id <= GB_CPORT_ID_MAX);
	for (size_t i = 0; i < info->n_strings; i++) {
		const char *s = gb_mnf_find_string(info, info->strings[i].id);

		FUZZ_ASSERT(s);
		FUZZ_ASSERT(strlen(info->strings[i].text) <=
			    info->strings[i].length);
	}
}

static void fuzz_roundtrip(const uint8_t *blob, size_t len)
{
	struct gb_manifest_report rep;
	struct gb_mnfs_diag diag;
	uint8_t *again = NULL;
	size_t src_len, again_len = 0;
	char err[256], *src = NULL;
	int ret;

	ret = gb_mnfs_decompile(blob, len, &src, &src_len, &rep, err,
				sizeof(err));
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL || ret == -ENOTSUP ||
		    ret == -ENOMEM);
	if (ret)
		return;
	FUZZ_ASSERT(src && strlen(src) == src_len);
	ret = gb_mnfs_compile(src, src_len, "fuzz", &again, &again_len, &diag);
	FUZZ_ASSERT(ret == 0);
	FUZZ_ASSERT(again_len == len && !memcmp(again, blob, len));
	free(again);
	free(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gb_manifest_report rep, rep2;
	struct gb_mnf_info info;
	char why[512];
	uint8_t *blob;
	int ret;

	/* An exact-size copy, so ASan sees any read past the blob */
	blob = malloc(size ? size : 1);
	if (!blob)
		return 0;
	memcpy(blob, data, size);

	ret = gb_manifest_check(blob, size, &rep);
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL);
	FUZZ_ASSERT((ret == 0) == (rep.error == GB_MNF_OK));
	FUZZ_ASSERT(rep.error < GB_MNF_ERROR_COUNT);
	FUZZ_ASSERT(ret || rep.offset == 0);
	FUZZ_ASSERT(rep.offset <= size);
	FUZZ_ASSERT(gb_manifest_strerror(rep.error)[0]);
	/* A NULL report must give the same verdict */
	FUZZ_ASSERT(gb_manifest_check(blob, size, NULL) == ret);

	gb_mnf_explain(blob, size, &rep, why, sizeof(why));
	FUZZ_ASSERT(strlen(why) < sizeof(why));
	/* and into a tiny buffer: truncation, never overflow */
	gb_mnf_explain(blob, size, &rep, why, 7);

	ret = gb_mnf_decode(blob, size, &info, &rep2);
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL || ret == -ENOMEM);
	if (ret != -ENOMEM)
		FUZZ_ASSERT((ret == 0) == (rep.error == GB_MNF_OK));
	if (!ret)
		fuzz_decoded(&info, size);
	gb_mnf_info_free(&info);

	fuzz_roundtrip(blob, size);
	gb_mnf_detect_format(blob, size);

	free(blob);
	return 0;
}
