// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest abuse: writes every kind of malformed event to /dev/greybus-vhd
 * and checks that each fails with EINVAL (EFAULT for unreadable memory)
 * and changes nothing, then mutates valid events at random for a while,
 * predicting every outcome with a model of the rules in docs/vhd.md.
 * The device must still work at the end.
 *
 * Valid RECV events are not written unless --deliver is given: they would
 * hand messages to the Greybus core, which is not what is under test.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "vhdtest.h"

#define ABUSE_BUF_SIZE		(GB_VHD_EVENT_SIZE_MAX + 64)
#define HDR_SIZE		sizeof(struct gb_vhd_event_hdr)
#define MSG_OFF			(HDR_SIZE + sizeof(struct gb_vhd_message))

struct abuse {
	int		fd;
	bool		deliver;

	struct vhd_model m;		/* the file's state */

	/* Events a successful write must produce */
	bool		want_created;
	bool		want_echo;
	size_t		echo_len;
	uint8_t		*echo;

	uint8_t		*buf;		/* the event being written */
	uint8_t		*rbuf;		/* read() buffer */

	unsigned int	cases;
	unsigned int	failures;
	unsigned int	skipped;
	unsigned int	created_count;
};

/* Event builders: fill a->buf, return the byte count to write */

static size_t build_hdr(uint8_t *buf, uint32_t type, uint32_t len)
{
	put_u32(buf, type);
	put_u32(buf + 4, len);
	return HDR_SIZE + len;
}

static size_t build_create(uint8_t *buf, uint32_t version, uint16_t cports,
			   uint16_t mtu, uint32_t flags)
{
	uint8_t *p = buf + HDR_SIZE;

	put_u32(p, version);
	put_u16(p + 4, cports);
	put_u16(p + 6, mtu);
	put_u32(p + 8, flags);
	return build_hdr(buf, GB_VHD_CREATE, sizeof(struct gb_vhd_create));
}

/* A RECV of @msg_len bytes whose header size field says @size_field */
static size_t build_recv(uint8_t *buf, uint16_t cport, uint16_t pad,
			 size_t msg_len, uint16_t size_field)
{
	uint8_t *m = buf + MSG_OFF;
	size_t i;

	put_u16(buf + HDR_SIZE, cport);
	put_u16(buf + HDR_SIZE + 2, pad);
	for (i = 0; i < msg_len; i++)
		m[i] = (uint8_t)(0xa5 ^ i);
	if (msg_len >= sizeof(struct gb_operation_msg_hdr)) {
		put_u16(m, htole16(size_field));
		put_u16(m + 2, htole16(0xfffe));	/* no such operation */
		m[4] = 0x82;				/* a response */
		m[5] = 0;
		m[6] = 0;
		m[7] = 0;
	}
	return build_hdr(buf, GB_VHD_RECV,
			 (uint32_t)(sizeof(struct gb_vhd_message) + msg_len));
}

static size_t build_recv_ok(uint8_t *buf, uint16_t cport, size_t msg_len)
{
	return build_recv(buf, cport, 0, msg_len, (uint16_t)msg_len);
}

/*
 * The model's answer (model.c).  The strobes written here are dated far
 * from now, so a strobe's "either" never arises.
 */
static int abuse_expect(const struct abuse *a, const uint8_t *buf,
			size_t count)
{
	bool either;

	return vhd_model_expect(&a->m, buf, count, &either);
}

static void abuse_fail(struct abuse *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void abuse_fail(struct abuse *a, const char *fmt, ...)
{
	va_list ap;

	a->failures++;
	fprintf(stderr, "%s: abuse: FAIL: ", VHDTEST_NAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Reads every queued event and checks it against what the model awaits */
static void abuse_drain(struct abuse *a, const char *what)
{
	struct gb_vhd_event_hdr hdr;
	struct gb_vhd_cport c;
	ssize_t n;

	for (;;) {
		n = read(a->fd, a->rbuf, GB_VHD_EVENT_SIZE_MAX);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			abuse_fail(a, "%s: read: %s", what, strerror(errno));
			break;
		}
		if (vhdtest_opts.verbose > 1)
			vhd_event_print(stderr, a->rbuf, (size_t)n);
		if ((size_t)n < HDR_SIZE) {
			abuse_fail(a, "%s: read a %zd-byte event", what, n);
			continue;
		}
		memcpy(&hdr, a->rbuf, sizeof(hdr));
		if (hdr.len != (size_t)n - HDR_SIZE) {
			abuse_fail(a, "%s: event 0x%x says %u bytes, read %zd",
				   what, hdr.type, hdr.len, n);
			continue;
		}
		switch (hdr.type) {
		case GB_VHD_CREATED:
			if (!a->want_created)
				abuse_fail(a, "%s: unexpected CREATED", what);
			a->want_created = false;
			break;
		case GB_VHD_ECHO_REPLY:
			if (!a->want_echo || hdr.len != a->echo_len ||
			    memcmp(a->rbuf + HDR_SIZE, a->echo, a->echo_len))
				abuse_fail(a, "%s: unexpected or wrong ECHO_REPLY (%u bytes)",
					   what, hdr.len);
			a->want_echo = false;
			break;
		case GB_VHD_CPORT_ENABLE:
		case GB_VHD_CPORT_DISABLE:
			if (hdr.len != sizeof(c)) {
				abuse_fail(a, "%s: CPORT event of %u bytes",
					   what, hdr.len);
				break;
			}
			memcpy(&c, a->rbuf + HDR_SIZE, sizeof(c));
			vhd_model_cport_set(&a->m, c.cport_id,
					    hdr.type == GB_VHD_CPORT_ENABLE);
			break;
		default:
			break;
		}
	}
	if (a->want_created)
		abuse_fail(a, "%s: no CREATED after a successful CREATE", what);
	if (a->want_echo)
		abuse_fail(a, "%s: no ECHO_REPLY after a successful ECHO_REQUEST",
			   what);
	a->want_created = false;
	a->want_echo = false;
}

/* The model follows a write the kernel accepted */
static void abuse_apply(struct abuse *a, const uint8_t *buf, size_t count)
{
	const uint8_t *p = buf + HDR_SIZE;

	vhd_model_apply(&a->m, buf);
	switch (get_u32(buf)) {
	case GB_VHD_CREATE:
		a->want_created = true;
		a->created_count++;
		break;
	case GB_VHD_ECHO_REQUEST:
		a->want_echo = true;
		a->echo_len = count - HDR_SIZE;
		memcpy(a->echo, p, a->echo_len);
		break;
	default:
		break;
	}
}

/* Writes @count bytes at @buf and checks the answer is @want (errno or 0) */
static void abuse_try(struct abuse *a, const char *what, const void *buf,
		      size_t count, int want)
{
	int got;

	a->cases++;
	got = -vhd_write_raw(a->fd, buf, count);
	if (got != want)
		abuse_fail(a, "%s: write of %zu bytes: got %s, want %s", what,
			   count, got ? strerror(got) : "success",
			   want ? strerror(want) : "success");
	else
		vhdtest_verbose("ok - %s", what);
	if (!got && buf != NULL)
		abuse_apply(a, buf, count);
	abuse_drain(a, what);
}

/* abuse_try() with the model's prediction as the wanted answer */
static void abuse_try_model(struct abuse *a, const char *what, size_t count)
{
	abuse_try(a, what, a->buf, count, abuse_expect(a, a->buf, count));
}

static void abuse_directed_nohost(struct abuse *a)
{
	static const uint32_t bad_types[] = {
		0, 5, 6, 0x7f, 0x80, GB_VHD_CREATED, GB_VHD_SEND,
		GB_VHD_CPORT_ENABLE, GB_VHD_CPORT_DISABLE, GB_VHD_CPORT_FLUSH,
		GB_VHD_CPORT_CONNECTED, GB_VHD_CPORT_QUIESCE,
		GB_VHD_CPORT_CLEAR, GB_VHD_CPORT_SHUTDOWN, GB_VHD_ECHO_REPLY,
		GB_VHD_RESET, 0x8c, 0xff, 0x101, 0x10001, 0x80000001,
		0xffffffff,
	};
	static const uint32_t bad_versions[] = {
		0, GB_VHD_VERSION_MAX + 1, 0x100, 0xffffffff
	};
	static const uint32_t bad_flags[] = { 2, 4, 0x80000000, 0xffffffff };
	static const uint16_t bad_cports[] = { 0, GB_VHD_CPORTS_MAX + 1, 0xffff };
	static const uint16_t bad_mtus[] = { 0, 1, 8, GB_VHD_MTU_MIN - 1 };
	static const size_t create_lens[] = { 0, 4, 11, 13, 16, 64 };
	static const uint32_t len_deltas[] = { 1, 0xffffffff, 0x80000000 };
	char what[96];
	size_t count, i;

	abuse_try(a, "zero-length write", a->buf, 0, EINVAL);
	build_create(a->buf, GB_VHD_VERSION, 8, 256, 0);
	for (i = 1; i < HDR_SIZE; i++) {
		snprintf(what, sizeof(what), "%zu-byte write (partial header)", i);
		abuse_try(a, what, a->buf, i, EINVAL);
	}

	count = build_hdr(a->buf, GB_VHD_ECHO_REQUEST,
			  (uint32_t)(GB_VHD_ECHO_SIZE_MAX + 1));
	abuse_try(a, "oversized ECHO_REQUEST (max + 1)", a->buf, count, EINVAL);
	count = build_hdr(a->buf, GB_VHD_ECHO_REQUEST,
			  (uint32_t)(ABUSE_BUF_SIZE - HDR_SIZE));
	abuse_try(a, "oversized write", a->buf, count, EINVAL);

	for (i = 0; i < sizeof(len_deltas) / sizeof(len_deltas[0]); i++) {
		count = build_create(a->buf, GB_VHD_VERSION, 8, 256, 0);
		put_u32(a->buf + 4, get_u32(a->buf + 4) + len_deltas[i]);
		snprintf(what, sizeof(what), "CREATE with len off by 0x%x",
			 len_deltas[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
	count = build_create(a->buf, GB_VHD_VERSION, 8, 256, 0);
	abuse_try(a, "CREATE one byte short of its len", a->buf, count - 1,
		  EINVAL);
	abuse_try(a, "CREATE with one byte more than its len", a->buf,
		  count + 1, EINVAL);

	for (i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++) {
		count = build_create(a->buf, GB_VHD_VERSION, 8, 256, 0);
		put_u32(a->buf, bad_types[i]);
		snprintf(what, sizeof(what), "event type 0x%x", bad_types[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}

	count = build_recv_ok(a->buf, 0, 8);
	abuse_try(a, "RECV before CREATE", a->buf, count, EINVAL);
	count = build_hdr(a->buf, GB_VHD_DESTROY, 0);
	abuse_try(a, "DESTROY before CREATE", a->buf, count, EINVAL);

	for (i = 0; i < sizeof(create_lens) / sizeof(create_lens[0]); i++) {
		build_create(a->buf, GB_VHD_VERSION, 8, 256, 0);
		count = build_hdr(a->buf, GB_VHD_CREATE, (uint32_t)create_lens[i]);
		snprintf(what, sizeof(what), "CREATE with a %zu-byte payload",
			 create_lens[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
	for (i = 0; i < sizeof(bad_versions) / sizeof(bad_versions[0]); i++) {
		count = build_create(a->buf, bad_versions[i], 8, 256, 0);
		snprintf(what, sizeof(what), "CREATE version %u", bad_versions[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
	for (i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
		count = build_create(a->buf, GB_VHD_VERSION, 8, 256, bad_flags[i]);
		snprintf(what, sizeof(what), "CREATE flags 0x%x", bad_flags[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
	for (i = 0; i < sizeof(bad_cports) / sizeof(bad_cports[0]); i++) {
		count = build_create(a->buf, GB_VHD_VERSION, bad_cports[i], 256, 0);
		snprintf(what, sizeof(what), "CREATE num_cports %u", bad_cports[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
	for (i = 0; i < sizeof(bad_mtus) / sizeof(bad_mtus[0]); i++) {
		count = build_create(a->buf, GB_VHD_VERSION, 8, bad_mtus[i], 0);
		snprintf(what, sizeof(what), "CREATE mtu %u", bad_mtus[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
}

/*
 * Unreadable memory: the header itself, and a good header whose payload
 * lies on a page that cannot be read.  EFAULT, and nothing changes.
 */
static void abuse_directed_efault(struct abuse *a, bool host)
{
	long page = sysconf(_SC_PAGESIZE);
	struct gb_vhd_event_hdr hdr;
	uint8_t *map, *p;

	a->cases++;
	if (vhd_write_raw(a->fd, (const void *)(uintptr_t)page, 20) != -EFAULT)
		abuse_fail(a, "write from an unmapped address: not EFAULT");
	abuse_drain(a, "unmapped header");

	map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		abuse_fail(a, "mmap: %s", strerror(errno));
		return;
	}
	if (mprotect(map + page, (size_t)page, PROT_NONE)) {
		abuse_fail(a, "mprotect: %s", strerror(errno));
		goto out_unmap;
	}
	p = map + page - HDR_SIZE;

	if (!host) {
		hdr.type = GB_VHD_CREATE;
		hdr.len = sizeof(struct gb_vhd_create);
		memcpy(p, &hdr, sizeof(hdr));
		abuse_try(a, "CREATE with an unreadable payload", p,
			  HDR_SIZE + hdr.len, EFAULT);
	} else {
		/* A valid RECV header, its message on the unreadable page */
		p = map + page - MSG_OFF;
		build_recv_ok(a->buf, 0, 16);
		memcpy(p, a->buf, MSG_OFF);
		abuse_try(a, "RECV with an unreadable message", p,
			  MSG_OFF + 16, EFAULT);
		p = map + page - HDR_SIZE;
	}

	hdr.type = GB_VHD_ECHO_REQUEST;
	hdr.len = 32;
	memcpy(p, &hdr, sizeof(hdr));
	abuse_try(a, "ECHO_REQUEST with an unreadable payload", p,
		  HDR_SIZE + hdr.len, EFAULT);

out_unmap:
	munmap(map, (size_t)page * 2);
}

static void abuse_directed_host(struct abuse *a)
{
	static const uint16_t bad_pads[] = { 1, 0x8000, 0xffff };
	static const size_t short_msgs[] = { 0, 1, 4, 7 };
	char what[96];
	size_t count, i;
	uint16_t cport;

	count = build_create(a->buf, GB_VHD_VERSION, 8, 256, 0);
	abuse_try(a, "CREATE (8 cports, mtu 256)", a->buf, count, 0);
	if (!a->m.created)
		return;

	count = build_create(a->buf, GB_VHD_VERSION, 8, 256, 0);
	abuse_try(a, "second CREATE", a->buf, count, EINVAL);

	/* TimeSync strobes: exactly 8 bytes, never in the future */
	for (i = 0; i < 3; i++) {
		static const uint64_t stamps[] = { 1, UINT64_MAX, 0 };
		static const uint32_t lens[] = { 8, 8, 7 };
		struct gb_vhd_strobe st = { .timestamp_ns = stamps[i] };

		count = build_hdr(a->buf, GB_VHD_TIMESYNC_STROBE, lens[i]);
		memcpy(a->buf + HDR_SIZE, &st, lens[i]);
		snprintf(what, sizeof(what), "TIMESYNC_STROBE of %u bytes at %llu ns",
			 lens[i], (unsigned long long)stamps[i]);
		abuse_try_model(a, what, count);
	}

	for (cport = a->m.num_cports; cport < a->m.num_cports + 2; cport++) {
		count = build_recv_ok(a->buf, cport, 8);
		snprintf(what, sizeof(what), "RECV on cport %u of %u", cport,
			 a->m.num_cports);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
	count = build_recv_ok(a->buf, 0xffff, 8);
	abuse_try(a, "RECV on cport 0xffff", a->buf, count, EINVAL);

	for (cport = 1; cport < a->m.num_cports; cport++) {
		if (vhd_model_cport_enabled(&a->m, cport))
			continue;
		count = build_recv_ok(a->buf, cport, 8);
		snprintf(what, sizeof(what), "RECV on disabled cport %u", cport);
		abuse_try(a, what, a->buf, count, EINVAL);
	}

	for (i = 0; i < sizeof(bad_pads) / sizeof(bad_pads[0]); i++) {
		count = build_recv(a->buf, 0, bad_pads[i], 8, 8);
		snprintf(what, sizeof(what), "RECV with pad 0x%x", bad_pads[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
	for (i = 0; i < sizeof(short_msgs) / sizeof(short_msgs[0]); i++) {
		count = build_recv(a->buf, 0, 0, short_msgs[i], 0);
		snprintf(what, sizeof(what), "RECV of a %zu-byte message",
			 short_msgs[i]);
		abuse_try(a, what, a->buf, count, EINVAL);
	}
	count = build_hdr(a->buf, GB_VHD_RECV, 2);
	abuse_try(a, "RECV shorter than struct gb_vhd_message", a->buf, count,
		  EINVAL);

	count = build_recv(a->buf, 0, 0, 16, 17);
	abuse_try(a, "RECV header size one too big", a->buf, count, EINVAL);
	count = build_recv(a->buf, 0, 0, 16, 15);
	abuse_try(a, "RECV header size one too small", a->buf, count, EINVAL);
	count = build_recv(a->buf, 0, 0, 16, 0);
	abuse_try(a, "RECV header size 0", a->buf, count, EINVAL);
	count = build_recv(a->buf, 0, 0, 16, 0xffff);
	abuse_try(a, "RECV header size 0xffff", a->buf, count, EINVAL);
	count = build_recv(a->buf, 0, 0, 16, 16 + 0x100);
	abuse_try(a, "RECV header size off by 256", a->buf, count, EINVAL);

	count = build_recv_ok(a->buf, 0, (size_t)a->m.mtu + 1);
	abuse_try(a, "RECV of mtu + 1 bytes", a->buf, count, EINVAL);
	count = build_recv_ok(a->buf, 0, GB_OPERATION_MSG_SIZE_MAX);
	abuse_try(a, "RECV of 65535 bytes over mtu 256", a->buf, count, EINVAL);

	count = build_hdr(a->buf, GB_VHD_DESTROY, 1);
	abuse_try(a, "DESTROY with a payload", a->buf, count, EINVAL);
	count = build_hdr(a->buf, GB_VHD_DESTROY, 4);
	abuse_try(a, "DESTROY with a 4-byte payload", a->buf, count, EINVAL);

	abuse_directed_efault(a, true);

	if (a->deliver) {
		count = build_recv_ok(a->buf, 0, 8);
		abuse_try(a, "valid RECV on cport 0 (delivered)", a->buf, count,
			  0);
		count = build_recv_ok(a->buf, 0, a->m.mtu);
		abuse_try(a, "valid RECV of mtu bytes (delivered)", a->buf,
			  count, 0);
	}
}

/* The device still does everything right */
static void abuse_usable(struct abuse *a, const char *when)
{
	char what[96];
	size_t count, i;

	count = build_hdr(a->buf, GB_VHD_ECHO_REQUEST, 0);
	snprintf(what, sizeof(what), "%s: empty ECHO_REQUEST", when);
	abuse_try(a, what, a->buf, count, 0);
	count = build_hdr(a->buf, GB_VHD_ECHO_REQUEST, 100);
	for (i = 0; i < 100; i++)
		a->buf[HDR_SIZE + i] = (uint8_t)(i ^ 0x3c);
	snprintf(what, sizeof(what), "%s: ECHO_REQUEST of 100 bytes", when);
	abuse_try(a, what, a->buf, count, 0);
	count = build_hdr(a->buf, GB_VHD_ECHO_REQUEST,
			  (uint32_t)GB_VHD_ECHO_SIZE_MAX);
	snprintf(what, sizeof(what), "%s: largest ECHO_REQUEST", when);
	abuse_try(a, what, a->buf, count, 0);

	if (a->m.created) {
		count = build_hdr(a->buf, GB_VHD_DESTROY, 0);
		snprintf(what, sizeof(what), "%s: DESTROY", when);
		abuse_try(a, what, a->buf, count, 0);
	}
	count = build_recv_ok(a->buf, 0, 8);
	snprintf(what, sizeof(what), "%s: RECV after DESTROY", when);
	abuse_try(a, what, a->buf, count, EINVAL);
	count = build_hdr(a->buf, GB_VHD_DESTROY, 0);
	snprintf(what, sizeof(what), "%s: second DESTROY", when);
	abuse_try(a, what, a->buf, count, EINVAL);

	count = build_create(a->buf, GB_VHD_VERSION, GB_VHD_CPORTS_MAX,
			     GB_OPERATION_MSG_SIZE_MAX,
			     GB_VHD_CREATE_BRIDGE_SHUTDOWN);
	snprintf(what, sizeof(what), "%s: CREATE (4096 cports, mtu 65535)",
		 when);
	abuse_try(a, what, a->buf, count, 0);
	count = build_hdr(a->buf, GB_VHD_DESTROY, 0);
	snprintf(what, sizeof(what), "%s: DESTROY it", when);
	abuse_try(a, what, a->buf, count, a->m.created ? 0 : EINVAL);
	count = build_create(a->buf, GB_VHD_VERSION, 1, GB_VHD_MTU_MIN, 0);
	snprintf(what, sizeof(what), "%s: CREATE (1 cport, mtu 64)", when);
	abuse_try(a, what, a->buf, count, 0);
	count = build_hdr(a->buf, GB_VHD_DESTROY, 0);
	snprintf(what, sizeof(what), "%s: DESTROY that", when);
	abuse_try(a, what, a->buf, count, a->m.created ? 0 : EINVAL);
}

/* Random but plausible event in a->buf; returns the byte count */
static size_t abuse_random_event(struct abuse *a, struct vhdtest_rng *rng)
{
	static const uint16_t cport_counts[] = { 1, 2, 8, 32, 255, 4096 };
	static const uint16_t mtus[] = { 64, 65, 256, 2048, 4096, 65535 };
	uint32_t len, i;
	uint16_t cport;
	size_t size;

	switch (vhdtest_rng_below(rng, 6)) {
	case 0:
		return build_create(a->buf, GB_VHD_VERSION,
				    cport_counts[vhdtest_rng_below(rng, 6)],
				    mtus[vhdtest_rng_below(rng, 6)],
				    vhdtest_rng_below(rng, 2));
	case 1:
		return build_hdr(a->buf, GB_VHD_DESTROY, 0);
	case 2:
	case 3:
		cport = (uint16_t)vhdtest_rng_below(rng, a->m.created ?
						     a->m.num_cports + 2u : 8u);
		size = 8 + vhdtest_rng_below(rng, 300);
		return build_recv_ok(a->buf, cport, size);
	case 4:
		len = vhdtest_rng_below(rng, 300);
		for (i = 0; i < len; i++)
			a->buf[HDR_SIZE + i] = (uint8_t)vhdtest_rng_next(rng);
		return build_hdr(a->buf, GB_VHD_ECHO_REQUEST, len);
	default:
		len = vhdtest_rng_below(rng, 64);
		for (i = 0; i < len; i++)
			a->buf[HDR_SIZE + i] = (uint8_t)vhdtest_rng_next(rng);
		return build_hdr(a->buf, (uint32_t)vhdtest_rng_next(rng), len);
	}
}

static const uint32_t abuse_boundaries[] = {
	0, 1, 2, 7, 8, 63, 64, 0x80, 0xff, 0x100, 4095, 4096, 4097, 0x7fff,
	0xfffe, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff,
};

/* Damages the event in a->buf in one of several ways; returns the count */
static size_t abuse_mutate(struct abuse *a, struct vhdtest_rng *rng,
			   size_t count)
{
	uint32_t off, v;
	size_t room = ABUSE_BUF_SIZE - 16;

	switch (vhdtest_rng_below(rng, 6)) {
	case 0:		/* flip bits in one of the first 24 bytes */
		off = vhdtest_rng_below(rng, 24);
		a->buf[off] ^= (uint8_t)(1u << vhdtest_rng_below(rng, 8));
		break;
	case 1:		/* a random byte anywhere in the first 24 */
		a->buf[vhdtest_rng_below(rng, 24)] = (uint8_t)vhdtest_rng_next(rng);
		break;
	case 2:		/* count off by a little */
		v = 1 + vhdtest_rng_below(rng, 8);
		if (vhdtest_rng_below(rng, 2) && count >= v)
			count -= v;
		else if (count + v < room)
			count += v;
		break;
	case 3:		/* the len field set to a boundary value */
		put_u32(a->buf + 4, abuse_boundaries[vhdtest_rng_below(rng,
			sizeof(abuse_boundaries) / sizeof(abuse_boundaries[0]))]);
		break;
	case 4:		/* a u16 field set to a boundary value */
		off = 2 * vhdtest_rng_below(rng, 10);
		put_u16(a->buf + off, (uint16_t)abuse_boundaries[vhdtest_rng_below(rng,
			sizeof(abuse_boundaries) / sizeof(abuse_boundaries[0]))]);
		break;
	default:	/* a u32 field set to a boundary value */
		off = 4 * vhdtest_rng_below(rng, 5);
		put_u32(a->buf + off, abuse_boundaries[vhdtest_rng_below(rng,
			sizeof(abuse_boundaries) / sizeof(abuse_boundaries[0]))]);
		break;
	}
	return count;
}

static void abuse_random(struct abuse *a, unsigned long iterations,
			 uint64_t seed)
{
	struct vhdtest_rng rng;
	unsigned long i;
	unsigned int m, nmut;
	char what[64];
	size_t count;
	int want;

	vhdtest_rng_seed(&rng, seed);
	for (i = 0; i < iterations; i++) {
		count = abuse_random_event(a, &rng);
		/* Mostly damaged, sometimes intact */
		nmut = vhdtest_rng_below(&rng, 8) ? 1 + vhdtest_rng_below(&rng, 3) : 0;
		for (m = 0; m < nmut; m++)
			count = abuse_mutate(a, &rng, count);

		want = abuse_expect(a, a->buf, count);
		if (!want && get_u32(a->buf) == GB_VHD_RECV && !a->deliver) {
			a->skipped++;
			continue;
		}
		/* Keep host creation rare: it is the slow path. */
		if (!want && get_u32(a->buf) == GB_VHD_CREATE &&
		    vhdtest_rng_below(&rng, 4)) {
			a->skipped++;
			continue;
		}
		snprintf(what, sizeof(what), "random %lu (type 0x%x, %zu bytes)",
			 i, get_u32(a->buf), count);
		abuse_try_model(a, what, count);
	}
}

static void vhdtest_abuse_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s abuse [--iterations N] [--seed S] [--deliver]\n\n"
		"Write malformed events (each must fail with EINVAL, or EFAULT for\n"
		"unreadable memory), then N random mutations checked against a model\n"
		"of the rules; the device must still work afterwards.\n\n"
		"  -n, --iterations N  random events (default 3000)\n"
		"  -s, --seed S        random seed (default: from the clock, printed)\n"
		"  -D, --deliver       also write valid RECVs (the core gets them)\n"
		"  -v, --verbose       one line per case (-vv: and every event)\n",
		VHDTEST_NAME);
}

int vhdtest_cmd_abuse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "iterations",	required_argument,	NULL, 'n' },
		{ "seed",	required_argument,	NULL, 's' },
		{ "deliver",	no_argument,		NULL, 'D' },
		VHDTEST_COMMON_LONGOPTS,
		{ NULL,		0,			NULL, 0 },
	};
	unsigned long iterations = 3000, seed;
	struct abuse a = { .fd = -1 };
	int ret = VHDTEST_EXIT_ERROR, c;

	seed = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
	while ((c = getopt_long(argc, argv, "n:s:D" VHDTEST_COMMON_SHORTOPTS,
				longopts, NULL)) != -1) {
		if (vhdtest_common_opt(c, optarg))
			continue;
		switch (c) {
		case 'n':
			if (!vhdtest_parse_ulong(optarg, 100000000, &iterations))
				goto bad_usage;
			break;
		case 's':
			if (!vhdtest_parse_ulong(optarg, ~0ul, &seed))
				goto bad_usage;
			break;
		case 'D':
			a.deliver = true;
			break;
		case 'h':
			vhdtest_abuse_usage(stdout);
			return VHDTEST_EXIT_OK;
		default:
			goto bad_usage;
		}
	}
	if (optind != argc)
		goto bad_usage;

	a.buf = calloc(1, ABUSE_BUF_SIZE);
	a.rbuf = malloc(GB_VHD_EVENT_SIZE_MAX);
	a.echo = malloc(GB_VHD_EVENT_SIZE_MAX);
	if (!a.buf || !a.rbuf || !a.echo) {
		vhdtest_err(ENOMEM, "abuse");
		goto out_free;
	}
	a.fd = vhd_open(O_NONBLOCK);
	if (a.fd < 0) {
		vhdtest_err(-a.fd, "cannot open %s", vhdtest_opts.device);
		goto out_free;
	}

	printf("abuse: seed %lu, %lu random iterations\n", seed, iterations);
	fflush(stdout);

	abuse_directed_nohost(&a);
	abuse_directed_efault(&a, false);
	abuse_usable(&a, "before any host");
	abuse_directed_host(&a);
	abuse_usable(&a, "after the directed cases");
	abuse_random(&a, iterations, seed);
	abuse_usable(&a, "after the random cases");

	printf("abuse: %u cases, %u skipped, %u hosts created, %u failures\n",
	       a.cases, a.skipped, a.created_count, a.failures);
	ret = a.failures ? VHDTEST_EXIT_FAIL : VHDTEST_EXIT_OK;

	close(a.fd);
out_free:
	free(a.buf);
	free(a.rbuf);
	free(a.echo);
	return ret;

bad_usage:
	vhdtest_abuse_usage(stderr);
	return VHDTEST_EXIT_USAGE;
}
