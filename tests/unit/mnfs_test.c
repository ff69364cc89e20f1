// SPDX-License-Identifier: GPL-2.0
/*
 * The .mnfs compiler and decompiler through the library API: the article's
 * manifest against hand-computed bytes, round trips of every manifest in
 * manifests/, what decompiling refuses, and the encoder's limits.
 * (mnfc.sh covers the compiler's error messages through the binary.)
 *
 * Usage: mnfs_test MANIFEST_DIR
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>

#include <uapi/greybus/manifest.h>

#include "gb_manifest.h"
#include "tap.h"

static const char *manifest_dir = "manifests";

/* The article's source, as printed (manifests/audio.mnfs is the same) */
static const char article_src[] =
	"; Simple Audio Interface Manifest\n"
	";\n"
	"; Provided under the three clause BSD license found in the LICENSE file.\n"
	"\n"
	"[manifest-header]\n"
	"version-major = 0\n"
	"version-minor = 1\n"
	"\n"
	"[interface-descriptor]\n"
	"vendor-string-id = 1\n"
	"product-string-id = 2\n"
	"\n"
	"; Interface vendor string\n"
	"[string-descriptor 1]\n"
	"string = Project Ara\n"
	"\n"
	"; Interface product string\n"
	"[string-descriptor 2]\n"
	"string = Simple Audio Interface\n"
	"\n"
	"; Bundle 1: Audio class\n"
	"[bundle-descriptor 1]\n"
	"class = 0x12\n"
	"\n"
	"; Audio Management protocol on CPort 1\n"
	"[cport-descriptor 1]\n"
	"bundle = 1\n"
	"protocol = 0x12\n"
	"\n"
	"; Audio Data protocol on CPort 2\n"
	"[cport-descriptor 2]\n"
	"bundle = 1\n"
	"protocol = 0x13\n";

/*
 * Expected bytes, worked out by hand from the specification's layout:
 *   header                               4   size 0x0054, version 0.1
 *   interface                            8   vendor 1, product 2, features 0
 *   string 1 "Project Ara" (11)          ALIGN(6 + 11, 4) = 20 = 0x14, 3 pad
 *   string 2 "Simple Audio Interface" (22) ALIGN(6 + 22, 4) = 28 = 0x1c, 0 pad
 *   bundle 1, class 0x12                 8
 *   cport 1, bundle 1, protocol 0x12     8
 *   cport 2, bundle 1, protocol 0x13     8
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

static void check_bytes(const uint8_t *got, size_t got_len,
			const unsigned char *want, size_t want_len)
{
	char *g, *w;

	if (got_len == want_len && !memcmp(got, want, want_len))
		return;
	g = tap_hexdump(got, got_len);
	w = tap_hexdump(want, want_len);
	CHECK(0, "bytes differ\n# got  (%zu) %s\n# want (%zu) %s", got_len, g,
	      want_len, w);
	free(g);
	free(w);
}

static void test_article_bytes(void)
{
	struct gb_mnfs_diag diag;
	unsigned char *want;
	uint8_t *blob = NULL;
	size_t want_len, len = 0;

	want = tap_hex(article_hex, &want_len);
	CHECK(want_len == 0x54, "expected hex is %zu bytes", want_len);
	CHECK(gb_mnfs_compile(article_src, strlen(article_src), "article",
			      &blob, &len, &diag) == 0, "%s", diag.msg);
	check_bytes(blob, len, want, want_len);
	CHECK(gb_manifest_check(blob, len, NULL) == 0, "checker rejects it");
	free(blob);
	free(want);
}

static void test_audio_file_is_article(void)
{
	char path[512], err[512];
	unsigned char *want;
	uint8_t *blob = NULL, *text = NULL;
	size_t want_len, len = 0, text_len = 0;

	snprintf(path, sizeof(path), "%s/audio.mnfs", manifest_dir);
	CHECK(gb_read_file(path, &text, &text_len) == 0, "cannot read %s", path);
	CHECK(text && text_len == strlen(article_src) &&
	      !memcmp(text, article_src, text_len),
	      "%s is not the article's text", path);
	free(text);

	want = tap_hex(article_hex, &want_len);
	CHECK(gb_manifest_load_file(path, &blob, &len, err, sizeof(err)) == 0,
	      "%s", err);
	check_bytes(blob, len, want, want_len);
	free(blob);
	free(want);
}

static char round_trip_path[512];

static void test_round_trip(void)
{
	struct gb_manifest_report rep;
	struct gb_mnfs_diag diag;
	uint8_t *blob = NULL, *again = NULL;
	size_t len = 0, again_len = 0, src_len = 0;
	char err[512], *src = NULL;

	CHECK(gb_manifest_load_file(round_trip_path, &blob, &len, err,
				    sizeof(err)) == 0, "%s", err);
	if (!blob)
		return;
	CHECK(gb_manifest_check(blob, len, &rep) == 0, "invalid: %s",
	      gb_manifest_strerror(rep.error));
	CHECK(gb_mnfs_decompile(blob, len, &src, &src_len, &rep, err,
				sizeof(err)) == 0, "decompile: %s", err);
	if (src) {
		CHECK(strlen(src) == src_len, "src_len %zu", src_len);
		CHECK(gb_mnfs_compile(src, src_len, "decompiled", &again,
				      &again_len, &diag) == 0,
		      "recompile: %d:%d: %s", diag.line, diag.column, diag.msg);
		if (again)
			check_bytes(again, again_len, blob, len);
	}
	free(src);
	free(again);
	free(blob);
}

/* Blobs the checker accepts but .mnfs cannot express */
struct decompile_case {
	const char *name;
	const char *hex;
	int ret;
	const char *msg;
};

#define HDR	"@@ 00 01 "
#define IFACE	"08 00 01 00  00 00 00 00 "
#define B1	"08 00 03 00  01 10 00 00 "
#define C1	"08 00 04 00  01 00 01 10 "

static const struct decompile_case decompile_cases[] = {
	{ "version other than 0.1", "@@ 00 02 " IFACE B1 C1, -ENOTSUP,
	  "offset 0x0: manifest version 0.2 cannot be written as .mnfs, which only has 0.1" },
	{ "oversized descriptor",
	  HDR "0c 00 01 00  00 00 00 00  00 00 00 00 " B1 C1, -ENOTSUP,
	  "offset 0x4: interface descriptor: size 12 cannot be written as .mnfs, which always makes 8" },
	{ "non-zero pad byte", HDR IFACE "08 00 03 01  01 10 00 00 " C1,
	  -ENOTSUP,
	  "offset 0xc: bundle descriptor 1: non-zero padding cannot be written as .mnfs" },
	{ "non-zero string padding", HDR IFACE B1 C1 "08 00 02 00  01 01 41 42",
	  -ENOTSUP,
	  "offset 0x1c: string descriptor 1: non-zero padding cannot be written as .mnfs" },
	{ "unknown descriptor type", HDR IFACE B1 C1 "04 00 09 00", -ENOTSUP,
	  "offset 0x1c: descriptor of unknown type 0x09 cannot be written as .mnfs" },
	{ "string with a trailing blank", HDR IFACE B1 C1 "08 00 02 00  02 01 41 20",
	  -ENOTSUP,
	  "offset 0x1c: string descriptor 1: the string starts or ends with a blank, which .mnfs strips" },
	{ "string with a newline", HDR IFACE B1 C1 "08 00 02 00  02 01 41 0a",
	  -ENOTSUP,
	  "offset 0x1c: string descriptor 1: the string holds a line break or NUL byte" },
	{ "invalid blob", HDR IFACE B1 "08 00 04 00  01 00 02 10", -EINVAL,
	  "offset 0x14: cport descriptor 1: bundle 2 is not declared" },
	{ "no interface descriptor (Manifesto compiles it)", HDR B1 C1, 0, NULL },
	{ "no bundle (Manifesto compiles it)", HDR IFACE, 0, NULL },
	{ "empty string and cport 4095",
	  HDR "08 00 01 00  01 00 00 00  08 00 02 00  00 01 00 00 " B1
	  "08 00 04 00  ff 0f 01 10", 0, NULL },
	{ "features byte", HDR "08 00 01 00  00 00 01 00 " B1 C1, 0, NULL },
};

static const struct decompile_case *current;

static void test_decompile_case(void)
{
	struct gb_manifest_report rep;
	struct gb_mnfs_diag diag;
	unsigned char *blob;
	uint8_t *again = NULL;
	size_t len, src_len, again_len = 0;
	char err[256] = "", *src = NULL;
	int ret;

	blob = tap_hex(current->hex, &len);
	ret = gb_mnfs_decompile(blob, len, &src, &src_len, &rep, err,
				sizeof(err));
	CHECK(ret == current->ret, "returned %d, want %d (%s)", ret,
	      current->ret, err);
	if (current->msg)
		CHECK(!strcmp(err, current->msg), "got  \"%s\"\n# want \"%s\"",
		      err, current->msg);
	if (!ret && src) {
		CHECK(gb_mnfs_compile(src, src_len, "d", &again, &again_len,
				      &diag) == 0, "recompile: %s", diag.msg);
		if (again)
			check_bytes(again, again_len, blob, len);
		if (strstr(current->name, "features"))
			CHECK(strstr(src, "features = 0x01\n") != NULL,
			      "no features key in:\n%s", src);
		else
			CHECK(!strstr(src, "features"),
			      "features emitted although zero");
	}
	free(again);
	free(src);
	free(blob);
}

static void test_decompile_order(void)
{
	static const char src[] =
		"[cport-descriptor 3]\nbundle = 2\nprotocol = 0x11\n"
		"[string-descriptor 9]\nstring = later\n"
		"[bundle-descriptor 2]\nclass = 0x11\n"
		"[interface-descriptor]\nvendor-string-id = 9\nproduct-string-id = 0\n"
		"[manifest-header]\nversion-major = 0\nversion-minor = 1\n";
	struct gb_mnfs_diag diag;
	uint8_t *blob = NULL;
	size_t len = 0, src_len;
	char *out = NULL;

	CHECK(gb_mnfs_compile(src, strlen(src), "order", &blob, &len,
			      &diag) == 0, "%s", diag.msg);
	if (!blob)
		return;
	/* Sections are emitted in file order, header first regardless. */
	CHECK(len == 4 + 8 + 12 + 8 + 8, "length %zu", len);
	CHECK(blob[4 + 2] == GREYBUS_TYPE_CPORT && blob[12 + 2] ==
	      GREYBUS_TYPE_STRING && blob[24 + 2] == GREYBUS_TYPE_BUNDLE &&
	      blob[32 + 2] == GREYBUS_TYPE_INTERFACE, "descriptor order");
	CHECK(gb_mnfs_decompile(blob, len, &out, &src_len, NULL, NULL, 0) == 0,
	      "decompile");
	if (out) {
		const char *c = strstr(out, "[cport-descriptor 3]");
		const char *s = strstr(out, "[string-descriptor 9]");
		const char *b = strstr(out, "[bundle-descriptor 2]");
		const char *i = strstr(out, "[interface-descriptor]");

		CHECK(c && s && b && i && c < s && s < b && b < i,
		      "order lost:\n%s", out);
	}
	free(out);
	free(blob);
}

static void test_syntax_variants(void)
{
	/* ConfigParser-isms Manifesto sources may use */
	static const char src[] =
		"\xef\xbb\xbf# hash comment\r\n"
		"[manifest-header]\r\n"
		"Version-Major: 0\r\n"
		"version-minor = 0x1 ; trailing comment on a number\r\n"
		"; comment at the margin\r\n"
		"[interface-descriptor]   ; comment after a section\n"
		"  vendor-string-id = 1\n"
		"  product-string-id = 0\n"
		"[string-descriptor \"1\"]\n"
		"string =   \"quoted; kept\"   \n"
		"[bundle-descriptor 0x01]\n"
		"class = 16\n"
		"[cport-descriptor 0b10]\n"
		"bundle = 1\n"
		"protocol = 0o20";
	struct gb_mnfs_diag diag;
	struct gb_mnf_info info;
	uint8_t *blob = NULL;
	size_t len = 0;

	CHECK(gb_mnfs_compile(src, strlen(src), "variants", &blob, &len,
			      &diag) == 0, "%d:%d: %s", diag.line, diag.column,
	      diag.msg);
	if (!blob)
		return;
	CHECK(gb_mnf_decode(blob, len, &info, NULL) == 0, "decode");
	CHECK(!strcmp(info.vendor_string, "\"quoted; kept\""), "string '%s'",
	      info.vendor_string);
	CHECK(info.n_cports == 1 && info.cports[0].id == 2 &&
	      info.cports[0].protocol == 0x10, "cport");
	CHECK(info.n_bundles == 1 && info.bundles[0].id == 1 &&
	      info.bundles[0].class_id == 0x10, "bundle");
	gb_mnf_info_free(&info);
	free(blob);
}

static void test_string_limits(void)
{
	char src[600];
	char text[300];
	struct gb_mnfs_diag diag;
	uint8_t *blob = NULL;
	size_t len = 0;

	memset(text, 'x', 255);
	text[255] = '\0';
	snprintf(src, sizeof(src),
		 "[manifest-header]\nversion-major = 0\nversion-minor = 1\n"
		 "[string-descriptor 1]\nstring = %s\n", text);
	CHECK(gb_mnfs_compile(src, strlen(src), "s", &blob, &len, &diag) == 0,
	      "255 bytes rejected: %s", diag.msg);
	CHECK(len == 4 + GREYBUS_DESC_STRING_SIZE(255) && len == 4 + 264,
	      "length %zu", len);
	free(blob);
	blob = NULL;

	text[255] = 'x';
	text[256] = '\0';
	snprintf(src, sizeof(src),
		 "[manifest-header]\nversion-major = 0\nversion-minor = 1\n"
		 "[string-descriptor 1]\nstring = %s\n", text);
	CHECK(gb_mnfs_compile(src, strlen(src), "s", &blob, &len, &diag) == -1,
	      "256 bytes accepted");
	CHECK(diag.line == 5 && diag.column == 10 &&
	      !strcmp(diag.msg, "string-descriptor 1: string is 256 bytes, longer than 255"),
	      "%d:%d: %s", diag.line, diag.column, diag.msg);
	CHECK(!strcmp(diag.file, "s"), "file '%s'", diag.file);
}

static void test_encoder_limit(void)
{
	struct gb_mnf_encoder enc;
	uint8_t *blob = NULL;
	size_t len = 0;
	int ret = 0, i;

	gb_mnf_encoder_init(&enc, 0, 1);
	for (i = 0; i < 8192 && !ret; i++)
		ret = gb_mnf_encode_cport(&enc, (uint16_t)i, 1, 0x10);
	CHECK(ret == -EFBIG, "returned %d", ret);
	CHECK(i == (0xffff - 4) / 8 + 1, "failed at %d", i);
	CHECK(gb_mnf_encoder_finish(&enc, &blob, &len) == -EFBIG, "finish");
	CHECK(!blob, "blob handed out");

	gb_mnf_encoder_init(&enc, 0, 1);
	CHECK(gb_mnf_encode_string(&enc, 1, "x", 256) == -EINVAL, "string 256");
	gb_mnf_encoder_release(&enc);
}

static void test_detect_format(void)
{
	unsigned char *blob;
	size_t len;

	blob = tap_hex(article_hex, &len);
	CHECK(gb_mnf_detect_format(blob, len) == GB_MNF_FORMAT_MNFB, "article");
	blob[0] = 0x99;	/* a broken blob is still a blob */
	CHECK(gb_mnf_detect_format(blob, len) == GB_MNF_FORMAT_MNFB, "broken");
	CHECK(gb_mnf_detect_format((const uint8_t *)article_src,
				   strlen(article_src)) == GB_MNF_FORMAT_MNFS,
	      "source");
	CHECK(gb_mnf_detect_format(blob, 0) == GB_MNF_FORMAT_MNFS, "empty");
	free(blob);
}

static void test_diag_format(void)
{
	struct gb_mnfs_diag d = { "a.mnfs", 12, 10, "oops" };
	char buf[128];

	CHECK(!strcmp(gb_mnfs_diag_format(&d, buf, sizeof(buf)),
		      "a.mnfs:12:10: oops"), "%s", buf);
	d.column = 0;
	CHECK(!strcmp(gb_mnfs_diag_format(&d, buf, sizeof(buf)),
		      "a.mnfs:12: oops"), "%s", buf);
	d.line = 0;
	CHECK(!strcmp(gb_mnfs_diag_format(&d, buf, sizeof(buf)),
		      "a.mnfs: oops"), "%s", buf);
}

static void test_load_errors(void)
{
	char err[512];
	uint8_t *blob;
	size_t len;

	CHECK(gb_manifest_load_file("/nonexistent/x.mnfs", &blob, &len, err,
				    sizeof(err)) == -1, "loaded");
	CHECK(!strcmp(err, "/nonexistent/x.mnfs: No such file or directory"),
	      "%s", err);
}

int main(int argc, char **argv)
{
	char name[600];
	struct dirent **ents;
	int n;

	if (argc > 1)
		manifest_dir = argv[1];

	tap_run("mnfs compile: the article's manifest matches the hand-computed bytes",
		test_article_bytes);
	tap_run("mnfs compile: manifests/audio.mnfs is the article's manifest",
		test_audio_file_is_article);

	n = scandir(manifest_dir, &ents, NULL, alphasort);
	CHECK(n > 0, "cannot list %s", manifest_dir);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(ents[i]->d_name);

		if (l > 5 && !strcmp(ents[i]->d_name + l - 5, ".mnfs")) {
			snprintf(round_trip_path, sizeof(round_trip_path),
				 "%s/%s", manifest_dir, ents[i]->d_name);
			snprintf(name, sizeof(name),
				 "mnfs round trip: manifests/%s", ents[i]->d_name);
			tap_run(name, test_round_trip);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);

	for (size_t i = 0; i < sizeof(decompile_cases) / sizeof(decompile_cases[0]); i++) {
		current = &decompile_cases[i];
		snprintf(name, sizeof(name), "mnfs decompile: %s",
			 current->name);
		tap_run(name, test_decompile_case);
	}
	tap_run("mnfs decompile: descriptor order is preserved",
		test_decompile_order);
	tap_run("mnfs compile: ConfigParser syntax variants", test_syntax_variants);
	tap_run("mnfs compile: string length limit", test_string_limits);
	tap_run("mnfs encoder: 65535-byte limit", test_encoder_limit);
	tap_run("mnfs files: format detection", test_detect_format);
	tap_run("mnfs files: diagnostic format", test_diag_format);
	tap_run("mnfs files: load errors", test_load_errors);
	return tap_exit_status();
}
