// SPDX-License-Identifier: GPL-2.0
/*
 * gbattach - put a serial port under gb-hdlc's line discipline, so that
 * the Greybus link on it (BeaglePlay's CC1352, a standalone Zephyr node,
 * gbsim --pty) comes up, and take it off again on SIGTERM, SIGINT or
 * SIGHUP.  The discipline lives as long as the port is held open; this
 * process holds it (docs/hdlc.md).  Like ldattach and hciattach it gives
 * the port's settings back when it ends, and it ends by itself, with a
 * status of its own, when the port hangs up (the adapter unplugged).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "gb_cli.h"
#include "gb_hdlc.h"
#include "gb_version.h"
#include "gbattach.h"

#define GBATTACH_DEFAULT_SPEED	115200

static const struct option gbattach_options[] = {
	{ "speed",	required_argument, NULL, 's' },
	{ "foreground",	no_argument,	   NULL, 'f' },
	{ "help",	no_argument,	   NULL, 'h' },
	{ "version",	no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void gbattach_usage(FILE *out)
{
	fprintf(out,
"Usage: gbattach [OPTIONS] TTY\n"
"Attach the Greybus HDLC line discipline (gb-hdlc, N_DEVELOPMENT) to the\n"
"serial port TTY: a Greybus host device appears for the link on it, and\n"
"goes when gbattach ends (SIGTERM, SIGINT or SIGHUP).\n"
"\n"
"Options:\n"
"  -s, --speed BAUD      line speed (default %d), 8N1, no flow control\n"
"  -f, --foreground      stay in the foreground; without it gbattach\n"
"                        returns once the link is attached and holds the\n"
"                        port in the background\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"Prints the host device (greybusN) once attached, if it can tell.  TTY\n"
"must be a tty; its settings are given back when attaching fails and\n"
"on detach.  Once attached gbattach gives up every capability.\n"
"\n"
"Exit status: 0 when detached by a signal, 1 when the port or the line\n"
"discipline fails, 2 for a bad option, 3 when the port hung up (the\n"
"USB-serial adapter unplugged, the other end of a pty closed).  See\n"
"docs/hdlc.md.\n",
		GBATTACH_DEFAULT_SPEED);
}

void gbattach_err(const char *fmt, ...)
{
	va_list ap;

	fputs("gbattach: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const struct {
	unsigned int baud;
	speed_t code;
} gbattach_speeds[] = {
	{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 },
	{ 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
	{ 460800, B460800 }, { 500000, B500000 }, { 921600, B921600 },
	{ 1000000, B1000000 }, { 1500000, B1500000 }, { 2000000, B2000000 },
	{ 3000000, B3000000 },
};

static int gbattach_speed(const char *s, speed_t *code)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	for (size_t i = 0; i < sizeof(gbattach_speeds) / sizeof(gbattach_speeds[0]); i++) {
		if (gbattach_speeds[i].baud == v) {
			*code = gbattach_speeds[i].code;
			return 0;
		}
	}
	return -1;
}

/*
 * gb-hdlc's line discipline has no poll method, so a poll of the port
 * sleeps on nothing and its hangup wakes nobody; after the hangup,
 * though, the tty core gives the file a poll that reports POLLHUP at
 * once.  Asking again every GBATTACH_HUP_CHECK_MS notices a hangup
 * within that time (at once, should the discipline gain a poll method);
 * a detaching signal wakes the poll at once through the signalfd.
 */
#define GBATTACH_HUP_CHECK_MS	500

enum gbattach_end { GBATTACH_SIGNALLED, GBATTACH_HUNG_UP };

static enum gbattach_end gbattach_hold(int fd, int sfd)
{
	struct pollfd p[2] = {
		{ .fd = fd, .events = 0 },
		{ .fd = sfd, .events = POLLIN },
	};
	struct signalfd_siginfo si;

	for (;;) {
		if (poll(p, 2, GBATTACH_HUP_CHECK_MS) < 0 && errno != EINTR) {
			gbattach_err("poll: %s; detaching", strerror(errno));
			return GBATTACH_SIGNALLED;
		}
		if (p[1].revents & POLLIN) {
			if (read(sfd, &si, sizeof(si)) != sizeof(si))
				continue;
			return GBATTACH_SIGNALLED;
		}
		if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return GBATTACH_HUNG_UP;
	}
}

/* Tell the parent (background mode) the link is up; leave its terminal */
static void gbattach_ready(int ready)
{
	char c = 0;
	int devnull;

	if (ready < 0)
		return;
	if (write(ready, &c, 1) != 1)
		gbattach_err("tell the parent: %s", strerror(errno));
	close(ready);
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
}

/* Attach, hold, detach: the exit status */
static int gbattach_run(const char *tty, speed_t speed, const sigset_t *mask,
			int ready)
{
	struct termios saved;
	int fd, sfd, bus, ret;

	sfd = signalfd(-1, mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		gbattach_err("signalfd: %s", strerror(errno));
		return GBATTACH_EXIT_FAILED;
	}
	fd = gbattach_port_open(tty, &saved);
	if (fd < 0) {
		close(sfd);
		return GBATTACH_EXIT_FAILED;
	}
	if (gbattach_port_raw(fd, tty, speed) || gbattach_ldisc_attach(fd, tty)) {
		/* the port as it was: never left raw at our speed */
		gbattach_port_restore(fd, tty, &saved);
		close(fd);
		close(sfd);
		return GBATTACH_EXIT_FAILED;
	}
	gbattach_drop_privileges();

	bus = gb_hdlc_port_bus(tty);
	if (bus)
		printf("greybus%d\n", bus);
	else
		printf("attached\n");
	fflush(stdout);
	gbattach_ready(ready);

	if (gbattach_hold(fd, sfd) == GBATTACH_SIGNALLED) {
		/* back to the plain discipline: the host device goes now */
		ret = gbattach_ldisc_detach(fd, tty);
		if (ret <= 0) {
			if (!ret && gbattach_port_restore(fd, tty, &saved))
				ret = -1;
			close(fd);
			close(sfd);
			return ret ? GBATTACH_EXIT_FAILED : GBATTACH_EXIT_DETACHED;
		}
	}
	/* the tty core took the discipline off; the port has no settings left */
	gbattach_err("%s: hung up: the port went away (USB-serial adapter unplugged, or the other end of the pty closed); the link is down",
		     tty);
	close(fd);
	close(sfd);
	return GBATTACH_EXIT_HANGUP;
}

int main(int argc, char **argv)
{
	speed_t speed = B115200;
	bool foreground = false;
	int opt, ready[2] = { -1, -1 };
	const char *tty;
	sigset_t mask;
	pid_t pid;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:fhV", gbattach_options,
				  NULL)) != -1) {
		switch (opt) {
		case 's':
			if (gbattach_speed(optarg, &speed)) {
				gbattach_err("--speed %s: not a speed this port can be set to",
					     optarg);
				return GBATTACH_EXIT_USAGE;
			}
			break;
		case 'f':
			foreground = true;
			break;
		case 'h':
			gbattach_usage(stdout);
			return 0;
		case 'V':
			gb_print_version("gbattach");
			return 0;
		default:
			return gb_getopt_report("gbattach", opt, argv);
		}
	}
	if (optind + 1 != argc) {
		return gb_usage_report("gbattach", "%s", optind == argc ?
				       "no tty given" : "more than one tty given");
	}
	tty = argv[optind];

	/* refused before anything opens it */
	if (gbattach_port_check(tty))
		return GBATTACH_EXIT_FAILED;

	/* the signals that detach arrive through the signalfd only */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	if (!foreground) {
		/* the parent returns once the child says the link is up */
		if (pipe2(ready, O_CLOEXEC)) {
			gbattach_err("pipe: %s", strerror(errno));
			return GBATTACH_EXIT_FAILED;
		}
		pid = fork();
		if (pid < 0) {
			gbattach_err("fork: %s", strerror(errno));
			return GBATTACH_EXIT_FAILED;
		}
		if (pid) {
			char c = 1;
			int status;

			close(ready[1]);
			if (read(ready[0], &c, 1) == 1 && c == 0)
				return GBATTACH_EXIT_DETACHED;
			if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
				return WEXITSTATUS(status);
			return GBATTACH_EXIT_FAILED;
		}
		close(ready[0]);
		setsid();
	}
	return gbattach_run(tty, speed, &mask, ready[1]);
}
