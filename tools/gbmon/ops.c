// SPDX-License-Identifier: GPL-2.0
/*
 * Operations: each request waits here for its response, then the pair is
 * printed as one line with the latency between them.  A request is keyed
 * by host, host CPort, operation id and direction; the table is bounded
 * (GBMON_PENDING): when it is full the oldest request is printed as
 * unanswered to make room.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gb_msg.h>
#include <decode/gb_decode.h>

#include "gbmon.h"

#define GBMON_PENDING	1024
#define GBMON_TEXT	512

struct gbmon_req {
	bool		used;
	uint64_t	seq;		/* age, for eviction */
	struct gb_mon_hdr hdr;		/* the request's record */
	char		name[96];
	char		fields[GBMON_TEXT];
};

struct gbmon {
	struct gbmon_opts o;
	bool		have_t0;
	uint64_t	t0;
	uint64_t	seq;
	struct gbmon_req req[GBMON_PENDING];
};

/* One printed line: an operation, or a lone record */
struct gbmon_line {
	const struct gb_mon_hdr *hdr;	/* where (request's, else the record's) */
	uint64_t	ts;
	const char	*name;		/* "gpio.set_value" */
	bool		has_id;
	uint16_t	id;
	const char	*req;		/* request fields, or NULL */
	const char	*outcome;	/* "success", "cancelled", ... or NULL */
	const char	*rsp;		/* response fields, or NULL */
	int64_t		latency_ns;	/* < 0: none */
	const char	*note;		/* "malformed: ...", "no response" ... */
	bool		error;
};

struct gbmon *gbmon_new(const struct gbmon_opts *opts)
{
	struct gbmon *gm = calloc(1, sizeof(*gm));

	if (gm)
		gm->o = *opts;
	return gm;
}

bool gbmon_malformed(const uint8_t *msg, size_t len, size_t msg_len,
		     char *buf, size_t buflen)
{
	uint16_t size;

	if (msg_len < sizeof(struct gb_operation_msg_hdr) ||
	    len < sizeof(struct gb_operation_msg_hdr)) {
		snprintf(buf, buflen, "malformed: %zu bytes, shorter than the 8-byte header",
			 msg_len < len ? msg_len : len);
		return true;
	}
	size = gb_get_le16(msg);
	if (size < sizeof(struct gb_operation_msg_hdr)) {
		snprintf(buf, buflen, "malformed: size %u < 8-byte header", size);
		return true;
	}
	if (size > msg_len) {
		snprintf(buf, buflen, "malformed: size %u > %zu received", size,
			 msg_len);
		return true;
	}
	return false;
}

static void json_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, ",\"%s\":\"", key);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *skip_space(const char *s)
{
	return s && *s == ' ' ? s + 1 : s;
}

/* Text from the decoders, bytes a terminal would act on shown as \xNN */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c > 0x7e)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static bool gbmon_wanted(const struct gbmon *gm, const struct gb_mon_hdr *h)
{
	const struct gbmon_filter *f = &gm->o.filter;
	int cport = h->intf_id == GB_MON_ID_NONE ? le16toh(h->hd_cport_id) :
						   le16toh(h->intf_cport_id);

	if (f->host >= 0 && le16toh(h->bus_id) != f->host)
		return false;
	if (f->intf >= 0 && h->intf_id != f->intf)
		return false;
	if (f->bundle >= 0 && h->bundle_id != f->bundle)
		return false;
	if (f->cport >= 0 && cport != f->cport)
		return false;
	if (f->protocol >= 0 && h->protocol_id != f->protocol)
		return false;
	return true;
}

static void gbmon_print(struct gbmon *gm, const struct gbmon_line *l)
{
	const struct gb_mon_hdr *h = l->hdr;
	bool in = le32toh(h->flags) & GB_MON_F_IN;
	double t = (double)(l->ts - gm->t0) / 1e9;
	FILE *f = gm->o.out;
	char where[48];

	if (gm->o.filter.errors && !l->error)
		return;
	if (gm->o.json) {
		fprintf(f, "{\"time\":%.6f,\"host\":%u", t, le16toh(h->bus_id));
		if (h->intf_id != GB_MON_ID_NONE)
			fprintf(f, ",\"intf\":%u", h->intf_id);
		if (h->bundle_id != GB_MON_ID_NONE)
			fprintf(f, ",\"bundle\":%u", h->bundle_id);
		if (le16toh(h->intf_cport_id) != GB_MON_CPORT_NONE)
			fprintf(f, ",\"cport\":%u", le16toh(h->intf_cport_id));
		if (le32toh(h->flags) & GB_MON_F_NO_CONNECTION)
			fprintf(f, ",\"no_connection\":true");
		fprintf(f, ",\"hd_cport\":%u,\"dir\":\"%s\"",
			le16toh(h->hd_cport_id), in ? "in" : "out");
		if (l->name)
			json_str(f, "op", l->name);
		if (l->has_id)
			fprintf(f, ",\"id\":%u", l->id);
		if (l->req)
			json_str(f, "request", skip_space(l->req));
		if (l->outcome)
			json_str(f, "result", l->outcome);
		if (l->rsp)
			json_str(f, "response", skip_space(l->rsp));
		if (l->latency_ns >= 0)
			fprintf(f, ",\"latency_us\":%.3f",
				(double)l->latency_ns / 1e3);
		if (l->note)
			json_str(f, "note", l->note);
		fprintf(f, ",\"error\":%s}\n", l->error ? "true" : "false");
		fflush(f);
		return;
	}
	if (h->intf_id == GB_MON_ID_NONE)
		snprintf(where, sizeof(where), "%s cport %u",
			 h->protocol_id == GREYBUS_PROTOCOL_SVC ? "svc" : "hd",
			 le16toh(h->hd_cport_id));
	else if (h->bundle_id == GB_MON_ID_NONE)
		snprintf(where, sizeof(where), "intf %u cport %u", h->intf_id,
			 le16toh(h->intf_cport_id));
	else
		snprintf(where, sizeof(where), "intf %u.%u cport %u", h->intf_id,
			 h->bundle_id, le16toh(h->intf_cport_id));
	fprintf(f, "%12.6f greybus%u %s %s", t, le16toh(h->bus_id),
		in ? "<" : ">", where);
	if (l->name)
		fprintf(f, " %s", l->name);
	if (l->has_id)
		fprintf(f, " id=0x%04x", l->id);
	if (l->req)
		put_text(f, l->req);
	if (l->outcome)
		fprintf(f, " -> %s", l->outcome);
	if (l->rsp)
		put_text(f, l->rsp);
	if (l->latency_ns >= 0)
		fprintf(f, " (%.0f us)", (double)l->latency_ns / 1e3);
	if (l->note)
		fprintf(f, " %s", l->note);
	fputc('\n', f);
	fflush(f);
}

void gbmon_note(struct gbmon *gm, const char *what)
{
	if (gm->o.json) {
		fprintf(gm->o.out, "{\"note\":\"");
		for (const char *s = what; *s; s++)
			if (*s != '"' && *s != '\\' && *s >= 0x20)
				fputc(*s, gm->o.out);
		fprintf(gm->o.out, "\",\"error\":true}\n");
	} else {
		fprintf(gm->o.out, "%s\n", what);
	}
	fflush(gm->o.out);
}

static void gbmon_lost(struct gbmon *gm, uint32_t n)
{
	char note[64];

	snprintf(note, sizeof(note), "lost %u record%s (reader too slow)", n,
		 n == 1 ? "" : "s");
	gbmon_note(gm, note);
}

/* The connection's protocol, or -1 when the record has none */
static int gbmon_protocol(const struct gb_mon_hdr *h)
{
	return le32toh(h->flags) & GB_MON_F_NO_CONNECTION ? -1 : h->protocol_id;
}

/* "gpio.set_value"; "unknown.type_0x08" on a CPort without connection */
static void gbmon_name(const struct gb_mon_hdr *h, uint8_t type, char *buf,
		       size_t len)
{
	if (gbmon_protocol(h) < 0)
		snprintf(buf, len, "unknown.type_0x%02x", type & GB_MSG_TYPE_MASK);
	else
		gb_op_fullname(h->protocol_id, type, buf, len);
}

/* The name, id and fields of a well-formed message's record */
static void gbmon_describe(const struct gb_mon_hdr *h, const uint8_t *msg,
			   size_t len, char *name, size_t nlen,
			   struct gb_buf *fields)
{
	size_t size = gb_get_le16(msg);
	size_t plen = (size < len ? size : len) - sizeof(struct gb_operation_msg_hdr);
	size_t before = fields->len;

	gbmon_name(h, msg[4], name, nlen);
	gb_decode_payload(fields, gbmon_protocol(h), msg[4], msg[5],
			  msg + sizeof(struct gb_operation_msg_hdr), plen);
	if (plen && fields->len == before)
		gb_buf_printf(fields, " len=%zu", plen);
	if (le32toh(h->flags) & GB_MON_F_TRUNCATED)
		gb_buf_printf(fields, " (%u of %u bytes captured)",
			      le32toh(h->cap_len), le32toh(h->msg_len));
}

static const char *gbmon_result(uint8_t result, char *buf, size_t len)
{
	const char *r = gb_result_name(result);

	if (r != gb_name_unknown)
		return r;
	snprintf(buf, len, "result_0x%02x", result);
	return buf;
}

static struct gbmon_req *gbmon_find(struct gbmon *gm, const struct gb_mon_hdr *h,
				    bool req_in)
{
	for (size_t i = 0; i < GBMON_PENDING; i++) {
		struct gbmon_req *r = &gm->req[i];

		if (r->used && r->hdr.bus_id == h->bus_id &&
		    r->hdr.hd_cport_id == h->hd_cport_id &&
		    r->hdr.operation_id == h->operation_id &&
		    !!(le32toh(r->hdr.flags) & GB_MON_F_IN) == req_in)
			return r;
	}
	return NULL;
}

/* A request that will see no response */
static void gbmon_unanswered(struct gbmon *gm, struct gbmon_req *r,
			     const char *why)
{
	struct gbmon_line l = {
		.hdr = &r->hdr, .ts = le64toh(r->hdr.timestamp_ns),
		.name = r->name, .has_id = true,
		.id = le16toh(r->hdr.operation_id), .req = r->fields,
		.latency_ns = -1, .note = why, .error = true,
	};

	gbmon_print(gm, &l);
	r->used = false;
}

static void gbmon_keep(struct gbmon *gm, const struct gb_mon_hdr *h,
		       const char *name, const char *fields)
{
	struct gbmon_req *r = gbmon_find(gm, h, le32toh(h->flags) & GB_MON_F_IN);
	struct gbmon_req *oldest = NULL;

	if (r)
		gbmon_unanswered(gm, r, "no response (operation id reused)");
	for (size_t i = 0; i < GBMON_PENDING && !r; i++) {
		if (!gm->req[i].used)
			r = &gm->req[i];
		else if (!oldest || gm->req[i].seq < oldest->seq)
			oldest = &gm->req[i];
	}
	if (!r) {
		gbmon_unanswered(gm, oldest, "no response seen (too many pending)");
		r = oldest;
	}
	r->used = true;
	r->seq = gm->seq++;
	r->hdr = *h;
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->fields, sizeof(r->fields), "%s", fields);
}

static void gbmon_message(struct gbmon *gm, const struct gb_mon_hdr *h,
			  const uint8_t *msg, size_t len)
{
	char name[96], text[GBMON_TEXT], note[96], rbuf[16];
	uint8_t hdr8[sizeof(struct gb_operation_msg_hdr)];
	struct gb_buf fields = { .p = text, .max = sizeof(text) };
	struct gbmon_line l = {
		.hdr = h, .ts = le64toh(h->timestamp_ns), .latency_ns = -1,
	};
	struct gbmon_req *r;
	bool response;

	text[0] = '\0';
	if (len < sizeof(hdr8) && le32toh(h->msg_len) >= sizeof(hdr8) &&
	    (le32toh(h->flags) & GB_MON_F_TRUNCATED)) {
		/*
		 * A snap length below 8 bytes: the record's header still
		 * says which operation this was
		 */
		gb_msg_header_build(hdr8, (uint16_t)le32toh(h->msg_len),
				    le16toh(h->operation_id), h->type, h->result);
		msg = hdr8;
		len = sizeof(hdr8);
	}
	if (gbmon_malformed(msg, len, le32toh(h->msg_len), note, sizeof(note))) {
		if (len >= 6) {
			gbmon_name(h, msg[4], name, sizeof(name));
			l.name = name;
			l.has_id = true;
			l.id = gb_get_le16(msg + 2);
		}
		l.note = note;
		l.error = true;
		gbmon_print(gm, &l);
		return;
	}
	gbmon_describe(h, msg, len, name, sizeof(name), &fields);
	response = msg[4] & GB_MSG_TYPE_RESPONSE;
	l.name = name;
	l.has_id = true;
	l.id = gb_get_le16(msg + 2);
	if (!response) {
		if (l.id) {
			gbmon_keep(gm, h, name, text);
			return;
		}
		l.req = text;		/* unidirectional: no response comes */
		gbmon_print(gm, &l);
		return;
	}
	l.outcome = gbmon_result(msg[5], rbuf, sizeof(rbuf));
	l.rsp = text;
	l.error = msg[5] != GB_OP_SUCCESS;
	r = gbmon_find(gm, h, !(le32toh(h->flags) & GB_MON_F_IN));
	if (!r) {
		l.note = "(request not seen)";
		gbmon_print(gm, &l);
		return;
	}
	l.hdr = &r->hdr;
	l.ts = le64toh(r->hdr.timestamp_ns);
	l.name = r->name;
	l.req = r->fields;
	l.latency_ns = (int64_t)(le64toh(h->timestamp_ns) - l.ts);
	gbmon_print(gm, &l);
	r->used = false;
}

/* A cancelled operation or a failed send: the end of a pending request */
static void gbmon_end(struct gbmon *gm, const struct gb_mon_hdr *h,
		      const char *what)
{
	int status = (int32_t)le32toh(h->status);
	const char *ename = status ? strerrorname_np(-status) : NULL;
	bool in = le32toh(h->flags) & GB_MON_F_IN;
	struct gbmon_line l = {
		.hdr = h, .ts = le64toh(h->timestamp_ns), .has_id = true,
		.id = le16toh(h->operation_id), .latency_ns = -1,
		.error = true,
	};
	struct gbmon_req *r = NULL;
	char name[96], outcome[64];

	snprintf(outcome, sizeof(outcome), "%s%s%s", what, ename ? " " : "",
		 ename ? ename : "");
	l.outcome = outcome;
	if (!(h->type & GB_MSG_TYPE_RESPONSE))
		r = gbmon_find(gm, h, in);
	if (r) {
		l.hdr = &r->hdr;
		l.ts = le64toh(r->hdr.timestamp_ns);
		l.name = r->name;
		l.req = r->fields;
		l.latency_ns = (int64_t)(le64toh(h->timestamp_ns) - l.ts);
		gbmon_print(gm, &l);
		r->used = false;
		return;
	}
	gbmon_name(h, h->type, name, sizeof(name));
	l.name = name;
	gbmon_print(gm, &l);
}

void gbmon_record(struct gbmon *gm, const struct gb_mon_hdr *hdr,
		  const uint8_t *msg, size_t len)
{
	if (!gm->have_t0) {
		gm->t0 = le64toh(hdr->timestamp_ns);
		gm->have_t0 = true;
	}
	if (le32toh(hdr->lost))
		gbmon_lost(gm, le32toh(hdr->lost));
	if (hdr->kind == GB_MON_KIND_LOST)
		return;
	if (!gbmon_wanted(gm, hdr))
		return;
	switch (hdr->kind) {
	case GB_MON_KIND_MESSAGE:
		gbmon_message(gm, hdr, msg, len);
		break;
	case GB_MON_KIND_SEND_ERROR:
		gbmon_end(gm, hdr, "send failed");
		break;
	case GB_MON_KIND_CANCEL:
		gbmon_end(gm, hdr, le32toh(hdr->flags) & GB_MON_F_IN ?
				   "dropped" : "cancelled");
		break;
	default: {
		char note[64];

		snprintf(note, sizeof(note), "record of unknown kind %u",
			 hdr->kind);
		gbmon_note(gm, note);
	}
	}
}

void gbmon_finish(struct gbmon *gm)
{
	for (;;) {
		struct gbmon_req *oldest = NULL;

		for (size_t i = 0; i < GBMON_PENDING; i++)
			if (gm->req[i].used &&
			    (!oldest || gm->req[i].seq < oldest->seq))
				oldest = &gm->req[i];
		if (!oldest)
			break;
		gbmon_unanswered(gm, oldest, "no response seen");
	}
	free(gm);
}
