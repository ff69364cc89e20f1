// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest create: create one host device, print its bus id on stdout and
 * hold it until SIGTERM, SIGINT or SIGHUP, or until end of file on stdin
 * when stdin is a pipe or FIFO.  Closing the device on exit removes the
 * host device.
 *
 * When stdin is a pipe it also takes commands, one per line, so that
 * shell tests can play a (very small) network by hand:
 *
 *   recv CPORT TYPE ID [HEX]   RECV a message: header (size filled in,
 *                              operation id ID, type TYPE) + HEX payload
 *   raw HEX                    write HEX as one whole event
 *   echo [HEX]                 ECHO_REQUEST
 *   destroy                    DESTROY
 *   create                     CREATE again, with the same parameters
 *
 * Each command is answered on stdout with "CMD: ok" or "CMD: error
 * STRERROR".  With --events every event read is printed on stdout too.
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_hex.h"
#include "vhdtest.h"

/* Between the hex digits of a line's bytes */
#define CREATE_BLANKS	" \t\n\v\f\r"

#define CMD_LINE_MAX	(2 * GB_VHD_EVENT_SIZE_MAX + 64)

struct create_ctx {
	int		fd;
	uint16_t	num_cports;
	uint16_t	mtu;
	uint32_t	flags;
	uint8_t		*buf;		/* events, both directions */
	char		*line;		/* stdin, up to one command */
	size_t		line_len;
};

static volatile sig_atomic_t vhdtest_create_stop;

static void vhdtest_create_signal(int sig)
{
	(void)sig;
	vhdtest_create_stop = 1;
}

static void vhdtest_create_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s create [--cports N] [--mtu BYTES] [--flags F] [--events]\n\n"
		"Create a host device, print its bus id, and hold it until SIGTERM,\n"
		"SIGINT, SIGHUP or (when stdin is a pipe) end of file on stdin.  From a\n"
		"pipe, stdin also takes commands: recv CPORT TYPE ID [HEX], raw HEX,\n"
		"echo [HEX], destroy, create.\n\n"
		"  -c, --cports N     bridge CPorts (default 32)\n"
		"  -m, --mtu BYTES    largest message (default 2048)\n"
		"  -f, --flags F      GB_VHD_CREATE_* flags (default 0)\n"
		"  -e, --events       print every event read on stdout\n",
		VHDTEST_NAME);
}

static bool vhdtest_stdin_is_pipe(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) &&
	       (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

static int create_cmd_recv(struct create_ctx *c, char *args)
{
	struct gb_operation_msg_hdr oh = { 0 };
	unsigned long cport, type, id;
	char *tok[3], *save = NULL, *rest;
	uint8_t *msg = c->buf;
	ssize_t n;
	int i;

	for (i = 0; i < 3; i++) {
		tok[i] = strtok_r(i ? NULL : args, " \t", &save);
		if (!tok[i])
			return -EINVAL;
	}
	rest = strtok_r(NULL, "", &save);
	if (!vhdtest_parse_ulong(tok[0], UINT16_MAX, &cport) ||
	    !vhdtest_parse_ulong(tok[1], UINT8_MAX, &type) ||
	    !vhdtest_parse_ulong(tok[2], UINT16_MAX, &id))
		return -EINVAL;
	n = rest ? gb_hex_decode(rest, CREATE_BLANKS, msg + sizeof(oh),
				 GB_VHD_EVENT_SIZE_MAX - 64) : 0;
	if (n < 0)
		return -EINVAL;
	oh.operation_id = htole16((uint16_t)id);
	oh.type = (uint8_t)type;
	memcpy(msg, &oh, sizeof(oh));
	return vhd_recv(c->fd, (uint16_t)cport, msg, sizeof(oh) + (size_t)n);
}

static int create_cmd(struct create_ctx *c, char *line)
{
	char *args = line + strcspn(line, " \t");
	ssize_t n;

	if (*args)
		*args++ = '\0';
	if (!strcmp(line, "recv"))
		return create_cmd_recv(c, args);
	if (!strcmp(line, "raw")) {
		n = gb_hex_decode(args, CREATE_BLANKS, c->buf, GB_VHD_EVENT_SIZE_MAX + 64);
		return n < 0 ? -EINVAL : vhd_write_raw(c->fd, c->buf, (size_t)n);
	}
	if (!strcmp(line, "echo")) {
		n = gb_hex_decode(args, CREATE_BLANKS, c->buf, GB_VHD_ECHO_SIZE_MAX);
		return n < 0 ? -EINVAL :
			vhd_write_event(c->fd, GB_VHD_ECHO_REQUEST, c->buf,
					(size_t)n);
	}
	if (!strcmp(line, "destroy"))
		return vhd_write_event(c->fd, GB_VHD_DESTROY, NULL, 0);
	if (!strcmp(line, "create"))
		return vhd_create(c->fd, c->num_cports, c->mtu, c->flags);
	return -ENOSYS;
}

/* Runs the complete lines read so far; false at end of file */
static bool create_stdin(struct create_ctx *c)
{
	char *nl;
	ssize_t n;
	int ret;

	n = read(STDIN_FILENO, c->line + c->line_len,
		 CMD_LINE_MAX - 1 - c->line_len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	c->line_len += (size_t)n;
	c->line[c->line_len] = '\0';

	while ((nl = strchr(c->line, '\n'))) {
		*nl = '\0';
		if (c->line[0] && c->line[0] != '#') {
			char name[16];

			snprintf(name, sizeof(name), "%.*s",
				 (int)strcspn(c->line, " \t"), c->line);
			ret = create_cmd(c, c->line);
			if (ret)
				printf("%s: error %s\n", name, strerror(-ret));
			else
				printf("%s: ok\n", name);
			fflush(stdout);
		}
		c->line_len -= (size_t)(nl + 1 - c->line);
		memmove(c->line, nl + 1, c->line_len + 1);
	}
	if (c->line_len == CMD_LINE_MAX - 1) {
		printf("line: error %s\n", strerror(E2BIG));
		c->line_len = 0;
	}
	return true;
}

int vhdtest_cmd_create(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cports",	required_argument,	NULL, 'c' },
		{ "mtu",	required_argument,	NULL, 'm' },
		{ "flags",	required_argument,	NULL, 'f' },
		{ "events",	no_argument,		NULL, 'e' },
		VHDTEST_COMMON_LONGOPTS,
		{ NULL,		0,			NULL, 0 },
	};
	unsigned long cports = 32, mtu = 2048, flags = 0;
	struct sigaction sa = { .sa_handler = vhdtest_create_signal };
	struct create_ctx c = { .fd = -1 };
	bool events = false, cmds;
	struct pollfd pfd[2];
	sigset_t block, orig;
	int ret, opt;
	long bus_id;
	nfds_t nfds = 1;

	while ((opt = getopt_long(argc, argv, "c:m:f:e" VHDTEST_COMMON_SHORTOPTS,
				  longopts, NULL)) != -1) {
		if (vhdtest_common_opt(opt, optarg))
			continue;
		switch (opt) {
		case 'c':
			if (!vhdtest_parse_ulong(optarg, UINT16_MAX, &cports))
				goto bad_usage;
			break;
		case 'm':
			if (!vhdtest_parse_ulong(optarg, UINT16_MAX, &mtu))
				goto bad_usage;
			break;
		case 'f':
			if (!vhdtest_parse_ulong(optarg, UINT32_MAX, &flags))
				goto bad_usage;
			break;
		case 'e':
			events = true;
			break;
		case 'h':
			vhdtest_create_usage(stdout);
			return VHDTEST_EXIT_OK;
		default:
			goto bad_usage;
		}
	}
	if (optind != argc)
		goto bad_usage;
	c.num_cports = (uint16_t)cports;
	c.mtu = (uint16_t)mtu;
	c.flags = (uint32_t)flags;
	cmds = vhdtest_stdin_is_pipe();

	c.buf = malloc(GB_VHD_EVENT_SIZE_MAX + 64);
	c.line = malloc(CMD_LINE_MAX);
	if (!c.buf || !c.line) {
		vhdtest_err(ENOMEM, "create");
		ret = VHDTEST_EXIT_ERROR;
		goto out_free;
	}

	/* Signals are only taken inside ppoll(), so none is lost. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	c.fd = vhd_open(0);
	if (c.fd < 0) {
		vhdtest_err(-c.fd, "cannot open %s", vhdtest_opts.device);
		ret = VHDTEST_EXIT_ERROR;
		goto out_free;
	}
	ret = vhd_create(c.fd, c.num_cports, c.mtu, c.flags);
	if (ret) {
		vhdtest_err(-ret, "CREATE (%lu cports, mtu %lu, flags 0x%lx)",
			    cports, mtu, flags);
		ret = VHDTEST_EXIT_FAIL;
		goto out_close;
	}
	bus_id = vhd_wait_created(c.fd, 5000);
	if (bus_id < 0) {
		vhdtest_err((int)-bus_id, "waiting for CREATED");
		ret = VHDTEST_EXIT_FAIL;
		goto out_close;
	}
	printf("%ld\n", bus_id);
	if (events)
		printf("event: CREATED (0x%02x), 4 payload bytes: bus id %ld\n",
		       GB_VHD_CREATED, bus_id);
	fflush(stdout);

	pfd[0].fd = c.fd;
	pfd[0].events = POLLIN;
	if (cmds) {
		pfd[1].fd = STDIN_FILENO;
		pfd[1].events = POLLIN;
		nfds = 2;
	}

	ret = VHDTEST_EXIT_OK;
	while (!vhdtest_create_stop) {
		if (ppoll(pfd, nfds, NULL, &orig) < 0) {
			if (errno == EINTR)
				continue;
			vhdtest_err(errno, "poll");
			ret = VHDTEST_EXIT_ERROR;
			break;
		}
		if (pfd[0].revents & POLLIN) {
			ssize_t n = read(c.fd, c.buf, GB_VHD_EVENT_SIZE_MAX);

			if (n < 0 && errno != EINTR && errno != EAGAIN) {
				vhdtest_err(errno, "read");
				ret = VHDTEST_EXIT_ERROR;
				break;
			}
			if (n > 0 && events) {
				vhd_event_print(stdout, c.buf, (size_t)n);
				fflush(stdout);
			}
			if (n > 0 && vhdtest_opts.verbose)
				vhd_event_print(stderr, c.buf, (size_t)n);
		}
		if (nfds == 2 && pfd[1].revents && !create_stdin(&c))
			break;
	}

out_close:
	close(c.fd);
out_free:
	free(c.buf);
	free(c.line);
	return ret;

bad_usage:
	vhdtest_create_usage(stderr);
	return VHDTEST_EXIT_USAGE;
}
