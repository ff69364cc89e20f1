// SPDX-License-Identifier: GPL-2.0
/*
 * tools/lib/gb_pcapng.c: what the writer writes the reader reads back;
 * broken files are refused with a reason, never read past.  Also writes
 * two captures for gbmon.sh (gbmon and the Wireshark dissector):
 *   LOG.protocols.pcapng  a request and a response of every operation
 *                         of every protocol gbmon names
 *   LOG.malformed.pcapng  one record of each kind of malformed message
 *
 * Usage: pcapng_test UNUSED MANIFEST_DIR LOG
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/gpio.h>

#include <gb_msg.h>
#include <gb_pcapng.h>

static unsigned int tests, failures;

static void ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	failures += !cond;
	printf("%s %u - ", cond ? "ok" : "not ok", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* A message with a @plen-byte payload (a pattern), recorded at @ts */
static void put(struct gb_pcapng_writer *w, uint64_t ts, uint16_t bus,
		uint8_t intf, uint16_t cport, uint8_t protocol, bool in,
		uint16_t id, uint8_t type, uint8_t result, size_t plen)
{
	uint8_t msg[8 + 64];
	struct gb_mon_hdr h;

	for (size_t i = 0; i < plen; i++)
		msg[8 + i] = (uint8_t)(i + 1);
	gb_msg_header_build(msg, (uint16_t)(8 + plen), id, type, result);
	gb_pcapng_msg_hdr(&h, ts, bus, (uint16_t)(cport + 4), intf, cport,
			  protocol, in, msg, 8 + plen);
	gb_pcapng_write(w, &h, msg);
}

static size_t read_all(const char *path, int *err, char *why, size_t wlen)
{
	struct gb_pcapng_reader r;
	struct gb_pcapng_packet p;
	size_t n = 0;
	int ret;

	*err = gb_pcapng_open(&r, path);
	if (*err) {
		snprintf(why, wlen, "%s", r.error);
		return 0;
	}
	while ((ret = gb_pcapng_next(&r, &p)) > 0)
		n++;
	*err = ret;
	snprintf(why, wlen, "%s", r.error);
	gb_pcapng_reader_free(&r);
	return n;
}

/* Every operation of every protocol gbmon names, both ways */
static size_t write_protocols(const char *path)
{
	struct gb_pcapng_writer w;
	uint64_t ts = 1000000000ull;
	size_t n = 0;
	uint16_t id = 1;

	if (gb_pcapng_create(&w, path, "pcapng_test"))
		return 0;
	for (int p = 0; p < 256; p++) {
		for (int t = 1; t < GB_MSG_TYPE_MASK; t++) {
			if (gb_op_name((uint8_t)p, (uint8_t)t) == gb_name_unknown)
				continue;
			put(&w, ts, 1, 2, 3, (uint8_t)p, false, id, (uint8_t)t, 0, 40);
			put(&w, ts + 1000, 1, 2, 3, (uint8_t)p, true, id,
			    (uint8_t)(t | GB_MSG_TYPE_RESPONSE), 0, 40);
			ts += 10000;
			id = (uint16_t)(id % 0xffff + 1);
			n++;
		}
	}
	return gb_pcapng_close(&w) ? 0 : n;
}

static size_t write_malformed(const char *path)
{
	struct gb_pcapng_writer w;
	struct gb_mon_hdr h;
	uint8_t msg[16] = { 0 };
	size_t n = 0;

	if (gb_pcapng_create(&w, path, "pcapng_test"))
		return 0;
	/* 3 bytes: shorter than a header */
	gb_pcapng_msg_hdr(&h, 1000, 1, 5, 2, 1, GREYBUS_PROTOCOL_GPIO, false, msg, 3);
	gb_pcapng_write(&w, &h, msg), n++;
	/* size 12 > 8 received */
	gb_msg_header_build(msg, 12, 7, GB_GPIO_TYPE_SET_VALUE, 0);
	gb_pcapng_msg_hdr(&h, 2000, 1, 5, 2, 1, GREYBUS_PROTOCOL_GPIO, false, msg, 8);
	gb_pcapng_write(&w, &h, msg), n++;
	/* size 4 < header */
	gb_msg_header_build(msg, 4, 8, GB_GPIO_TYPE_SET_VALUE, 0);
	gb_pcapng_msg_hdr(&h, 3000, 1, 5, 2, 1, GREYBUS_PROTOCOL_GPIO, false, msg, 8);
	gb_pcapng_write(&w, &h, msg), n++;
	/* gpio.set_value with 1 byte of its 2 */
	gb_msg_header_build(msg, 9, 9, GB_GPIO_TYPE_SET_VALUE, 0);
	msg[8] = 3;
	gb_pcapng_msg_hdr(&h, 4000, 1, 5, 2, 1, GREYBUS_PROTOCOL_GPIO, false, msg, 9);
	gb_pcapng_write(&w, &h, msg), n++;
	/* a record of an unknown kind, and one saying 5 were lost */
	gb_msg_header_build(msg, 8, 10, GB_GPIO_TYPE_LINE_COUNT, 0);
	gb_pcapng_msg_hdr(&h, 5000, 1, 5, 2, 1, GREYBUS_PROTOCOL_GPIO, false, msg, 8);
	h.kind = 9;
	gb_pcapng_write(&w, &h, msg), n++;
	gb_pcapng_msg_hdr(&h, 6000, 1, 5, 2, 1, GREYBUS_PROTOCOL_GPIO, false, msg, 8);
	h.lost = htole32(5);
	gb_pcapng_write(&w, &h, msg), n++;
	return gb_pcapng_close(&w) ? 0 : n;
}

/* A copy of @src with @len bytes at @off replaced by @bytes */
static void corrupt(const char *src, const char *dst, long off,
		    const void *bytes, size_t len, long truncate_to)
{
	static uint8_t buf[1 << 20];
	FILE *f = fopen(src, "rb");
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;

	if (f)
		fclose(f);
	if (off >= 0 && (size_t)off + len <= n)
		memcpy(buf + off, bytes, len);
	if (truncate_to >= 0 && (size_t)truncate_to < n)
		n = (size_t)truncate_to;
	f = fopen(dst, "wb");
	if (f) {
		fwrite(buf, 1, n, f);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	char prot[4096], bad[4096], tmp[4096], why[200];
	struct gb_pcapng_reader r;
	struct gb_pcapng_packet pkt;
	struct gb_mon_hdr h;
	const uint8_t *msg;
	size_t nops, nbad, n, mlen;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: pcapng_test UNUSED MANIFEST_DIR LOG\n");
		return 2;
	}
	snprintf(prot, sizeof(prot), "%s.protocols.pcapng", argv[3]);
	snprintf(bad, sizeof(bad), "%s.malformed.pcapng", argv[3]);
	snprintf(tmp, sizeof(tmp), "%s.corrupt.pcapng", argv[3]);
	printf("TAP version 13\n");

	nops = write_protocols(prot);
	ok(nops > 150, "pcapng: %zu operations written", nops);
	n = read_all(prot, &err, why, sizeof(why));
	ok(!err && n == 2 * nops, "pcapng: all %zu packets read back (%s)", n, why);

	/* one packet read back whole, fields as written */
	err = gb_pcapng_open(&r, prot);
	ok(!err && gb_pcapng_next(&r, &pkt) == 1 &&
	   pkt.linktype == GB_PCAPNG_LINKTYPE && pkt.ts_ns == 1000000000ull &&
	   !gb_pcapng_record(&pkt, &h, &msg, &mlen, why, sizeof(why)) &&
	   mlen == 48 && le16toh(h.bus_id) == 1 && h.intf_id == 2 &&
	   le16toh(h.intf_cport_id) == 3 && le16toh(h.hd_cport_id) == 7 &&
	   le16toh(h.operation_id) == 1 && !(le32toh(h.flags) & GB_MON_F_IN) &&
	   msg[8] == 1 && msg[47] == 40,
	   "pcapng: a record reads back as written");
	gb_pcapng_reader_free(&r);

	nbad = write_malformed(bad);
	n = read_all(bad, &err, why, sizeof(why));
	ok(nbad == 6 && !err && n == nbad,
	   "pcapng: malformed messages are still well-formed packets (%zu)", n);

	/* broken files: a reason, never a crash */
	corrupt(prot, tmp, 0, "\x01\x02\x03\x04", 4, -1);
	read_all(tmp, &err, why, sizeof(why));
	ok(err == -EINVAL && strstr(why, "section header"), "pcapng: no section header refused: %s", why);
	corrupt(prot, tmp, 8, "\x00\x00\x00\x00", 4, -1);
	read_all(tmp, &err, why, sizeof(why));
	ok(err == -EINVAL && strstr(why, "byte-order"), "pcapng: bad magic refused: %s", why);
	corrupt(prot, tmp, 4, "\xff\xff\xff\x7f", 4, -1);
	read_all(tmp, &err, why, sizeof(why));
	ok(err == -EINVAL && strstr(why, "block length"), "pcapng: huge block length refused: %s", why);
	corrupt(prot, tmp, -1, NULL, 0, 1000);
	n = read_all(tmp, &err, why, sizeof(why));
	ok(err == -EINVAL && n > 0, "pcapng: truncated file: %zu packets, then %s", n, why);
	corrupt(prot, tmp, -1, NULL, 0, 0);
	n = read_all(tmp, &err, why, sizeof(why));
	ok(!err && n == 0, "pcapng: empty file: no packets");
	read_all("/nonexistent/x.pcapng", &err, why, sizeof(why));
	ok(err == -ENOENT, "pcapng: missing file: %s", why);

	/* a record whose header says more than the packet holds */
	{
		uint8_t d[60] = { 1, 1, 56, 0 };
		struct gb_pcapng_packet p = {
			.linktype = GB_PCAPNG_LINKTYPE, .data = d, .cap_len = 60,
		};

		d[32] = 9;	/* cap_len 9, 4 follow */
		ok(gb_pcapng_record(&p, &h, &msg, &mlen, why, sizeof(why)) == -EINVAL,
		   "pcapng: record cap_len beyond the packet refused: %s", why);
		d[2] = 200;
		ok(gb_pcapng_record(&p, &h, &msg, &mlen, why, sizeof(why)) == -EINVAL,
		   "pcapng: record header beyond the packet refused: %s", why);
	}
	printf("1..%u\n", tests);
	return failures ? 1 : 0;
}
