// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest stress: several threads use one file at once (CREATE/DESTROY,
 * ECHO_REQUEST, RECV, read, poll) while another thread keeps opening,
 * creating and closing files with events still queued.  Every call must
 * give one of the answers the ABI allows; the kernel must not splat.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vhdtest.h"

struct stress {
	int		fd;
	atomic_bool	stop;
	atomic_uint	ops;
	atomic_uint	failures;
	atomic_uint	hosts;
};

struct stress_thread {
	struct stress	*s;
	const char	*name;
	void		*(*fn)(void *arg);
	unsigned int	seed;
	pthread_t	tid;
};

static void stress_check(struct stress_thread *t, const char *what, int ret,
			 int ok1, int ok2)
{
	atomic_fetch_add(&t->s->ops, 1);
	if (ret == 0 || ret == -ok1 || ret == -ok2)
		return;
	atomic_fetch_add(&t->s->failures, 1);
	vhdtest_err(-ret, "stress: %s: %s", t->name, what);
}

static void *stress_creator(void *arg)
{
	struct stress_thread *t = arg;
	int ret;

	while (!atomic_load(&t->s->stop)) {
		ret = vhd_create(t->s->fd, 16, 512, 0);
		if (!ret)
			atomic_fetch_add(&t->s->hosts, 1);
		stress_check(t, "CREATE", ret, EINVAL, 0);
		usleep(rand_r(&t->seed) % 2000);
		ret = vhd_write_event(t->s->fd, GB_VHD_DESTROY, NULL, 0);
		stress_check(t, "DESTROY", ret, EINVAL, 0);
	}
	return NULL;
}

static void *stress_echoer(void *arg)
{
	struct stress_thread *t = arg;
	uint8_t payload[64];
	int ret;

	memset(payload, 0x6e, sizeof(payload));
	while (!atomic_load(&t->s->stop)) {
		ret = vhd_write_event(t->s->fd, GB_VHD_ECHO_REQUEST, payload,
				      rand_r(&t->seed) % sizeof(payload));
		stress_check(t, "ECHO_REQUEST", ret, ENOSPC, 0);
	}
	return NULL;
}

static void *stress_recver(void *arg)
{
	struct stress_thread *t = arg;
	uint8_t msg[16] = { 0 };
	int ret;

	/* CPort 1 is never enabled without a simulator: always refused */
	while (!atomic_load(&t->s->stop)) {
		ret = vhd_recv(t->s->fd, 1, msg, sizeof(msg));
		stress_check(t, "RECV", ret, EINVAL, 0);
		usleep(100);
	}
	return NULL;
}

static void *stress_reader(void *arg)
{
	struct stress_thread *t = arg;
	struct pollfd pfd = { .fd = t->s->fd, .events = POLLIN };
	uint8_t *buf = malloc(GB_VHD_EVENT_SIZE_MAX);
	size_t size;
	ssize_t n;

	if (!buf)
		return NULL;
	while (!atomic_load(&t->s->stop)) {
		poll(&pfd, 1, 10);
		/* Now and then too small a buffer: EMSGSIZE, event kept */
		size = rand_r(&t->seed) % 8 ? GB_VHD_EVENT_SIZE_MAX : 9;
		n = read(t->s->fd, buf, size);
		stress_check(t, "read", n < 0 ? -errno : 0, EAGAIN, EMSGSIZE);
	}
	free(buf);
	return NULL;
}

static void *stress_opener(void *arg)
{
	struct stress_thread *t = arg;
	int fd, ret, i;

	while (!atomic_load(&t->s->stop)) {
		fd = vhd_open(O_NONBLOCK);
		if (fd < 0) {
			stress_check(t, "open", fd, 0, 0);
			continue;
		}
		ret = vhd_create(fd, 8, 256, rand_r(&t->seed) & 1);
		if (!ret)
			atomic_fetch_add(&t->s->hosts, 1);
		stress_check(t, "CREATE", ret, 0, 0);
		/* Leave events queued at close now and then */
		for (i = rand_r(&t->seed) % 4; i > 0; i--) {
			ret = vhd_write_event(fd, GB_VHD_ECHO_REQUEST, "x", 1);
			stress_check(t, "ECHO_REQUEST", ret, 0, 0);
		}
		close(fd);
		atomic_fetch_add(&t->s->ops, 1);
	}
	return NULL;
}

static void vhdtest_stress_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s stress [--seconds N]\n\n"
		"Race CREATE/DESTROY, ECHO_REQUEST, RECV, read and poll on one file\n"
		"against open/create/close of others for N seconds.\n\n"
		"  -t, --seconds N    how long (default 5)\n",
		VHDTEST_NAME);
}

int vhdtest_cmd_stress(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds",	required_argument,	NULL, 't' },
		VHDTEST_COMMON_LONGOPTS,
		{ NULL,		0,			NULL, 0 },
	};
	struct stress s = { .fd = -1 };
	struct stress_thread threads[] = {
		{ .name = "creator",	.fn = stress_creator },
		{ .name = "echoer",	.fn = stress_echoer },
		{ .name = "recver",	.fn = stress_recver },
		{ .name = "reader",	.fn = stress_reader },
		{ .name = "reader2",	.fn = stress_reader },
		{ .name = "opener",	.fn = stress_opener },
	};
	size_t nthreads = sizeof(threads) / sizeof(threads[0]), i, started;
	unsigned long seconds = 5;
	int c, ret;

	while ((c = getopt_long(argc, argv, "t:" VHDTEST_COMMON_SHORTOPTS,
				longopts, NULL)) != -1) {
		if (vhdtest_common_opt(c, optarg))
			continue;
		switch (c) {
		case 't':
			if (!vhdtest_parse_ulong(optarg, 3600, &seconds))
				goto bad_usage;
			break;
		case 'h':
			vhdtest_stress_usage(stdout);
			return VHDTEST_EXIT_OK;
		default:
			goto bad_usage;
		}
	}
	if (optind != argc)
		goto bad_usage;

	s.fd = vhd_open(O_NONBLOCK);
	if (s.fd < 0) {
		vhdtest_err(-s.fd, "cannot open %s", vhdtest_opts.device);
		return VHDTEST_EXIT_ERROR;
	}

	for (started = 0; started < nthreads; started++) {
		threads[started].s = &s;
		threads[started].seed = (unsigned int)(started * 7919 + getpid());
		ret = pthread_create(&threads[started].tid, NULL,
				     threads[started].fn, &threads[started]);
		if (ret) {
			vhdtest_err(ret, "pthread_create");
			atomic_fetch_add(&s.failures, 1);
			break;
		}
	}
	sleep((unsigned int)seconds);
	atomic_store(&s.stop, true);
	for (i = 0; i < started; i++)
		pthread_join(threads[i].tid, NULL);
	close(s.fd);	/* with a host device or not, events queued or not */

	printf("stress: %lu s, %u calls, %u host devices created, %u failures\n",
	       seconds, atomic_load(&s.ops), atomic_load(&s.hosts),
	       atomic_load(&s.failures));
	return atomic_load(&s.failures) ? VHDTEST_EXIT_FAIL : VHDTEST_EXIT_OK;

bad_usage:
	vhdtest_stress_usage(stderr);
	return VHDTEST_EXIT_USAGE;
}
