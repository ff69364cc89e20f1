// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest fuzz: random and edge-case traffic on several open files of
 * /dev/greybus-vhd at once, every answer checked against a model of
 * docs/vhd.md, then proof that the device still works.
 *
 * Each iteration does one thing to one of --files files: writes an event
 * (edge values in every field: types, lengths, flags, CPort ids, pads,
 * header size fields; truncated headers; byte counts that disagree with
 * the header; huge counts; TimeSync strobes past, present and future), creates or destroys its host device, reads
 * one event with a buffer of a random size, drains it, polls it, or
 * closes it with events still queued.  So hosts are created and torn
 * down interleaved across files.
 *
 * Unlike "abuse", well-formed RECVs are delivered: on CPort 0 of the new
 * host (the SVC connection) they carry responses to operations nobody
 * sent and requests of types the SVC protocol does not define, which the
 * core must drop or refuse.  --no-deliver writes only what gb-vhd itself
 * must refuse, and valid RECVs are then skipped.
 *
 * Checks: every write's result (EINVAL for what is malformed, ENOSPC only
 * when the queue may be full, EFAULT allowed for counts beyond the address
 * space); every event read is whole and well formed; CREATED comes before
 * the new host's other events and names a greybusN that exists in sysfs
 * (when it is mounted) and no other file owns; ECHO_REPLYs come back in
 * order and intact; DESTROY and close() remove greybusN at once.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <uapi/greybus/greybus.h>

#include "gb_msg.h"
#include "gb_vhd_batch.h"
#include "vhdtest.h"

#define FUZZ_FILES_MAX		16
#define FUZZ_BUF_SIZE		(GB_VHD_EVENT_SIZE_MAX + 64)
#define FUZZ_HDR		sizeof(struct gb_vhd_event_hdr)
#define FUZZ_MSG_OFF		(FUZZ_HDR + sizeof(struct gb_vhd_message))
#define FUZZ_ECHO_RING		2048	/* > GB_VHD_QUEUE_EVENTS_MAX */
#define FUZZ_FAILS_SHOWN	20
#define FUZZ_SYSFS		"/sys/bus/greybus/devices"

/* What the model knows of one open file */
struct fuzz_file {
	int		fd;		/* -1: closed */
	struct vhd_model m;
	bool		want_created;	/* CREATE accepted, CREATED not read */
	long		bus_id;		/* from CREATED; -1 unknown */

	/* Upper bounds of what SEND/ECHO_REPLY events hold in the queue */
	unsigned long	q_events;
	unsigned long	q_bytes;

	/* ECHO_REPLYs to come, oldest first: length and FNV-1a hash */
	struct {
		uint32_t	len;
		uint64_t	hash;
	} echo[FUZZ_ECHO_RING];
	unsigned int	echo_head, echo_count;
};

struct fuzz {
	struct fuzz_file file[FUZZ_FILES_MAX];
	unsigned int	nfiles;
	bool		deliver;
	bool		sysfs;		/* FUZZ_SYSFS exists: check it */
	struct vhdtest_rng rng;
	uint8_t		*buf;
	uint8_t		*rbuf;

	unsigned long	iter;
	unsigned long	writes, accepted, reads, events, creates, removals;
	unsigned long	delivered, skipped, failures;
};

static uint64_t fuzz_hash(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void fuzz_fail(struct fuzz *z, unsigned int slot, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fuzz_fail(struct fuzz *z, unsigned int slot, const char *fmt, ...)
{
	va_list ap;

	if (z->failures++ >= FUZZ_FAILS_SHOWN)
		return;
	fprintf(stderr, "%s: fuzz: FAIL: iteration %lu, file %u: ", VHDTEST_NAME,
		z->iter, slot);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint32_t fuzz_below(struct fuzz *z, uint32_t n)
{
	return vhdtest_rng_below(&z->rng, n);
}

/* True with probability @percent % */
static bool fuzz_chance(struct fuzz *z, unsigned int percent)
{
	return fuzz_below(z, 100) < percent;
}

#define FUZZ_PICK(z, a)	((a)[fuzz_below((z), sizeof(a) / sizeof((a)[0]))])

static void fuzz_fill(struct fuzz *z, uint8_t *p, size_t len)
{
	size_t i;

	switch (fuzz_below(z, 4)) {
	case 0:
		memset(p, 0, len);
		break;
	case 1:
		memset(p, 0xff, len);
		break;
	default:
		for (i = 0; i < len; i++)
			p[i] = (uint8_t)vhdtest_rng_next(&z->rng);
		break;
	}
}

/* ---- The model ------------------------------------------------------------ */

/* The file lost its host and every queued event (DESTROY, close) */
static void fuzz_forget(struct fuzz_file *f)
{
	vhd_model_reset(&f->m);
	f->want_created = false;
	f->bus_id = -1;
	f->q_events = 0;
	f->q_bytes = 0;
	f->echo_head = 0;
	f->echo_count = 0;
}

/* Whether the queue surely has room for one more message event of @size */
static bool fuzz_room_sure(const struct fuzz_file *f, size_t size)
{
	return f->q_events + 1 < GB_VHD_QUEUE_EVENTS_MAX &&
	       f->q_bytes + size + 64 < GB_VHD_QUEUE_BYTES_MAX;
}

/* The answers the model allows for a write */
struct fuzz_want {
	int	err;		/* 0 or a positive errno */
	int	alt;		/* another allowed answer, or -1 */
};

static struct fuzz_want fuzz_expect(const struct fuzz_file *f,
				    const uint8_t *buf, size_t count)
{
	struct fuzz_want w = { .alt = -1 };
	bool either;

	w.err = vhd_model_expect(&f->m, buf, count, &either);
	if (either)
		w.alt = 0;
	/* The VFS may refuse a count past the address space first */
	if (count > 0x7ffff000)
		w.alt = EFAULT;
	/* A message event may find the queue full */
	if (!w.err && count >= FUZZ_HDR &&
	    get_u32(buf) == GB_VHD_ECHO_REQUEST && !fuzz_room_sure(f, count))
		w.alt = ENOSPC;
	return w;
}

/* ---- Events read ------------------------------------------------------------ */

static bool fuzz_sysfs_has(long bus_id)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), FUZZ_SYSFS "/greybus%ld", bus_id);
	return !stat(path, &st);
}

static void fuzz_check_created(struct fuzz *z, unsigned int slot,
			       const uint8_t *p, uint32_t len)
{
	struct fuzz_file *f = &z->file[slot];
	struct gb_vhd_created c;
	unsigned int i;

	if (len != sizeof(c)) {
		fuzz_fail(z, slot, "CREATED of %u bytes", len);
		return;
	}
	if (!f->want_created) {
		fuzz_fail(z, slot, "CREATED nobody asked for");
		return;
	}
	memcpy(&c, p, sizeof(c));
	f->want_created = false;
	f->bus_id = c.bus_id;
	for (i = 0; i < z->nfiles; i++) {
		if (i != slot && z->file[i].fd >= 0 && z->file[i].m.created &&
		    z->file[i].bus_id == f->bus_id)
			fuzz_fail(z, slot, "bus id %u is file %u's too",
				  c.bus_id, i);
	}
	if (z->sysfs && !fuzz_sysfs_has(f->bus_id))
		fuzz_fail(z, slot, "CREATED greybus%u, not in " FUZZ_SYSFS,
			  c.bus_id);
}

static void fuzz_check_message(struct fuzz *z, unsigned int slot,
			       const uint8_t *p, uint32_t len)
{
	struct fuzz_file *f = &z->file[slot];
	struct gb_operation_msg_hdr oh;
	struct gb_vhd_message m;
	size_t size = len - sizeof(m);

	if (len < sizeof(m) + sizeof(oh)) {
		fuzz_fail(z, slot, "SEND of %u bytes", len);
		return;
	}
	memcpy(&m, p, sizeof(m));
	memcpy(&oh, p + sizeof(m), sizeof(oh));
	if (m.pad || m.cport_id >= f->m.num_cports || size > f->m.mtu ||
	    le16toh(oh.size) != size)
		fuzz_fail(z, slot,
			  "bad SEND: cport %u of %u, pad %u, %zu bytes (mtu %u), size field %u",
			  m.cport_id, f->m.num_cports, m.pad, size, f->m.mtu,
			  le16toh(oh.size));
	if (m.cport_id && !vhd_model_cport_enabled(&f->m, m.cport_id))
		fuzz_fail(z, slot, "SEND on disabled cport %u", m.cport_id);
}

static void fuzz_check_echo(struct fuzz *z, unsigned int slot,
			    const uint8_t *p, uint32_t len)
{
	struct fuzz_file *f = &z->file[slot];
	unsigned int i = f->echo_head;

	if (!f->echo_count) {
		fuzz_fail(z, slot, "ECHO_REPLY of %u bytes nobody asked for", len);
		return;
	}
	if (f->echo[i].len != len || f->echo[i].hash != fuzz_hash(p, len))
		fuzz_fail(z, slot, "ECHO_REPLY of %u bytes is not the %u-byte request",
			  len, f->echo[i].len);
	f->echo_head = (i + 1) % FUZZ_ECHO_RING;
	f->echo_count--;
}

/* One event read from @slot, @n bytes at @ev */
static void fuzz_check_event(struct fuzz *z, unsigned int slot,
			     const uint8_t *ev, size_t n)
{
	struct fuzz_file *f = &z->file[slot];
	const uint8_t *p = ev + FUZZ_HDR;
	struct gb_vhd_cport c;
	uint32_t type, len;

	z->events++;
	if (vhdtest_opts.verbose > 1)
		vhd_event_print(stderr, ev, n);
	if (n < FUZZ_HDR) {
		fuzz_fail(z, slot, "read a %zu-byte event", n);
		return;
	}
	type = get_u32(ev);
	len = get_u32(ev + 4);
	if (len != n - FUZZ_HDR) {
		fuzz_fail(z, slot, "event 0x%x says %u bytes, read %zu", type,
			  len, n);
		return;
	}
	if (type == GB_VHD_SEND || type == GB_VHD_ECHO_REPLY) {
		f->q_events = f->q_events ? f->q_events - 1 : 0;
		f->q_bytes = f->q_bytes > n ? f->q_bytes - n : 0;
	}

	switch (type) {
	case GB_VHD_CREATED:
		fuzz_check_created(z, slot, p, len);
		return;
	case GB_VHD_ECHO_REPLY:
		fuzz_check_echo(z, slot, p, len);
		return;
	case GB_VHD_RESET:
		if (len)
			fuzz_fail(z, slot, "RESET with %u payload bytes", len);
		return;
	default:
		break;
	}

	/* The rest belongs to a host device, after its CREATED */
	if (!f->m.created || f->want_created) {
		fuzz_fail(z, slot, "event %s (0x%x) %s", vhd_event_name(type) ?:
			  "unknown", type,
			  f->m.created ? "before CREATED" : "without a host");
		return;
	}
	switch (type) {
	case GB_VHD_SEND:
		fuzz_check_message(z, slot, p, len);
		break;
	case GB_VHD_CPORT_ENABLE:
	case GB_VHD_CPORT_DISABLE:
	case GB_VHD_CPORT_FLUSH:
	case GB_VHD_CPORT_CONNECTED:
	case GB_VHD_CPORT_QUIESCE:
	case GB_VHD_CPORT_CLEAR:
	case GB_VHD_CPORT_SHUTDOWN:
		if (len != sizeof(c)) {
			fuzz_fail(z, slot, "%s of %u bytes",
				  vhd_event_name(type), len);
			break;
		}
		memcpy(&c, p, sizeof(c));
		if (c.pad || c.cport_id >= f->m.num_cports)
			fuzz_fail(z, slot, "%s: cport %u of %u, pad %u",
				  vhd_event_name(type), c.cport_id,
				  f->m.num_cports, c.pad);
		if (type == GB_VHD_CPORT_ENABLE)
			vhd_model_cport_set(&f->m, c.cport_id, true);
		else if (type == GB_VHD_CPORT_DISABLE)
			vhd_model_cport_set(&f->m, c.cport_id, false);
		break;
	default:
		fuzz_fail(z, slot, "unknown event type 0x%x (%u bytes)", type,
			  len);
		break;
	}
}

/*
 * What one read of a version 3 host returned: whole events back to back
 * (a damaged CREATE can ask for version 3: one bit turns 1 or 2 into 3)
 */
static void fuzz_check_batch(struct fuzz *z, unsigned int slot, size_t n)
{
	size_t off = 0, len;

	while (off < n) {
		len = gb_vhd_event_len(z->rbuf + off, n - off);
		if (!len) {
			fuzz_fail(z, slot, "a batched read of %zu bytes ends in %zu bytes of no whole event",
				  n, n - off);
			return;
		}
		fuzz_check_event(z, slot, z->rbuf + off, len);
		off += len;
	}
}

/* Reads one event with a buffer of @size bytes; false if none came */
static bool fuzz_read(struct fuzz *z, unsigned int slot, size_t size)
{
	struct fuzz_file *f = &z->file[slot];
	ssize_t n;

	z->reads++;
	do {
		n = read(f->fd, z->rbuf, size);
	} while (n < 0 && errno == EINTR);
	if (n > 0 && f->m.created && f->m.version >= GB_VHD_VERSION_BATCH) {
		fuzz_check_batch(z, slot, (size_t)n);
		return true;
	}
	if (n > 0) {
		fuzz_check_event(z, slot, z->rbuf, (size_t)n);
		return true;
	}
	if (n == 0) {
		fuzz_fail(z, slot, "read of %zu bytes returned 0", size);
		return false;
	}
	if (errno == EAGAIN)
		return false;
	if (errno == EMSGSIZE && size < GB_VHD_EVENT_SIZE_MAX)
		return false;
	fuzz_fail(z, slot, "read of %zu bytes: %s", size, strerror(errno));
	return false;
}

/* Reads until nothing is left; then no CREATED may be missing */
static void fuzz_drain(struct fuzz *z, unsigned int slot)
{
	struct fuzz_file *f = &z->file[slot];

	while (fuzz_read(z, slot, GB_VHD_EVENT_SIZE_MAX))
		;
	if (f->want_created)
		fuzz_fail(z, slot, "no CREATED after a successful CREATE");
	if (f->echo_count)
		fuzz_fail(z, slot, "%u ECHO_REPLYs missing", f->echo_count);
	f->want_created = false;
	f->echo_head = 0;
	f->echo_count = 0;
	f->q_events = 0;
	f->q_bytes = 0;
}

/* ---- Opening, closing ------------------------------------------------------- */

static bool fuzz_open(struct fuzz *z, unsigned int slot)
{
	struct fuzz_file *f = &z->file[slot];
	int fd;

	fd = vhd_open(O_NONBLOCK);
	if (fd < 0) {
		fuzz_fail(z, slot, "open %s: %s", vhdtest_opts.device,
			  strerror(-fd));
		return false;
	}
	f->fd = fd;
	fuzz_forget(f);
	return true;
}

/* A host that went away (DESTROY, close) is gone from sysfs at once */
static void fuzz_gone(struct fuzz *z, unsigned int slot, long bus_id,
		      const char *how)
{
	z->removals++;
	if (bus_id >= 0 && z->sysfs && fuzz_sysfs_has(bus_id))
		fuzz_fail(z, slot, "greybus%ld still in sysfs after %s", bus_id,
			  how);
}

static void fuzz_close(struct fuzz *z, unsigned int slot)
{
	struct fuzz_file *f = &z->file[slot];
	bool had = f->m.created;
	long bus_id = f->bus_id;

	if (f->fd < 0)
		return;
	if (close(f->fd))
		fuzz_fail(z, slot, "close: %s", strerror(errno));
	f->fd = -1;
	fuzz_forget(f);
	if (had)
		fuzz_gone(z, slot, bus_id, "close()");
}

/* ---- Writing ---------------------------------------------------------------- */

/* The model follows a write the kernel accepted */
static void fuzz_apply(struct fuzz *z, unsigned int slot, const uint8_t *buf,
		       size_t count)
{
	struct fuzz_file *f = &z->file[slot];
	const uint8_t *p = buf + FUZZ_HDR;
	unsigned int i;
	long bus_id;

	switch (get_u32(buf)) {
	case GB_VHD_CREATE:
		vhd_model_apply(&f->m, buf);
		f->want_created = true;
		f->bus_id = -1;
		z->creates++;
		break;
	case GB_VHD_DESTROY:
		bus_id = f->bus_id;
		fuzz_forget(f);
		fuzz_gone(z, slot, bus_id, "DESTROY");
		break;
	case GB_VHD_ECHO_REQUEST:
		if (f->echo_count == FUZZ_ECHO_RING) {
			fuzz_fail(z, slot, "more ECHO_REPLYs queued than the queue holds");
			break;
		}
		i = (f->echo_head + f->echo_count) % FUZZ_ECHO_RING;
		f->echo[i].len = (uint32_t)(count - FUZZ_HDR);
		f->echo[i].hash = fuzz_hash(p, count - FUZZ_HDR);
		f->echo_count++;
		f->q_events++;
		f->q_bytes += count;
		break;
	case GB_VHD_RECV:
		z->delivered++;
		/* A request may be answered with one SEND of at most mtu */
		if (!(p[sizeof(struct gb_vhd_message) + 4] & GB_MSG_TYPE_RESPONSE)) {
			f->q_events++;
			f->q_bytes += FUZZ_MSG_OFF + f->m.mtu;
		}
		break;
	default:
		break;
	}
}

static const char *fuzz_errname(int err)
{
	return err ? strerror(err) : "success";
}

/* Writes @count bytes of z->buf to @slot and checks the answer */
static void fuzz_write(struct fuzz *z, unsigned int slot, size_t count,
		       const char *what)
{
	struct fuzz_file *f = &z->file[slot];
	struct fuzz_want w = fuzz_expect(f, z->buf, count);
	ssize_t n;
	int got;

	if (!w.err && count >= FUZZ_HDR && get_u32(z->buf) == GB_VHD_RECV &&
	    !z->deliver) {
		z->skipped++;
		return;
	}
	z->writes++;
	do {
		/*
		 * A count past the buffer is meant to be refused unread; the
		 * raw system call keeps a sanitizer's write() from checking
		 * the buffer for that many bytes.
		 */
		if (count > FUZZ_BUF_SIZE)
			n = syscall(SYS_write, f->fd, z->buf, count);
		else
			n = write(f->fd, z->buf, count);
	} while (n < 0 && errno == EINTR);
	got = n < 0 ? errno : 0;
	if (n >= 0 && (size_t)n != count) {
		fuzz_fail(z, slot, "%s: short write, %zd of %zu bytes", what, n,
			  count);
		return;
	}
	if (got != w.err && got != w.alt) {
		fuzz_fail(z, slot, "%s (type 0x%x, %zu bytes): got %s, want %s",
			  what, count >= 4 ? get_u32(z->buf) : 0, count,
			  fuzz_errname(got), fuzz_errname(w.err));
		return;
	}
	vhdtest_verbose("ok - iteration %lu, file %u: %s (%zu bytes): %s",
			z->iter, slot, what, count, fuzz_errname(got));
	if (!got) {
		z->accepted++;
		fuzz_apply(z, slot, z->buf, count);
	}
}

static size_t fuzz_hdr(uint8_t *buf, uint32_t type, uint32_t len)
{
	put_u32(buf, type);
	put_u32(buf + 4, len);
	return FUZZ_HDR + len;
}

static const uint16_t fuzz_cport_counts[] = {
	0, 1, 2, 3, 8, 255, 256, 4095, 4096, 4097, 0x8000, 0xffff,
};
static const uint16_t fuzz_mtus[] = {
	0, 1, 8, 63, 64, 65, 256, 2048, 4096, 0x8000, 0xfffe, 0xffff,
};
static const uint32_t fuzz_u32s[] = {
	0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 16, 63, 64, 0x7f, 0x80, 0xff, 0x100,
	0xfff, 0x1000, 0xffff, 0x10000, 0x10003, 0x10004, 0x7fffffff,
	0x80000000, 0xfffffffe, 0xffffffff,
};

static size_t fuzz_build_create(struct fuzz *z, bool valid)
{
	uint8_t *p = z->buf + FUZZ_HDR;
	static const uint32_t versions[] = {
		0, GB_VHD_VERSION_MAX + 1, 0x100, 0xffffffff
	};
	static const uint32_t flags[] = { 2, 3, 0x80000000, 0xffffffff };

	/*
	 * The model knows one event per write(): versions 1 and 2 only
	 * (vhdtest batch checks version 3's batched I/O)
	 */
	put_u32(p, GB_VHD_VERSION + fuzz_below(z, GB_VHD_VERSION_AUTH));
	put_u16(p + 4, (uint16_t)(1 + fuzz_below(z, 64)));
	put_u16(p + 6, (uint16_t)(GB_VHD_MTU_MIN + fuzz_below(z, 4096)));
	put_u32(p + 8, fuzz_below(z, 2));
	if (!valid) {
		switch (fuzz_below(z, 4)) {
		case 0:
			put_u32(p, FUZZ_PICK(z, versions));
			break;
		case 1:
			put_u16(p + 4, FUZZ_PICK(z, fuzz_cport_counts));
			break;
		case 2:
			put_u16(p + 6, FUZZ_PICK(z, fuzz_mtus));
			break;
		default:
			put_u32(p + 8, FUZZ_PICK(z, flags));
			break;
		}
	}
	return fuzz_hdr(z->buf, GB_VHD_CREATE, sizeof(struct gb_vhd_create));
}

/*
 * A message the core may be given on the SVC connection: a response to
 * an operation id nobody sent, or a request of a type the SVC protocol
 * does not define.
 */
static void fuzz_message_body(struct fuzz *z, uint8_t *m, size_t len)
{
	uint8_t type;

	fuzz_fill(z, m, len);
	if (len < sizeof(struct gb_operation_msg_hdr))
		return;
	if (fuzz_chance(z, 50)) {
		type = (uint8_t)(GB_MSG_TYPE_RESPONSE | fuzz_below(z, 0x80));
	} else {
		do {
			type = (uint8_t)fuzz_below(z, 0x80);
		} while (gb_op_name(GREYBUS_PROTOCOL_SVC, type) != gb_name_unknown);
	}
	gb_msg_header_build(m, (uint16_t)len, (uint16_t)vhdtest_rng_next(&z->rng),
			    type, (uint8_t)fuzz_below(z, 256));
	/* Random pad bytes: the core must not care */
	m[6] = (uint8_t)vhdtest_rng_next(&z->rng);
	m[7] = (uint8_t)vhdtest_rng_next(&z->rng);
}

static size_t fuzz_build_recv(struct fuzz *z, unsigned int slot)
{
	const struct fuzz_file *f = &z->file[slot];
	uint16_t ncp = f->m.created ? f->m.num_cports : 8;
	uint16_t mtu = f->m.created ? f->m.mtu : 256;
	uint8_t *m = z->buf + FUZZ_MSG_OFF;
	uint16_t cport = 0, pad = 0, size;
	size_t len;

	switch (fuzz_below(z, 8)) {
	case 0:
		cport = (uint16_t)(1 + fuzz_below(z, ncp + 2u));
		break;
	case 1:
		cport = FUZZ_PICK(z, fuzz_cport_counts);
		break;
	default:
		break;
	}
	if (fuzz_chance(z, 10))
		pad = (uint16_t)(1u << fuzz_below(z, 16));

	switch (fuzz_below(z, 8)) {
	case 0:
		len = fuzz_below(z, sizeof(struct gb_operation_msg_hdr));
		break;
	case 1:
		len = mtu - 1u + fuzz_below(z, 3);
		break;
	case 2:
		len = GB_OPERATION_MSG_SIZE_MAX;
		break;
	default:
		len = sizeof(struct gb_operation_msg_hdr) +
		      fuzz_below(z, mtu - sizeof(struct gb_operation_msg_hdr) + 1u);
		break;
	}
	fuzz_message_body(z, m, len);
	if (len >= sizeof(struct gb_operation_msg_hdr) && fuzz_chance(z, 15)) {
		static const int16_t deltas[] = { -1, 1, -8, 0x100 };

		size = (uint16_t)(len + FUZZ_PICK(z, deltas));
		if (fuzz_chance(z, 30))
			size = (uint16_t)FUZZ_PICK(z, fuzz_u32s);
		put_u16(m, htole16(size));
	}
	put_u16(z->buf + FUZZ_HDR, cport);
	put_u16(z->buf + FUZZ_HDR + 2, pad);
	return fuzz_hdr(z->buf, GB_VHD_RECV,
			(uint32_t)(sizeof(struct gb_vhd_message) + len));
}

/* A RECV gb-vhd must pass on: CPort 0, right sizes */
static size_t fuzz_build_recv_valid(struct fuzz *z, unsigned int slot)
{
	const struct fuzz_file *f = &z->file[slot];
	uint16_t mtu = f->m.created ? f->m.mtu : 256;
	size_t len;

	len = sizeof(struct gb_operation_msg_hdr) +
	      fuzz_below(z, fuzz_chance(z, 80) ? 64 :
			 mtu - sizeof(struct gb_operation_msg_hdr) + 1u);
	fuzz_message_body(z, z->buf + FUZZ_MSG_OFF, len);
	put_u16(z->buf + FUZZ_HDR, 0);
	put_u16(z->buf + FUZZ_HDR + 2, 0);
	return fuzz_hdr(z->buf, GB_VHD_RECV,
			(uint32_t)(sizeof(struct gb_vhd_message) + len));
}

static size_t fuzz_build_echo(struct fuzz *z)
{
	static const uint32_t lens[] = {
		0, 1, 4095, 4096, GB_VHD_ECHO_SIZE_MAX, GB_VHD_ECHO_SIZE_MAX + 1,
	};
	uint32_t len;

	len = fuzz_chance(z, 80) ? fuzz_below(z, 600) : FUZZ_PICK(z, lens);
	fuzz_fill(z, z->buf + FUZZ_HDR, len);
	return fuzz_hdr(z->buf, GB_VHD_ECHO_REQUEST, len);
}

/* A strobe latched in the past, just now, or (refused) still to come */
static size_t fuzz_build_strobe(struct fuzz *z)
{
	static const uint64_t edges[] = {
		0, 1, 0x7fffffffffffffffULL, 0x8000000000000000ULL, UINT64_MAX,
	};
	struct gb_vhd_strobe s;
	uint64_t now = vhdtest_now_ns();

	switch (fuzz_below(z, 4)) {
	case 0:
		s.timestamp_ns = now - fuzz_below(z, 1000000);
		break;
	case 1:
		s.timestamp_ns = now + 10000000000ULL + fuzz_below(z, 1000000);
		break;
	case 2:
		s.timestamp_ns = FUZZ_PICK(z, edges);
		break;
	default:
		s.timestamp_ns = vhdtest_rng_next(&z->rng);
		break;
	}
	memcpy(z->buf + FUZZ_HDR, &s, sizeof(s));
	return fuzz_hdr(z->buf, GB_VHD_TIMESYNC_STROBE, sizeof(s));
}

/* Anything at all: an edge or random type and length, random bytes */
static size_t fuzz_build_junk(struct fuzz *z)
{
	static const uint32_t types[] = {
		0, GB_VHD_CREATE, GB_VHD_DESTROY, GB_VHD_RECV,
		GB_VHD_ECHO_REQUEST, GB_VHD_TIMESYNC_STROBE, GB_VHD_AUTHORIZE, 7, 0x7f, 0x80, GB_VHD_CREATED, GB_VHD_SEND,
		GB_VHD_CPORT_ENABLE, GB_VHD_CPORT_DISABLE, GB_VHD_CPORT_FLUSH,
		GB_VHD_CPORT_CONNECTED, GB_VHD_CPORT_QUIESCE, GB_VHD_CPORT_CLEAR,
		GB_VHD_CPORT_SHUTDOWN, GB_VHD_ECHO_REPLY, GB_VHD_RESET, 0x8c,
		0xff, 0x101, 0x10001, 0x80000001, 0xffffffff,
	};
	uint32_t type, len;

	type = fuzz_chance(z, 80) ? FUZZ_PICK(z, types) :
				    (uint32_t)vhdtest_rng_next(&z->rng);
	len = fuzz_chance(z, 50) ? fuzz_below(z, 80) : FUZZ_PICK(z, fuzz_u32s);
	if (len <= FUZZ_BUF_SIZE - FUZZ_HDR)
		fuzz_fill(z, z->buf + FUZZ_HDR, len);
	put_u32(z->buf, type);
	put_u32(z->buf + 4, len);
	/* A length past the buffer: the count then disagrees with it */
	return len <= FUZZ_BUF_SIZE - FUZZ_HDR ? FUZZ_HDR + len : FUZZ_BUF_SIZE;
}

/* Breaks the count, the header or a field of the event in z->buf */
static size_t fuzz_damage(struct fuzz *z, size_t count)
{
	static const size_t huge[] = {
		GB_VHD_EVENT_SIZE_MAX + 1, 1 << 20, 0x7ffff000, (size_t)-1,
		(size_t)-1 / 2 + 1,
	};
	uint32_t off;

	switch (fuzz_below(z, 7)) {
	case 0:		/* a truncated header */
		return fuzz_below(z, FUZZ_HDR);
	case 1:		/* a count a little off */
		off = 1 + fuzz_below(z, 8);
		if ((fuzz_chance(z, 50) && count > off) ||
		    count + off >= FUZZ_BUF_SIZE)
			return count > off ? count - off : 0;
		return count + off;
	case 2:		/* a huge count (the buffer is not read that far) */
		return FUZZ_PICK(z, huge);
	case 3:		/* the len field at an edge */
		put_u32(z->buf + 4, FUZZ_PICK(z, fuzz_u32s));
		return count;
	case 4:		/* one bit of the first 24 bytes */
		off = fuzz_below(z, 24);
		z->buf[off] ^= (uint8_t)(1u << fuzz_below(z, 8));
		return count;
	case 5:		/* a u16 of the first 24 bytes at an edge */
		put_u16(z->buf + 2 * fuzz_below(z, 12),
			(uint16_t)FUZZ_PICK(z, fuzz_u32s));
		return count;
	default:	/* the type */
		put_u32(z->buf, (uint32_t)vhdtest_rng_next(&z->rng));
		return count;
	}
}

/* Makes one event for @slot in z->buf; returns its byte count */
static size_t fuzz_build(struct fuzz *z, unsigned int slot, const char **what)
{
	size_t count;

	switch (fuzz_below(z, 10)) {
	case 0:
		*what = "CREATE (bad field)";
		count = fuzz_build_create(z, false);
		break;
	case 1:
		*what = "DESTROY";
		count = fuzz_hdr(z->buf, GB_VHD_DESTROY,
				 fuzz_chance(z, 80) ? 0 : FUZZ_PICK(z, fuzz_u32s) & 0xff);
		break;
	case 2:
	case 3:
	case 4:
		*what = "RECV";
		count = fuzz_build_recv(z, slot);
		break;
	case 5:
		*what = "ECHO_REQUEST";
		count = fuzz_build_echo(z);
		break;
	case 6:
		*what = "TIMESYNC_STROBE";
		count = fuzz_build_strobe(z);
		break;
	default:
		*what = "junk";
		count = fuzz_build_junk(z);
		break;
	}
	if (fuzz_chance(z, 30)) {
		*what = "damaged event";
		count = fuzz_damage(z, count);
	}
	return count;
}

/* ---- The run ------------------------------------------------------------------ */

static void fuzz_step(struct fuzz *z)
{
	unsigned int slot = fuzz_below(z, z->nfiles);
	struct fuzz_file *f = &z->file[slot];
	static const size_t small[] = { 0, 1, 7, 8, 11, 12, 15, 16, 19, 20, 64 };
	const char *what = "";
	struct pollfd pfd;
	unsigned int op;
	size_t count;

	if (f->fd < 0 && !fuzz_open(z, slot))
		return;

	op = fuzz_below(z, 100);
	if (op < 45) {
		count = fuzz_build(z, slot, &what);
		fuzz_write(z, slot, count, what);
	} else if (op < 55) {
		count = fuzz_build_recv_valid(z, slot);
		fuzz_write(z, slot, count, "valid RECV");
	} else if (op < 62) {
		count = fuzz_build_create(z, true);
		fuzz_write(z, slot, count, "valid CREATE");
	} else if (op < 67) {
		count = fuzz_hdr(z->buf, GB_VHD_DESTROY, 0);
		fuzz_write(z, slot, count, "valid DESTROY");
	} else if (op < 82) {
		fuzz_read(z, slot, fuzz_chance(z, 70) ? GB_VHD_EVENT_SIZE_MAX :
				   FUZZ_PICK(z, small));
	} else if (op < 92) {
		fuzz_drain(z, slot);
	} else if (op < 96) {
		pfd.fd = f->fd;
		pfd.events = POLLIN | POLLOUT;
		pfd.revents = 0;
		if (poll(&pfd, 1, 0) < 0 || !(pfd.revents & POLLOUT) ||
		    (pfd.revents & (POLLERR | POLLNVAL)))
			fuzz_fail(z, slot, "poll: revents 0x%x (%s)", pfd.revents,
				  strerror(errno));
	} else {
		fuzz_close(z, slot);
	}
}

/* A fresh file makes a host, echoes, and tears it down cleanly */
static void fuzz_usable(struct fuzz *z)
{
	static const uint32_t sizes[] = { 0, 100, GB_VHD_ECHO_SIZE_MAX };
	struct fuzz_file *f = &z->file[0];
	unsigned long failures = z->failures;
	uint8_t *p = z->buf + FUZZ_HDR;
	unsigned int i, k;
	long bus_id;
	size_t count;

	fuzz_close(z, 0);
	if (!fuzz_open(z, 0))
		return;

	put_u32(p, GB_VHD_VERSION);
	put_u16(p + 4, 8);
	put_u16(p + 6, 256);
	put_u32(p + 8, 0);
	count = fuzz_hdr(z->buf, GB_VHD_CREATE, sizeof(struct gb_vhd_create));
	fuzz_write(z, 0, count, "final CREATE");
	if (!f->m.created) {
		fuzz_fail(z, 0, "the device no longer creates a host");
		return;
	}
	/* CREATED is queued before write() returns, and comes first */
	fuzz_read(z, 0, GB_VHD_EVENT_SIZE_MAX);
	if (f->want_created || f->bus_id < 0) {
		fuzz_fail(z, 0, "the first event of the final host is not CREATED");
		return;
	}
	bus_id = f->bus_id;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (k = 0; k < sizes[i]; k++)
			p[k] = (uint8_t)(k * 7 + i);
		count = fuzz_hdr(z->buf, GB_VHD_ECHO_REQUEST, sizes[i]);
		fuzz_write(z, 0, count, "final ECHO_REQUEST");
	}
	fuzz_drain(z, 0);

	count = fuzz_hdr(z->buf, GB_VHD_DESTROY, 0);
	fuzz_write(z, 0, count, "final DESTROY");
	if (f->m.created)
		fuzz_fail(z, 0, "the final host cannot be destroyed");
	fuzz_close(z, 0);

	if (z->failures == failures)
		printf("fuzz: still usable: created greybus%ld, 3 echoes came back, destroyed it\n",
		       bus_id);
}

static void vhdtest_fuzz_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s fuzz [--iterations N] [--seed S] [--files F] [--no-deliver]\n\n"
		"Random and edge-case events, reads, polls and closes on F open files,\n"
		"every answer checked against a model of the vhd ABI; then the device\n"
		"must still create a host and echo.\n\n"
		"  -n, --iterations N  steps (default 3000)\n"
		"  -s, --seed S        random seed (default: from the clock, printed)\n"
		"  -f, --files F       files used at once, 1..%u (default 4)\n"
		"  -N, --no-deliver    never hand a message to the Greybus core\n"
		"  -v, --verbose       one line per write (-vv: and every event)\n",
		VHDTEST_NAME, FUZZ_FILES_MAX);
}

int vhdtest_cmd_fuzz(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "iterations",	required_argument,	NULL, 'n' },
		{ "seed",	required_argument,	NULL, 's' },
		{ "files",	required_argument,	NULL, 'f' },
		{ "no-deliver",	no_argument,		NULL, 'N' },
		VHDTEST_COMMON_LONGOPTS,
		{ NULL,		0,			NULL, 0 },
	};
	unsigned long iterations = 3000, seed, files = 4, i;
	struct fuzz *z;
	struct stat st;
	int ret = VHDTEST_EXIT_ERROR, c;

	seed = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
	z = calloc(1, sizeof(*z));
	if (!z) {
		vhdtest_err(ENOMEM, "fuzz");
		return VHDTEST_EXIT_ERROR;
	}
	z->deliver = true;
	while ((c = getopt_long(argc, argv, "n:s:f:N" VHDTEST_COMMON_SHORTOPTS,
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
		case 'f':
			if (!vhdtest_parse_ulong(optarg, FUZZ_FILES_MAX, &files) ||
			    !files)
				goto bad_usage;
			break;
		case 'N':
			z->deliver = false;
			break;
		case 'h':
			vhdtest_fuzz_usage(stdout);
			free(z);
			return VHDTEST_EXIT_OK;
		default:
			goto bad_usage;
		}
	}
	if (optind != argc)
		goto bad_usage;

	z->nfiles = (unsigned int)files;
	for (i = 0; i < FUZZ_FILES_MAX; i++)
		z->file[i].fd = -1;
	z->sysfs = !stat(FUZZ_SYSFS, &st);
	vhdtest_rng_seed(&z->rng, seed);
	z->buf = calloc(1, FUZZ_BUF_SIZE);
	z->rbuf = malloc(GB_VHD_EVENT_SIZE_MAX);
	if (!z->buf || !z->rbuf) {
		vhdtest_err(ENOMEM, "fuzz");
		goto out;
	}

	/* Can it be opened at all? */
	c = vhd_open(0);
	if (c < 0) {
		vhdtest_err(-c, "cannot open %s", vhdtest_opts.device);
		goto out;
	}
	close(c);

	printf("fuzz: seed %lu, %lu iterations, %u files, %s\n", seed,
	       iterations, z->nfiles,
	       z->deliver ? "messages delivered" : "nothing delivered");
	fflush(stdout);

	for (z->iter = 0; z->iter < iterations; z->iter++)
		fuzz_step(z);
	for (i = 0; i < z->nfiles; i++) {
		if (z->file[i].fd >= 0) {
			fuzz_drain(z, (unsigned int)i);
			fuzz_close(z, (unsigned int)i);
		}
	}
	fuzz_usable(z);

	printf("fuzz: %lu writes (%lu accepted, %lu messages delivered, %lu skipped), %lu reads (%lu events), %lu hosts created, %lu removed, %lu failures\n",
	       z->writes, z->accepted, z->delivered, z->skipped, z->reads,
	       z->events, z->creates, z->removals, z->failures);
	ret = z->failures ? VHDTEST_EXIT_FAIL : VHDTEST_EXIT_OK;
out:
	for (i = 0; i < FUZZ_FILES_MAX; i++) {
		if (z->file[i].fd >= 0)
			close(z->file[i].fd);
	}
	free(z->buf);
	free(z->rbuf);
	free(z);
	return ret;

bad_usage:
	vhdtest_fuzz_usage(stderr);
	free(z);
	return VHDTEST_EXIT_USAGE;
}
