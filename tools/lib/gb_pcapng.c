// SPDX-License-Identifier: GPL-2.0
/*
 * pcapng writer and reader (gb_pcapng.h).  Block layouts follow the pcapng
 * specification (IETF draft-ietf-opsawg-pcapng): every block is
 * type, total length, body, total length again, 32-bit aligned.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_pcapng.h"

#define PCAPNG_SHB		0x0A0D0D0Au
#define PCAPNG_IDB		0x00000001u
#define PCAPNG_EPB		0x00000006u
#define PCAPNG_MAGIC		0x1A2B3C4Du
#define PCAPNG_OPT_END		0
#define PCAPNG_OPT_SHB_USERAPPL	4
#define PCAPNG_OPT_IF_NAME	2
#define PCAPNG_OPT_IF_TSRESOL	9
#define PCAPNG_OPT_EPB_DROPCOUNT 4
#define PCAPNG_BLOCK_MAX	(1u << 24)	/* reader: larger is an error */
#define PCAPNG_FILE_MAX		(1ull << 31)

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* ---- Writing ------------------------------------------------------------ */

static void put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void put16(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, 2);
}

static void w_bytes(struct gb_pcapng_writer *w, const void *p, size_t n)
{
	if (w->error || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n)
		w->error = errno ? errno : EIO;
}

static void w_u32(struct gb_pcapng_writer *w, uint32_t v)
{
	uint8_t b[4];

	put32(b, v);
	w_bytes(w, b, 4);
}

static void w_pad(struct gb_pcapng_writer *w, size_t n)
{
	static const uint8_t zero[4];

	w_bytes(w, zero, pad4(n) - n);
}

/* An option: code, length, value, padding */
static void w_opt(struct gb_pcapng_writer *w, uint16_t code, const void *v,
		  uint16_t len)
{
	uint8_t b[4];

	put16(b, code);
	put16(b + 2, len);
	w_bytes(w, b, 4);
	w_bytes(w, v, len);
	w_pad(w, len);
}

static size_t opt_size(size_t len)
{
	return 4 + pad4(len);
}

int gb_pcapng_create(struct gb_pcapng_writer *w, const char *path,
		     const char *appl)
{
	size_t alen = appl ? strlen(appl) : 0;
	uint32_t total;
	uint8_t b[16];

	memset(w, 0, sizeof(*w));
	if (!strcmp(path, "-"))
		w->f = fdopen(dup(STDOUT_FILENO), "w");
	else
		w->f = fopen(path, "we");
	if (!w->f)
		return -errno;
	if (alen > 256)
		alen = 256;
	total = 28 + (alen ? opt_size(alen) : 0) + 4;
	w_u32(w, PCAPNG_SHB);
	w_u32(w, total);
	put32(b, PCAPNG_MAGIC);
	put16(b + 4, 1);
	put16(b + 6, 0);
	memset(b + 8, 0xff, 8);		/* section length unknown */
	w_bytes(w, b, 16);
	if (alen)
		w_opt(w, PCAPNG_OPT_SHB_USERAPPL, appl, (uint16_t)alen);
	w_opt(w, PCAPNG_OPT_END, NULL, 0);
	w_u32(w, total);
	return -w->error;
}

/* The interface of host device @bus, its IDB written on first use */
static int w_interface(struct gb_pcapng_writer *w, uint16_t bus)
{
	char name[24];
	uint8_t resol = 9;	/* nanoseconds */
	size_t nlen;
	uint32_t total;
	uint8_t b[8];

	for (int i = 0; i < w->nif; i++)
		if (w->bus_of_if[i] == bus)
			return i;
	if (w->nif >= GB_PCAPNG_HOSTS_MAX)
		return -ENOSPC;
	nlen = (size_t)snprintf(name, sizeof(name), "greybus%u", bus);
	total = 16 + opt_size(nlen) + opt_size(1) + 4 + 4;
	w_u32(w, PCAPNG_IDB);
	w_u32(w, total);
	put16(b, GB_PCAPNG_LINKTYPE);
	put16(b + 2, 0);
	put32(b + 4, GB_PCAPNG_SNAPLEN);
	w_bytes(w, b, 8);
	w_opt(w, PCAPNG_OPT_IF_NAME, name, (uint16_t)nlen);
	w_opt(w, PCAPNG_OPT_IF_TSRESOL, &resol, 1);
	w_opt(w, PCAPNG_OPT_END, NULL, 0);
	w_u32(w, total);
	w->bus_of_if[w->nif] = bus;
	return w->nif++;
}

int gb_pcapng_write(struct gb_pcapng_writer *w, const struct gb_mon_hdr *hdr,
		    const void *data)
{
	size_t hlen = le16toh(hdr->hdr_len), cap = le32toh(hdr->cap_len);
	uint64_t ts = le64toh(hdr->timestamp_ns);
	size_t plen = hlen + cap;
	/* the records lost before this one: the EPB's drop count too */
	uint64_t lost = htole64(le32toh(hdr->lost));
	size_t opts = lost ? opt_size(8) + 4 : 0;
	int ifx;

	if (w->error)
		return -w->error;
	if (hlen != sizeof(*hdr) || cap > GB_MON_SNAPLEN_MAX)
		return -EINVAL;
	ifx = w_interface(w, le16toh(hdr->bus_id));
	if (ifx < 0)
		return ifx;
	w_u32(w, PCAPNG_EPB);
	w_u32(w, (uint32_t)(32 + pad4(plen) + opts));
	w_u32(w, (uint32_t)ifx);
	w_u32(w, (uint32_t)(ts >> 32));
	w_u32(w, (uint32_t)ts);
	w_u32(w, (uint32_t)plen);
	w_u32(w, (uint32_t)(hlen + le32toh(hdr->msg_len)));
	w_bytes(w, hdr, hlen);
	w_bytes(w, data, cap);
	w_pad(w, plen);
	if (lost) {
		w_opt(w, PCAPNG_OPT_EPB_DROPCOUNT, &lost, 8);
		w_opt(w, PCAPNG_OPT_END, NULL, 0);
	}
	w_u32(w, (uint32_t)(32 + pad4(plen) + opts));
	return -w->error;
}

int gb_pcapng_flush(struct gb_pcapng_writer *w)
{
	if (!w->error && fflush(w->f))
		w->error = errno;
	return -w->error;
}

int gb_pcapng_close(struct gb_pcapng_writer *w)
{
	int err = w->error;

	if (!w->f)
		return 0;
	if (fclose(w->f) && !err)
		err = errno;
	w->f = NULL;
	return -err;
}

void gb_pcapng_msg_hdr(struct gb_mon_hdr *hdr, uint64_t ts_ns,
		       uint16_t bus_id, uint16_t hd_cport, uint8_t intf,
		       uint16_t intf_cport, uint8_t protocol, bool in,
		       const void *msg, size_t len)
{
	const uint8_t *m = msg;
	uint32_t flags = in ? GB_MON_F_IN : 0;
	size_t cap = len < GB_MON_SNAPLEN_MAX ? len : GB_MON_SNAPLEN_MAX;

	memset(hdr, 0, sizeof(*hdr));
	hdr->version = GB_MON_VERSION;
	hdr->kind = GB_MON_KIND_MESSAGE;
	hdr->hdr_len = htole16(sizeof(*hdr));
	hdr->timestamp_ns = htole64(ts_ns);
	hdr->msg_len = htole32((uint32_t)len);
	hdr->cap_len = htole32((uint32_t)cap);
	hdr->bus_id = htole16(bus_id);
	hdr->hd_cport_id = htole16(hd_cport);
	hdr->intf_cport_id = htole16(intf_cport);
	hdr->intf_id = intf;
	hdr->bundle_id = GB_MON_ID_NONE;
	hdr->protocol_id = protocol;
	if (len >= sizeof(struct gb_operation_msg_hdr)) {
		uint16_t size = (uint16_t)(m[0] | m[1] << 8);

		hdr->operation_id = htole16((uint16_t)(m[2] | m[3] << 8));
		hdr->type = m[4];
		hdr->result = m[5];
		if (m[4] & GB_MSG_TYPE_RESPONSE)
			flags |= GB_MON_F_RESPONSE;
		if (size < sizeof(struct gb_operation_msg_hdr) || size > len)
			flags |= GB_MON_F_MALFORMED;
	} else {
		flags |= GB_MON_F_MALFORMED;
	}
	if (cap < len)
		flags |= GB_MON_F_TRUNCATED;
	hdr->flags = htole32(flags);
}

/* ---- Reading ------------------------------------------------------------ */

static uint32_t r32(const struct gb_pcapng_reader *r, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return r->swapped ? be32toh(v) : le32toh(v);
}

static uint16_t r16(const struct gb_pcapng_reader *r, const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return r->swapped ? be16toh(v) : le16toh(v);
}

void gb_pcapng_reader_init(struct gb_pcapng_reader *r, const void *data,
			   size_t len)
{
	memset(r, 0, sizeof(*r));
	r->data = data;
	r->len = len;
}

int gb_pcapng_open(struct gb_pcapng_reader *r, const char *path)
{
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = NULL, *nb;
	int fd, err = 0;
	ssize_t n;

	gb_pcapng_reader_init(r, NULL, 0);
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) :
				 dup(STDIN_FILENO);
	if (fd < 0) {
		err = errno;
		snprintf(r->error, sizeof(r->error), "%s: %s", path,
			 strerror(err));
		return -err;
	}
	for (;;) {
		if (len == cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > PCAPNG_FILE_MAX) {
				err = EFBIG;
				break;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				err = ENOMEM;
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (err) {
		free(buf);
		snprintf(r->error, sizeof(r->error), "%s: %s", path,
			 strerror(err));
		return -err;
	}
	gb_pcapng_reader_init(r, buf, len);
	r->owned = buf;
	return 0;
}

void gb_pcapng_reader_free(struct gb_pcapng_reader *r)
{
	free(r->owned);
	r->owned = NULL;
}

static int r_fail(struct gb_pcapng_reader *r, const char *what)
{
	snprintf(r->error, sizeof(r->error), "malformed pcapng at offset %zu: %s",
		 r->off, what);
	r->off = r->len;	/* nothing more is read */
	return -EINVAL;
}

/* An IDB's body (after type and length) of @len bytes */
static int r_idb(struct gb_pcapng_reader *r, const uint8_t *p, size_t len)
{
	uint8_t resol = 6;
	size_t o = 8;

	if (len < 8)
		return r_fail(r, "interface block too short");
	if (r->nif >= GB_PCAPNG_HOSTS_MAX)
		return r_fail(r, "too many interfaces");
	while (o + 4 <= len) {
		uint16_t code = r16(r, p + o), olen = r16(r, p + o + 2);

		if (code == PCAPNG_OPT_END)
			break;
		if (o + 4 + olen > len)
			return r_fail(r, "interface option past its block");
		if (code == PCAPNG_OPT_IF_TSRESOL && olen >= 1)
			resol = p[o + 4];
		o += opt_size(olen);
	}
	r->linktype[r->nif] = r16(r, p);
	r->tsresol[r->nif] = resol;
	r->nif++;
	return 0;
}

/* A timestamp in units of if_tsresol @resol, as nanoseconds */
static uint64_t r_ns(uint64_t ts, uint8_t resol)
{
	unsigned int n = resol & 0x7f;

	if (resol & 0x80)
		return n >= 64 ? 0 :
			(uint64_t)(((unsigned __int128)ts * 1000000000u) >> n);
	if (n <= 9) {
		for (; n < 9; n++)
			ts *= 10;
		return ts;
	}
	for (; n > 9 && ts; n--)
		ts /= 10;
	return ts;
}

int gb_pcapng_next(struct gb_pcapng_reader *r, struct gb_pcapng_packet *pkt)
{
	while (r->off < r->len) {
		const uint8_t *p = r->data + r->off;
		size_t left = r->len - r->off;
		uint32_t type, total;

		if (left < 12)
			return r_fail(r, "truncated block header");
		memcpy(&type, p, 4);
		type = le32toh(type);
		if (type == PCAPNG_SHB) {
			uint32_t magic;

			if (left < 28)
				return r_fail(r, "truncated section header");
			memcpy(&magic, p + 8, 4);
			if (le32toh(magic) == PCAPNG_MAGIC)
				r->swapped = false;
			else if (be32toh(magic) == PCAPNG_MAGIC)
				r->swapped = true;
			else
				return r_fail(r, "bad byte-order magic");
			r->nif = 0;	/* interfaces are per section */
		} else if (r->off == 0) {
			return r_fail(r, "not a pcapng file (no section header)");
		}
		type = r32(r, p);
		total = r32(r, p + 4);
		if (total < 12 || total % 4 || total > left ||
		    total > PCAPNG_BLOCK_MAX)
			return r_fail(r, "bad block length");
		if (r32(r, p + total - 4) != total)
			return r_fail(r, "block lengths disagree");
		if (type == PCAPNG_IDB) {
			int err = r_idb(r, p + 8, total - 12);

			if (err)
				return err;
		} else if (type == PCAPNG_EPB) {
			uint32_t ifx, cap;

			if (total < 32)
				return r_fail(r, "packet block too short");
			ifx = r32(r, p + 8);
			cap = r32(r, p + 20);
			if (ifx >= r->nif)
				return r_fail(r, "packet on an undeclared interface");
			if (cap > total - 32)
				return r_fail(r, "packet data past its block");
			pkt->ifindex = (uint16_t)ifx;
			pkt->linktype = r->linktype[ifx];
			pkt->ts_ns = r_ns((uint64_t)r32(r, p + 12) << 32 |
					  r32(r, p + 16), r->tsresol[ifx]);
			pkt->cap_len = cap;
			pkt->orig_len = r32(r, p + 24);
			pkt->data = p + 28;
			r->off += total;
			return 1;
		}
		r->off += total;
	}
	return 0;
}

int gb_pcapng_record(const struct gb_pcapng_packet *pkt,
		     struct gb_mon_hdr *hdr, const uint8_t **msg,
		     size_t *msg_len, char *err, size_t errlen)
{
	size_t hlen, cap;

	memset(hdr, 0, sizeof(*hdr));
	if (pkt->linktype != GB_PCAPNG_LINKTYPE) {
		snprintf(err, errlen, "link type %u is not Greybus (%u)",
			 pkt->linktype, GB_PCAPNG_LINKTYPE);
		return -EINVAL;
	}
	if (pkt->cap_len < 4) {
		snprintf(err, errlen, "malformed: %u bytes, no record header",
			 pkt->cap_len);
		return -EINVAL;
	}
	hlen = (size_t)(pkt->data[2] | pkt->data[3] << 8);
	if (hlen < 4 || hlen > pkt->cap_len) {
		snprintf(err, errlen, "malformed: record header of %zu bytes in %u",
			 hlen, pkt->cap_len);
		return -EINVAL;
	}
	memcpy(hdr, pkt->data, hlen < sizeof(*hdr) ? hlen : sizeof(*hdr));
	cap = pkt->cap_len - hlen;
	if (le32toh(hdr->cap_len) != cap) {
		snprintf(err, errlen, "malformed: cap_len %u but %zu bytes follow",
			 le32toh(hdr->cap_len), cap);
		return -EINVAL;
	}
	*msg = pkt->data + hlen;
	*msg_len = cap;
	return 0;
}
