// SPDX-License-Identifier: GPL-2.0
/*
 * gbbench: the client of `make bench` (bench/guest.sh), also handy by hand.
 *
 *   gbbench loopback [OPTIONS]
 *	runs one gb-loopback test through its sysfs ABI (the way
 *	loopback_test does: configure, write the type, poll iteration_count
 *	for its notification), then prints one line of key=value results,
 *	with the latency distribution from the raw-latency debugfs file.
 *   gbbench binds --driver NAME --count N [--timeout S]
 *	listens to uevents, prints "ready", and once N devices have been
 *	bound to driver NAME prints when the first and the last were
 *	(CLOCK_MONOTONIC, the clock of dmesg and of gbsim's log).
 *   gbbench now
 *	prints CLOCK_MONOTONIC as SECONDS.MICROS.
 *
 * docs/performance.md explains what the benchmark measures.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define GBBENCH_CLASS		"/sys/class/gb_loopback"
#define GBBENCH_DEBUGFS		"/sys/kernel/debug/gb_loopback"

static void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("gbbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static unsigned long parse_ulong(const char *s, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || *s == '-')
		die("bad %s '%s'", what, s);
	return v;
}

/* sysfs helpers: a failure is fatal, with the path in the message */

static void attr_write(const char *dev, const char *attr, unsigned long val)
{
	char path[512], buf[32];
	int fd, len;

	snprintf(path, sizeof(path), "%s/%s", dev, attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	len = snprintf(buf, sizeof(buf), "%lu", val);
	if (write(fd, buf, (size_t)len) != len)
		die("writing %s to %s: %s", buf, path, strerror(errno));
	close(fd);
}

static void attr_read(const char *dev, const char *attr, char *buf,
		      size_t size)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dev, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	n = read(fd, buf, size - 1);
	if (n < 0)
		die("reading %s: %s", path, strerror(errno));
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static unsigned long attr_ulong(const char *dev, const char *attr)
{
	char buf[64];

	attr_read(dev, attr, buf, sizeof(buf));
	return strtoul(buf, NULL, 10);
}

/* Raw latencies (us), drained from debugfs; *count of them */
static uint32_t *raw_latencies(const char *name, size_t *count)
{
	size_t cap = 4096, n = 0, len = 0;
	char path[512], buf[65536 + 16];
	uint32_t *v = malloc(cap * sizeof(*v));
	ssize_t got;
	int fd;

	if (!v)
		die("out of memory");
	snprintf(path, sizeof(path), "%s/raw_latency_%s", GBBENCH_DEBUGFS,
		 name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	for (;;) {
		got = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (got < 0 && errno == EAGAIN)
			break;		/* nothing buffered */
		if (got < 0)
			die("reading %s: %s", path, strerror(errno));
		if (!got)
			break;
		len += (size_t)got;
		buf[len] = '\0';
		/* the driver returns whole lines only */
		for (char *p = buf, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
			if (n == cap) {
				cap *= 2;
				v = realloc(v, cap * sizeof(*v));
				if (!v)
					die("out of memory");
			}
			v[n++] = (uint32_t)strtoul(p, NULL, 10);
		}
		len = 0;
	}
	close(fd);
	*count = n;
	return v;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static const char *find_device(void)
{
	static char path[256];
	glob_t g;

	if (glob(GBBENCH_CLASS "/gb_loopback*", 0, NULL, &g) || !g.gl_pathc)
		die("no device in %s", GBBENCH_CLASS);
	snprintf(path, sizeof(path), "%s", g.gl_pathv[0]);
	globfree(&g);
	return path;
}

static void usage_loopback(FILE *out)
{
	fprintf(out,
		"Usage: gbbench loopback [-d DEVICE] -t ping|transfer|sink [-s SIZE]\n"
		"                        [-i ITERATIONS] [-a OUTSTANDING] [-o TIMEOUT_US]\n"
		"                        [-w US_WAIT] [-T SECONDS]\n\n"
		"  -d  /sys/class/gb_loopback/gb_loopbackN (default: the first)\n"
		"  -a  asynchronous, with at most OUTSTANDING operations in flight\n"
		"  -T  give up after SECONDS (default 600)\n");
}

static int cmd_loopback(int argc, char **argv)
{
	unsigned long size = 0, iterations = 1000, outstanding = 0;
	unsigned long timeout_us = 1000000, us_wait = 0, limit_s = 600;
	const char *dev = NULL, *name;
	bool async = false;
	int type = 0, c, fd, ret;
	uint64_t t0, t1;
	struct pollfd pfd;
	char dummy[32], fw[32], apb[32], lat_avg[32], tp[32], path[512];
	uint32_t *lat;
	size_t n;

	while ((c = getopt(argc, argv, "d:t:s:i:a:o:w:T:h")) != -1) {
		switch (c) {
		case 'd':
			dev = optarg;
			break;
		case 't':
			if (!strcmp(optarg, "ping"))
				type = 2;
			else if (!strcmp(optarg, "transfer"))
				type = 3;
			else if (!strcmp(optarg, "sink"))
				type = 4;
			else
				die("unknown test '%s'", optarg);
			break;
		case 's':
			size = parse_ulong(optarg, "size");
			break;
		case 'i':
			iterations = parse_ulong(optarg, "iteration count");
			break;
		case 'a':
			async = true;
			outstanding = parse_ulong(optarg, "outstanding count");
			break;
		case 'o':
			timeout_us = parse_ulong(optarg, "timeout");
			break;
		case 'w':
			us_wait = parse_ulong(optarg, "wait");
			break;
		case 'T':
			limit_s = parse_ulong(optarg, "time limit");
			break;
		case 'h':
			usage_loopback(stdout);
			return 0;
		default:
			usage_loopback(stderr);
			return 2;
		}
	}
	if (!type || optind != argc || !iterations) {
		usage_loopback(stderr);
		return 2;
	}
	if (!dev)
		dev = find_device();
	name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;

	attr_write(dev, "type", 0);
	attr_write(dev, "size", size);
	attr_write(dev, "iteration_max", iterations);
	attr_write(dev, "us_wait", us_wait);
	attr_write(dev, "timeout", timeout_us);
	attr_write(dev, "async", async);
	attr_write(dev, "outstanding_operations_max", outstanding);
	/* what is left of an earlier test */
	free(raw_latencies(name, &n));

	/* the end of the test is a sysfs notification on iteration_count */
	snprintf(path, sizeof(path), "%s/iteration_count", dev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	if (read(fd, dummy, sizeof(dummy)) < 0)
		die("reading %s: %s", path, strerror(errno));

	t0 = now_ns();
	attr_write(dev, "type", (unsigned long)type);
	for (;;) {
		pfd = (struct pollfd){ .fd = fd, .events = POLLPRI | POLLERR };
		ret = poll(&pfd, 1, (int)(limit_s * 1000));
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			die("poll: %s", strerror(errno));
		if (!ret) {
			attr_write(dev, "type", 0);
			die("%s: the test did not end within %lu s", name,
			    limit_s);
		}
		t1 = now_ns();
		if (attr_ulong(dev, "type") == 0)
			break;
		lseek(fd, 0, SEEK_SET);
		if (read(fd, dummy, sizeof(dummy)) < 0)
			die("reading iteration_count: %s", strerror(errno));
	}
	close(fd);

	lat = raw_latencies(name, &n);
	qsort(lat, n, sizeof(*lat), cmp_u32);
	attr_read(dev, "latency_avg", lat_avg, sizeof(lat_avg));
	attr_read(dev, "throughput_avg", tp, sizeof(tp));
	attr_read(dev, "gbphy_firmware_latency_avg", fw, sizeof(fw));
	attr_read(dev, "apbridge_unipro_latency_avg", apb, sizeof(apb));
	printf("loopback type=%d size=%lu iterations=%lu async=%d outstanding=%lu"
	       " done=%lu completed=%lu errors=%lu timedout=%lu seconds=%.6f"
	       " ops_per_s=%.1f bytes_per_s=%.1f lat_samples=%zu lat_min=%u"
	       " lat_median=%u lat_p99=%u lat_max=%u lat_avg=%s"
	       " throughput_avg=%s firmware_avg=%s apbridge_avg=%s\n",
	       type, size, iterations, async, outstanding,
	       attr_ulong(dev, "iteration_count"),
	       attr_ulong(dev, "requests_completed"),
	       attr_ulong(dev, "error"), attr_ulong(dev, "requests_timedout"),
	       (t1 - t0) / 1e9,
	       attr_ulong(dev, "requests_completed") / ((t1 - t0) / 1e9),
	       /* payload bytes moved per second, both ways for transfer */
	       attr_ulong(dev, "requests_completed") * (double)size *
	       (type == 3 ? 2 : type == 4 ? 1 : 0) / ((t1 - t0) / 1e9),
	       n, n ? lat[0] : 0, n ? lat[n / 2] : 0,
	       n ? lat[(n * 99) / 100] : 0, n ? lat[n - 1] : 0, lat_avg, tp,
	       fw, apb);
	free(lat);
	return attr_ulong(dev, "error") ? 1 : 0;
}

/* uevents: KEY=VALUE strings after "ACTION@DEVPATH" */
static const char *uevent_get(const char *buf, size_t len, const char *key)
{
	size_t klen = strlen(key);

	for (size_t off = strlen(buf) + 1; off < len;
	     off += strlen(buf + off) + 1) {
		if (!strncmp(buf + off, key, klen) && buf[off + klen] == '=')
			return buf + off + klen + 1;
	}
	return NULL;
}

static int cmd_binds(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "driver",	required_argument,	NULL, 'D' },
		{ "count",	required_argument,	NULL, 'n' },
		{ "timeout",	required_argument,	NULL, 'T' },
		{ NULL,		0,			NULL, 0 },
	};
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,		/* the kernel's uevents */
	};
	unsigned long count = 1, limit_s = 300, seen = 0;
	uint64_t first = 0, last = 0, deadline;
	const char *driver = NULL, *action, *drv;
	int sk, c, rcvbuf = 16 << 20, ret;
	struct pollfd pfd;
	char buf[8192];
	ssize_t len;

	while ((c = getopt_long(argc, argv, "D:n:T:", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			driver = optarg;
			break;
		case 'n':
			count = parse_ulong(optarg, "count");
			break;
		case 'T':
			limit_s = parse_ulong(optarg, "timeout");
			break;
		default:
			fprintf(stderr, "Usage: gbbench binds --driver NAME --count N [--timeout S]\n");
			return 2;
		}
	}
	if (!driver || !count || optind != argc) {
		fprintf(stderr, "Usage: gbbench binds --driver NAME --count N [--timeout S]\n");
		return 2;
	}

	sk = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (sk < 0)
		die("netlink socket: %s", strerror(errno));
	setsockopt(sk, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	if (bind(sk, (struct sockaddr *)&addr, sizeof(addr)))
		die("netlink bind: %s", strerror(errno));
	printf("ready\n");
	fflush(stdout);

	deadline = now_ns() + limit_s * 1000000000ULL;
	while (seen < count) {
		uint64_t now = now_ns();

		if (now >= deadline)
			die("%lu of %lu binds to %s within %lu s", seen, count,
			    driver, limit_s);
		pfd = (struct pollfd){ .fd = sk, .events = POLLIN };
		ret = poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			die("poll: %s", strerror(errno));
		if (!ret)
			continue;
		len = recv(sk, buf, sizeof(buf) - 1, 0);
		if (len < 0 && errno == ENOBUFS)
			die("uevents lost: receive buffer overflowed");
		if (len <= 0)
			continue;
		now = now_ns();
		buf[len] = '\0';
		action = uevent_get(buf, (size_t)len, "ACTION");
		drv = uevent_get(buf, (size_t)len, "DRIVER");
		if (!action || !drv || strcmp(action, "bind") ||
		    strcmp(drv, driver))
			continue;
		if (!seen++)
			first = now;
		last = now;
	}
	printf("binds driver=%s count=%lu first=%llu.%06llu last=%llu.%06llu\n",
	       driver, seen, (unsigned long long)(first / 1000000000ULL),
	       (unsigned long long)(first % 1000000000ULL / 1000),
	       (unsigned long long)(last / 1000000000ULL),
	       (unsigned long long)(last % 1000000000ULL / 1000));
	close(sk);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t t;

	if (argc >= 2 && !strcmp(argv[1], "loopback"))
		return cmd_loopback(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "binds"))
		return cmd_binds(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "now")) {
		t = now_ns();
		printf("%llu.%06llu\n", (unsigned long long)(t / 1000000000ULL),
		       (unsigned long long)(t % 1000000000ULL / 1000));
		return 0;
	}
	fprintf(stderr,
		"Usage: gbbench loopback [OPTIONS]   one gb-loopback test (-h for options)\n"
		"       gbbench binds --driver NAME --count N [--timeout S]\n"
		"       gbbench now\n");
	return 2;
}
