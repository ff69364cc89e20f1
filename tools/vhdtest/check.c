// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest check: the file semantics of /dev/greybus-vhd, one TAP line per
 * behaviour: non-blocking and blocking read, poll, EMSGSIZE and EFAULT
 * keeping the event queued, signals, the queue limits, CREATE/DESTROY and
 * close as seen from sysfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vhdtest.h"

#define HDR_SIZE	sizeof(struct gb_vhd_event_hdr)

struct check {
	unsigned int	n;
	unsigned int	failed;
	uint8_t		*buf;
	bool		sysfs;		/* the greybus bus is there to look at */
};

static void check_result(struct check *c, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void check_result(struct check *c, bool ok, const char *fmt, ...)
{
	va_list ap;

	c->n++;
	if (!ok)
		c->failed++;
	printf("%sok %u - ", ok ? "" : "not ", c->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void check_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void check_note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int check_echo(int fd, uint32_t len, uint8_t fill)
{
	uint8_t *p = malloc(len ? len : 1);
	int ret;

	if (!p)
		return -ENOMEM;
	memset(p, fill, len);
	ret = vhd_write_event(fd, GB_VHD_ECHO_REQUEST, p, len);
	free(p);
	return ret;
}

/* Reads one event now; returns its type, or -errno */
static long check_read_type(int fd, uint8_t *buf, size_t size, ssize_t *len)
{
	struct gb_vhd_event_hdr hdr;
	ssize_t n = read(fd, buf, size);

	if (n < 0)
		return -errno;
	if (len)
		*len = n;
	if ((size_t)n < sizeof(hdr))
		return -EPROTO;
	memcpy(&hdr, buf, sizeof(hdr));
	return hdr.type;
}

static short check_poll_events(int fd, short events, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	if (poll(&pfd, 1, timeout_ms) < 0)
		return -1;
	return pfd.revents;
}

static short check_poll(int fd, int timeout_ms)
{
	return check_poll_events(fd, POLLIN | POLLOUT, timeout_ms);
}

static void check_drain(int fd, uint8_t *buf)
{
	while (read(fd, buf, GB_VHD_EVENT_SIZE_MAX) >= 0)
		;
}

static bool check_host_visible(long bus_id)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/bus/greybus/devices/greybus%ld",
		 bus_id);
	return !access(path, F_OK);
}

static void check_nonblock_and_poll(struct check *c, int fd)
{
	ssize_t len = 0;
	long type;
	short rev;

	errno = 0;
	check_result(c, read(fd, c->buf, GB_VHD_EVENT_SIZE_MAX) < 0 &&
		     errno == EAGAIN,
		     "non-blocking read on an empty queue fails with EAGAIN");

	rev = check_poll(fd, 0);
	check_result(c, rev == POLLOUT,
		     "poll on an empty queue reports POLLOUT only (0x%x)", rev);

	check_result(c, !check_echo(fd, 16, 0x11),
		     "ECHO_REQUEST works without a host device");
	rev = check_poll(fd, 0);
	check_result(c, rev == (POLLIN | POLLOUT),
		     "poll with an event queued reports POLLIN|POLLOUT (0x%x)",
		     rev);

	type = check_read_type(fd, c->buf, 7, NULL);
	check_result(c, type == -EMSGSIZE,
		     "read into a 7-byte buffer fails with EMSGSIZE (%ld)", type);
	type = check_read_type(fd, c->buf, HDR_SIZE + 15, NULL);
	check_result(c, type == -EMSGSIZE,
		     "read into a buffer one byte short fails with EMSGSIZE (%ld)",
		     type);
	type = check_read_type(fd, (void *)(uintptr_t)4096, 4096, NULL);
	check_result(c, type == -EFAULT,
		     "read into an unmapped buffer fails with EFAULT (%ld)", type);
	type = check_read_type(fd, c->buf, HDR_SIZE + 16, &len);
	check_result(c, type == GB_VHD_ECHO_REPLY && len == HDR_SIZE + 16 &&
		     c->buf[HDR_SIZE] == 0x11 && c->buf[HDR_SIZE + 15] == 0x11,
		     "the event is still there for an exact-size buffer");
	rev = check_poll(fd, 0);
	check_result(c, rev == POLLOUT,
		     "poll after reading everything reports POLLOUT only (0x%x)",
		     rev);
}

static void check_order(struct check *c, int fd)
{
	bool ok = true;
	uint8_t i;

	for (i = 0; i < 3; i++)
		ok &= !check_echo(fd, 4, (uint8_t)(0x40 + i));
	for (i = 0; i < 3 && ok; i++)
		ok = check_read_type(fd, c->buf, GB_VHD_EVENT_SIZE_MAX, NULL) ==
			GB_VHD_ECHO_REPLY && c->buf[HDR_SIZE] == 0x40 + i;
	check_result(c, ok, "events are read in the order they were queued");
}

/* A child process queues an echo after @delay_ms on the shared file */
static pid_t check_spawn_echo(int fd, unsigned int delay_ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(delay_ms * 1000);
		_exit(check_echo(fd, 8, 0x77) ? 1 : 0);
	}
	return pid;
}

static bool check_reap(pid_t pid)
{
	int status;

	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && !WEXITSTATUS(status);
}

static void check_alarm(int sig)
{
	(void)sig;
}

static void check_blocking(struct check *c, int fd)
{
	struct sigaction sa = { .sa_handler = check_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };
	uint64_t t0;
	ssize_t n;
	short rev;
	pid_t pid;
	int flags;

	pid = check_spawn_echo(fd, 150);
	t0 = vhdtest_now_ns();
	rev = check_poll_events(fd, POLLIN, 5000);
	check_result(c, check_reap(pid) && rev == POLLIN &&
		     vhdtest_now_ns() - t0 < 4000000000ull,
		     "poll sleeps until another process queues an event (0x%x)",
		     rev);
	check_drain(fd, c->buf);

	flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);

	pid = check_spawn_echo(fd, 150);
	n = read(fd, c->buf, GB_VHD_EVENT_SIZE_MAX);
	check_result(c, check_reap(pid) && n == HDR_SIZE + 8 &&
		     c->buf[HDR_SIZE] == 0x77,
		     "blocking read sleeps until an event is queued (%zd)", n);

	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	errno = 0;
	n = read(fd, c->buf, GB_VHD_EVENT_SIZE_MAX);
	check_result(c, n < 0 && errno == EINTR,
		     "a signal interrupts a blocking read with EINTR (%s)",
		     n < 0 ? strerror(errno) : "returned data");
	signal(SIGALRM, SIG_DFL);

	fcntl(fd, F_SETFL, flags);
}

static void check_queue_limits(struct check *c, int fd)
{
	unsigned int queued = 0, got = 0;
	long type;
	int ret;
	short rev;

	while (!(ret = check_echo(fd, 0, 0)) && queued < 100000)
		queued++;
	check_result(c, ret == -ENOSPC && queued == GB_VHD_QUEUE_EVENTS_MAX,
		     "%u empty echoes fit, then ENOSPC (%u, %s)",
		     GB_VHD_QUEUE_EVENTS_MAX, queued, strerror(-ret));
	rev = check_poll(fd, 0);
	check_result(c, rev == (POLLIN | POLLOUT),
		     "a full queue still polls writable (0x%x)", rev);
	type = check_read_type(fd, c->buf, GB_VHD_EVENT_SIZE_MAX, NULL);
	check_result(c, type == GB_VHD_ECHO_REPLY && !check_echo(fd, 0, 0),
		     "reading one event makes room for one more");
	while (check_read_type(fd, c->buf, GB_VHD_EVENT_SIZE_MAX, NULL) ==
	       GB_VHD_ECHO_REPLY)
		got++;
	check_result(c, got == GB_VHD_QUEUE_EVENTS_MAX,
		     "all %u are read back (%u)", GB_VHD_QUEUE_EVENTS_MAX, got);

	queued = 0;
	while (!(ret = check_echo(fd, GB_VHD_ECHO_SIZE_MAX, 0x5a)) &&
	       queued < 100000)
		queued++;
	check_result(c, ret == -ENOSPC &&
		     queued == GB_VHD_QUEUE_BYTES_MAX / GB_VHD_EVENT_SIZE_MAX,
		     "%zu largest echoes fit in %u bytes, then ENOSPC (%u, %s)",
		     (size_t)(GB_VHD_QUEUE_BYTES_MAX / GB_VHD_EVENT_SIZE_MAX),
		     GB_VHD_QUEUE_BYTES_MAX, queued, strerror(-ret));
	check_drain(fd, c->buf);
}

static long check_create(int fd, uint8_t *buf)
{
	struct gb_vhd_created cr;
	ssize_t len = 0;
	long type;
	int ret;

	ret = vhd_create(fd, 32, 2048, 0);
	if (ret)
		return ret;
	/* CREATED is queued before write() returns, and comes first. */
	type = check_read_type(fd, buf, GB_VHD_EVENT_SIZE_MAX, &len);
	if (type != GB_VHD_CREATED)
		return type < 0 ? type : -EPROTO;
	if (len != HDR_SIZE + sizeof(cr))
		return -EPROTO;
	memcpy(&cr, buf + HDR_SIZE, sizeof(cr));
	return cr.bus_id;
}

static void check_hosts(struct check *c, int fd)
{
	long bus_id, again, other;
	int fd2;

	bus_id = check_create(fd, c->buf);
	check_result(c, bus_id >= 0,
		     "CREATE is answered by CREATED, the first event (%ld)",
		     bus_id);
	if (bus_id < 0)
		return;
	check_note("host device greybus%ld", bus_id);
	if (c->sysfs)
		check_result(c, check_host_visible(bus_id),
			     "greybus%ld is on the greybus bus", bus_id);

	check_result(c, !check_echo(fd, 8, 0x22),
		     "ECHO_REQUEST works with a host device");
	check_result(c, !vhd_write_event(fd, GB_VHD_DESTROY, NULL, 0),
		     "DESTROY succeeds");
	if (c->sysfs)
		check_result(c, !check_host_visible(bus_id),
			     "greybus%ld is gone when DESTROY returns", bus_id);
	errno = 0;
	check_result(c, read(fd, c->buf, GB_VHD_EVENT_SIZE_MAX) < 0 &&
		     errno == EAGAIN,
		     "DESTROY discards the events not read yet");

	again = check_create(fd, c->buf);
	check_result(c, again == bus_id,
		     "CREATE after DESTROY on the same file reuses the bus id (%ld)",
		     again);

	fd2 = vhd_open(O_NONBLOCK);
	other = fd2 < 0 ? fd2 : check_create(fd2, c->buf);
	check_result(c, other >= 0 && other != again,
		     "a second file gets a second host device (%ld, %ld)",
		     again, other);
	if (fd2 >= 0) {
		close(fd2);
		if (c->sysfs && other >= 0)
			check_result(c, !check_host_visible(other),
				     "close removes its host device (greybus%ld)",
				     other);
	}
	if (c->sysfs && again >= 0)
		check_result(c, check_host_visible(again),
			     "the first host device is still there (greybus%ld)",
			     again);
}

static void vhdtest_check_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s check [--no-sysfs]\n\n"
		"Check the read/write/poll semantics of the device; TAP on stdout.\n"
		"Run it with no other user of the device: it counts bus ids.\n\n"
		"  -S, --no-sysfs     do not look for the host devices in sysfs\n",
		VHDTEST_NAME);
}

int vhdtest_cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-sysfs",	no_argument,		NULL, 'S' },
		VHDTEST_COMMON_LONGOPTS,
		{ NULL,		0,			NULL, 0 },
	};
	struct check c = { .sysfs = true };
	int fd, ch;

	while ((ch = getopt_long(argc, argv, "S" VHDTEST_COMMON_SHORTOPTS,
				 longopts, NULL)) != -1) {
		if (vhdtest_common_opt(ch, optarg))
			continue;
		switch (ch) {
		case 'S':
			c.sysfs = false;
			break;
		case 'h':
			vhdtest_check_usage(stdout);
			return VHDTEST_EXIT_OK;
		default:
			vhdtest_check_usage(stderr);
			return VHDTEST_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		vhdtest_check_usage(stderr);
		return VHDTEST_EXIT_USAGE;
	}

	c.buf = malloc(GB_VHD_EVENT_SIZE_MAX);
	if (!c.buf) {
		vhdtest_err(ENOMEM, "check");
		return VHDTEST_EXIT_ERROR;
	}
	fd = vhd_open(O_NONBLOCK);
	if (fd < 0) {
		vhdtest_err(-fd, "cannot open %s", vhdtest_opts.device);
		free(c.buf);
		return VHDTEST_EXIT_ERROR;
	}

	check_nonblock_and_poll(&c, fd);
	check_order(&c, fd);
	check_blocking(&c, fd);
	check_queue_limits(&c, fd);
	check_hosts(&c, fd);

	close(fd);
	free(c.buf);
	printf("1..%u\n", c.n);
	printf("# %u passed, %u failed\n", c.n - c.failed, c.failed);
	return c.failed ? VHDTEST_EXIT_FAIL : VHDTEST_EXIT_OK;
}
