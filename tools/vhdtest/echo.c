// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest echo: the raw round trip through /dev/greybus-vhd, with no
 * Greybus layer involved: write ECHO_REQUEST, read ECHO_REPLY, compare.
 * This is the transport's limit that the loopback benchmark is held to.
 *
 * With --two-process, a child answers: the parent's request is echoed by
 * the kernel onto a second file, which the child reads; the child's echo
 * of it comes back on the parent's file.  Each round trip then crosses to
 * another process and back, as a Greybus operation does between the AP's
 * driver and gbsim, with the Greybus layers removed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "vhdtest.h"

static void vhdtest_echo_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s echo [--count N] [--size BYTES] [--warmup N] [--create]\n"
		"       [--two-process]\n\n"
		"Time N ECHO_REQUEST/ECHO_REPLY round trips and print\n"
		"  echo size=S count=N min_us=.. median_us=.. p99_us=.. max_us=..\n"
		"  (echo2 ... with --two-process)\n\n"
		"  -n, --count N      measured round trips (default 1000)\n"
		"  -s, --size BYTES   payload bytes per echo (default 64, max %zu)\n"
		"  -w, --warmup N     unmeasured round trips first (default 10)\n"
		"  -C, --create       create a host device first (echo needs none)\n"
		"  -2, --two-process  a child process answers each request\n",
		VHDTEST_NAME, (size_t)GB_VHD_ECHO_SIZE_MAX);
}

static int vhdtest_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The next ECHO_REPLY on @fd into @rep: its size, or -errno */
static ssize_t vhdtest_echo_read(int fd, uint8_t *rep)
{
	struct gb_vhd_event_hdr rhdr;
	ssize_t n;

	/* Skip whatever else the host device reports meanwhile. */
	for (;;) {
		n = read(fd, rep, GB_VHD_EVENT_SIZE_MAX);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		memcpy(&rhdr, rep, sizeof(rhdr));
		if (rhdr.type == GB_VHD_ECHO_REPLY)
			return n;
	}
}

/*
 * One round trip: the request written on @out, its reply read on @in (the
 * same file in one process; with a child answering, the reply read on @in
 * is the child's echo).  0, or -errno / -EBADMSG if the reply is wrong.
 */
static int vhdtest_echo_once(int out, int in, uint8_t *req, uint8_t *rep,
			     size_t size, uint32_t seq)
{
	struct gb_vhd_event_hdr hdr = { .type = GB_VHD_ECHO_REQUEST,
					.len = (uint32_t)size };
	ssize_t n;
	int ret;

	memcpy(req, &hdr, sizeof(hdr));
	if (size >= sizeof(seq))
		memcpy(req + sizeof(hdr), &seq, sizeof(seq));
	ret = vhd_write_raw(out, req, sizeof(hdr) + size);
	if (ret)
		return ret;

	n = vhdtest_echo_read(in, rep);
	if (n < 0)
		return (int)n;
	memcpy(&hdr, rep, sizeof(hdr));
	if ((size_t)n != sizeof(hdr) + size || hdr.len != size ||
	    memcmp(rep + sizeof(hdr), req + sizeof(hdr), size))
		return -EBADMSG;
	return 0;
}

/*
 * The child of --two-process: each reply on @in (the parent's request,
 * echoed) is sent back as a request on @out, whose reply the parent
 * reads; @rounds times.
 */
static int vhdtest_echo_answer(int in, int out, uint8_t *buf,
			       unsigned long rounds)
{
	struct gb_vhd_event_hdr hdr;
	ssize_t n;
	int ret;

	while (rounds--) {
		n = vhdtest_echo_read(in, buf);
		if (n < 0)
			return (int)n;
		memcpy(&hdr, buf, sizeof(hdr));
		hdr.type = GB_VHD_ECHO_REQUEST;
		memcpy(buf, &hdr, sizeof(hdr));
		ret = vhd_write_raw(out, buf, (size_t)n);
		if (ret)
			return ret;
	}

	return 0;
}

int vhdtest_cmd_echo(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count",	required_argument,	NULL, 'n' },
		{ "size",	required_argument,	NULL, 's' },
		{ "warmup",	required_argument,	NULL, 'w' },
		{ "create",	no_argument,		NULL, 'C' },
		{ "two-process", no_argument,		NULL, '2' },
		VHDTEST_COMMON_LONGOPTS,
		{ NULL,		0,			NULL, 0 },
	};
	unsigned long count = 1000, size = 64, warmup = 10, i;
	uint64_t *lat = NULL, t0, sum = 0;
	uint8_t *req = NULL, *rep = NULL;
	bool create = false, two = false;
	int fd, peer = -1, ret, c, status;
	pid_t child = -1;
	long bus_id;

	while ((c = getopt_long(argc, argv, "n:s:w:C2" VHDTEST_COMMON_SHORTOPTS,
				longopts, NULL)) != -1) {
		if (vhdtest_common_opt(c, optarg))
			continue;
		switch (c) {
		case 'n':
			if (!vhdtest_parse_ulong(optarg, 100000000, &count) ||
			    !count)
				goto bad_usage;
			break;
		case 's':
			if (!vhdtest_parse_ulong(optarg, GB_VHD_ECHO_SIZE_MAX,
						 &size))
				goto bad_usage;
			break;
		case 'w':
			if (!vhdtest_parse_ulong(optarg, 100000000, &warmup))
				goto bad_usage;
			break;
		case 'C':
			create = true;
			break;
		case '2':
			two = true;
			break;
		case 'h':
			vhdtest_echo_usage(stdout);
			return VHDTEST_EXIT_OK;
		default:
			goto bad_usage;
		}
	}
	if (optind != argc)
		goto bad_usage;

	lat = calloc(count, sizeof(*lat));
	req = malloc(GB_VHD_EVENT_SIZE_MAX);
	rep = malloc(GB_VHD_EVENT_SIZE_MAX);
	if (!lat || !req || !rep) {
		vhdtest_err(ENOMEM, "echo");
		ret = VHDTEST_EXIT_ERROR;
		goto out_free;
	}
	for (i = 0; i < size; i++)
		req[sizeof(struct gb_vhd_event_hdr) + i] = (uint8_t)(i * 7 + 1);

	fd = vhd_open(0);
	if (fd < 0) {
		vhdtest_err(-fd, "cannot open %s", vhdtest_opts.device);
		ret = VHDTEST_EXIT_ERROR;
		goto out_free;
	}
	if (create) {
		ret = vhd_create(fd, 32, 2048, 0);
		bus_id = ret ? ret : vhd_wait_created(fd, 5000);
		if (bus_id < 0) {
			vhdtest_err((int)-bus_id, "creating a host device");
			ret = VHDTEST_EXIT_ERROR;
			goto out_close;
		}
		vhdtest_verbose("host device greybus%ld", bus_id);
	}

	if (two) {
		/* The parent writes on @peer and reads on @fd; the child the
		 * other way round.
		 */
		peer = vhd_open(0);
		if (peer < 0) {
			vhdtest_err(-peer, "cannot open %s again",
				    vhdtest_opts.device);
			ret = VHDTEST_EXIT_ERROR;
			goto out_close;
		}
		fflush(NULL);
		child = fork();
		if (child < 0) {
			vhdtest_err(errno, "fork");
			ret = VHDTEST_EXIT_ERROR;
			goto out_close;
		}
		if (child == 0) {
			ret = vhdtest_echo_answer(peer, fd, rep,
						  warmup + count);
			if (ret)
				vhdtest_err(-ret, "the answering process");
			_exit(ret ? VHDTEST_EXIT_FAIL : VHDTEST_EXIT_OK);
		}
	}

	for (i = 0; i < warmup + count; i++) {
		t0 = vhdtest_now_ns();
		ret = vhdtest_echo_once(two ? peer : fd, fd, req, rep, size,
					(uint32_t)i);
		if (ret) {
			vhdtest_err(-ret, "echo %lu of %lu bytes", i, size);
			ret = VHDTEST_EXIT_FAIL;
			goto out_close;
		}
		if (i >= warmup) {
			lat[i - warmup] = vhdtest_now_ns() - t0;
			sum += lat[i - warmup];
		}
	}

	if (two) {
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != VHDTEST_EXIT_OK) {
			vhdtest_err(0, "the answering process failed");
			child = -1;
			ret = VHDTEST_EXIT_FAIL;
			goto out_close;
		}
		child = -1;
	}

	qsort(lat, count, sizeof(*lat), vhdtest_cmp_u64);
	printf("%s size=%lu count=%lu min_us=%.1f median_us=%.1f p99_us=%.1f max_us=%.1f mean_us=%.1f\n",
	       two ? "echo2" : "echo", size, count, lat[0] / 1e3, lat[count / 2] / 1e3,
	       lat[(count * 99) / 100] / 1e3,
	       lat[count - 1] / 1e3, (double)sum / count / 1e3);
	ret = VHDTEST_EXIT_OK;

out_close:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (peer >= 0)
		close(peer);
	close(fd);
out_free:
	free(lat);
	free(req);
	free(rep);
	return ret;

bad_usage:
	vhdtest_echo_usage(stderr);
	return VHDTEST_EXIT_USAGE;
}
