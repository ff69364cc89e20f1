// SPDX-License-Identifier: GPL-2.0
/*
 * The port gbattach puts the link on: refused before it is opened unless
 * it is a tty (a character device whose number a tty driver owns, by
 * /proc/tty/drivers), opened without becoming anyone's controlling
 * terminal nor waiting for a carrier, and its settings saved so that they
 * are given back when attaching fails and on detach, as ldattach and
 * hciattach leave a port.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "gbattach.h"

/* How long detach lets the last bytes (SVC_STOP) leave before restoring */
#define GBATTACH_DRAIN_MS	250
#define GBATTACH_DRAIN_STEP_MS	5

static const char *gbattach_kind(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a device";
}

/*
 * 1 if a tty driver owns the device number (its major, and its minor in
 * the driver's range), 0 if none does, -1 if /proc/tty/drivers cannot
 * tell.  A line reads "name /dev/node major minor[-last] type".
 */
static int gbattach_tty_driver_owns(unsigned int maj, unsigned int min)
{
	char line[256], range[64];
	unsigned int m, lo, hi;
	int found = 0;
	FILE *f;

	f = fopen("/proc/tty/drivers", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %u %63s", &m, range) != 2 || m != maj)
			continue;
		if (sscanf(range, "%u-%u", &lo, &hi) != 2) {
			if (sscanf(range, "%u", &lo) != 1)
				continue;
			hi = lo;
		}
		if (min >= lo && min <= hi) {
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

int gbattach_port_check(const char *path)
{
	struct stat st;
	int owned;

	if (stat(path, &st)) {
		if (errno == ENOENT)
			gbattach_err("%s: no such port (is the adapter plugged in? ls /dev/serial/by-id/)",
				     path);
		else
			gbattach_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISCHR(st.st_mode)) {
		gbattach_err("%s: not a tty but %s; refused, nothing done (give a serial port, e.g. /dev/ttyUSB0)",
			     path, gbattach_kind(st.st_mode));
		return -1;
	}
	owned = gbattach_tty_driver_owns(major(st.st_rdev), minor(st.st_rdev));
	if (!owned) {
		gbattach_err("%s: not a tty: no tty driver has device %u:%u (/proc/tty/drivers); refused, nothing done",
			     path, major(st.st_rdev), minor(st.st_rdev));
		return -1;
	}
	return 0;
}

int gbattach_port_open(const char *path, struct termios *saved)
{
	int fd, err;

	/* O_NONBLOCK: a port without CLOCAL would wait for a carrier */
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		switch (err) {
		case EACCES:
		case EPERM:
			gbattach_err("%s: permission denied: attaching needs root (CAP_SYS_ADMIN)",
				     path);
			break;
		case EBUSY:
			gbattach_err("%s: busy: another program holds it exclusively (fuser %s)",
				     path, path);
			break;
		case ENXIO:
		case ENODEV:
			gbattach_err("%s: no device behind it (unplugged, or no UART at this port)",
				     path);
			break;
		default:
			gbattach_err("%s: %s", path, strerror(err));
		}
		return -1;
	}
	if (tcgetattr(fd, saved)) {
		err = errno;
		gbattach_err("%s: not a tty (%s); refused", path, strerror(err));
		close(fd);
		return -1;
	}
	return fd;
}

int gbattach_port_raw(int fd, const char *path, speed_t speed)
{
	struct termios t;

	if (tcgetattr(fd, &t)) {
		gbattach_err("%s: read its settings: %s", path, strerror(errno));
		return -1;
	}
	cfmakeraw(&t);
	t.c_cflag &= ~(CSTOPB | PARENB | CRTSCTS);
	t.c_cflag |= CLOCAL | CREAD | CS8;
	cfsetspeed(&t, speed);
	if (tcsetattr(fd, TCSANOW, &t)) {
		gbattach_err("%s: set raw mode and speed: %s", path, strerror(errno));
		return -1;
	}
	tcflush(fd, TCIOFLUSH);
	return 0;
}

/* Let what is queued leave, for a bounded time: the port may be stuck */
static void gbattach_port_drain(int fd)
{
	int queued, waited;

	for (waited = 0; waited < GBATTACH_DRAIN_MS; waited += GBATTACH_DRAIN_STEP_MS) {
		if (ioctl(fd, TIOCOUTQ, &queued) || queued <= 0)
			return;
		poll(NULL, 0, GBATTACH_DRAIN_STEP_MS);
	}
}

int gbattach_port_restore(int fd, const char *path, const struct termios *saved)
{
	gbattach_port_drain(fd);
	if (tcsetattr(fd, TCSANOW, saved)) {
		gbattach_err("%s: give back its settings: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * After a hangup the tty core gives every open file of the port a poll
 * that reports POLLHUP at once; asked with no events, nothing else shows.
 */
bool gbattach_port_hung_up(int fd)
{
	struct pollfd p = { .fd = fd, .events = 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}
