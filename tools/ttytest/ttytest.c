// SPDX-License-Identifier: GPL-2.0
/*
 * ttytest: the tty ioctls stty has no words for, one command after the
 * other on one open descriptor, for the UART cases.
 *
 *   ttytest DEV CMD...
 *     break MS       TIOCSBRK, MS milliseconds, TIOCCBRK
 *     flush          tcflush(TCOFLUSH)
 *     lines          prints "dtr=N rts=N dcd=N dsr=N ri=N" (TIOCMGET)
 *     dtr=0|1, rts=0|1
 *                    TIOCMBIC / TIOCMBIS of that line
 *     wait LIST      TIOCMIWAIT on a comma list of dcd, dsr, ri
 *                    ("wait dcd,ri"); prints "changed"
 *     icount         prints "rx=N dcd=N dsr=N rng=N brk=N frame=N
 *                    parity=N overrun=N buf_overrun=N" (TIOCGICOUNT)
 *     serial         prints "type=N line=N close_delay=N closing_wait=N"
 *                    (TIOCGSERIAL); its failure names the errno
 *                    ("ttytest: serial: ENOTTY")
 *
 * Exit status 0, 1 when a command failed ("ttytest: CMD: error" on
 * stderr), 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr,
		"usage: ttytest DEV CMD...\n"
		"  break MS | flush | lines | dtr=0|1 | rts=0|1 | wait dcd,dsr,ri | icount | serial\n");
	exit(2);
}

static int fail(const char *cmd)
{
	fprintf(stderr, "ttytest: %s: %s\n", cmd, strerror(errno));
	return 1;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int cmd_lines(int fd)
{
	int m;

	if (ioctl(fd, TIOCMGET, &m) < 0)
		return fail("lines");
	printf("dtr=%d rts=%d dcd=%d dsr=%d ri=%d\n", !!(m & TIOCM_DTR),
	       !!(m & TIOCM_RTS), !!(m & TIOCM_CAR), !!(m & TIOCM_DSR),
	       !!(m & TIOCM_RNG));
	return 0;
}

static int cmd_icount(int fd)
{
	struct serial_icounter_struct c;

	if (ioctl(fd, TIOCGICOUNT, &c) < 0)
		return fail("icount");
	printf("rx=%d dcd=%d dsr=%d rng=%d brk=%d frame=%d parity=%d overrun=%d buf_overrun=%d\n",
	       c.rx, c.dcd, c.dsr, c.rng, c.brk, c.frame, c.parity, c.overrun,
	       c.buf_overrun);
	return 0;
}

static int cmd_serial(int fd)
{
	struct serial_struct s;
	const char *name;

	if (ioctl(fd, TIOCGSERIAL, &s) < 0) {
		name = strerrorname_np(errno);
		fprintf(stderr, "ttytest: serial: %s\n", name ? name : "E?");
		return 1;
	}
	printf("type=%d line=%d close_delay=%u closing_wait=%u\n", s.type,
	       s.line, s.close_delay, s.closing_wait);
	return 0;
}

static int wait_mask(const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int mask = 0;

	if (!copy)
		exit(1);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "dcd"))
			mask |= TIOCM_CAR;
		else if (!strcmp(tok, "dsr"))
			mask |= TIOCM_DSR;
		else if (!strcmp(tok, "ri"))
			mask |= TIOCM_RNG;
		else
			usage();
	}
	free(copy);
	return mask;
}

static int cmd_line(int fd, const char *arg)
{
	int bit = !strncmp(arg, "dtr=", 4) ? TIOCM_DTR : TIOCM_RTS;
	int on = arg[4] == '1';

	if (ioctl(fd, on ? TIOCMBIS : TIOCMBIC, &bit) < 0)
		return fail(arg);
	return 0;
}

int main(int argc, char **argv)
{
	int fd, i, flags;

	if (argc < 3)
		usage();
	fd = open(argv[1], O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return fail(argv[1]);
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
		return fail(argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (i = 2; i < argc; i++) {
		const char *c = argv[i];

		if (!strcmp(c, "break")) {
			if (++i >= argc)
				usage();
			if (ioctl(fd, TIOCSBRK) < 0)
				return fail("break on");
			sleep_ms(strtol(argv[i], NULL, 0));
			if (ioctl(fd, TIOCCBRK) < 0)
				return fail("break off");
		} else if (!strcmp(c, "flush")) {
			if (tcflush(fd, TCOFLUSH) < 0)
				return fail(c);
		} else if (!strcmp(c, "lines")) {
			if (cmd_lines(fd))
				return 1;
		} else if (!strcmp(c, "icount")) {
			if (cmd_icount(fd))
				return 1;
		} else if (!strcmp(c, "serial")) {
			if (cmd_serial(fd))
				return 1;
		} else if (!strcmp(c, "dtr=0") || !strcmp(c, "dtr=1") ||
			   !strcmp(c, "rts=0") || !strcmp(c, "rts=1")) {
			if (cmd_line(fd, c))
				return 1;
		} else if (!strcmp(c, "wait")) {
			if (++i >= argc)
				usage();
			if (ioctl(fd, TIOCMIWAIT, wait_mask(argv[i])) < 0)
				return fail(c);
			printf("changed\n");
		} else {
			usage();
		}
	}
	return 0;
}
