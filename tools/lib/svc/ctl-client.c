// SPDX-License-Identifier: GPL-2.0
/*
 * `PROG ctl [-s PATH] [-w SECONDS] COMMAND [ARGS...]` (gbsim, gbnet):
 * send one command to a running daemon's control socket and print the
 * reply.
 *
 * Exit status: 0 the command succeeded (its output is on stdout); 1 it
 * failed ("PROG ctl: MESSAGE" on stderr) or the daemon went away; 2 usage
 * errors and no socket to talk to.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "gb_version.h"
#include "loop.h"

#define GBSIM_CTL_REPLY_TIMEOUT_MS	30000

/* Who we are: set by gbsim_ctl_client() for every message */
static const struct gbsim_ctl_client_info *gbsim_ctl_who;

static int gbsim_ctl_usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s ctl: ", gbsim_ctl_who->prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s ctl -h' for more information.\n",
		gbsim_ctl_who->prog);
	return 2;
}

static int gbsim_ctl_connect(const char *path, double wait_s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	uint64_t deadline = gbsim_now_ns() + (uint64_t)(wait_s * 1e9);
	int fd, err;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "%s ctl: socket path '%s' is too long\n", gbsim_ctl_who->prog, path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	for (;;) {
		fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			fprintf(stderr, "%s ctl: socket: %s\n", gbsim_ctl_who->prog, strerror(errno));
			return -1;
		}
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		err = errno;
		close(fd);
		if ((err != ENOENT && err != ECONNREFUSED) ||
		    gbsim_now_ns() >= deadline)
			break;
		usleep(50000);
	}
	fprintf(stderr, "%s ctl: cannot connect to %s: %s%s\n", gbsim_ctl_who->prog, path,
		strerror(err), err == ENOENT || err == ECONNREFUSED ?
		" (is it running with --ctl?)" : "");
	return -1;
}

/* The words, each followed by NUL; a relative insert manifest made absolute */
static char *gbsim_ctl_build(int argc, char **argv, size_t *len)
{
	char cwd[4096];
	size_t n = 0, off = 0;
	char *buf;
	bool abs_manifest = argc >= 3 && !strcmp(argv[0], "insert") &&
			    argv[2][0] && argv[2][0] != '/';

	if (abs_manifest && !getcwd(cwd, sizeof(cwd)))
		abs_manifest = false;
	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	if (abs_manifest)
		n += strlen(cwd) + 1;
	buf = malloc(n ? n : 1);
	if (!buf)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i == 2 && abs_manifest) {
			memcpy(buf + off, cwd, strlen(cwd));
			off += strlen(cwd);
			buf[off++] = '/';
		}
		memcpy(buf + off, argv[i], strlen(argv[i]) + 1);
		off += strlen(argv[i]) + 1;
	}
	*len = off;
	return buf;
}

static void gbsim_ctl_print_error(const char *p, size_t len)
{
	while (len && p[len - 1] == '\n')
		len--;
	fprintf(stderr, "%s ctl: %.*s\n", gbsim_ctl_who->prog, (int)len,
		len ? p : "the command failed");
}

/* Print reply datagrams until the last one; the exit status */
static int gbsim_ctl_replies(int fd, bool follow)
{
	static char buf[GBSIM_CTL_CHUNK + 1];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;
	int ret;

	for (;;) {
		ret = poll(&pfd, 1, follow ? -1 : GBSIM_CTL_REPLY_TIMEOUT_MS);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret == 0) {
			fprintf(stderr, "%s ctl: no answer in %d s\n", gbsim_ctl_who->prog,
				GBSIM_CTL_REPLY_TIMEOUT_MS / 1000);
			return 1;
		}
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "%s ctl: %s\n", gbsim_ctl_who->prog, strerror(errno));
			return 1;
		}
		if (n == 0) {
			if (follow)
				return 0;	/* gbsim stopped: the log ends */
			fprintf(stderr, "%s ctl: the connection closed without an answer\n", gbsim_ctl_who->prog);
			return 1;
		}
		switch (buf[0]) {
		case GBSIM_CTL_MORE:
		case GBSIM_CTL_OK:
			fwrite(buf + 1, 1, (size_t)n - 1, stdout);
			if (follow)
				fflush(stdout);
			if (buf[0] == GBSIM_CTL_OK)
				return fflush(stdout) ? 1 : 0;
			break;
		case GBSIM_CTL_ERR:
			fflush(stdout);
			gbsim_ctl_print_error(buf + 1, (size_t)n - 1);
			return 1;
		default:
			fprintf(stderr, "%s ctl: reply of unknown kind 0x%02x\n", gbsim_ctl_who->prog,
				(unsigned char)buf[0]);
			return 1;
		}
	}
}

int gbsim_ctl_client(const struct gbsim_ctl_client_info *who, int argc,
		     char **argv)
{
	const char *path = getenv(who->env);
	double wait_s = 0;
	size_t len;
	char *req, *end;
	int i, fd, ret;
	bool follow;

	gbsim_ctl_who = who;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			who->usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			/* the tool's own version: the client is part of it */
			gb_print_version(who->prog);
			return 0;
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			path = argv[++i];
		} else if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			wait_s = strtod(argv[++i], &end);
			if (*end || !(wait_s >= 0 && wait_s <= 3600))
				return gbsim_ctl_usage_error("bad wait '%s' (0..3600 seconds)",
							     argv[i]);
		} else {
			return gbsim_ctl_usage_error("unknown option '%s'", argv[i]);
		}
	}
	if (i == argc)
		return gbsim_ctl_usage_error("%s", "no command given");
	if ((!path || !*path) && who->default_path)
		path = who->default_path;
	if (!path || !*path)
		return gbsim_ctl_usage_error("no control socket: give -s PATH or set %s",
					     who->env);

	follow = !strcmp(argv[i], "log") && i + 1 < argc &&
		 !strcmp(argv[i + 1], "-f");
	req = gbsim_ctl_build(argc - i, argv + i, &len);
	if (!req) {
		fprintf(stderr, "%s ctl: out of memory\n", gbsim_ctl_who->prog);
		return 1;
	}
	if (len > GBSIM_CTL_REQ_MAX) {
		free(req);
		return gbsim_ctl_usage_error("%s", "request too long");
	}
	fd = gbsim_ctl_connect(path, wait_s);
	if (fd < 0) {
		free(req);
		return 2;
	}
	{
		int sndbuf = (int)len + 4096;

		/* one datagram must fit the socket buffer whole */
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	}
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
		fprintf(stderr, "%s ctl: sending to %s: %s\n", gbsim_ctl_who->prog, path,
			strerror(errno));
		free(req);
		close(fd);
		return 1;
	}
	free(req);
	ret = gbsim_ctl_replies(fd, follow);
	close(fd);
	return ret;
}
