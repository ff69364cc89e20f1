// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest: device access and small helpers shared by the subcommands.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vhdtest.h"

struct vhdtest_opts vhdtest_opts = {
	.device = VHDTEST_DEVICE,
};

bool vhdtest_common_opt(int c, const char *arg)
{
	switch (c) {
	case 'd':
		vhdtest_opts.device = arg;
		return true;
	case 'v':
		vhdtest_opts.verbose++;
		return true;
	default:
		return false;
	}
}

void vhdtest_err(int err, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", VHDTEST_NAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void vhdtest_verbose(const char *fmt, ...)
{
	va_list ap;

	if (!vhdtest_opts.verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int vhd_open(int flags)
{
	int fd = open(vhdtest_opts.device, O_RDWR | O_CLOEXEC | flags);

	return fd < 0 ? -errno : fd;
}

int vhd_write_raw(int fd, const void *buf, size_t count)
{
	ssize_t n;

	do {
		n = write(fd, buf, count);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == count ? 0 : -EIO;
}

int vhd_write_event(int fd, uint32_t type, const void *payload, size_t len)
{
	struct gb_vhd_event_hdr hdr = { .type = type, .len = (uint32_t)len };
	uint8_t *buf;
	int ret;

	buf = malloc(sizeof(hdr) + len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &hdr, sizeof(hdr));
	if (len)
		memcpy(buf + sizeof(hdr), payload, len);
	ret = vhd_write_raw(fd, buf, sizeof(hdr) + len);
	free(buf);
	return ret;
}

int vhd_create(int fd, uint16_t num_cports, uint16_t mtu, uint32_t flags)
{
	struct gb_vhd_create c = {
		.version = GB_VHD_VERSION,
		.num_cports = num_cports,
		.mtu = mtu,
		.flags = flags,
	};

	return vhd_write_event(fd, GB_VHD_CREATE, &c, sizeof(c));
}

int vhd_recv(int fd, uint16_t cport, const void *msg, size_t msg_len)
{
	struct gb_vhd_message m = { .cport_id = cport };
	struct gb_operation_msg_hdr oh;
	uint8_t *buf;
	int ret;

	buf = malloc(sizeof(m) + msg_len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &m, sizeof(m));
	memcpy(buf + sizeof(m), msg, msg_len);
	if (msg_len >= sizeof(oh)) {
		memcpy(&oh, buf + sizeof(m), sizeof(oh));
		oh.size = htole16((uint16_t)msg_len);
		memcpy(buf + sizeof(m), &oh, sizeof(oh));
	}
	ret = vhd_write_event(fd, GB_VHD_RECV, buf, sizeof(m) + msg_len);
	free(buf);
	return ret;
}

ssize_t vhd_read_event(int fd, void *buf, size_t size, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;
	int ret;

	for (;;) {
		if (timeout_ms >= 0) {
			ret = poll(&pfd, 1, timeout_ms);
			if (ret < 0 && errno == EINTR)
				continue;
			if (ret < 0)
				return -errno;
			if (ret == 0)
				return -ETIMEDOUT;
		}
		n = read(fd, buf, size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && timeout_ms == 0)
			return -ETIMEDOUT;
		if (n < 0 && errno == EAGAIN)
			continue;
		return n < 0 ? -errno : n;
	}
}

long vhd_wait_created(int fd, int timeout_ms)
{
	uint8_t *buf = malloc(GB_VHD_EVENT_SIZE_MAX);
	struct gb_vhd_event_hdr hdr;
	struct gb_vhd_created c;
	long ret = -EPROTO;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	n = vhd_read_event(fd, buf, GB_VHD_EVENT_SIZE_MAX, timeout_ms);
	if (n < 0) {
		ret = n;
		goto out;
	}
	if (vhdtest_opts.verbose)
		vhd_event_print(stderr, buf, (size_t)n);
	/* The ABI promises CREATED as the first event */
	if ((size_t)n != sizeof(hdr) + sizeof(c))
		goto out;
	memcpy(&hdr, buf, sizeof(hdr));
	if (hdr.type != GB_VHD_CREATED || hdr.len != sizeof(c))
		goto out;
	memcpy(&c, buf + sizeof(hdr), sizeof(c));
	ret = c.bus_id;
out:
	free(buf);
	return ret;
}

const char *vhd_event_name(uint32_t type)
{
	switch (type) {
	case GB_VHD_CREATE:		return "CREATE";
	case GB_VHD_DESTROY:		return "DESTROY";
	case GB_VHD_RECV:		return "RECV";
	case GB_VHD_ECHO_REQUEST:	return "ECHO_REQUEST";
	case GB_VHD_CREATED:		return "CREATED";
	case GB_VHD_SEND:		return "SEND";
	case GB_VHD_CPORT_ENABLE:	return "CPORT_ENABLE";
	case GB_VHD_CPORT_DISABLE:	return "CPORT_DISABLE";
	case GB_VHD_CPORT_FLUSH:	return "CPORT_FLUSH";
	case GB_VHD_CPORT_CONNECTED:	return "CPORT_CONNECTED";
	case GB_VHD_CPORT_QUIESCE:	return "CPORT_QUIESCE";
	case GB_VHD_CPORT_CLEAR:	return "CPORT_CLEAR";
	case GB_VHD_CPORT_SHUTDOWN:	return "CPORT_SHUTDOWN";
	case GB_VHD_ECHO_REPLY:		return "ECHO_REPLY";
	case GB_VHD_RESET:		return "RESET";
	default:			return NULL;
	}
}

/* " data 0a0b..." for the first 32 bytes of a payload */
static void vhd_print_hex(FILE *out, const uint8_t *p, size_t len)
{
	size_t i;

	if (!len)
		return;
	fprintf(out, " data ");
	for (i = 0; i < len && i < 32; i++)
		fprintf(out, "%02x", p[i]);
	if (len > 32)
		fprintf(out, "...");
}

void vhd_event_print(FILE *out, const void *ev, size_t len)
{
	const uint8_t *p = ev;
	struct gb_vhd_event_hdr hdr;
	const char *name;

	if (len < sizeof(hdr)) {
		fprintf(out, "event: %zu bytes, too short\n", len);
		return;
	}
	memcpy(&hdr, p, sizeof(hdr));
	p += sizeof(hdr);
	name = vhd_event_name(hdr.type);
	fprintf(out, "event: %s (0x%02x), %u payload bytes",
		name ? name : "unknown", hdr.type, hdr.len);

	if (hdr.type == GB_VHD_CREATED && hdr.len >= sizeof(struct gb_vhd_created)) {
		struct gb_vhd_created c;

		memcpy(&c, p, sizeof(c));
		fprintf(out, ": bus id %u", c.bus_id);
	} else if (hdr.type == GB_VHD_SEND &&
		   hdr.len >= sizeof(struct gb_vhd_message) +
			      sizeof(struct gb_operation_msg_hdr)) {
		struct gb_operation_msg_hdr oh;
		struct gb_vhd_message m;

		memcpy(&m, p, sizeof(m));
		memcpy(&oh, p + sizeof(m), sizeof(oh));
		fprintf(out, ": cport %u, id 0x%04x type 0x%02x result 0x%02x size %u",
			m.cport_id, le16toh(oh.operation_id), oh.type,
			oh.result, le16toh(oh.size));
		vhd_print_hex(out, p + sizeof(m) + sizeof(oh),
			      hdr.len - sizeof(m) - sizeof(oh));
	} else if (hdr.type >= GB_VHD_CPORT_ENABLE &&
		   hdr.type <= GB_VHD_CPORT_SHUTDOWN &&
		   hdr.len >= sizeof(struct gb_vhd_cport)) {
		struct gb_vhd_cport c;

		memcpy(&c, p, sizeof(c));
		fprintf(out, ": cport %u arg 0x%x", c.cport_id, c.arg);
	} else if (hdr.type == GB_VHD_ECHO_REPLY) {
		vhd_print_hex(out, p, hdr.len);
	}
	fputc('\n', out);
}

uint64_t vhdtest_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void vhdtest_rng_seed(struct vhdtest_rng *rng, uint64_t seed)
{
	/* splitmix64 spreads small seeds over the whole state */
	seed += 0x9e3779b97f4a7c15ull;
	seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
	seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebull;
	seed ^= seed >> 31;
	rng->state = seed ? seed : 1;
}

uint64_t vhdtest_rng_next(struct vhdtest_rng *rng)
{
	uint64_t x = rng->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng->state = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint32_t vhdtest_rng_below(struct vhdtest_rng *rng, uint32_t n)
{
	return (uint32_t)((vhdtest_rng_next(rng) >> 32) % n);
}

bool vhdtest_parse_ulong(const char *s, unsigned long max, unsigned long *val)
{
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*val = v;
	return true;
}
