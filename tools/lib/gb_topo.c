// SPDX-License-Identifier: GPL-2.0
/*
 * The .topo audio topology compiler (docs/audio.md describes the format).
 *
 * Two passes: the text is cut into sections of key = value lines (the
 * conventions of .mnfs: ';' and '#' comments, case-insensitive keys,
 * 0x numbers), then each kind of section is checked and written in the
 * blob's order: DAIs, top-level controls, widgets each followed by its
 * controls, routes.  Every rule gb-audio-module applies to a topology is
 * applied here too, with the line and column of the value at fault.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_topo.h"

enum topo_kind { TOPO_DAI, TOPO_CONTROL, TOPO_WIDGET, TOPO_ROUTE, TOPO_KINDS };

#define TOPO_MAX_KEYS		8
#define TOPO_MAX_DAIS		4	/* GBAUDIO_MAX_DAIS */
#define TOPO_MAX_ITEMS		64	/* GBAUDIO_MAX_ENUM_ITEMS */
#define TOPO_MAX_WCTLS		8	/* GBAUDIO_MAX_WIDGET_CONTROLS */
#define TOPO_MAX_CHANNELS	8
#define TOPO_NO_CONTROL		0xff

struct topo_kind_def {
	const char *name;
	unsigned long id_max;
	const char *keys[TOPO_MAX_KEYS + 1];
};

static const struct topo_kind_def topo_kinds[TOPO_KINDS] = {
	[TOPO_DAI] = { "dai", 255, { "name", "cport", "playback", "capture",
		"formats", "rates", "channels", "sig-bits", NULL } },
	[TOPO_CONTROL] = { "control", 254, { "name", "type", "min", "max",
		"step", "values", "init", "items" } },
	[TOPO_WIDGET] = { "widget", 255, { "name", "type", "stream",
		"controls", NULL } },
	[TOPO_ROUTE] = { "route", 255, { "source", "sink", "control",
		"index", NULL } },
};

struct topo_kv {
	const char *key;	/* one of topo_kinds[].keys */
	const char *val;	/* into the source, not terminated */
	size_t vlen;
	int line, kcol, vcol;
};

struct topo_sec {
	enum topo_kind kind;
	unsigned long id;
	int line;
	char label[24];		/* "widget 3", for messages */
	struct topo_kv kv[TOPO_MAX_KEYS];
	size_t nkv;
	/* widgets: their controls; controls: their widget */
	struct topo_sec *ctls[TOPO_MAX_WCTLS];
	size_t nctls;
	struct topo_sec *owner;
	uint32_t items;		/* enumerated controls */
	bool onoff;		/* boolean, or integer 0..1 with one value */
};

struct topo_parser {
	const char *file;
	struct gb_mnfs_diag *diag;
	struct topo_sec *secs;
	size_t nsecs, cap;
	struct topo_sec *ctl_by_id[256];
	struct topo_sec *widget_by_id[256];
	uint8_t *out;
	size_t len, out_cap;
	bool nomem;
	uint16_t data_cport;
};

static int topo_error(struct topo_parser *p, int line, int column,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int topo_error(struct topo_parser *p, int line, int column,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gb_mnfs_diag_vset(p->diag, p->file, line, column, fmt, ap);
	va_end(ap);
	return -1;
}

static bool topo_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

static void topo_trim(const char **s, size_t *len)
{
	while (*len && topo_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && topo_blank((*s)[*len - 1]))
		(*len)--;
}

static bool topo_eq(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !strncmp(s, word, len);
}

static bool topo_eq_nocase(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !strncasecmp(s, word, len);
}

/*
 * A number: decimal (a leading '-' if @min is negative) or 0x hex, as in
 * .mnfs no leading zero on a decimal.  @what names it in messages.
 */
static int topo_number(struct topo_parser *p, const struct topo_sec *s,
		       const char *what, const char *v, size_t vlen, int line,
		       int col, long min, long max, long *out)
{
	char buf[32];
	const char *digits;
	char *end;
	long long n;
	bool neg;

	if (!vlen)
		return topo_error(p, line, col, "%s: %s: missing value",
				  s->label, what);
	if (vlen >= sizeof(buf))
		goto nan;
	memcpy(buf, v, vlen);
	buf[vlen] = '\0';
	neg = buf[0] == '-';
	digits = buf + neg;
	if (!*digits || topo_blank(*digits) || *digits == '+' || *digits == '-')
		goto nan;
	if (digits[0] == '0' && digits[1] && digits[1] != 'x' && digits[1] != 'X')
		return topo_error(p, line, col,
				  "%s: %s: '%s': a decimal number cannot start with 0 (write 0x.. for hex)",
				  s->label, what, buf);
	errno = 0;
	n = strtoll(buf, &end, digits[0] == '0' && digits[1] ? 16 : 10);
	if (*end || errno)
		goto nan;
	if (n < min || n > max)
		return topo_error(p, line, col,
				  "%s: %s: value %lld is out of range (%ld..%ld)",
				  s->label, what, n, min, max);
	*out = (long)n;
	return 0;

nan:
	return topo_error(p, line, col, "%s: %s: '%.*s' is not a number",
			  s->label, what, (int)(vlen > 40 ? 40 : vlen), v);
}

static const struct topo_kv *topo_get(const struct topo_sec *s, const char *key)
{
	for (size_t i = 0; i < s->nkv; i++) {
		if (s->kv[i].key == key || !strcmp(s->kv[i].key, key))
			return &s->kv[i];
	}
	return NULL;
}

/* An optional numeric key; *out is left alone when it is missing */
static int topo_num_key(struct topo_parser *p, const struct topo_sec *s,
			const char *key, long min, long max, long *out)
{
	const struct topo_kv *kv = topo_get(s, key);

	if (!kv)
		return 0;
	return topo_number(p, s, key, kv->val, kv->vlen, kv->line, kv->vcol,
			   min, max, out);
}

static int topo_required(struct topo_parser *p, const struct topo_sec *s,
			 const char *key, const struct topo_kv **kv)
{
	*kv = topo_get(s, key);
	if (!*kv)
		return topo_error(p, s->line, 0, "%s: missing key '%s'",
				  s->label, key);
	return 0;
}

/* A key that makes no sense here (e.g. min for an enumerated control) */
static int topo_not_here(struct topo_parser *p, const struct topo_sec *s,
			 const char *key, const char *why)
{
	const struct topo_kv *kv = topo_get(s, key);

	if (!kv)
		return 0;
	return topo_error(p, kv->line, kv->kcol, "%s: key '%s' %s", s->label,
			  key, why);
}

/* A name for a wire field of @field bytes: 1..field - 1 bytes */
static int topo_name(struct topo_parser *p, const struct topo_sec *s,
		     const struct topo_kv *kv, size_t field, bool may_be_empty,
		     uint8_t *dst)
{
	if (!kv->vlen && !may_be_empty)
		return topo_error(p, kv->line, kv->vcol, "%s: %s: empty name",
				  s->label, kv->key);
	if (kv->vlen >= field)
		return topo_error(p, kv->line, kv->vcol,
				  "%s: %s: '%.*s' is %zu bytes, longer than %zu",
				  s->label, kv->key, (int)kv->vlen, kv->val,
				  kv->vlen, field - 1);
	memset(dst, 0, field);
	memcpy(dst, kv->val, kv->vlen);
	return 0;
}

/*
 * Splits a comma-separated list; calls @fn for each element (trimmed,
 * never empty).  Returns the number of elements or -1.
 */
typedef int (*topo_elem_fn)(struct topo_parser *p, const struct topo_sec *s,
			    const struct topo_kv *kv, const char *e,
			    size_t elen, int col, void *ctx);

static int topo_list(struct topo_parser *p, const struct topo_sec *s,
		     const struct topo_kv *kv, topo_elem_fn fn, void *ctx)
{
	const char *v = kv->val, *end = kv->val + kv->vlen;
	int n = 0;

	if (!kv->vlen)
		return topo_error(p, kv->line, kv->vcol, "%s: %s: missing value",
				  s->label, kv->key);
	for (;;) {
		const char *comma = memchr(v, ',', (size_t)(end - v));
		const char *e = v;
		size_t elen = (size_t)((comma ? comma : end) - v);
		int col = kv->vcol + (int)(v - kv->val);

		topo_trim(&e, &elen);
		if (!elen)
			return topo_error(p, kv->line, col,
					  "%s: %s: empty element in the list",
					  s->label, kv->key);
		if (fn(p, s, kv, e, elen, kv->vcol + (int)(e - kv->val), ctx))
			return -1;
		n++;
		if (!comma)
			return n;
		v = comma + 1;
	}
}

/* ---- output ------------------------------------------------------------- */

static void *topo_put(struct topo_parser *p, size_t n)
{
	void *at;

	if (p->len + n > p->out_cap) {
		size_t cap = p->out_cap ? p->out_cap : 1024;
		uint8_t *o;

		while (cap < p->len + n)
			cap *= 2;
		o = realloc(p->out, cap);
		if (!o) {
			p->nomem = true;
			return NULL;
		}
		p->out = o;
		p->out_cap = cap;
	}
	at = p->out + p->len;
	memset(at, 0, n);
	p->len += n;
	return at;
}

static void topo_le16(void *dst, uint16_t v)
{
	uint8_t *b = dst;

	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

static void topo_le32(void *dst, uint32_t v)
{
	uint8_t *b = dst;

	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

/* ---- pass 1: sections, keys and values ---------------------------------- */

static int topo_section(struct topo_parser *p, const char *s, size_t len,
			int line)
{
	const char *close = memchr(s, ']', len);
	const char *name, *sp;
	size_t nlen, tlen;
	struct topo_sec *sec;
	int kind;
	long id;

	if (!close)
		return topo_error(p, line, (int)len + 1,
				  "missing ']' after section name");
	if (close != s + len - 1)
		return topo_error(p, line, (int)(close - s) + 2,
				  "unexpected text after ']'");
	name = s + 1;
	nlen = (size_t)(close - name);
	if (!nlen)
		return topo_error(p, line, 2, "empty section name");
	sp = memchr(name, ' ', nlen);
	tlen = sp ? (size_t)(sp - name) : nlen;
	for (kind = 0; kind < TOPO_KINDS; kind++) {
		if (topo_eq(name, tlen, topo_kinds[kind].name))
			break;
	}
	if (kind == TOPO_KINDS)
		return topo_error(p, line, 2,
				  "unknown section [%.*s] (dai, control, widget or route)",
				  (int)(tlen > 40 ? 40 : tlen), name);
	if (!sp)
		return topo_error(p, line, 2, "section [%s] needs an id, e.g. [%s 1]",
				  topo_kinds[kind].name, topo_kinds[kind].name);

	if (p->nsecs == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct topo_sec *n = realloc(p->secs, cap * sizeof(*n));

		if (!n)
			return topo_error(p, line, 0, "out of memory");
		p->secs = n;
		p->cap = cap;
	}
	sec = &p->secs[p->nsecs];
	memset(sec, 0, sizeof(*sec));
	sec->kind = (enum topo_kind)kind;
	sec->line = line;
	snprintf(sec->label, sizeof(sec->label), "[%s]", topo_kinds[kind].name);
	if (topo_number(p, sec, "id", sp + 1, nlen - tlen - 1, line,
			(int)(sp - s) + 2, 0, (long)topo_kinds[kind].id_max, &id))
		return -1;
	sec->id = (unsigned long)id;
	snprintf(sec->label, sizeof(sec->label), "%s %lu", topo_kinds[kind].name,
		 sec->id);
	for (size_t i = 0; i < p->nsecs; i++) {
		if (p->secs[i].kind == sec->kind && p->secs[i].id == sec->id)
			return topo_error(p, line, 1,
					  "duplicate section [%s]: already declared at line %d",
					  sec->label, p->secs[i].line);
	}
	p->nsecs++;
	return 0;
}

static int topo_key(struct topo_parser *p, const char *s, size_t len,
		    const char *line_start, int line)
{
	const char *eq = memchr(s, '=', len);
	const char *k = s, *v;
	size_t klen, vlen;
	struct topo_sec *sec;
	const char *const *key;

	if (!eq)
		return topo_error(p, line, (int)(s - line_start) + 1,
				  "expected '[section]', 'key = value' or a comment");
	if (!p->nsecs)
		return topo_error(p, line, (int)(s - line_start) + 1,
				  "key outside of any section");
	sec = &p->secs[p->nsecs - 1];
	klen = (size_t)(eq - s);
	topo_trim(&k, &klen);
	if (!klen)
		return topo_error(p, line, (int)(s - line_start) + 1,
				  "missing key name before '='");
	v = eq + 1;
	vlen = len - (size_t)(v - s);
	topo_trim(&v, &vlen);
	for (key = topo_kinds[sec->kind].keys; *key; key++) {
		if (topo_eq_nocase(k, klen, *key))
			break;
	}
	if (!*key || key - topo_kinds[sec->kind].keys >= TOPO_MAX_KEYS)
		return topo_error(p, line, (int)(k - line_start) + 1,
				  "%s: unknown key '%.*s'", sec->label,
				  (int)(klen > 40 ? 40 : klen), k);
	for (size_t i = 0; i < sec->nkv; i++) {
		if (sec->kv[i].key == *key)
			return topo_error(p, line, (int)(k - line_start) + 1,
					  "%s: duplicate key '%s': already set at line %d",
					  sec->label, *key, sec->kv[i].line);
	}
	sec->kv[sec->nkv++] = (struct topo_kv) {
		.key = *key, .val = v, .vlen = vlen, .line = line,
		.kcol = (int)(k - line_start) + 1,
		.vcol = (int)(v - line_start) + 1,
	};
	return 0;
}

static int topo_lines(struct topo_parser *p, const char *src, size_t len)
{
	const char *end = src + len, *l = src;
	int line = 0;

	if (memchr(src, '\0', len))
		return topo_error(p, 0, 0, "NUL byte in source (is this a binary topology?)");
	if (len >= 3 && !memcmp(src, "\xef\xbb\xbf", 3))
		l += 3;
	while (l < end) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		const char *s = l;
		size_t n = (size_t)((nl ? nl : end) - l);
		size_t i;

		line++;
		if (n && s[n - 1] == '\r')
			n--;
		/* a comment: ';' or '#' first on the line or after a blank */
		for (i = 0; i < n; i++) {
			if ((s[i] == ';' || s[i] == '#') &&
			    (!i || topo_blank(s[i - 1])))
				break;
		}
		n = i;
		topo_trim(&s, &n);
		if (n && s[0] == '[') {
			if (topo_section(p, s, n, line))
				return -1;
		} else if (n && topo_key(p, s, n, l, line)) {
			return -1;
		}
		l = nl ? nl + 1 : end;
	}
	return 0;
}

/* ---- pass 2: DAIs ------------------------------------------------------- */

static const struct { const char *name; uint32_t bit; } topo_formats[] = {
	{ "S8", GB_AUDIO_PCM_FMT_S8 }, { "U8", GB_AUDIO_PCM_FMT_U8 },
	{ "S16_LE", GB_AUDIO_PCM_FMT_S16_LE },
	{ "S16_BE", GB_AUDIO_PCM_FMT_S16_BE },
	{ "S24_LE", GB_AUDIO_PCM_FMT_S24_LE },
	{ "S32_LE", GB_AUDIO_PCM_FMT_S32_LE },
};

static const struct { const char *name; uint32_t bit; } topo_rates[] = {
	{ "8000", GB_AUDIO_PCM_RATE_8000 }, { "16000", GB_AUDIO_PCM_RATE_16000 },
	{ "44100", GB_AUDIO_PCM_RATE_44100 }, { "48000", GB_AUDIO_PCM_RATE_48000 },
};

static int topo_format_elem(struct topo_parser *p, const struct topo_sec *s,
			    const struct topo_kv *kv, const char *e, size_t elen,
			    int col, void *ctx)
{
	uint32_t *mask = ctx;

	for (size_t i = 0; i < sizeof(topo_formats) / sizeof(topo_formats[0]); i++) {
		if (topo_eq_nocase(e, elen, topo_formats[i].name)) {
			*mask |= topo_formats[i].bit;
			return 0;
		}
	}
	return topo_error(p, kv->line, col,
			  "%s: formats: unknown format '%.*s' (S8, U8, S16_LE, S16_BE, S24_LE, S32_LE)",
			  s->label, (int)(elen > 40 ? 40 : elen), e);
}

static int topo_rate_elem(struct topo_parser *p, const struct topo_sec *s,
			  const struct topo_kv *kv, const char *e, size_t elen,
			  int col, void *ctx)
{
	uint32_t *mask = ctx;

	for (size_t i = 0; i < sizeof(topo_rates) / sizeof(topo_rates[0]); i++) {
		if (topo_eq(e, elen, topo_rates[i].name)) {
			*mask |= topo_rates[i].bit;
			return 0;
		}
	}
	return topo_error(p, kv->line, col,
			  "%s: rates: unsupported rate '%.*s' (8000, 16000, 44100, 48000)",
			  s->label, (int)(elen > 40 ? 40 : elen), e);
}

static int topo_dai(struct topo_parser *p, const struct topo_sec *s)
{
	struct gb_audio_dai *dai = topo_put(p, sizeof(*dai));
	const struct topo_kv *kv, *pb = topo_get(s, "playback");
	const struct topo_kv *cap = topo_get(s, "capture");
	uint32_t formats = GB_AUDIO_PCM_FMT_S16_LE, rates = GB_AUDIO_PCM_RATE_48000;
	long cport = p->data_cport, sig = 16, cmin = 1, cmax = 2;

	if (!dai)
		return -1;
	if (topo_required(p, s, "name", &kv) ||
	    topo_name(p, s, kv, sizeof(dai->name), false, dai->name))
		return -1;
	if (topo_num_key(p, s, "cport", 1, 4095, &cport) ||
	    topo_num_key(p, s, "sig-bits", 1, 32, &sig))
		return -1;
	kv = topo_get(s, "formats");
	if (kv) {
		formats = 0;
		if (topo_list(p, s, kv, topo_format_elem, &formats) < 0)
			return -1;
	}
	kv = topo_get(s, "rates");
	if (kv) {
		rates = 0;
		if (topo_list(p, s, kv, topo_rate_elem, &rates) < 0)
			return -1;
	}
	kv = topo_get(s, "channels");
	if (kv) {
		size_t first = 0;

		/* "N" or "MIN..MAX" */
		while (first < kv->vlen &&
		       !(kv->val[first] == '.' && first + 1 < kv->vlen &&
			 kv->val[first + 1] == '.'))
			first++;

		if (topo_number(p, s, "channels", kv->val, first, kv->line,
				kv->vcol, 1, TOPO_MAX_CHANNELS, &cmin))
			return -1;
		cmax = cmin;
		if (first != kv->vlen &&
		    topo_number(p, s, "channels", kv->val + first + 2,
				kv->vlen - first - 2, kv->line,
				kv->vcol + (int)first + 2, cmin,
				TOPO_MAX_CHANNELS, &cmax))
			return -1;
	}
	if (!pb && !cap)
		return topo_error(p, s->line, 0,
				  "%s: no stream: give 'playback', 'capture' or both",
				  s->label);
	topo_le16(&dai->data_cport, (uint16_t)cport);
	for (int i = 0; i < 2; i++) {
		struct gb_audio_pcm *pcm = i ? &dai->playback : &dai->capture;

		kv = i ? pb : cap;
		if (!kv)
			continue;
		if (topo_name(p, s, kv, sizeof(pcm->stream_name), false,
			      pcm->stream_name))
			return -1;
		topo_le32(&pcm->formats, formats);
		topo_le32(&pcm->rates, rates);
		pcm->chan_min = (uint8_t)cmin;
		pcm->chan_max = (uint8_t)cmax;
		pcm->sig_bits = (uint8_t)sig;
	}
	return 0;
}

/* ---- controls ----------------------------------------------------------- */

struct topo_items {
	uint8_t *names;		/* NULL: count only */
	size_t len;
	uint32_t n;
};

static int topo_item_elem(struct topo_parser *p, const struct topo_sec *s,
			  const struct topo_kv *kv, const char *e, size_t elen,
			  int col, void *ctx)
{
	struct topo_items *it = ctx;

	if (elen >= GB_AUDIO_ENUM_NAME_MAX)
		return topo_error(p, kv->line, col,
				  "%s: items: '%.*s' is %zu bytes, longer than %d",
				  s->label, (int)elen, e, elen,
				  GB_AUDIO_ENUM_NAME_MAX - 1);
	if (++it->n > TOPO_MAX_ITEMS)
		return topo_error(p, kv->line, col, "%s: items: more than %d items",
				  s->label, TOPO_MAX_ITEMS);
	if (it->names)
		memcpy(it->names + it->len, e, elen);
	it->len += elen + 1;
	return 0;
}

enum { CTL_BOOLEAN, CTL_INTEGER, CTL_ENUMERATED };

/* Checks a control and records what gb_topo_ctl and the widgets need */
static int topo_check_ctl(struct topo_parser *p, struct topo_sec *s,
			  struct gb_topo *t)
{
	struct gb_topo_ctl *c = &t->ctl[s->id];
	const struct topo_kv *kv, *type;
	long min = 0, max = 1, step = 1, values = 1, init;
	struct topo_items it = { 0 };
	int kind;

	if (topo_required(p, s, "name", &kv))
		return -1;
	if (topo_name(p, s, kv, sizeof(c->name), false, (uint8_t *)c->name))
		return -1;
	if (topo_required(p, s, "type", &type))
		return -1;
	if (topo_eq_nocase(type->val, type->vlen, "boolean"))
		kind = CTL_BOOLEAN;
	else if (topo_eq_nocase(type->val, type->vlen, "integer"))
		kind = CTL_INTEGER;
	else if (topo_eq_nocase(type->val, type->vlen, "enumerated"))
		kind = CTL_ENUMERATED;
	else
		return topo_error(p, type->line, type->vcol,
				  "%s: type: '%.*s' is not boolean, integer or enumerated",
				  s->label, (int)(type->vlen > 40 ? 40 : type->vlen),
				  type->val);

	if (kind == CTL_ENUMERATED) {
		if (topo_not_here(p, s, "min", "does not apply to an enumerated control") ||
		    topo_not_here(p, s, "max", "does not apply to an enumerated control") ||
		    topo_not_here(p, s, "step", "does not apply to an enumerated control") ||
		    topo_not_here(p, s, "values", "does not apply to an enumerated control (it has one)") ||
		    topo_required(p, s, "items", &kv) ||
		    topo_list(p, s, kv, topo_item_elem, &it) < 0)
			return -1;
		if (it.len > UINT16_MAX)
			return topo_error(p, kv->line, kv->vcol,
					  "%s: items: %zu bytes of names, more than %u",
					  s->label, it.len, UINT16_MAX);
		s->items = it.n;
		max = (long)it.n - 1;
	} else {
		if (topo_not_here(p, s, "items", "only applies to an enumerated control"))
			return -1;
		if (kind == CTL_BOOLEAN &&
		    (topo_not_here(p, s, "min", "does not apply to a boolean (0..1)") ||
		     topo_not_here(p, s, "max", "does not apply to a boolean (0..1)") ||
		     topo_not_here(p, s, "step", "does not apply to a boolean (0..1)")))
			return -1;
		if (kind == CTL_INTEGER) {
			const struct topo_kv *kmin, *kmax;

			if (topo_required(p, s, "min", &kmin) ||
			    topo_required(p, s, "max", &kmax) ||
			    topo_num_key(p, s, "min", INT32_MIN, INT32_MAX, &min) ||
			    topo_num_key(p, s, "max", INT32_MIN, INT32_MAX, &max))
				return -1;
			if (min >= max)
				return topo_error(p, kmax->line, kmax->vcol,
						  "%s: max %ld is not above min %ld",
						  s->label, max, min);
			if (topo_num_key(p, s, "step", 1, max - min, &step))
				return -1;
		}
		if (topo_num_key(p, s, "values", 1, 2, &values))
			return -1;
	}
	init = min;
	if (topo_num_key(p, s, "init", min, max, &init))
		return -1;

	c->declared = true;
	c->enumerated = kind == CTL_ENUMERATED;
	c->init = (int32_t)init;
	c->min = (int32_t)min;
	c->max = (int32_t)max;
	s->onoff = kind != CTL_ENUMERATED && min == 0 && max == 1 && values == 1;
	(void)step;
	return 0;
}

static int topo_emit_ctl(struct topo_parser *p, const struct topo_sec *s)
{
	const struct topo_kv *type = topo_get(s, "type");
	const struct topo_kv *name = topo_get(s, "name");
	bool en = topo_eq_nocase(type->val, type->vlen, "enumerated");
	bool boolean = topo_eq_nocase(type->val, type->vlen, "boolean");
	struct gb_audio_control *c;
	long min = 0, max = 1, step = 1, values = 1;

	c = topo_put(p, en ? GB_AUDIO_CONTROL_ENUM_SIZE : sizeof(*c));
	if (!c)
		return -1;
	memcpy(c->name, name->val, name->vlen);
	c->id = (uint8_t)s->id;
	c->iface = GB_AUDIO_CTL_ELEM_IFACE_MIXER;
	topo_le32(&c->access, GB_AUDIO_ACCESS_READ | GB_AUDIO_ACCESS_WRITE);
	c->count = 1;
	c->count_values = 1;
	if (en) {
		const struct topo_kv *items = topo_get(s, "items");
		struct topo_items it = { 0 };
		size_t at = (size_t)((uint8_t *)c - p->out);

		c->info.type = GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED;
		topo_list(p, s, items, topo_item_elem, &it);	/* the size */
		it.names = topo_put(p, it.len);
		if (!it.names)
			return -1;
		c = (struct gb_audio_control *)(p->out + at);	/* moved */
		it.len = 0;
		it.n = 0;
		topo_list(p, s, items, topo_item_elem, &it);
		topo_le32(&c->info.value.enumerated.items, it.n);
		topo_le16(&c->info.value.enumerated.names_length, (uint16_t)it.len);
		return 0;
	}
	c->info.type = boolean ? GB_AUDIO_CTL_ELEM_TYPE_BOOLEAN :
				 GB_AUDIO_CTL_ELEM_TYPE_INTEGER;
	/* checked by topo_check_ctl() */
	topo_num_key(p, s, "min", INT32_MIN, INT32_MAX, &min);
	topo_num_key(p, s, "max", INT32_MIN, INT32_MAX, &max);
	topo_num_key(p, s, "step", 1, LONG_MAX, &step);
	topo_num_key(p, s, "values", 1, 2, &values);
	c->count_values = (uint8_t)values;
	topo_le32(&c->info.value.integer.min, (uint32_t)min);
	topo_le32(&c->info.value.integer.max, (uint32_t)max);
	topo_le32(&c->info.value.integer.step, (uint32_t)step);
	return 0;
}

/* ---- widgets ------------------------------------------------------------ */

static const struct { const char *name; uint8_t type; } topo_wtypes[] = {
	{ "input", GB_AUDIO_WIDGET_TYPE_INPUT },
	{ "output", GB_AUDIO_WIDGET_TYPE_OUTPUT },
	{ "mux", GB_AUDIO_WIDGET_TYPE_MUX },
	{ "mixer", GB_AUDIO_WIDGET_TYPE_MIXER },
	{ "pga", GB_AUDIO_WIDGET_TYPE_PGA },
	{ "adc", GB_AUDIO_WIDGET_TYPE_ADC },
	{ "dac", GB_AUDIO_WIDGET_TYPE_DAC },
	{ "mic", GB_AUDIO_WIDGET_TYPE_MIC },
	{ "hp", GB_AUDIO_WIDGET_TYPE_HP },
	{ "speaker", GB_AUDIO_WIDGET_TYPE_SPK },
	{ "line", GB_AUDIO_WIDGET_TYPE_LINE },
	{ "switch", GB_AUDIO_WIDGET_TYPE_SWITCH },
	{ "aif-in", GB_AUDIO_WIDGET_TYPE_AIF_IN },
	{ "aif-out", GB_AUDIO_WIDGET_TYPE_AIF_OUT },
};

static int topo_wtype(struct topo_parser *p, const struct topo_sec *s,
		      uint8_t *type)
{
	const struct topo_kv *kv;

	if (topo_required(p, s, "type", &kv))
		return -1;
	for (size_t i = 0; i < sizeof(topo_wtypes) / sizeof(topo_wtypes[0]); i++) {
		if (topo_eq_nocase(kv->val, kv->vlen, topo_wtypes[i].name)) {
			*type = topo_wtypes[i].type;
			return 0;
		}
	}
	return topo_error(p, kv->line, kv->vcol,
			  "%s: type: unknown widget type '%.*s' (input, output, mux, mixer, pga, adc, dac, mic, hp, speaker, line, switch, aif-in, aif-out)",
			  s->label, (int)(kv->vlen > 40 ? 40 : kv->vlen), kv->val);
}

static int topo_wctl_elem(struct topo_parser *p, const struct topo_sec *s,
			  const struct topo_kv *kv, const char *e, size_t elen,
			  int col, void *ctx)
{
	struct topo_sec *w = ctx;
	struct topo_sec *c;
	long id;

	if (topo_number(p, s, "controls", e, elen, kv->line, col, 0, 254, &id))
		return -1;
	c = p->ctl_by_id[id];
	if (!c)
		return topo_error(p, kv->line, col,
				  "%s: controls: control %ld is not declared",
				  s->label, id);
	if (c->owner)
		return topo_error(p, kv->line, col,
				  "%s: controls: control %ld already belongs to %s",
				  s->label, id, c->owner->label);
	if (w->nctls == TOPO_MAX_WCTLS)
		return topo_error(p, kv->line, col,
				  "%s: controls: more than %d controls",
				  s->label, TOPO_MAX_WCTLS);
	c->owner = w;
	w->ctls[w->nctls++] = c;
	return 0;
}

static int topo_check_widget(struct topo_parser *p, struct topo_sec *w)
{
	const struct topo_kv *kv;
	uint8_t name[GB_AUDIO_WIDGET_NAME_MAX];
	uint8_t type;

	if (topo_required(p, w, "name", &kv) ||
	    topo_name(p, w, kv, sizeof(name), false, name) ||
	    topo_wtype(p, w, &type))
		return -1;
	kv = topo_get(w, "stream");
	if (kv && topo_name(p, w, kv, sizeof(name), true, name))
		return -1;
	kv = topo_get(w, "controls");
	if (kv && topo_list(p, w, kv, topo_wctl_elem, w) < 0)
		return -1;
	switch (type) {
	case GB_AUDIO_WIDGET_TYPE_MUX:
		if (w->nctls != 1 || !w->ctls[0]->items)
			return topo_error(p, w->line, 0,
					  "%s: a mux needs exactly one control, enumerated (controls = ID)",
					  w->label);
		return 0;
	case GB_AUDIO_WIDGET_TYPE_SWITCH:
	case GB_AUDIO_WIDGET_TYPE_MIXER:
		if (!w->nctls || (type == GB_AUDIO_WIDGET_TYPE_SWITCH && w->nctls != 1))
			return topo_error(p, w->line, 0,
					  "%s: a %s needs %s on/off control (controls = ID)",
					  w->label, type == GB_AUDIO_WIDGET_TYPE_MIXER ?
					  "mixer" : "switch",
					  type == GB_AUDIO_WIDGET_TYPE_MIXER ?
					  "at least one" : "exactly one");
		for (size_t i = 0; i < w->nctls; i++) {
			if (!w->ctls[i]->onoff)
				return topo_error(p, w->line, 0,
						  "%s: %s is not an on/off control (a boolean, or an integer 0..1 with one value)",
						  w->label, w->ctls[i]->label);
		}
		return 0;
	default:
		if (w->nctls)
			return topo_error(p, kv->line, kv->vcol,
					  "%s: a widget of type '%.*s' cannot have controls",
					  w->label, (int)topo_get(w, "type")->vlen,
					  topo_get(w, "type")->val);
		return 0;
	}
}

static int topo_emit_widget(struct topo_parser *p, const struct topo_sec *w)
{
	const struct topo_kv *name = topo_get(w, "name");
	const struct topo_kv *stream = topo_get(w, "stream");
	struct gb_audio_widget *gw = topo_put(p, sizeof(*gw));
	uint8_t type = 0;

	if (!gw)
		return -1;
	topo_wtype(p, w, &type);
	memcpy(gw->name, name->val, name->vlen);
	if (stream)
		memcpy(gw->sname, stream->val, stream->vlen);
	gw->id = (uint8_t)w->id;
	gw->type = type;
	gw->state = GB_AUDIO_WIDGET_STATE_DISABLED;
	gw->ncontrols = (uint8_t)w->nctls;
	for (size_t i = 0; i < w->nctls; i++) {
		if (topo_emit_ctl(p, w->ctls[i]))
			return -1;
	}
	return 0;
}

/* ---- routes ------------------------------------------------------------- */

static int topo_widget_ref(struct topo_parser *p, const struct topo_sec *r,
			   const char *key, struct topo_sec **w)
{
	const struct topo_kv *kv;
	long id;

	if (topo_required(p, r, key, &kv) ||
	    topo_number(p, r, key, kv->val, kv->vlen, kv->line, kv->vcol, 0,
			255, &id))
		return -1;
	*w = p->widget_by_id[id];
	if (!*w)
		return topo_error(p, kv->line, kv->vcol,
				  "%s: %s: widget %ld is not declared", r->label,
				  key, id);
	return 0;
}

static int topo_route(struct topo_parser *p, const struct topo_sec *r)
{
	struct topo_sec *src, *sink, *ctl = NULL;
	const struct topo_kv *kv;
	struct gb_audio_route *gr;
	long cid = TOPO_NO_CONTROL, index = 0;

	if (topo_widget_ref(p, r, "source", &src) ||
	    topo_widget_ref(p, r, "sink", &sink))
		return -1;
	if (src == sink)
		return topo_error(p, topo_get(r, "sink")->line,
				  topo_get(r, "sink")->vcol,
				  "%s: source and sink are the same widget", r->label);
	if (!sink->nctls) {
		if (topo_not_here(p, r, "control", "is for a route into a widget with controls") ||
		    topo_not_here(p, r, "index", "is for a route into a mux"))
			return -1;
	} else {
		if (topo_required(p, r, "control", &kv) ||
		    topo_number(p, r, "control", kv->val, kv->vlen, kv->line,
				kv->vcol, 0, 254, &cid))
			return -1;
		for (size_t i = 0; i < sink->nctls; i++) {
			if (sink->ctls[i]->id == (unsigned long)cid)
				ctl = sink->ctls[i];
		}
		if (!ctl)
			return topo_error(p, kv->line, kv->vcol,
					  "%s: control: %s has no control %ld",
					  r->label, sink->label, cid);
		if (!ctl->items) {
			if (topo_not_here(p, r, "index", "is for a route into a mux"))
				return -1;
		} else if (topo_num_key(p, r, "index", 0, (long)ctl->items - 1, &index)) {
			return -1;
		}
	}
	gr = topo_put(p, sizeof(*gr));
	if (!gr)
		return -1;
	gr->source_id = (uint8_t)src->id;
	gr->destination_id = (uint8_t)sink->id;
	gr->control_id = (uint8_t)cid;
	gr->index = (uint8_t)index;
	return 0;
}

/* ---- the whole ---------------------------------------------------------- */

static int topo_compile(struct topo_parser *p, const char *src, size_t len,
			struct gb_topo *t)
{
	struct gb_audio_topology *h;
	size_t mark, size[4];
	unsigned int n[TOPO_KINDS] = { 0 };

	if (topo_lines(p, src, len))
		return -1;
	for (size_t i = 0; i < p->nsecs; i++) {
		struct topo_sec *s = &p->secs[i];

		n[s->kind]++;
		if (s->kind == TOPO_CONTROL) {
			p->ctl_by_id[s->id] = s;
			if (topo_check_ctl(p, s, t))
				return -1;
		} else if (s->kind == TOPO_WIDGET) {
			p->widget_by_id[s->id] = s;
		}
	}
	if (!n[TOPO_DAI])
		return topo_error(p, 0, 0, "no [dai N] section: a topology needs at least one dai");
	if (n[TOPO_DAI] > TOPO_MAX_DAIS)
		return topo_error(p, 0, 0, "%u dais, at most %d", n[TOPO_DAI],
				  TOPO_MAX_DAIS);
	if (n[TOPO_WIDGET] > 255 || n[TOPO_ROUTE] > 255)
		return topo_error(p, 0, 0, "more than 255 widgets or routes");
	for (size_t i = 0; i < p->nsecs; i++) {
		if (p->secs[i].kind == TOPO_WIDGET &&
		    topo_check_widget(p, &p->secs[i]))
			return -1;
	}

	if (!topo_put(p, sizeof(*h)))
		goto nomem;
	for (int kind = 0; kind < TOPO_KINDS; kind++) {
		mark = p->len;
		for (size_t i = 0; i < p->nsecs; i++) {
			struct topo_sec *s = &p->secs[i];
			int ret = 0;

			if ((int)s->kind != kind)
				continue;
			if (kind == TOPO_DAI) {
				ret = topo_dai(p, s);
			} else if (kind == TOPO_CONTROL) {
				if (s->owner)
					continue;	/* written with its widget */
				t->num_controls++;
				ret = topo_emit_ctl(p, s);
			} else if (kind == TOPO_WIDGET) {
				t->num_widget_controls += s->nctls;
				ret = topo_emit_widget(p, s);
			} else {
				ret = topo_route(p, s);
			}
			if (ret)
				return p->nomem ? topo_error(p, 0, 0, "out of memory") : -1;
		}
		size[kind] = p->len - mark;
	}
	if (p->nomem)
		goto nomem;
	if (t->num_controls > 255)
		return topo_error(p, 0, 0, "%u top-level controls, at most 255",
				  t->num_controls);
	if (p->len > GB_TOPO_SIZE_MAX)
		return topo_error(p, 0, 0,
				  "the topology takes %zu bytes, more than the %d GET_TOPOLOGY_SIZE can give",
				  p->len, GB_TOPO_SIZE_MAX);
	h = (struct gb_audio_topology *)p->out;
	t->num_dais = n[TOPO_DAI];
	t->num_widgets = n[TOPO_WIDGET];
	t->num_routes = n[TOPO_ROUTE];
	h->num_dais = (uint8_t)t->num_dais;
	h->num_controls = (uint8_t)t->num_controls;
	h->num_widgets = (uint8_t)t->num_widgets;
	h->num_routes = (uint8_t)t->num_routes;
	topo_le32(&h->size_dais, (uint32_t)size[TOPO_DAI]);
	topo_le32(&h->size_controls, (uint32_t)size[TOPO_CONTROL]);
	topo_le32(&h->size_widgets, (uint32_t)size[TOPO_WIDGET]);
	topo_le32(&h->size_routes, (uint32_t)size[TOPO_ROUTE]);
	t->blob = p->out;
	t->len = p->len;
	p->out = NULL;
	return 0;

nomem:
	return topo_error(p, 0, 0, "out of memory");
}

int gb_topo_compile(const char *src, size_t len, const char *filename,
		    uint16_t data_cport, struct gb_topo *t,
		    struct gb_mnfs_diag *diag)
{
	struct topo_parser p = {
		.file = filename ? filename : "<topology>",
		.diag = diag,
		.data_cport = data_cport,
	};
	int ret;

	memset(t, 0, sizeof(*t));
	if (diag)
		memset(diag, 0, sizeof(*diag));
	ret = topo_compile(&p, src, len, t);
	free(p.secs);
	free(p.out);
	if (ret)
		memset(t, 0, sizeof(*t));
	return ret;
}

void gb_topo_release(struct gb_topo *t)
{
	free(t->blob);
	memset(t, 0, sizeof(*t));
}
