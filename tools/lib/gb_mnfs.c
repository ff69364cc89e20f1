// SPDX-License-Identifier: GPL-2.0
/*
 * The .mnfs manifest source format: compiler and decompiler.
 *
 * .mnfs is the INI dialect Manifesto reads through Python's ConfigParser;
 * docs/mnfc.md describes it.  The compiler emits descriptors in section
 * order exactly as Manifesto does, so a source gives the same bytes with
 * either tool.  Our only extension is the interface `features` key.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/manifest.h>

#include "gb_hex.h"
#include "gb_manifest.h"
#include "gb_msg.h"

enum mnfs_kind {
	MNFS_HEADER,
	MNFS_INTERFACE,
	MNFS_STRING,
	MNFS_BUNDLE,
	MNFS_CPORT,
	MNFS_KINDS
};

#define MNFS_MAX_KEYS	3

struct mnfs_key_def {
	const char *name;
	unsigned long max;	/* 0 for the text key */
	bool required;
};

struct mnfs_kind_def {
	const char *name;
	bool has_id;
	unsigned long id_max;
	struct mnfs_key_def keys[MNFS_MAX_KEYS];
};

static const struct mnfs_kind_def mnfs_kinds[MNFS_KINDS] = {
	[MNFS_HEADER] = { "manifest-header", false, 0, {
		{ "version-major", 255, true },
		{ "version-minor", 255, true },
	} },
	[MNFS_INTERFACE] = { "interface-descriptor", false, 0, {
		{ "vendor-string-id", 255, true },
		{ "product-string-id", 255, true },
		{ "features", 255, false },	/* our extension */
	} },
	[MNFS_STRING] = { "string-descriptor", true, 255, {
		{ "string", 0, true },
	} },
	[MNFS_BUNDLE] = { "bundle-descriptor", true, 255, {
		{ "class", 255, true },
	} },
	[MNFS_CPORT] = { "cport-descriptor", true, GB_CPORT_ID_MAX, {
		{ "bundle", 255, true },
		{ "protocol", 255, true },
	} },
};

/* Key slots, in the order of mnfs_kinds[].keys */
enum {
	K_VERSION_MAJOR = 0, K_VERSION_MINOR = 1,
	K_VENDOR = 0, K_PRODUCT = 1, K_FEATURES = 2,
	K_STRING = 0,
	K_CLASS = 0,
	K_BUNDLE = 0, K_PROTOCOL = 1,
};

struct mnfs_value {
	bool set;
	int line;
	int column;		/* of the value, or of the key if it is empty */
	unsigned long num;
	const char *text;	/* text key only: points into the source */
	size_t text_len;
};

struct mnfs_section {
	enum mnfs_kind kind;
	int line;
	int id_column;
	unsigned long id;
	char label[48];		/* "cport-descriptor 2", for messages */
	struct mnfs_value keys[MNFS_MAX_KEYS];
};

struct mnfs_parser {
	const char *file;
	struct gb_mnfs_diag *diag;
	struct mnfs_section *secs;
	size_t n_secs, cap_secs;
	int opt_indent;		/* indent of the last key line, -1 if none */
};

static int mnfs_error(struct mnfs_parser *p, int line, int column,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

int gb_mnfs_diag_vset(struct gb_mnfs_diag *diag, const char *file, int line,
		      int column, const char *fmt, va_list ap)
{
	if (!diag)
		return -1;
	snprintf(diag->file, sizeof(diag->file), "%s", file);
	diag->line = line;
	diag->column = column;
	vsnprintf(diag->msg, sizeof(diag->msg), fmt, ap);
	return -1;
}

static int mnfs_error(struct mnfs_parser *p, int line, int column,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gb_mnfs_diag_vset(p->diag, p->file, line, column, fmt, ap);
	va_end(ap);
	return -1;
}

char *gb_mnfs_diag_format(const struct gb_mnfs_diag *diag, char *buf,
			  size_t buflen)
{
	if (diag->line > 0 && diag->column > 0)
		snprintf(buf, buflen, "%s:%d:%d: %s", diag->file, diag->line,
			 diag->column, diag->msg);
	else if (diag->line > 0)
		snprintf(buf, buflen, "%s:%d: %s", diag->file, diag->line,
			 diag->msg);
	else
		snprintf(buf, buflen, "%s: %s", diag->file, diag->msg);
	return buf;
}

static bool mnfs_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

/* Trims blanks from both ends of [*s, *s + *len) */
static void mnfs_trim(const char **s, size_t *len)
{
	while (*len && mnfs_is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && mnfs_is_blank((*s)[*len - 1]))
		(*len)--;
}

enum mnfs_num_status { NUM_OK, NUM_EMPTY, NUM_BAD, NUM_LEADING_ZERO, NUM_BIG };

/*
 * Parses an integer the way Python's int(text, 0) does for the forms a
 * manifest uses: decimal without leading zeros, 0x hex, 0o octal, 0b
 * binary, an optional sign.  Negative values come back as NUM_BIG, since
 * every field is unsigned.
 */
static enum mnfs_num_status mnfs_parse_number(const char *s, size_t len,
					      unsigned long *val)
{
	unsigned long v = 0, base = 10;
	bool negative = false;
	size_t i = 0;

	if (len == 0)
		return NUM_EMPTY;
	if (s[0] == '+' || s[0] == '-') {
		negative = s[0] == '-';
		i++;
	}
	if (i + 1 < len && s[i] == '0') {
		char c = s[i + 1] | 0x20;

		if (c == 'x')
			base = 16;
		else if (c == 'o')
			base = 8;
		else if (c == 'b')
			base = 2;
		else
			return s[i + 1] >= '0' && s[i + 1] <= '9' ?
				NUM_LEADING_ZERO : NUM_BAD;
		i += 2;
	}
	if (i == len)
		return NUM_BAD;
	for (; i < len; i++) {
		int d = gb_hex_digit((unsigned char)s[i]);

		if (d < 0 || (unsigned long)d >= base)
			return NUM_BAD;
		if (v > (0xffffffffUL - d) / base)
			return NUM_BIG;
		v = v * base + d;
	}
	if (negative && v)
		return NUM_BIG;
	*val = v;
	return NUM_OK;
}

/* Reports a number that did not parse or is above @max */
static int mnfs_number(struct mnfs_parser *p, int line, int column,
		       const char *what, const char *s, size_t len,
		       unsigned long max, unsigned long *val)
{
	switch (mnfs_parse_number(s, len, val)) {
	case NUM_OK:
		if (*val <= max)
			return 0;
		/* fall through */
	case NUM_BIG:
		return mnfs_error(p, line, column,
				  "%s: value %.*s is out of range (0..%lu)",
				  what, (int)len, s, max);
	case NUM_EMPTY:
		return mnfs_error(p, line, column, "%s: missing value", what);
	case NUM_LEADING_ZERO:
		return mnfs_error(p, line, column,
				  "%s: '%.*s': a decimal number cannot start with 0 (write 0x.. for hex)",
				  what, (int)len, s);
	default:
		return mnfs_error(p, line, column,
				  "%s: '%.*s' is not a number", what, (int)len,
				  s);
	}
}

static struct mnfs_section *mnfs_find(struct mnfs_parser *p,
				      enum mnfs_kind kind, unsigned long id)
{
	for (size_t i = 0; i < p->n_secs; i++)
		if (p->secs[i].kind == kind && p->secs[i].id == id)
			return &p->secs[i];
	return NULL;
}

/* "[name]" with @name = [s, s + len), already known to be non-empty */
static int mnfs_section_line(struct mnfs_parser *p, int line, int column,
			     const char *s, size_t len)
{
	const struct mnfs_kind_def *def = NULL;
	struct mnfs_section *sec, *dup;
	const char *sp, *id = NULL;
	size_t type_len = len, id_len = 0;
	unsigned long idval = 0;
	int kind;

	if (mnfs_is_blank(s[0]) || mnfs_is_blank(s[len - 1]))
		return mnfs_error(p, line, column,
				  "section name '%.*s' has leading or trailing blanks",
				  (int)len, s);

	sp = memchr(s, ' ', len);
	if (sp) {
		type_len = (size_t)(sp - s);
		id = sp + 1;
		id_len = len - type_len - 1;
	}
	for (kind = 0; kind < MNFS_KINDS; kind++) {
		if (strlen(mnfs_kinds[kind].name) == type_len &&
		    !memcmp(mnfs_kinds[kind].name, s, type_len)) {
			def = &mnfs_kinds[kind];
			break;
		}
	}
	if (!def)
		return mnfs_error(p, line, column, "unknown section [%.*s]",
				  (int)len, s);

	if (!def->has_id && id)
		return mnfs_error(p, line, column + (int)type_len + 1,
				  "section [%s] takes no id", def->name);
	if (def->has_id) {
		int id_column = column + (int)type_len + 1;

		if (!id)
			return mnfs_error(p, line, column,
					  "section [%s] needs an id, e.g. [%s 1]",
					  def->name, def->name);
		if (id_len && mnfs_is_blank(id[0]))
			return mnfs_error(p, line, id_column,
					  "[%.*s]: one space must separate the section type from its id",
					  (int)len, s);
		/* Manifesto accepts the id in double quotes. */
		if (id_len >= 2 && id[0] == '"' && id[id_len - 1] == '"') {
			id++;
			id_len -= 2;
			id_column++;
		}
		if (mnfs_number(p, line, id_column, def->name, id, id_len,
				def->id_max, &idval))
			return -1;
		if (kind == MNFS_STRING && idval == 0)
			return mnfs_error(p, line, id_column,
					  "string-descriptor 0: string id 0 is reserved (it means \"no string\")");
		column = id_column;
	}

	dup = mnfs_find(p, kind, idval);
	if (dup)
		return mnfs_error(p, line, column,
				  "duplicate section [%s]: already declared at line %d",
				  dup->label, dup->line);

	if (p->n_secs == p->cap_secs) {
		size_t cap = p->cap_secs ? p->cap_secs * 2 : 16;
		struct mnfs_section *secs;

		secs = realloc(p->secs, cap * sizeof(*secs));
		if (!secs)
			return mnfs_error(p, line, 0, "out of memory");
		p->secs = secs;
		p->cap_secs = cap;
	}
	sec = &p->secs[p->n_secs++];
	memset(sec, 0, sizeof(*sec));
	sec->kind = kind;
	sec->line = line;
	sec->id = idval;
	sec->id_column = column;
	if (def->has_id)
		snprintf(sec->label, sizeof(sec->label), "%s %lu", def->name,
			 idval);
	else
		snprintf(sec->label, sizeof(sec->label), "%s", def->name);
	p->opt_indent = -1;
	return 0;
}

/* "key = value" or "key: value"; @s is the trimmed line at @column */
static int mnfs_key_line(struct mnfs_parser *p, int line, int column,
			 int indent, const char *s, size_t len)
{
	const struct mnfs_kind_def *def;
	struct mnfs_section *sec;
	const char *delim, *val;
	size_t key_len, val_len, i;
	char key[64];
	int val_column;
	int slot = -1;

	for (delim = s; delim < s + len; delim++)
		if (*delim == '=' || *delim == ':')
			break;
	if (delim == s + len)
		return mnfs_error(p, line, column,
				  "expected '[section]', 'key = value' or a comment");
	if (!p->n_secs)
		return mnfs_error(p, line, column,
				  "key outside of any section");
	sec = &p->secs[p->n_secs - 1];
	def = &mnfs_kinds[sec->kind];

	key_len = (size_t)(delim - s);
	while (key_len && mnfs_is_blank(s[key_len - 1]))
		key_len--;
	if (!key_len)
		return mnfs_error(p, line, column, "missing key name before '%c'",
				  *delim);
	if (key_len >= sizeof(key))
		key_len = sizeof(key) - 1;
	/* ConfigParser folds key names to lower case. */
	for (i = 0; i < key_len; i++)
		key[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] | 0x20 : s[i];
	key[key_len] = '\0';

	for (i = 0; i < MNFS_MAX_KEYS && def->keys[i].name; i++)
		if (!strcmp(def->keys[i].name, key))
			slot = (int)i;
	if (slot < 0)
		return mnfs_error(p, line, column, "%s: unknown key '%s'",
				  sec->label, key);
	if (sec->keys[slot].set)
		return mnfs_error(p, line, column,
				  "%s: duplicate key '%s': already set at line %d",
				  sec->label, key, sec->keys[slot].line);

	val = delim + 1;
	val_len = len - (size_t)(val - s);
	mnfs_trim(&val, &val_len);
	val_column = column + (int)(val - s);

	sec->keys[slot].set = true;
	sec->keys[slot].line = line;
	sec->keys[slot].column = val_column;
	p->opt_indent = indent;

	if (!def->keys[slot].max) {
		/*
		 * Text is verbatim, quotes kept, but for Manifesto's inline
		 * comment: its (Python 2) ConfigParser looks at the value's
		 * first ';' only and cuts the value there when the character
		 * before it is a blank.  A value starting with ';' is refused:
		 * Python then looks at the line's last character (index -1),
		 * a trailing blank this parser no longer sees.
		 */
		const char *semi = memchr(val, ';', val_len);

		if (semi == val)
			return mnfs_error(p, line, val_column,
					  "%s: string starts with ';', which Manifesto's configparser may take for a comment; write it otherwise",
					  sec->label);
		if (semi && mnfs_is_blank(semi[-1])) {
			val_len = (size_t)(semi - val);
			mnfs_trim(&val, &val_len);
		}
		if (val_len > UINT8_MAX)
			return mnfs_error(p, line, val_column,
					  "%s: string is %zu bytes, longer than 255",
					  sec->label, val_len);
		sec->keys[slot].text = val;
		sec->keys[slot].text_len = val_len;
		return 0;
	}

	/* A number may carry a trailing " ; comment". */
	for (i = 1; i < val_len; i++) {
		if ((val[i] == ';' || val[i] == '#') &&
		    mnfs_is_blank(val[i - 1])) {
			val_len = i;
			mnfs_trim(&val, &val_len);
			break;
		}
	}
	{
		char what[128];

		snprintf(what, sizeof(what), "%s: %s", sec->label, key);
		return mnfs_number(p, line, val_column, what, val, val_len,
				   def->keys[slot].max, &sec->keys[slot].num);
	}
}

static int mnfs_parse(struct mnfs_parser *p, const char *src, size_t len)
{
	const char *end = src + len, *s = src;
	int line = 0;

	/* A UTF-8 byte order mark is not part of the first line. */
	if (len >= 3 && !memcmp(src, "\xef\xbb\xbf", 3))
		s += 3;

	p->opt_indent = -1;
	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		const char *t;
		size_t n, tlen;
		int indent, column;

		line++;
		if (!eol)
			eol = end;
		n = (size_t)(eol - s);
		if (n && s[n - 1] == '\r')
			n--;
		if (memchr(s, '\0', n))
			return mnfs_error(p, line, 0,
					  "NUL byte in source (is this a binary manifest? try -I mnfb)");
		for (size_t i = 0; i < n; i++)
			if (gb_mnf_byte_is_binary((uint8_t)s[i]))
				return mnfs_error(p, line, (int)i + 1,
						  "control character 0x%02x in source (is this a binary manifest? try -I mnfb)",
						  (uint8_t)s[i]);

		t = s;
		tlen = n;
		mnfs_trim(&t, &tlen);
		indent = (int)(t - s);
		column = indent + 1;
		s = eol < end ? eol + 1 : end;

		/*
		 * configparser, Manifesto's reader, takes a line indented
		 * deeper than the last key line as the continuation of that
		 * key's value, whatever blank or comment lines lie between.
		 * Compiling such a line as anything else would give other
		 * bytes than Manifesto, so it is refused.  So is an indented
		 * comment line there: Manifesto's (Python 2) configparser
		 * appends it to the value too, which makes a string other
		 * bytes and a number an error.
		 */
		if (!tlen)
			continue;
		if ((t[0] == ';' || t[0] == '#') &&
		    p->opt_indent >= 0 && indent > p->opt_indent)
			return mnfs_error(p, line, column,
					  "indented comment after a value: Manifesto's configparser would continue the value with it; start the comment at the margin");
		if (t[0] == ';' || t[0] == '#')
			continue;
		if (p->opt_indent >= 0 && indent > p->opt_indent)
			return mnfs_error(p, line, column,
					  "indented line after a value: configparser would continue the value with it; continuation lines are not supported (unindent it, or put the value on one line)");

		if (t[0] == '[') {
			const char *close = memchr(t, ']', tlen);
			const char *rest;
			size_t rlen;

			if (!close)
				return mnfs_error(p, line, column,
						  "missing ']' after section name");
			rest = close + 1;
			rlen = tlen - (size_t)(rest - t);
			mnfs_trim(&rest, &rlen);
			if (rlen && rest[0] != ';' && rest[0] != '#')
				return mnfs_error(p, line,
						  column + (int)(rest - t),
						  "unexpected text after ']'");
			if (close == t + 1)
				return mnfs_error(p, line, column,
						  "empty section name");
			if (mnfs_section_line(p, line, column + 1, t + 1,
					      (size_t)(close - t - 1)))
				return -1;
			continue;
		}
		if (mnfs_key_line(p, line, column, indent, t, tlen))
			return -1;
	}
	return 0;
}

static bool mnfs_declared(struct mnfs_parser *p, enum mnfs_kind kind,
			  unsigned long id)
{
	return mnfs_find(p, kind, id) != NULL;
}

/* Manifesto's rules, checked once the whole file is known */
static int mnfs_check(struct mnfs_parser *p)
{
	const struct mnfs_section *header = NULL;
	size_t size = sizeof(struct greybus_manifest_header);

	for (size_t i = 0; i < p->n_secs; i++) {
		const struct mnfs_section *sec = &p->secs[i];
		const struct mnfs_kind_def *def = &mnfs_kinds[sec->kind];
		const struct mnfs_value *k = sec->keys;

		for (size_t j = 0; j < MNFS_MAX_KEYS && def->keys[j].name; j++)
			if (def->keys[j].required && !k[j].set)
				return mnfs_error(p, sec->line, 1,
						  "%s: missing key '%s'",
						  sec->label, def->keys[j].name);

		switch (sec->kind) {
		case MNFS_HEADER:
			header = sec;
			if (k[K_VERSION_MAJOR].num != GREYBUS_VERSION_MAJOR)
				return mnfs_error(p, k[K_VERSION_MAJOR].line,
						  k[K_VERSION_MAJOR].column,
						  "manifest-header: version-major must be %d, not %lu",
						  GREYBUS_VERSION_MAJOR,
						  k[K_VERSION_MAJOR].num);
			if (k[K_VERSION_MINOR].num != GREYBUS_VERSION_MINOR)
				return mnfs_error(p, k[K_VERSION_MINOR].line,
						  k[K_VERSION_MINOR].column,
						  "manifest-header: version-minor must be %d, not %lu",
						  GREYBUS_VERSION_MINOR,
						  k[K_VERSION_MINOR].num);
			continue;	/* the header is not a descriptor */
		case MNFS_INTERFACE:
			if (k[K_VENDOR].num &&
			    !mnfs_declared(p, MNFS_STRING, k[K_VENDOR].num))
				return mnfs_error(p, k[K_VENDOR].line,
						  k[K_VENDOR].column,
						  "interface-descriptor: vendor string %lu is not declared",
						  k[K_VENDOR].num);
			if (k[K_PRODUCT].num &&
			    !mnfs_declared(p, MNFS_STRING, k[K_PRODUCT].num))
				return mnfs_error(p, k[K_PRODUCT].line,
						  k[K_PRODUCT].column,
						  "interface-descriptor: product string %lu is not declared",
						  k[K_PRODUCT].num);
			size += GREYBUS_DESC_INTERFACE_SIZE;
			break;
		case MNFS_STRING:
			size += GREYBUS_DESC_STRING_SIZE(k[K_STRING].text_len);
			break;
		case MNFS_BUNDLE:
			if (sec->id == GREYBUS_CONTROL_BUNDLE_ID &&
			    k[K_CLASS].num != GREYBUS_CLASS_CONTROL)
				return mnfs_error(p, k[K_CLASS].line,
						  k[K_CLASS].column,
						  "bundle-descriptor 0: bundle 0 must have class 0x00 (control), not 0x%02lx",
						  k[K_CLASS].num);
			if (sec->id != GREYBUS_CONTROL_BUNDLE_ID &&
			    k[K_CLASS].num == GREYBUS_CLASS_CONTROL)
				return mnfs_error(p, k[K_CLASS].line,
						  k[K_CLASS].column,
						  "%s: class 0x00 (control) is reserved for bundle 0",
						  sec->label);
			size += GREYBUS_DESC_BUNDLE_SIZE;
			break;
		case MNFS_CPORT:
			if (sec->id == GREYBUS_CONTROL_CPORT_ID &&
			    k[K_PROTOCOL].num != GREYBUS_PROTOCOL_CONTROL)
				return mnfs_error(p, k[K_PROTOCOL].line,
						  k[K_PROTOCOL].column,
						  "cport-descriptor 0: cport 0 must use protocol 0x00 (control), not 0x%02lx",
						  k[K_PROTOCOL].num);
			if (sec->id == GREYBUS_CONTROL_CPORT_ID &&
			    k[K_BUNDLE].num != GREYBUS_CONTROL_BUNDLE_ID)
				return mnfs_error(p, k[K_BUNDLE].line,
						  k[K_BUNDLE].column,
						  "cport-descriptor 0: cport 0 must be in bundle 0, not %lu",
						  k[K_BUNDLE].num);
			/* The control bundle exists whether declared or not. */
			if (k[K_BUNDLE].num != GREYBUS_CONTROL_BUNDLE_ID &&
			    !mnfs_declared(p, MNFS_BUNDLE, k[K_BUNDLE].num))
				return mnfs_error(p, k[K_BUNDLE].line,
						  k[K_BUNDLE].column,
						  "%s: bundle %lu is not declared",
						  sec->label, k[K_BUNDLE].num);
			size += GREYBUS_DESC_CPORT_SIZE;
			break;
		default:
			break;
		}
		if (size > GREYBUS_MANIFEST_SIZE_MAX)
			return mnfs_error(p, sec->line, 1,
					  "%s: the manifest grows to %zu bytes here, more than the %d a manifest can hold",
					  sec->label, size,
					  GREYBUS_MANIFEST_SIZE_MAX);
	}

	if (!header)
		return mnfs_error(p, 0, 0, "missing [manifest-header] section");
	return 0;
}

static int mnfs_emit(struct mnfs_parser *p, uint8_t **blob, size_t *blob_len)
{
	struct gb_mnf_encoder enc;
	int err;

	gb_mnf_encoder_init(&enc, GREYBUS_VERSION_MAJOR,
			    GREYBUS_VERSION_MINOR);
	for (size_t i = 0; i < p->n_secs; i++) {
		const struct mnfs_section *sec = &p->secs[i];
		const struct mnfs_value *k = sec->keys;

		switch (sec->kind) {
		case MNFS_INTERFACE:
			gb_mnf_encode_interface(&enc, (uint8_t)k[K_VENDOR].num,
						(uint8_t)k[K_PRODUCT].num,
						(uint8_t)k[K_FEATURES].num);
			break;
		case MNFS_STRING:
			gb_mnf_encode_string(&enc, (uint8_t)sec->id,
					     k[K_STRING].text,
					     k[K_STRING].text_len);
			break;
		case MNFS_BUNDLE:
			gb_mnf_encode_bundle(&enc, (uint8_t)sec->id,
					     (uint8_t)k[K_CLASS].num);
			break;
		case MNFS_CPORT:
			gb_mnf_encode_cport(&enc, (uint16_t)sec->id,
					    (uint8_t)k[K_BUNDLE].num,
					    (uint8_t)k[K_PROTOCOL].num);
			break;
		default:
			break;
		}
	}
	err = gb_mnf_encoder_finish(&enc, blob, blob_len);
	if (err)
		return mnfs_error(p, 0, 0, "cannot encode the manifest: %s",
				  strerror(-err));
	return 0;
}

int gb_mnfs_compile(const char *src, size_t len, const char *filename,
		    uint8_t **blob, size_t *blob_len,
		    struct gb_mnfs_diag *diag)
{
	struct mnfs_parser p = {
		.file = filename ? filename : "<input>",
		.diag = diag,
	};
	int err;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	err = mnfs_parse(&p, src, len);
	if (!err)
		err = mnfs_check(&p);
	if (!err)
		err = mnfs_emit(&p, blob, blob_len);
	free(p.secs);
	return err ? -1 : 0;
}

/* ---- Decompiling -------------------------------------------------------- */

struct mnfs_out {
	char *buf;
	size_t len, cap;
	bool failed;
};

static void mnfs_printf(struct mnfs_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void mnfs_printf(struct mnfs_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->failed)
		return;
	if (!o->buf) {
		o->buf = malloc(1024);
		if (!o->buf) {
			o->failed = true;
			return;
		}
		o->cap = 1024;
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->failed = true;
			return;
		}
		if ((size_t)n < o->cap - o->len)
			break;
		{
			size_t cap = (o->cap + (size_t)n + 1) * 2;
			char *buf = realloc(o->buf, cap);

			if (!buf) {
				o->failed = true;
				return;
			}
			o->buf = buf;
			o->cap = cap;
		}
	}
	o->len += (size_t)n;
}

static bool mnfs_all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static uint16_t mnfs_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* Whether the bytes of a string survive being written as a .mnfs value */
static const char *mnfs_string_problem(const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n' || s[i] == '\r' || s[i] == '\0')
			return "holds a line break or NUL byte";
		else if (gb_mnf_byte_is_binary(s[i]))
			return "holds a control character, which .mnfs refuses";
	if (n && (mnfs_is_blank((char)s[0]) || mnfs_is_blank((char)s[n - 1])))
		return "starts or ends with a blank, which .mnfs strips";
	/* what the compiler reads as a comment or refuses (mnfs_key_line) */
	if (n && s[0] == ';')
		return "starts with ';', which .mnfs refuses";
	for (size_t i = 0; i < n; i++)
		if (s[i] == ';')
			return i && mnfs_is_blank((char)s[i - 1]) ?
			       "holds ' ;', where .mnfs starts a comment" : NULL;
	return NULL;
}

/* Finds the first thing .mnfs cannot express; returns its message */
static int mnfs_representable(const uint8_t *blob, size_t len, char *err,
			      size_t errlen)
{
	char what[64];
	size_t off;

	if (blob[2] != GREYBUS_VERSION_MAJOR ||
	    blob[3] != GREYBUS_VERSION_MINOR) {
		snprintf(err, errlen,
			 "offset 0x0: manifest version %u.%u cannot be written as .mnfs, which only has %u.%u",
			 blob[2], blob[3], GREYBUS_VERSION_MAJOR,
			 GREYBUS_VERSION_MINOR);
		return -1;
	}
	for (off = 4; off < len; off += mnfs_le16(blob + off)) {
		const uint8_t *d = blob + off;
		size_t dsize = mnfs_le16(d), want = 0;
		const char *problem = NULL;
		bool pad_ok = d[3] == 0;

		switch (d[2]) {
		case GREYBUS_TYPE_INTERFACE:
			snprintf(what, sizeof(what), "interface descriptor");
			want = GREYBUS_DESC_INTERFACE_SIZE;
			pad_ok = pad_ok && d[7] == 0;
			break;
		case GREYBUS_TYPE_STRING:
			snprintf(what, sizeof(what), "string descriptor %u",
				 d[5]);
			want = GREYBUS_DESC_STRING_SIZE(d[4]);
			pad_ok = pad_ok && dsize == want &&
				 mnfs_all_zero(d + 6 + d[4], want - 6 - d[4]);
			problem = mnfs_string_problem(d + 6, d[4]);
			break;
		case GREYBUS_TYPE_BUNDLE:
			snprintf(what, sizeof(what), "bundle descriptor %u",
				 d[4]);
			want = GREYBUS_DESC_BUNDLE_SIZE;
			pad_ok = pad_ok && d[6] == 0 && d[7] == 0;
			break;
		case GREYBUS_TYPE_CPORT:
			snprintf(what, sizeof(what), "cport descriptor %u",
				 mnfs_le16(d + 4));
			want = GREYBUS_DESC_CPORT_SIZE;
			break;
		default:
			snprintf(err, errlen,
				 "offset 0x%zx: descriptor of unknown type 0x%02x cannot be written as .mnfs",
				 off, d[2]);
			return -1;
		}
		if (dsize != want) {
			snprintf(err, errlen,
				 "offset 0x%zx: %s: size %zu cannot be written as .mnfs, which always makes %zu",
				 off, what, dsize, want);
			return -1;
		}
		if (!pad_ok) {
			snprintf(err, errlen,
				 "offset 0x%zx: %s: non-zero padding cannot be written as .mnfs",
				 off, what);
			return -1;
		}
		if (problem) {
			snprintf(err, errlen,
				 "offset 0x%zx: %s: the string %s", off, what,
				 problem);
			return -1;
		}
	}
	return 0;
}

int gb_mnfs_decompile(const uint8_t *blob, size_t len, char **src,
		      size_t *src_len, struct gb_manifest_report *rep,
		      char *errbuf, size_t errlen)
{
	struct gb_manifest_report scratch;
	struct mnfs_out o = { 0 };
	char dummy[1];
	size_t off;

	if (!rep)
		rep = &scratch;
	if (!errbuf) {
		errbuf = dummy;
		errlen = sizeof(dummy);
	}
	gb_manifest_check(blob, len, rep);
	/* mnfc compiles these (with a warning), so they decompile too. */
	if (rep->error != GB_MNF_OK && rep->error != GB_MNF_NO_INTERFACE &&
	    rep->error != GB_MNF_NO_BUNDLES &&
	    rep->error != GB_MNF_BUNDLE_ID_RESERVED &&
	    rep->error != GB_MNF_SHARED_STRING) {
		gb_mnf_explain(blob, len, rep, errbuf, errlen);
		return -EINVAL;
	}
	if (mnfs_representable(blob, len, errbuf, errlen))
		return -ENOTSUP;

	mnfs_printf(&o, "; Decompiled by mnfc: manifest of %zu bytes\n\n",
		    len);
	mnfs_printf(&o, "[manifest-header]\nversion-major = %u\nversion-minor = %u\n",
		    blob[2], blob[3]);

	for (off = 4; off < len; off += mnfs_le16(blob + off)) {
		const uint8_t *d = blob + off;
		const char *name;

		mnfs_printf(&o, "\n");
		switch (d[2]) {
		case GREYBUS_TYPE_INTERFACE:
			mnfs_printf(&o, "[interface-descriptor]\n");
			mnfs_printf(&o, "vendor-string-id = %u\n", d[4]);
			mnfs_printf(&o, "product-string-id = %u\n", d[5]);
			if (d[6])
				mnfs_printf(&o, "features = 0x%02x\n", d[6]);
			break;
		case GREYBUS_TYPE_STRING:
			mnfs_printf(&o, "[string-descriptor %u]\n", d[5]);
			if (d[4])
				mnfs_printf(&o, "string = %.*s\n", d[4],
					    (const char *)d + 6);
			else
				mnfs_printf(&o, "string =\n");
			break;
		case GREYBUS_TYPE_BUNDLE:
			name = gb_class_name(d[5]);
			if (name != gb_name_unknown)
				mnfs_printf(&o, "; Bundle %u: %s class\n",
					    d[4], name);
			mnfs_printf(&o, "[bundle-descriptor %u]\n", d[4]);
			mnfs_printf(&o, "class = 0x%02x\n", d[5]);
			break;
		case GREYBUS_TYPE_CPORT:
			name = gb_protocol_name(d[7]);
			if (name != gb_name_unknown)
				mnfs_printf(&o, "; CPort %u: %s protocol\n",
					    mnfs_le16(d + 4), name);
			mnfs_printf(&o, "[cport-descriptor %u]\n",
				    mnfs_le16(d + 4));
			mnfs_printf(&o, "bundle = %u\n", d[6]);
			mnfs_printf(&o, "protocol = 0x%02x\n", d[7]);
			break;
		}
	}

	if (o.failed) {
		free(o.buf);
		snprintf(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	*src = o.buf;
	*src_len = o.len;
	return 0;
}
