// SPDX-License-Identifier: GPL-2.0
/*
 * gbattach - put a serial port under gb-hdlc's line discipline, so that
 * the Greybus link on it (BeaglePlay's CC1352, a standalone Zephyr node,
 * gbsim --pty) comes up, and take it off again on SIGTERM, SIGINT or
 * SIGHUP.  The discipline lives as long as the port is held open; this
 * process holds it (docs/hdlc.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <linux/tty.h>

#include "gb_hdlc.h"

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
"Prints the host device (greybusN) once attached, if it can tell.\n"
"Exit status: 0 when detached by a signal, 1 when the port or the line\n"
"discipline fails, 2 for a bad option.  See docs/hdlc.md.\n",
		GBATTACH_DEFAULT_SPEED);
}

static void gbattach_err(const char *what, int err)
{
	fprintf(stderr, "gbattach: %s: %s\n", what, strerror(err));
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

int main(int argc, char **argv)
{
	speed_t speed = B115200;
	bool foreground = false;
	int opt, fd, ldisc = N_DEVELOPMENT, plain = N_TTY, bus, sig;
	int ready[2] = { -1, -1 };
	struct termios t;
	sigset_t mask;
	const char *tty;
	char what[160];
	pid_t pid;

	while ((opt = getopt_long(argc, argv, "s:fhV", gbattach_options,
				  NULL)) != -1) {
		switch (opt) {
		case 's':
			if (gbattach_speed(optarg, &speed)) {
				fprintf(stderr, "gbattach: --speed %s: not a speed this port can be set to\n",
					optarg);
				return 2;
			}
			break;
		case 'f':
			foreground = true;
			break;
		case 'h':
			gbattach_usage(stdout);
			return 0;
		case 'V':
			printf("gbattach (greybus tools) %s\n", GB_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'gbattach --help' for more information.\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "gbattach: %s\nTry 'gbattach --help' for more information.\n",
			optind == argc ? "no tty given" : "more than one tty given");
		return 2;
	}
	tty = argv[optind];

	/* the signals that detach arrive through sigwait() only */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	if (!foreground) {
		/* the parent returns once the child says the link is up */
		if (pipe(ready)) {
			gbattach_err("pipe", errno);
			return 1;
		}
		pid = fork();
		if (pid < 0) {
			gbattach_err("fork", errno);
			return 1;
		}
		if (pid) {
			char c = 1;
			int status;

			close(ready[1]);
			if (read(ready[0], &c, 1) == 1 && c == 0)
				return 0;
			waitpid(pid, &status, 0);
			return 1;
		}
		close(ready[0]);
		setsid();
	}

	fd = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		gbattach_err(tty, errno);
		return 1;
	}
	if (tcgetattr(fd, &t)) {
		snprintf(what, sizeof(what), "%s: not a tty", tty);
		gbattach_err(what, errno);
		return 1;
	}
	cfmakeraw(&t);
	t.c_cflag &= ~(CSTOPB | PARENB | CRTSCTS);
	t.c_cflag |= CLOCAL | CREAD | CS8;
	cfsetspeed(&t, speed);
	if (tcsetattr(fd, TCSANOW, &t)) {
		snprintf(what, sizeof(what), "%s: set raw mode and speed", tty);
		gbattach_err(what, errno);
		return 1;
	}
	tcflush(fd, TCIOFLUSH);
	if (ioctl(fd, TIOCSETD, &ldisc)) {
		int err = errno;

		snprintf(what, sizeof(what),
			 "%s: attach line discipline %d (gb-hdlc)%s", tty, ldisc,
			 err == EINVAL ? "; is gb-hdlc loaded?" : "");
		gbattach_err(what, err);
		return 1;
	}

	bus = gb_hdlc_port_bus(tty);
	if (bus)
		printf("greybus%d\n", bus);
	else
		printf("attached\n");
	fflush(stdout);
	if (ready[1] >= 0) {
		char c = 0;
		int devnull = open("/dev/null", O_RDWR);

		if (write(ready[1], &c, 1) != 1)
			gbattach_err("tell the parent", errno);
		close(ready[1]);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			dup2(devnull, STDOUT_FILENO);
			close(devnull);
		}
	}

	if (sigwait(&mask, &sig))
		sig = SIGTERM;

	/* back to the plain discipline: the host device goes now */
	if (ioctl(fd, TIOCSETD, &plain) && errno != EIO) {
		snprintf(what, sizeof(what), "%s: detach line discipline", tty);
		gbattach_err(what, errno);
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
