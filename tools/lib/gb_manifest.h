/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Manifests for the userspace tools: validation (the kernel's own checker),
 * decoding into plain structures, encoding, the .mnfs source compiler and
 * decompiler, and loading a manifest from a file in either format.
 *
 * Functions that return int return 0 on success and a negative errno on
 * failure unless stated otherwise.  Nothing here prints; errors come back
 * in the report/diag/errbuf arguments for the caller to show.
 */
#ifndef GB_MANIFEST_H
#define GB_MANIFEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "kcompat.h"
#include "../../kernel/include/greybus/manifest_check.h"

/* ---- Decoding a blob ---------------------------------------------------- */

struct gb_mnf_cport {
	uint16_t id;
	uint8_t bundle;
	uint8_t protocol;
};

struct gb_mnf_bundle {
	uint8_t id;
	uint8_t class_id;
};

struct gb_mnf_string {
	uint8_t id;
	uint8_t length;		/* bytes of text, NUL excluded */
	char text[256];		/* NUL-terminated */
};

/*
 * A decoded manifest.  Arrays keep descriptor order.  cports and strings
 * are allocated by gb_mnf_decode() and released by gb_mnf_info_free();
 * bundles is fixed because bundle ids are unique u8 values.  The control
 * bundle 0 and cport 0 appear only if the manifest declares them.
 */
struct gb_mnf_info {
	uint16_t size;			/* header size field == blob length */
	uint8_t version_major, version_minor;
	uint8_t features;		/* GREYBUS_INTERFACE_FEATURE_* */
	uint8_t vendor_string_id, product_string_id;	/* 0 = none */
	char vendor_string[256], product_string[256];	/* "" if none */
	size_t n_bundles, n_cports, n_strings;
	struct gb_mnf_bundle bundles[256];
	struct gb_mnf_cport *cports;
	struct gb_mnf_string *strings;
	uint32_t unknown_descs;		/* skipped descriptors of unknown type */
};

/*
 * Validates @blob with gb_manifest_check() and decodes it into @info.
 * Returns 0, -EINVAL if the manifest is invalid (@rep says why; @rep may be
 * NULL) or -ENOMEM.  On failure @info holds nothing to free.
 */
int gb_mnf_decode(const uint8_t *blob, size_t len, struct gb_mnf_info *info,
		  struct gb_manifest_report *rep);
void gb_mnf_info_free(struct gb_mnf_info *info);

/* Lookups in a decoded manifest; NULL if absent */
const struct gb_mnf_bundle *gb_mnf_find_bundle(const struct gb_mnf_info *info,
					       uint8_t id);
const char *gb_mnf_find_string(const struct gb_mnf_info *info, uint8_t id);

/*
 * Formats what @rep found in @blob as one line without a trailing newline,
 * e.g. "offset 0x1c: cport descriptor 2: bundle 3 is not declared".
 * Returns @buf.
 */
char *gb_mnf_explain(const uint8_t *blob, size_t len,
		     const struct gb_manifest_report *rep,
		     char *buf, size_t buflen);

/* ---- Encoding a blob ---------------------------------------------------- */

/*
 * Appends descriptors in call order, the way Manifesto lays them out, and
 * fills in the header size at the end.  It encodes what it is given: the
 * caller checks ids and references (or runs gb_manifest_check() on the
 * result).  Every add returns 0, -ENOMEM, or -EFBIG once the manifest would
 * exceed 65535 bytes; after a failure the encoder stays failed.
 */
struct gb_mnf_encoder {
	uint8_t *buf;
	size_t len, cap;
	int error;
};

void gb_mnf_encoder_init(struct gb_mnf_encoder *enc, uint8_t major,
			 uint8_t minor);
int gb_mnf_encode_interface(struct gb_mnf_encoder *enc, uint8_t vendor_id,
			    uint8_t product_id, uint8_t features);
int gb_mnf_encode_string(struct gb_mnf_encoder *enc, uint8_t id,
			 const char *text, size_t length);
int gb_mnf_encode_bundle(struct gb_mnf_encoder *enc, uint8_t id,
			 uint8_t class_id);
int gb_mnf_encode_cport(struct gb_mnf_encoder *enc, uint16_t id,
			uint8_t bundle, uint8_t protocol);
/* Hands the blob (malloc'ed, caller frees) over and resets @enc. */
int gb_mnf_encoder_finish(struct gb_mnf_encoder *enc, uint8_t **blob,
			  size_t *len);
void gb_mnf_encoder_release(struct gb_mnf_encoder *enc);

/* ---- The .mnfs source format (see docs/mnfc.md) ------------------------- */

struct gb_mnfs_diag {
	char file[256];
	int line;		/* 1-based; 0 = not tied to a line */
	int column;		/* 1-based; 0 = whole line */
	char msg[256];		/* e.g. "cport-descriptor 2: bundle 3 is not declared" */
};

/* "file:line:column: msg", "file:line: msg" or "file: msg"; returns @buf */
char *gb_mnfs_diag_format(const struct gb_mnfs_diag *diag, char *buf,
			  size_t buflen);
/*
 * Fills @diag (if not NULL) with @file, the position and the message;
 * returns -1, so that a parser can "return its_error(...)".  The .mnfs
 * and .topo parsers report through it.
 */
int gb_mnfs_diag_vset(struct gb_mnfs_diag *diag, const char *file, int line,
		      int column, const char *fmt, va_list ap);

/*
 * Compiles @len bytes of .mnfs source into a malloc'ed blob.  @filename is
 * used only in @diag.  Returns 0, or -1 with @diag filled (@diag may be
 * NULL).  The result follows Manifesto's rules, which are looser than
 * gb_manifest_check() in two ways: a manifest without an interface
 * descriptor or without any bundle compiles; check it to find out.
 */
int gb_mnfs_compile(const char *src, size_t len, const char *filename,
		    uint8_t **blob, size_t *blob_len,
		    struct gb_mnfs_diag *diag);

/*
 * Decompiles @blob into malloc'ed, NUL-terminated .mnfs source (@src_len
 * excludes the NUL) that compiles back to the identical bytes.  Returns 0;
 * -EINVAL if gb_manifest_check() rejects the blob for anything but a
 * missing interface or bundle (@rep says why); -ENOTSUP if the blob is
 * valid but has bytes .mnfs cannot express (version other than 0.1,
 * oversized descriptors, non-zero padding, unknown descriptor types,
 * strings with line breaks or surrounding blanks); -ENOMEM.  @errbuf, if
 * not NULL, receives a one-line explanation on failure.  @rep may be NULL.
 */
int gb_mnfs_decompile(const uint8_t *blob, size_t len, char **src,
		      size_t *src_len, struct gb_manifest_report *rep,
		      char *errbuf, size_t errlen);

/* ---- Files -------------------------------------------------------------- */

enum gb_mnf_format {
	GB_MNF_FORMAT_AUTO,
	GB_MNF_FORMAT_MNFS,
	GB_MNF_FORMAT_MNFB,
};

/*
 * Whether byte @c cannot occur in .mnfs source: NUL, DEL and the C0
 * controls other than tab, line feed, vertical tab, form feed and carriage
 * return.  The compiler refuses such bytes anywhere in a source, so a file
 * holding one is never a source that compiles.
 */
bool gb_mnf_byte_is_binary(uint8_t c);

/*
 * Tells source from blob by content alone: a blob if any byte cannot occur
 * in source (every blob with a valid header has one: version_major is 0),
 * source otherwise.  Nothing is inferred from a blob's length field, which
 * text can match by chance.  Empty contents count as source.
 */
enum gb_mnf_format gb_mnf_detect_format(const uint8_t *data, size_t len);

/*
 * The format of file @path holding @data: by its name if it ends in .mnfb
 * or .mnfs, else by gb_mnf_detect_format().  @path may be NULL.
 */
enum gb_mnf_format gb_mnf_format_of(const char *path, const uint8_t *data,
				    size_t len);

/* Reads a whole file ("-" = stdin) into malloc'ed memory; -errno on error */
int gb_read_file(const char *path, uint8_t **data, size_t *len);

/*
 * Loads a manifest from @path ("-" = stdin): .mnfs source is compiled, a
 * .mnfb blob is returned as is, chosen by gb_mnf_detect_format() unless
 * @format says otherwise.  Blobs are NOT validated, so a simulator can
 * serve broken manifests on purpose; use gb_manifest_check() for that.
 * On failure returns -1 with a message in @errbuf: "file:line:col: msg"
 * for source errors, "file: why" otherwise.
 */
int gb_manifest_load_file_as(const char *path, enum gb_mnf_format format,
			     uint8_t **blob, size_t *blob_len,
			     char *errbuf, size_t errlen);
int gb_manifest_load_file(const char *path, uint8_t **blob, size_t *blob_len,
			  char *errbuf, size_t errlen);

#endif /* GB_MANIFEST_H */
