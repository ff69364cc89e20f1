// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest batch: version 3's batched I/O, as TAP.  Several events per
 * write() and per read(), a read that takes only what fits, a malformed
 * event mid-write (what comes before it is carried out, it and what
 * follows are not, the short count says where), a write cut short, and a
 * DESTROY ending a batch; and that a version 2 host still takes one event
 * per call.  With --flood N, N more writes with a malformed event in the
 * middle, for the caller to count the kernel's (rate-limited) complaints.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "gb_vhd_batch.h"
#include "vhdtest.h"

#define BATCH_BUF	(256 * 1024)
#define BATCH_ECHOES	16

struct batch {
	unsigned int	n;
	unsigned int	failed;
	uint8_t		*out;		/* what is written */
	uint8_t		*in;		/* what is read */
};

static void batch_result(struct batch *b, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void batch_result(struct batch *b, bool ok, const char *fmt, ...)
{
	va_list ap;

	b->n++;
	if (!ok)
		b->failed++;
	printf("%sok %u - ", ok ? "" : "not ", b->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* ECHO_REQUEST number @i: 1 + i bytes of i */
static size_t batch_put_echo(uint8_t *buf, size_t room, unsigned int i)
{
	uint8_t payload[BATCH_ECHOES + 8];

	memset(payload, (int)i, sizeof(payload));
	return gb_vhd_batch_put(buf, room, GB_VHD_ECHO_REQUEST, NULL, 0,
				payload, 1 + i % (sizeof(payload) - 1));
}

/* write(): the byte count, or -errno */
static ssize_t batch_write(int fd, const void *buf, size_t len)
{
	ssize_t n;

	do {
		n = write(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* One read() once something is queued (5 s at most): bytes or -errno */
static ssize_t batch_read(int fd, void *buf, size_t len)
{
	ssize_t n = vhd_read_event(fd, buf, len, 5000);

	return n;
}

/*
 * Walks what was read: the ECHO_REPLY events must be numbers @first,
 * @first + 1, ... (other events, of the host device, are skipped).
 * Returns how many, or -1 if one is not what it should be.
 */
static int batch_count_replies(const uint8_t *buf, size_t len,
			       unsigned int first)
{
	struct gb_vhd_event_hdr hdr;
	const uint8_t *payload;
	uint8_t want[BATCH_ECHOES + 8];
	size_t off = 0, wlen;
	int ret, count = 0;

	while ((ret = gb_vhd_batch_next(buf, len, &off, &hdr, &payload)) > 0) {
		if (hdr.type != GB_VHD_ECHO_REPLY)
			continue;
		wlen = batch_put_echo(want, sizeof(want), first + count) - 8;
		if (hdr.len != wlen || memcmp(payload, want + 8, wlen))
			return -1;
		count++;
	}
	return ret < 0 ? -1 : count;
}

/* Reads until nothing is queued; returns the echo replies, in order */
static int batch_drain_replies(int fd, uint8_t *buf, unsigned int first)
{
	int total = 0, c;
	ssize_t n;

	for (;;) {
		n = vhd_read_event(fd, buf, BATCH_BUF, 0);
		if (n == -ETIMEDOUT)
			return total;
		if (n < 0)
			return -1;
		c = batch_count_replies(buf, (size_t)n, first + total);
		if (c < 0)
			return -1;
		total += c;
	}
}

/* CREATE; then CREATED must come first (with more, on version 3) */
static int batch_create(int fd, uint32_t version, uint8_t *buf)
{
	struct gb_vhd_create c = {
		.version = version, .num_cports = 8, .mtu = 256,
	};
	struct gb_vhd_event_hdr hdr;
	const uint8_t *payload;
	size_t off = 0;
	ssize_t n;
	int ret;

	ret = vhd_write_event(fd, GB_VHD_CREATE, &c, sizeof(c));
	if (ret)
		return ret;
	n = batch_read(fd, buf, BATCH_BUF);
	if (n < 0)
		return (int)n;
	if (gb_vhd_batch_next(buf, (size_t)n, &off, &hdr, &payload) != 1 ||
	    hdr.type != GB_VHD_CREATED)
		return -EPROTO;
	return 0;
}

/* N echoes packed, numbered from @first; their length */
static size_t batch_pack(uint8_t *buf, unsigned int first, unsigned int n)
{
	size_t len = 0;

	for (unsigned int i = 0; i < n; i++)
		len += batch_put_echo(buf + len, BATCH_BUF - len, first + i);
	return len;
}

/* [echo 0][echo 1][RECV with pad 1][echo 2]; *good: bytes of the first two */
static size_t batch_pack_bad(uint8_t *buf, size_t *good)
{
	struct gb_vhd_message m = { .cport_id = 0, .pad = 1 };
	uint8_t msg[8] = { 8, 0 };
	size_t len;

	len = batch_pack(buf, 0, 2);
	*good = len;
	len += gb_vhd_batch_put(buf + len, BATCH_BUF - len, GB_VHD_RECV,
				&m, sizeof(m), msg, sizeof(msg));
	len += batch_put_echo(buf + len, BATCH_BUF - len, 2);
	return len;
}

static void batch_run(struct batch *b, int fd, int old, unsigned int flood)
{
	size_t len, good, first, one;
	ssize_t n;
	int c;

	/* what the new host reported (CPort 0's events) first */
	batch_drain_replies(fd, b->in, 0);
	batch_drain_replies(old, b->in, 0);

	/* several events each way */
	len = batch_pack(b->out, 0, BATCH_ECHOES);
	n = batch_write(fd, b->out, len);
	batch_result(b, n == (ssize_t)len, "a write of %u events takes them all (%zd of %zu bytes)",
		     BATCH_ECHOES, n, len);
	n = batch_read(fd, b->in, BATCH_BUF);
	c = n > 0 ? batch_count_replies(b->in, (size_t)n, 0) : -1;
	batch_result(b, c == BATCH_ECHOES, "one read returns the %u replies, in order (%d)",
		     BATCH_ECHOES, c);
	batch_drain_replies(fd, b->in, 0);

	/* a read takes whole events, as many as fit */
	len = batch_pack(b->out, 0, 4);
	batch_write(fd, b->out, len);
	first = gb_vhd_event_len(b->out, len);
	n = batch_read(fd, b->in, first + first / 2);
	batch_result(b, n == (ssize_t)first, "a buffer of 1.5 events gets one whole event (%zd bytes)",
		     n);
	n = batch_read(fd, b->in, 3);
	batch_result(b, n == -EMSGSIZE, "a buffer smaller than the next event: EMSGSIZE (%zd)",
		     n);
	c = batch_drain_replies(fd, b->in, 1);
	batch_result(b, c == 3, "the other three stayed queued, in order (%d)", c);

	/* a malformed event mid-write */
	len = batch_pack_bad(b->out, &good);
	n = batch_write(fd, b->out, len);
	batch_result(b, n == (ssize_t)good, "a malformed third event: write returns the first two's %zu bytes (%zd)",
		     good, n);
	c = batch_drain_replies(fd, b->in, 0);
	batch_result(b, c == 2, "the first two were carried out, nothing after them (%d replies)",
		     c);
	n = batch_write(fd, b->out + good, len - good);
	batch_result(b, n == -EINVAL, "writing the rest again: the malformed event's EINVAL (%zd)",
		     n);
	one = gb_vhd_event_len(b->out + good, len - good);
	n = batch_write(fd, b->out + good + one, len - good - one);
	c = batch_drain_replies(fd, b->in, 2);
	batch_result(b, n == (ssize_t)(len - good - one) && c == 1,
		     "the event after it goes once written again (%zd, %d replies)", n, c);

	/* a write cut short mid-event */
	len = batch_pack(b->out, 0, 2);
	n = batch_write(fd, b->out, len - 1);
	first = gb_vhd_event_len(b->out, len);
	c = batch_drain_replies(fd, b->in, 0);
	batch_result(b, n == (ssize_t)first && c == 1,
		     "a write ending mid-event: the whole events before it (%zd bytes, %d replies)",
		     n, c);
	n = batch_write(fd, b->out, 5);
	batch_result(b, n == -EINVAL, "a write of part of a header: EINVAL (%zd)", n);

	/* the kernel's complaints, for the caller to count */
	for (unsigned int i = 0, ok = 0; i < flood; i++) {
		len = batch_pack_bad(b->out, &good);
		n = batch_write(fd, b->out, len);
		c = batch_drain_replies(fd, b->in, 0);
		ok += n == (ssize_t)good && c == 2;
		if (i + 1 == flood)
			batch_result(b, ok == flood, "%u more writes with a malformed event: each carried out up to it (%u)",
				     flood, ok);
	}

	/* DESTROY ends a batch: one event per write again */
	len = batch_pack(b->out, 0, 1);
	len += gb_vhd_batch_put(b->out + len, BATCH_BUF - len, GB_VHD_DESTROY,
				NULL, 0, NULL, 0);
	good = len;
	len += batch_put_echo(b->out + len, BATCH_BUF - len, 1);
	n = batch_write(fd, b->out, len);
	batch_result(b, n == (ssize_t)good, "echo, DESTROY, echo: the write stops after DESTROY (%zd of %zu)",
		     n, len);
	len = batch_pack(b->out, 0, 2);
	n = batch_write(fd, b->out, len);
	batch_result(b, n == -EINVAL, "without a host, two events in a write: EINVAL (%zd)", n);

	/* version 2: one event per call, as before */
	if (old < 0) {
		batch_result(b, false, "version 2 host: not created");
		return;
	}
	len = batch_pack(b->out, 0, 2);
	n = batch_write(old, b->out, len);
	batch_result(b, n == -EINVAL, "version 2 host: two events in a write: EINVAL (%zd)", n);
	one = gb_vhd_event_len(b->out, len);
	batch_write(old, b->out, one);
	batch_write(old, b->out + one, len - one);
	n = batch_read(old, b->in, BATCH_BUF);
	c = n > 0 ? batch_count_replies(b->in, (size_t)n, 0) : -1;
	batch_result(b, n == (ssize_t)one && c == 1,
		     "version 2 host: a large buffer still gets one event (%zd bytes)", n);
	c = batch_drain_replies(old, b->in, 1);
	batch_result(b, c == 1, "version 2 host: then the next (%d)", c);
}

static void vhdtest_batch_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s batch [--flood N]\n\n"
		"Check version 3's batched read() and write() (TAP output), and that\n"
		"a version 2 host keeps one event per call.\n\n"
		"  -f, --flood N      N more writes with a malformed event mid-batch\n",
		VHDTEST_NAME);
}

int vhdtest_cmd_batch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "flood",	required_argument,	NULL, 'f' },
		VHDTEST_COMMON_LONGOPTS,
		{ NULL,		0,			NULL, 0 },
	};
	struct batch b = { 0 };
	unsigned long flood = 0;
	int fd, old, ret, ch;

	while ((ch = getopt_long(argc, argv, "f:" VHDTEST_COMMON_SHORTOPTS,
				 longopts, NULL)) != -1) {
		if (vhdtest_common_opt(ch, optarg))
			continue;
		switch (ch) {
		case 'f':
			if (!vhdtest_parse_ulong(optarg, 100000, &flood)) {
				vhdtest_batch_usage(stderr);
				return VHDTEST_EXIT_USAGE;
			}
			break;
		case 'h':
			vhdtest_batch_usage(stdout);
			return VHDTEST_EXIT_OK;
		default:
			vhdtest_batch_usage(stderr);
			return VHDTEST_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		vhdtest_batch_usage(stderr);
		return VHDTEST_EXIT_USAGE;
	}

	b.out = malloc(BATCH_BUF);
	b.in = malloc(BATCH_BUF);
	fd = vhd_open(O_NONBLOCK);
	old = vhd_open(O_NONBLOCK);
	if (!b.out || !b.in || fd < 0 || old < 0) {
		vhdtest_err(fd < 0 ? -fd : old < 0 ? -old : ENOMEM,
			    "cannot open %s", vhdtest_opts.device);
		ret = VHDTEST_EXIT_ERROR;
		goto out;
	}
	ret = batch_create(fd, GB_VHD_VERSION_BATCH, b.in);
	batch_result(&b, !ret, "CREATE version 3 (%s)", ret ? strerror(-ret) : "ok");
	if (ret) {
		ret = VHDTEST_EXIT_FAIL;
		goto out;
	}
	ret = batch_create(old, GB_VHD_VERSION_AUTH, b.in);
	batch_result(&b, !ret, "CREATE version 2 (%s)", ret ? strerror(-ret) : "ok");
	batch_run(&b, fd, ret ? -1 : old, (unsigned int)flood);
	printf("1..%u\n", b.n);
	ret = b.failed ? VHDTEST_EXIT_FAIL : VHDTEST_EXIT_OK;
out:
	if (fd >= 0)
		close(fd);
	if (old >= 0)
		close(old);
	free(b.out);
	free(b.in);
	return ret;
}
