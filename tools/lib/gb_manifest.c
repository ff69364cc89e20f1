// SPDX-License-Identifier: GPL-2.0
/*
 * Manifest decoding, explanation, encoding and file loading for the tools.
 * Validation itself is the kernel's checker (manifest_check_user.c); this
 * file only ever walks blobs that checker has accepted, except in
 * gb_mnf_explain(), which re-checks every bound it reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uapi/greybus/manifest.h>

#include "gb_manifest.h"

static uint16_t gb_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void gb_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

/* ---- Decoding ----------------------------------------------------------- */

void gb_mnf_info_free(struct gb_mnf_info *info)
{
	if (!info)
		return;
	free(info->cports);
	free(info->strings);
	info->cports = NULL;
	info->strings = NULL;
	info->n_cports = 0;
	info->n_strings = 0;
}

const struct gb_mnf_bundle *gb_mnf_find_bundle(const struct gb_mnf_info *info,
					       uint8_t id)
{
	for (size_t i = 0; i < info->n_bundles; i++)
		if (info->bundles[i].id == id)
			return &info->bundles[i];
	return NULL;
}

const char *gb_mnf_find_string(const struct gb_mnf_info *info, uint8_t id)
{
	for (size_t i = 0; i < info->n_strings; i++)
		if (info->strings[i].id == id)
			return info->strings[i].text;
	return NULL;
}

int gb_mnf_decode(const uint8_t *blob, size_t len, struct gb_mnf_info *info,
		  struct gb_manifest_report *rep)
{
	struct gb_manifest_report scratch;
	size_t n_cports = 0, n_strings = 0;
	size_t off;
	const char *s;

	if (!rep)
		rep = &scratch;
	memset(info, 0, sizeof(*info));
	if (gb_manifest_check(blob, len, rep))
		return -EINVAL;

	/* Count first so each array is allocated once. */
	for (off = 4; off < len; off += gb_get_le16(blob + off)) {
		if (blob[off + 2] == GREYBUS_TYPE_CPORT)
			n_cports++;
		else if (blob[off + 2] == GREYBUS_TYPE_STRING)
			n_strings++;
	}
	info->cports = calloc(n_cports ? n_cports : 1, sizeof(*info->cports));
	info->strings = calloc(n_strings ? n_strings : 1,
			       sizeof(*info->strings));
	if (!info->cports || !info->strings) {
		gb_mnf_info_free(info);
		return -ENOMEM;
	}

	info->size = gb_get_le16(blob);
	info->version_major = blob[2];
	info->version_minor = blob[3];
	info->unknown_descs = rep->unknown_descs;

	for (off = 4; off < len; off += gb_get_le16(blob + off)) {
		const uint8_t *d = blob + off;

		switch (d[2]) {
		case GREYBUS_TYPE_INTERFACE:
			info->vendor_string_id = d[4];
			info->product_string_id = d[5];
			info->features = d[6];
			break;
		case GREYBUS_TYPE_STRING: {
			struct gb_mnf_string *str =
				&info->strings[info->n_strings++];

			str->length = d[4];
			str->id = d[5];
			memcpy(str->text, d + 6, d[4]);
			str->text[d[4]] = '\0';
			break;
		}
		case GREYBUS_TYPE_BUNDLE:
			info->bundles[info->n_bundles].id = d[4];
			info->bundles[info->n_bundles].class_id = d[5];
			info->n_bundles++;
			break;
		case GREYBUS_TYPE_CPORT:
			info->cports[info->n_cports].id = gb_get_le16(d + 4);
			info->cports[info->n_cports].bundle = d[6];
			info->cports[info->n_cports].protocol = d[7];
			info->n_cports++;
			break;
		default:
			break;
		}
	}

	s = gb_mnf_find_string(info, info->vendor_string_id);
	if (info->vendor_string_id && s)
		snprintf(info->vendor_string, sizeof(info->vendor_string),
			 "%s", s);
	s = gb_mnf_find_string(info, info->product_string_id);
	if (info->product_string_id && s)
		snprintf(info->product_string, sizeof(info->product_string),
			 "%s", s);
	return 0;
}

/* ---- Explaining --------------------------------------------------------- */

/*
 * Names the descriptor at @off ("cport descriptor 2"), reading only the
 * bytes that lie inside the blob and inside the descriptor's claimed size.
 */
static void gb_mnf_describe(const uint8_t *blob, size_t len, size_t off,
			    char *buf, size_t buflen)
{
	size_t avail, dsize;
	uint8_t type;

	if (off + 4 > len) {
		snprintf(buf, buflen, "descriptor");
		return;
	}
	dsize = gb_get_le16(blob + off);
	avail = len - off;
	if (dsize < avail)
		avail = dsize;
	type = blob[off + 2];

	switch (type) {
	case GREYBUS_TYPE_INTERFACE:
		snprintf(buf, buflen, "interface descriptor");
		break;
	case GREYBUS_TYPE_STRING:
		if (avail >= 6)
			snprintf(buf, buflen, "string descriptor %u",
				 blob[off + 5]);
		else
			snprintf(buf, buflen, "string descriptor");
		break;
	case GREYBUS_TYPE_BUNDLE:
		if (avail >= 5)
			snprintf(buf, buflen, "bundle descriptor %u",
				 blob[off + 4]);
		else
			snprintf(buf, buflen, "bundle descriptor");
		break;
	case GREYBUS_TYPE_CPORT:
		if (avail >= 6)
			snprintf(buf, buflen, "cport descriptor %u",
				 gb_get_le16(blob + off + 4));
		else
			snprintf(buf, buflen, "cport descriptor");
		break;
	default:
		snprintf(buf, buflen, "descriptor of type 0x%02x", type);
		break;
	}
}

/* Whether a string descriptor with @id exists; stops at bad framing */
static int gb_mnf_has_string(const uint8_t *blob, size_t len, uint8_t id)
{
	size_t off = 4, dsize;

	while (off + 4 <= len) {
		dsize = gb_get_le16(blob + off);
		if (dsize < 4 || dsize > len - off)
			break;
		if (blob[off + 2] == GREYBUS_TYPE_STRING && dsize >= 6 &&
		    blob[off + 5] == id)
			return 1;
		off += dsize;
	}
	return 0;
}

static size_t gb_mnf_type_min_size(uint8_t type)
{
	switch (type) {
	case GREYBUS_TYPE_INTERFACE:
		return GREYBUS_DESC_INTERFACE_SIZE;
	case GREYBUS_TYPE_STRING:
		return GREYBUS_DESC_STRING_SIZE(0);
	case GREYBUS_TYPE_BUNDLE:
		return GREYBUS_DESC_BUNDLE_SIZE;
	case GREYBUS_TYPE_CPORT:
		return GREYBUS_DESC_CPORT_SIZE;
	default:
		return sizeof(struct greybus_descriptor_header);
	}
}

char *gb_mnf_explain(const uint8_t *blob, size_t len,
		     const struct gb_manifest_report *rep,
		     char *buf, size_t buflen)
{
	size_t off = rep->offset;
	/* Fields of the descriptor at @off; valid once framing passed */
	const uint8_t *d = off + 8 <= len ? blob + off : NULL;
	size_t dsize = off + 4 <= len ? gb_get_le16(blob + off) : 0;
	char what[64], detail[160];

	gb_mnf_describe(blob, len, off, what, sizeof(what));
	detail[0] = '\0';

	switch (rep->error) {
	case GB_MNF_OK:
		snprintf(buf, buflen, "manifest is valid");
		return buf;
	case GB_MNF_EMPTY:
		snprintf(detail, sizeof(detail), "manifest is empty");
		break;
	case GB_MNF_SHORT_HEADER:
		snprintf(detail, sizeof(detail),
			 "manifest is %zu bytes, shorter than its 4-byte header",
			 len);
		break;
	case GB_MNF_SIZE_MISMATCH:
		snprintf(detail, sizeof(detail),
			 "header size %u does not match the manifest length %zu",
			 len >= 2 ? gb_get_le16(blob) : 0, len);
		break;
	case GB_MNF_BAD_VERSION:
		snprintf(detail, sizeof(detail),
			 "manifest version %u.%u is not supported (major must be %u)",
			 len >= 4 ? blob[2] : 0, len >= 4 ? blob[3] : 0,
			 GREYBUS_VERSION_MAJOR);
		break;
	case GB_MNF_DESC_SHORT:
		snprintf(detail, sizeof(detail),
			 "descriptor header is truncated: %zu bytes left, 4 needed",
			 len > off ? len - off : 0);
		break;
	case GB_MNF_DESC_ZERO_SIZE:
		snprintf(detail, sizeof(detail), "%s: size is 0", what);
		break;
	case GB_MNF_DESC_PAST_END:
		snprintf(detail, sizeof(detail),
			 "%s: size %zu runs past the end of the manifest (%zu bytes left)",
			 what, dsize, len > off ? len - off : 0);
		break;
	case GB_MNF_DESC_TOO_SMALL:
		snprintf(detail, sizeof(detail),
			 "%s: size %zu is smaller than the %zu bytes it needs",
			 what, dsize,
			 off + 4 <= len && dsize >= 4 ?
			 gb_mnf_type_min_size(blob[off + 2]) : (size_t)4);
		break;
	case GB_MNF_DESC_UNALIGNED:
		snprintf(detail, sizeof(detail),
			 "%s: size %zu is not a multiple of 4", what, dsize);
		break;
	case GB_MNF_STRING_OVERFLOW:
		snprintf(detail, sizeof(detail),
			 "%s: a %u-byte string does not fit a %zu-byte descriptor",
			 what, d ? d[4] : 0, dsize);
		break;
	case GB_MNF_STRING_ID_ZERO:
		snprintf(detail, sizeof(detail), "%s: string id 0 is reserved",
			 what);
		break;
	case GB_MNF_DUP_STRING:
		snprintf(detail, sizeof(detail),
			 "%s: string id %u is declared twice", what,
			 d ? d[5] : 0);
		break;
	case GB_MNF_DUP_BUNDLE:
		snprintf(detail, sizeof(detail),
			 "%s: bundle id %u is declared twice", what,
			 d ? d[4] : 0);
		break;
	case GB_MNF_DUP_CPORT:
		snprintf(detail, sizeof(detail),
			 "%s: cport id %u is declared twice", what,
			 d ? gb_get_le16(d + 4) : 0);
		break;
	case GB_MNF_CPORT_ID_RANGE:
		snprintf(detail, sizeof(detail),
			 "%s: cport id %u is above %u", what,
			 d ? gb_get_le16(d + 4) : 0, GB_CPORT_ID_MAX);
		break;
	case GB_MNF_CPORT_NO_BUNDLE:
		snprintf(detail, sizeof(detail),
			 "%s: bundle %u is not declared", what, d ? d[6] : 0);
		break;
	case GB_MNF_BUNDLE0_CLASS:
		snprintf(detail, sizeof(detail),
			 "%s: bundle 0 has class 0x%02x, but only the control class (0x00) is allowed",
			 what, d ? d[5] : 0);
		break;
	case GB_MNF_CPORT0_OUTSIDE_CONTROL:
		snprintf(detail, sizeof(detail),
			 "%s: cport 0 must be in bundle 0 with protocol 0x00 (has bundle %u, protocol 0x%02x)",
			 what, d ? d[6] : 0, d ? d[7] : 0);
		break;
	case GB_MNF_CONTROL_CLASS_BUNDLE:
		snprintf(detail, sizeof(detail),
			 "%s: only bundle 0 may have the control class (0x00)",
			 what);
		break;
	case GB_MNF_NO_INTERFACE:
		snprintf(detail, sizeof(detail), "no interface descriptor");
		break;
	case GB_MNF_MULTIPLE_INTERFACES:
		snprintf(detail, sizeof(detail),
			 "%s: more than one interface descriptor", what);
		break;
	case GB_MNF_MISSING_STRING:
		if (d && d[4] && !gb_mnf_has_string(blob, len, d[4]))
			snprintf(detail, sizeof(detail),
				 "%s: vendor string %u is not declared",
				 what, d[4]);
		else
			snprintf(detail, sizeof(detail),
				 "%s: product string %u is not declared",
				 what, d ? d[5] : 0);
		break;
	case GB_MNF_NO_BUNDLES:
		snprintf(detail, sizeof(detail),
			 "no bundle other than the control bundle has a cport");
		break;
	case GB_MNF_BUNDLE_ID_RESERVED:
		snprintf(detail, sizeof(detail),
			 "%s: bundle id 255 is reserved (it means no bundle)",
			 what);
		break;
	case GB_MNF_SHARED_STRING:
		snprintf(detail, sizeof(detail),
			 "%s: vendor and product both name string %u; Linux uses each string once",
			 what, d ? d[4] : 0);
		break;
	default:
		snprintf(detail, sizeof(detail), "%s",
			 gb_manifest_strerror(rep->error));
		break;
	}

	snprintf(buf, buflen, "offset 0x%x: %s", (unsigned int)off, detail);
	return buf;
}

/* ---- Encoding ----------------------------------------------------------- */

void gb_mnf_encoder_init(struct gb_mnf_encoder *enc, uint8_t major,
			 uint8_t minor)
{
	memset(enc, 0, sizeof(*enc));
	enc->buf = malloc(64);
	if (!enc->buf) {
		enc->error = -ENOMEM;
		return;
	}
	enc->cap = 64;
	enc->len = 4;
	gb_put_le16(enc->buf, 0);
	enc->buf[2] = major;
	enc->buf[3] = minor;
}

/* Reserves a zeroed descriptor of @size bytes and returns it, or NULL */
static uint8_t *gb_mnf_encode_desc(struct gb_mnf_encoder *enc, uint8_t type,
				   size_t size)
{
	uint8_t *d;

	if (enc->error)
		return NULL;
	if (enc->len + size > GREYBUS_MANIFEST_SIZE_MAX) {
		enc->error = -EFBIG;
		return NULL;
	}
	if (enc->len + size > enc->cap) {
		size_t cap = enc->cap * 2;
		uint8_t *buf;

		while (cap < enc->len + size)
			cap *= 2;
		buf = realloc(enc->buf, cap);
		if (!buf) {
			enc->error = -ENOMEM;
			return NULL;
		}
		enc->buf = buf;
		enc->cap = cap;
	}
	d = enc->buf + enc->len;
	memset(d, 0, size);
	gb_put_le16(d, (uint16_t)size);
	d[2] = type;
	enc->len += size;
	return d;
}

int gb_mnf_encode_interface(struct gb_mnf_encoder *enc, uint8_t vendor_id,
			    uint8_t product_id, uint8_t features)
{
	uint8_t *d = gb_mnf_encode_desc(enc, GREYBUS_TYPE_INTERFACE,
					GREYBUS_DESC_INTERFACE_SIZE);

	if (!d)
		return enc->error;
	d[4] = vendor_id;
	d[5] = product_id;
	d[6] = features;
	return 0;
}

int gb_mnf_encode_string(struct gb_mnf_encoder *enc, uint8_t id,
			 const char *text, size_t length)
{
	uint8_t *d;

	if (length > UINT8_MAX) {
		if (!enc->error)
			enc->error = -EINVAL;
		return enc->error;
	}
	d = gb_mnf_encode_desc(enc, GREYBUS_TYPE_STRING,
			       GREYBUS_DESC_STRING_SIZE(length));
	if (!d)
		return enc->error;
	d[4] = (uint8_t)length;
	d[5] = id;
	if (length)
		memcpy(d + 6, text, length);
	return 0;
}

int gb_mnf_encode_bundle(struct gb_mnf_encoder *enc, uint8_t id,
			 uint8_t class_id)
{
	uint8_t *d = gb_mnf_encode_desc(enc, GREYBUS_TYPE_BUNDLE,
					GREYBUS_DESC_BUNDLE_SIZE);

	if (!d)
		return enc->error;
	d[4] = id;
	d[5] = class_id;
	return 0;
}

int gb_mnf_encode_cport(struct gb_mnf_encoder *enc, uint16_t id,
			uint8_t bundle, uint8_t protocol)
{
	uint8_t *d = gb_mnf_encode_desc(enc, GREYBUS_TYPE_CPORT,
					GREYBUS_DESC_CPORT_SIZE);

	if (!d)
		return enc->error;
	gb_put_le16(d + 4, id);
	d[6] = bundle;
	d[7] = protocol;
	return 0;
}

void gb_mnf_encoder_release(struct gb_mnf_encoder *enc)
{
	free(enc->buf);
	memset(enc, 0, sizeof(*enc));
}

int gb_mnf_encoder_finish(struct gb_mnf_encoder *enc, uint8_t **blob,
			  size_t *len)
{
	int error = enc->error;

	if (error) {
		gb_mnf_encoder_release(enc);
		return error;
	}
	/* Like Manifesto, the size goes in last, once it is known. */
	gb_put_le16(enc->buf, (uint16_t)enc->len);
	*blob = enc->buf;
	*len = enc->len;
	memset(enc, 0, sizeof(*enc));
	return 0;
}

/* ---- Files -------------------------------------------------------------- */

bool gb_mnf_byte_is_binary(uint8_t c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\v' &&
		c != '\f' && c != '\r') || c == 0x7f;
}

enum gb_mnf_format gb_mnf_detect_format(const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (gb_mnf_byte_is_binary(data[i]))
			return GB_MNF_FORMAT_MNFB;
	return GB_MNF_FORMAT_MNFS;
}

static bool gb_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

enum gb_mnf_format gb_mnf_format_of(const char *path, const uint8_t *data,
				    size_t len)
{
	if (path && gb_has_suffix(path, ".mnfb"))
		return GB_MNF_FORMAT_MNFB;
	if (path && gb_has_suffix(path, ".mnfs"))
		return GB_MNF_FORMAT_MNFS;
	return gb_mnf_detect_format(data, len);
}

int gb_read_file(const char *path, uint8_t **data, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	size_t used = 0, cap = 4096;
	uint8_t *buf;
	int err;

	if (fd < 0)
		return -errno;
	buf = malloc(cap + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out_close;
	}
	for (;;) {
		ssize_t n;

		if (used == cap) {
			uint8_t *bigger;

			/* Manifests are at most 64 KiB; sources are small. */
			if (cap >= (16u << 20)) {
				err = -EFBIG;
				goto out_free;
			}
			bigger = realloc(buf, cap * 2 + 1);
			if (!bigger) {
				err = -ENOMEM;
				goto out_free;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out_free;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';	/* handy for text; not counted in @len */
	*data = buf;
	*len = used;
	err = 0;
	goto out_close;

out_free:
	free(buf);
out_close:
	if (fd > 0)
		close(fd);
	return err;
}

int gb_manifest_load_file_as(const char *path, enum gb_mnf_format format,
			     uint8_t **blob, size_t *blob_len,
			     char *errbuf, size_t errlen)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct gb_mnfs_diag diag;
	uint8_t *data;
	size_t len;
	int err;

	err = gb_read_file(path, &data, &len);
	if (err) {
		snprintf(errbuf, errlen, "%s: %s", name, strerror(-err));
		return -1;
	}
	if (format == GB_MNF_FORMAT_AUTO)
		format = gb_mnf_format_of(path, data, len);
	if (format == GB_MNF_FORMAT_MNFB) {
		*blob = data;
		*blob_len = len;
		return 0;
	}

	err = gb_mnfs_compile((const char *)data, len, name, blob, blob_len,
			      &diag);
	free(data);
	if (err) {
		gb_mnfs_diag_format(&diag, errbuf, errlen);
		return -1;
	}
	return 0;
}

int gb_manifest_load_file(const char *path, uint8_t **blob, size_t *blob_len,
			  char *errbuf, size_t errlen)
{
	return gb_manifest_load_file_as(path, GB_MNF_FORMAT_AUTO, blob,
					blob_len, errbuf, errlen);
}
