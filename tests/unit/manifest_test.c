// SPDX-License-Identifier: GPL-2.0
/*
 * Manifest validation, decoding and explanation: one tiny blob per rule of
 * kernel/core/manifest_check.c (the code greybus.ko runs), each asserting
 * the exact error and byte offset; then truncation and mutation sweeps
 * under ASan/UBSan.
 */
#include <errno.h>
#include <stdint.h>

#include <uapi/greybus/manifest.h>

#include "gb_manifest.h"
#include "tap.h"

/*
 * Building blocks.  A minimal valid manifest is HDR IFACE B1 C1:
 * header at 0x00, interface at 0x04, bundle 1 at 0x0c, cport 1 at 0x14,
 * and whatever a case appends starts at 0x1c.
 */
#define HDR	"@@ 00 01 "
#define IFACE	"08 00 01 00  00 00 00 00 "
#define B1	"08 00 03 00  01 10 00 00 "	/* bundle 1, vibrator class */
#define C1	"08 00 04 00  01 00 01 10 "	/* cport 1 in bundle 1, vibrator */
#define B0	"08 00 03 00  00 00 00 00 "	/* control bundle */
#define C0	"08 00 04 00  00 00 00 00 "	/* control cport */
#define S1	"08 00 02 00  02 01 41 42 "	/* string 1 = "AB" */
#define BASE	HDR IFACE B1 C1

struct rule_case {
	const char *name;
	const char *hex;
	enum gb_manifest_error error;
	unsigned int offset;
};

static const struct rule_case rule_cases[] = {
	{ "valid minimal manifest", BASE, GB_MNF_OK, 0 },
	{ "zero-length blob", "", GB_MNF_EMPTY, 0 },
	{ "truncated header", "03 00 00", GB_MNF_SHORT_HEADER, 0 },
	{ "header size larger than the blob",
	  "20 00 00 01 " IFACE B1 C1, GB_MNF_SIZE_MISMATCH, 0 },
	{ "header size smaller than the blob",
	  "18 00 00 01 " IFACE B1 C1, GB_MNF_SIZE_MISMATCH, 0 },
	{ "unsupported major version", "@@ 01 00 " IFACE B1 C1,
	  GB_MNF_BAD_VERSION, 0 },
	{ "minor version is not checked", "@@ 00 07 " IFACE B1 C1,
	  GB_MNF_OK, 0 },
	{ "descriptor header truncated", BASE "04 00",
	  GB_MNF_DESC_SHORT, 0x1c },
	{ "descriptor size 0", BASE "00 00 04 00  02 00 01 10",
	  GB_MNF_DESC_ZERO_SIZE, 0x1c },
	{ "descriptor runs past the end", BASE "0c 00 04 00  02 00 01 10",
	  GB_MNF_DESC_PAST_END, 0x1c },
	{ "descriptor smaller than its header", BASE "02 00 04 00",
	  GB_MNF_DESC_TOO_SMALL, 0x1c },
	{ "descriptor size not a multiple of 4",
	  BASE "0a 00 04 00  02 00 01 10  00 00",
	  GB_MNF_DESC_UNALIGNED, 0x1c },
	{ "interface descriptor too small", HDR "04 00 01 00 " B1 C1,
	  GB_MNF_DESC_TOO_SMALL, 0x04 },
	{ "string descriptor too small", BASE "04 00 02 00",
	  GB_MNF_DESC_TOO_SMALL, 0x1c },
	{ "bundle descriptor too small", BASE "04 00 03 00",
	  GB_MNF_DESC_TOO_SMALL, 0x1c },
	{ "cport descriptor too small", BASE "04 00 04 00",
	  GB_MNF_DESC_TOO_SMALL, 0x1c },
	{ "larger descriptors are accepted",
	  HDR "0c 00 01 00  00 00 00 00  ff ff ff ff "
	  "0c 00 03 00  01 10 00 00  00 00 00 00 " C1, GB_MNF_OK, 0 },
	{ "unknown descriptor type is skipped", BASE "08 00 05 00  01 02 03 04",
	  GB_MNF_OK, 0 },
	{ "descriptor type 0 is skipped", BASE "04 00 00 00", GB_MNF_OK, 0 },
	{ "string length does not fit its descriptor",
	  BASE "08 00 02 00  03 01 41 42", GB_MNF_STRING_OVERFLOW, 0x1c },
	{ "string exactly filling its descriptor", BASE S1, GB_MNF_OK, 0 },
	{ "empty string", BASE "08 00 02 00  00 01 00 00", GB_MNF_OK, 0 },
	{ "string id 0", BASE "08 00 02 00  01 00 41 00",
	  GB_MNF_STRING_ID_ZERO, 0x1c },
	{ "duplicate string id", BASE S1 S1, GB_MNF_DUP_STRING, 0x24 },
	{ "duplicate bundle id", BASE B1, GB_MNF_DUP_BUNDLE, 0x1c },
	{ "duplicate cport id", BASE "08 00 04 00  01 00 01 11",
	  GB_MNF_DUP_CPORT, 0x1c },
	{ "cport id above 4095", BASE "08 00 04 00  00 10 01 10",
	  GB_MNF_CPORT_ID_RANGE, 0x1c },
	{ "cport id 4095 is accepted", BASE "08 00 04 00  ff 0f 01 10",
	  GB_MNF_OK, 0 },
	{ "cport whose bundle is not declared", BASE "08 00 04 00  02 00 03 10",
	  GB_MNF_CPORT_NO_BUNDLE, 0x1c },
	{ "cport before its bundle is accepted", HDR IFACE C1 B1, GB_MNF_OK, 0 },
	{ "bundle 0 with a non-control class", BASE "08 00 03 00  00 10 00 00",
	  GB_MNF_BUNDLE0_CLASS, 0x1c },
	{ "control bundle 0 and cport 0 are accepted", BASE B0 C0, GB_MNF_OK, 0 },
	{ "cport 0 without a declared bundle 0 is accepted", BASE C0,
	  GB_MNF_OK, 0 },
	{ "cport 0 in a non-control bundle", BASE "08 00 04 00  00 00 01 00",
	  GB_MNF_CPORT0_OUTSIDE_CONTROL, 0x1c },
	{ "cport 0 with a non-control protocol",
	  BASE "08 00 04 00  00 00 00 10",
	  GB_MNF_CPORT0_OUTSIDE_CONTROL, 0x1c },
	{ "control class on a bundle other than 0",
	  BASE "08 00 03 00  02 00 00 00",
	  GB_MNF_CONTROL_CLASS_BUNDLE, 0x1c },
	{ "no interface descriptor", HDR B1 C1, GB_MNF_NO_INTERFACE, 0 },
	{ "two interface descriptors", BASE IFACE,
	  GB_MNF_MULTIPLE_INTERFACES, 0x1c },
	{ "vendor string referenced but absent",
	  HDR "08 00 01 00  01 00 00 00 " B1 C1, GB_MNF_MISSING_STRING, 0x04 },
	{ "product string referenced but absent",
	  HDR "08 00 01 00  01 02 00 00 " S1 B1 C1,
	  GB_MNF_MISSING_STRING, 0x04 },
	{ "referenced string declared after the interface",
	  HDR "08 00 01 00  01 00 00 00 " B1 C1 S1, GB_MNF_OK, 0 },
	{ "vendor and product naming the same string",
	  HDR "08 00 01 00  01 01 00 00 " S1 B1 C1,
	  GB_MNF_SHARED_STRING, 0x04 },
	{ "vendor and product naming two strings",
	  HDR "08 00 01 00  01 02 00 00 " S1 "08 00 02 00  01 02 42 00 " B1 C1,
	  GB_MNF_OK, 0 },
	{ "bundle id 255", BASE "08 00 03 00  ff 10 00 00",
	  GB_MNF_BUNDLE_ID_RESERVED, 0x1c },
	{ "bundle id 254 is accepted", BASE "08 00 03 00  fe 10 00 00",
	  GB_MNF_OK, 0 },
	{ "no bundle at all", HDR IFACE, GB_MNF_NO_BUNDLES, 0 },
	{ "only a bundle without cports", HDR IFACE B1, GB_MNF_NO_BUNDLES, 0 },
	{ "only the control bundle", HDR IFACE B0 C0, GB_MNF_NO_BUNDLES, 0 },
	{ "empty bundle beside a used one is accepted",
	  BASE "08 00 03 00  02 11 00 00", GB_MNF_OK, 0 },
	{ "first error in blob order wins",
	  BASE "08 00 03 00  00 10 00 00 " B1, GB_MNF_BUNDLE0_CLASS, 0x1c },
};

static const struct rule_case *current_case;

static void run_rule_case(void)
{
	const struct rule_case *c = current_case;
	struct gb_manifest_report rep;
	unsigned char *blob;
	size_t len;
	int ret;

	blob = tap_hex(c->hex, &len);
	memset(&rep, 0xa5, sizeof(rep));
	ret = gb_manifest_check(blob, len, &rep);
	CHECK(rep.error == c->error, "error %d (%s), want %d (%s)",
	      rep.error, gb_manifest_strerror(rep.error), c->error,
	      gb_manifest_strerror(c->error));
	CHECK(ret == (c->error == GB_MNF_OK ? 0 : -EINVAL), "returned %d", ret);
	if (c->error != GB_MNF_OK)
		CHECK(rep.offset == c->offset, "offset 0x%x, want 0x%x",
		      rep.offset, c->offset);
	else
		CHECK(rep.offset == 0, "offset 0x%x on success", rep.offset);
	free(blob);
}

static void test_unknown_counted(void)
{
	struct gb_manifest_report rep;
	unsigned char *blob;
	size_t len;

	blob = tap_hex(BASE "08 00 05 00  00 00 00 00  04 00 ff 00", &len);
	CHECK(gb_manifest_check(blob, len, &rep) == 0, "rejected");
	CHECK(rep.unknown_descs == 2, "unknown_descs %u", rep.unknown_descs);
	CHECK(rep.first_unknown_offset == 0x1c, "first_unknown_offset 0x%x",
	      rep.first_unknown_offset);
	free(blob);

	blob = tap_hex(BASE, &len);
	CHECK(gb_manifest_check(blob, len, &rep) == 0, "rejected");
	CHECK(rep.unknown_descs == 0 && rep.first_unknown_offset == 0,
	      "unknown %u at 0x%x", rep.unknown_descs,
	      rep.first_unknown_offset);
	free(blob);
}

static void test_null_report(void)
{
	unsigned char *blob;
	size_t len;

	blob = tap_hex(BASE, &len);
	CHECK(gb_manifest_check(blob, len, NULL) == 0, "valid rejected");
	CHECK(gb_manifest_check(blob, len - 4, NULL) == -EINVAL,
	      "truncated accepted");
	free(blob);
}

static void test_strerror(void)
{
	for (int i = 0; i < GB_MNF_ERROR_COUNT; i++) {
		const char *s = gb_manifest_strerror(i);

		CHECK(s && *s && strcmp(s, "unknown manifest error"),
		      "error %d has no phrase", i);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(s, gb_manifest_strerror(j)),
			      "errors %d and %d share \"%s\"", i, j, s);
	}
	CHECK(!strcmp(gb_manifest_strerror(GB_MNF_ERROR_COUNT),
		      "unknown manifest error"), "out of range");
	CHECK(!strcmp(gb_manifest_strerror(GB_MNF_CPORT_NO_BUNDLE),
		      "cport's bundle is not declared"), "wording");
}

/*
 * The article's audio manifest, worked out by hand from the layout in
 * include/uapi/greybus/manifest.h:
 *   header                          4
 *   interface                       8   (vendor 1, product 2)
 *   string 1 "Project Ara"          ALIGN(6 + 11, 4) = 20 = 0x14
 *   string 2 "Simple Audio Interface" ALIGN(6 + 22, 4) = 28 = 0x1c
 *   bundle 1 (class 0x12)           8
 *   cport 1 (bundle 1, 0x12)        8
 *   cport 2 (bundle 1, 0x13)        8
 *   total 4 + 8 + 20 + 28 + 8 + 8 + 8 = 84 = 0x54
 */
static const char article_hex[] =
	"54 00 00 01"
	"08 00 01 00  01 02 00 00"
	"14 00 02 00  0b 01  50 72 6f 6a 65 63 74 20 41 72 61  00 00 00"
	"1c 00 02 00  16 02  53 69 6d 70 6c 65 20 41 75 64 69 6f 20"
	"                    49 6e 74 65 72 66 61 63 65"
	"08 00 03 00  01 12 00 00"
	"08 00 04 00  01 00 01 12"
	"08 00 04 00  02 00 01 13";

static void test_decode_article(void)
{
	struct gb_manifest_report rep;
	struct gb_mnf_info info;
	unsigned char *blob;
	size_t len;

	blob = tap_hex(article_hex, &len);
	CHECK(len == 84, "hex is %zu bytes", len);
	CHECK(gb_mnf_decode(blob, len, &info, &rep) == 0, "rejected: %s",
	      gb_manifest_strerror(rep.error));
	CHECK(info.size == 84 && info.version_major == 0 &&
	      info.version_minor == 1 && info.features == 0, "header");
	CHECK(!strcmp(info.vendor_string, "Project Ara"), "vendor '%s'",
	      info.vendor_string);
	CHECK(!strcmp(info.product_string, "Simple Audio Interface"),
	      "product '%s'", info.product_string);
	CHECK(info.n_strings == 2 && info.n_bundles == 1 && info.n_cports == 2,
	      "counts %zu %zu %zu", info.n_strings, info.n_bundles,
	      info.n_cports);
	CHECK(info.bundles[0].id == 1 && info.bundles[0].class_id == 0x12,
	      "bundle");
	CHECK(info.cports[0].id == 1 && info.cports[0].bundle == 1 &&
	      info.cports[0].protocol == 0x12, "cport 1");
	CHECK(info.cports[1].id == 2 && info.cports[1].protocol == 0x13,
	      "cport 2");
	CHECK(gb_mnf_find_bundle(&info, 1) == &info.bundles[0] &&
	      !gb_mnf_find_bundle(&info, 2), "find bundle");
	CHECK(gb_mnf_find_string(&info, 2) &&
	      !strcmp(gb_mnf_find_string(&info, 2), "Simple Audio Interface") &&
	      !gb_mnf_find_string(&info, 3), "find string");
	gb_mnf_info_free(&info);
	free(blob);
}

static void test_decode_invalid(void)
{
	struct gb_manifest_report rep;
	struct gb_mnf_info info;
	unsigned char *blob;
	size_t len;

	blob = tap_hex(HDR IFACE B1 "08 00 04 00  01 00 02 10", &len);
	CHECK(gb_mnf_decode(blob, len, &info, &rep) == -EINVAL, "accepted");
	CHECK(rep.error == GB_MNF_CPORT_NO_BUNDLE && rep.offset == 0x14,
	      "error %d at 0x%x", rep.error, rep.offset);
	CHECK(!info.cports && !info.strings, "left allocations behind");
	gb_mnf_info_free(&info);
	free(blob);
}

struct explain_case {
	const char *hex;
	const char *want;
};

static const struct explain_case explain_cases[] = {
	{ BASE "08 00 04 00  02 00 03 10",
	  "offset 0x1c: cport descriptor 2: bundle 3 is not declared" },
	{ "", "offset 0x0: manifest is empty" },
	{ "20 00 00 01", "offset 0x0: header size 32 does not match the manifest length 4" },
	{ "@@ 01 00", "offset 0x0: manifest version 1.0 is not supported (major must be 0)" },
	{ BASE "04 00", "offset 0x1c: descriptor header is truncated: 2 bytes left, 4 needed" },
	{ BASE "0c 00 04 00  02 00 01 10",
	  "offset 0x1c: cport descriptor 2: size 12 runs past the end of the manifest (8 bytes left)" },
	{ HDR "04 00 01 00 " B1 C1,
	  "offset 0x4: interface descriptor: size 4 is smaller than the 8 bytes it needs" },
	{ BASE "08 00 02 00  03 01 41 42",
	  "offset 0x1c: string descriptor 1: a 3-byte string does not fit a 8-byte descriptor" },
	{ BASE S1 S1, "offset 0x24: string descriptor 1: string id 1 is declared twice" },
	{ BASE "08 00 04 00  00 10 01 10", "offset 0x1c: cport descriptor 4096: cport id 4096 is above 4095" },
	{ BASE "08 00 04 00  00 00 01 00",
	  "offset 0x1c: cport descriptor 0: cport 0 must be in bundle 0 with protocol 0x00 (has bundle 1, protocol 0x00)" },
	{ HDR "08 00 01 00  01 02 00 00 " S1 B1 C1,
	  "offset 0x4: interface descriptor: product string 2 is not declared" },
	{ HDR "08 00 01 00  03 00 00 00 " S1 B1 C1,
	  "offset 0x4: interface descriptor: vendor string 3 is not declared" },
	{ HDR IFACE, "offset 0x0: no bundle other than the control bundle has a cport" },
};

static void test_explain(void)
{
	for (size_t i = 0; i < sizeof(explain_cases) / sizeof(explain_cases[0]); i++) {
		struct gb_manifest_report rep;
		unsigned char *blob;
		char buf[256];
		size_t len;

		blob = tap_hex(explain_cases[i].hex, &len);
		gb_manifest_check(blob, len, &rep);
		gb_mnf_explain(blob, len, &rep, buf, sizeof(buf));
		CHECK(!strcmp(buf, explain_cases[i].want),
		      "got  \"%s\"\n# want \"%s\"", buf, explain_cases[i].want);
		free(blob);
	}
}

/* Every prefix of a valid manifest, in an exact-size buffer */
static void test_truncations(void)
{
	unsigned char *full;
	size_t len;

	full = tap_hex(article_hex, &len);
	for (size_t n = 0; n < len; n++) {
		struct gb_manifest_report rep;
		unsigned char *blob = malloc(n ? n : 1);
		char buf[256];

		memcpy(blob, full, n);
		CHECK(gb_manifest_check(blob, n, &rep) == -EINVAL,
		      "prefix %zu accepted", n);
		gb_mnf_explain(blob, n, &rep, buf, sizeof(buf));
		/* Now lie about the size, so the descriptor walk runs short. */
		if (n >= 4) {
			blob[0] = n & 0xff;
			blob[1] = n >> 8;
			if (gb_manifest_check(blob, n, &rep) == 0)
				CHECK(n == 76,
				      "prefix %zu accepted", n);
			gb_mnf_explain(blob, n, &rep, buf, sizeof(buf));
		}
		free(blob);
	}
	free(full);
}

/*
 * Random corruption of a valid manifest: the checker must never read out
 * of bounds, and whatever it accepts must decode, and decompile (when
 * .mnfs can express it) to source that compiles back to the same bytes.
 */
static void test_mutations(void)
{
	unsigned int seed = 12345, accepted = 0, round_trips = 0;
	unsigned char *base;
	size_t len;

	base = tap_hex(article_hex, &len);
	for (int iter = 0; iter < 20000; iter++) {
		struct gb_manifest_report rep;
		struct gb_mnf_info info;
		size_t n = len;
		unsigned char *blob;
		char buf[256], *src;
		size_t src_len;
		int flips;

		seed = seed * 1103515245 + 12345;
		if ((seed >> 16) % 4 == 0)
			n = (seed >> 8) % (len + 1);
		blob = malloc(n ? n : 1);
		memcpy(blob, base, n);
		flips = 1 + (seed >> 20) % 3;
		for (int f = 0; f < flips && n; f++) {
			seed = seed * 1103515245 + 12345;
			blob[(seed >> 16) % n] = (unsigned char)(seed >> 8);
		}

		if (gb_manifest_check(blob, n, &rep)) {
			gb_mnf_explain(blob, n, &rep, buf, sizeof(buf));
			free(blob);
			continue;
		}
		accepted++;
		CHECK(gb_mnf_decode(blob, n, &info, &rep) == 0, "decode failed");
		gb_mnf_info_free(&info);
		if (gb_mnfs_decompile(blob, n, &src, &src_len, &rep, buf,
				      sizeof(buf)) == 0) {
			struct gb_mnfs_diag diag;
			uint8_t *again;
			size_t again_len;

			if (gb_mnfs_compile(src, src_len, "mutant", &again,
					    &again_len, &diag) == 0) {
				CHECK(again_len == n && !memcmp(again, blob, n),
				      "round trip changed the bytes");
				free(again);
				round_trips++;
			} else {
				CHECK(0, "decompiled source does not compile: %s",
				      diag.msg);
			}
			free(src);
		}
		free(blob);
	}
	tap_diag("%u mutants accepted, %u round-tripped", accepted,
		 round_trips);
	CHECK(accepted > 0, "no mutant was valid");
	free(base);
}

int main(void)
{
	char name[160];

	for (size_t i = 0; i < sizeof(rule_cases) / sizeof(rule_cases[0]); i++) {
		snprintf(name, sizeof(name), "manifest check: %s",
			 rule_cases[i].name);
		current_case = &rule_cases[i];
		tap_run(name, run_rule_case);
	}
	tap_run("manifest check: unknown descriptors are counted",
		test_unknown_counted);
	tap_run("manifest check: NULL report", test_null_report);
	tap_run("manifest check: every error has its own phrase",
		test_strerror);
	tap_run("manifest check: every truncation is rejected safely",
		test_truncations);
	tap_run("manifest check: random corruption is handled safely",
		test_mutations);
	tap_run("manifest decode: the article's audio manifest",
		test_decode_article);
	tap_run("manifest decode: invalid blob", test_decode_invalid);
	tap_run("manifest explain: messages name offset, descriptor and problem",
		test_explain);
	return tap_exit_status();
}
