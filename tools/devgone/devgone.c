// SPDX-License-Identifier: GPL-2.0
/*
 * devgone: what a file descriptor of a character device gets once the
 * device behind it has gone, for the cases that pull a module out from
 * under an open /dev/gb/rawN, /dev/gb-fw-mgmt-N or /dev/gb-authenticate-N.
 *
 *   devgone [-t SECS] DEV READY GO [IOCTL]
 *
 * Opens DEV read-write and non-blocking, creates the file READY, waits
 * (up to SECS, default 60) for the file GO to exist, then does one read
 * of 8192 bytes, one write of one byte, one ioctl, one poll without
 * waiting and the close, printing one line for each:
 *
 *   read ENODEV          the errno's name, or "read 5" (bytes)
 *   write ENODEV
 *   ioctl ENODEV         IOCTL: fw-intf (FW_MGMT_IOC_GET_INTF_FW),
 *                        cap-uid (CAP_IOC_GET_ENDPOINT_UID) or a number;
 *                        default 0, which no driver of ours knows
 *   poll ERR,HUP         the events returned, or "poll none"
 *   close ok
 *
 * The ioctl's argument is a zeroed buffer of 16 KiB, more than any of
 * these ioctls reads or writes.  Exit status 0 when every step ran
 * (whatever it returned), 1 when DEV could not be opened or GO did not
 * appear, 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <uapi/greybus/cap.h>
#include <uapi/greybus/fw_mgmt.h>

static void usage(void)
{
	fprintf(stderr, "usage: devgone [-t SECS] DEV READY GO [fw-intf|cap-uid|NUMBER]\n");
	exit(2);
}

static const char *errno_name(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static void show(const char *what, long ret, int e)
{
	if (ret < 0)
		printf("%s %s\n", what, errno_name(e));
	else
		printf("%s %ld\n", what, ret);
}

static unsigned long ioctl_cmd(const char *arg)
{
	char *end;
	unsigned long cmd;

	if (!strcmp(arg, "fw-intf"))
		return FW_MGMT_IOC_GET_INTF_FW;
	if (!strcmp(arg, "cap-uid"))
		return CAP_IOC_GET_ENDPOINT_UID;
	errno = 0;
	cmd = strtoul(arg, &end, 0);
	if (errno || !*arg || *end)
		usage();
	return cmd;
}

static void show_poll(int fd)
{
	static const struct { short bit; const char *name; } bits[] = {
		{ POLLIN, "IN" }, { POLLOUT, "OUT" }, { POLLPRI, "PRI" },
		{ POLLERR, "ERR" }, { POLLHUP, "HUP" }, { POLLNVAL, "NVAL" },
	};
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT | POLLPRI };
	const char *sep = "";
	size_t i;
	int ret;

	ret = poll(&p, 1, 0);
	if (ret < 0) {
		show("poll", ret, errno);
		return;
	}
	printf("poll ");
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (p.revents & bits[i].bit) {
			printf("%s%s", sep, bits[i].name);
			sep = ",";
		}
	}
	printf("%s\n", *sep ? "" : "none");
}

int main(int argc, char **argv)
{
	static char buf[16384];
	struct timespec tick = { 0, 20 * 1000000L };
	unsigned long cmd = 0;
	long ticks, secs = 60;
	int fd, opt, ret;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't')
			usage();
		secs = strtol(optarg, NULL, 0);
	}
	if (argc - optind < 3 || argc - optind > 4)
		usage();
	if (argc - optind == 4)
		cmd = ioctl_cmd(argv[optind + 3]);
	setvbuf(stdout, NULL, _IOLBF, 0);

	fd = open(argv[optind], O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "devgone: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	ret = open(argv[optind + 1], O_WRONLY | O_CREAT, 0644);
	if (ret < 0) {
		fprintf(stderr, "devgone: %s: %s\n", argv[optind + 1], strerror(errno));
		return 1;
	}
	close(ret);
	for (ticks = secs * 50; access(argv[optind + 2], F_OK); ticks--) {
		if (ticks <= 0) {
			fprintf(stderr, "devgone: no %s after %ld s\n", argv[optind + 2], secs);
			return 1;
		}
		nanosleep(&tick, NULL);
	}

	ret = read(fd, buf, 8192);
	show("read", ret, errno);
	ret = write(fd, "x", 1);
	show("write", ret, errno);
	memset(buf, 0, sizeof(buf));
	ret = ioctl(fd, cmd, buf);
	show("ioctl", ret, errno);
	show_poll(fd);
	ret = close(fd);
	if (ret < 0)
		show("close", ret, errno);
	else
		printf("close ok\n");
	return 0;
}
