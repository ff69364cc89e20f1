// SPDX-License-Identifier: GPL-2.0
/*
 * gbtest-ueventd: the guest suite's stand-in for udev.
 *
 * Listens to kernel uevents, runs "modprobe -q -b MODALIAS" for every
 * "add" that carries a MODALIAS (one at a time, in order), appends a line
 * per event to LOG and keeps the sequence number of the last event it
 * has finished in SEQFILE, so that the suite can tell when driver loading
 * has caught up with the kernel.
 *
 * A shell helper forked per event falls minutes behind under TCG after a
 * case creates thousands of devices; one process reading netlink does not.
 *
 * With ENVLOG, the whole environment of every event of the SUBSYSTEMs
 * named after it (of every event if none is named) also goes to ENVLOG,
 * one "SEQNUM KEY=VALUE" line per variable, before the event's sequence
 * number is stored: once uevent_settle returns, ENVLOG holds every event
 * sent so far.  The events of other subsystems, LOG and SEQFILE are the
 * same with or without it.
 *
 * Usage: gbtest-ueventd LOG SEQFILE [ENVLOG [SUBSYSTEM...]]
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define RCVBUF_BYTES (64 << 20)

struct uevent {
	const char *action;
	const char *devpath;
	const char *modalias;
	const char *seqnum;
	const char *subsystem;
};

static void parse(char *buf, size_t len, struct uevent *ev)
{
	size_t off = strlen(buf) + 1;	/* skip "ACTION@DEVPATH" */

	memset(ev, 0, sizeof(*ev));
	while (off < len) {
		char *kv = buf + off;

		if (!strncmp(kv, "ACTION=", 7))
			ev->action = kv + 7;
		else if (!strncmp(kv, "DEVPATH=", 8))
			ev->devpath = kv + 8;
		else if (!strncmp(kv, "MODALIAS=", 9))
			ev->modalias = kv + 9;
		else if (!strncmp(kv, "SEQNUM=", 7))
			ev->seqnum = kv + 7;
		else if (!strncmp(kv, "SUBSYSTEM=", 10))
			ev->subsystem = kv + 10;
		off += strlen(kv) + 1;
	}
}

static void modprobe(const char *alias)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		perror("gbtest-ueventd: fork");
		return;
	}
	if (pid == 0) {
		execl("/sbin/modprobe", "modprobe", "-q", "-b", alias, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* Replace SEQFILE at once, so that a reader never sees half a number. */
static void store_seq(const char *path, const char *tmp, const char *seq)
{
	FILE *f = fopen(tmp, "w");

	if (!f)
		return;
	fprintf(f, "%s\n", seq);
	if (fclose(f) == 0)
		rename(tmp, path);
}

/* The event's variables, if ENVLOG wants its subsystem */
static void log_env(FILE *envlog, char **subsystems, int n,
		    const char *buf, size_t len, const struct uevent *ev)
{
	size_t off = strlen(buf) + 1;
	int i;

	for (i = 0; i < n; i++) {
		if (ev->subsystem && !strcmp(ev->subsystem, subsystems[i]))
			break;
	}
	if (n && i == n)
		return;
	while (off < len) {
		const char *kv = buf + off;

		fprintf(envlog, "%s %s\n", ev->seqnum, kv);
		off += strlen(kv) + 1;
	}
	fflush(envlog);
}

int main(int argc, char **argv)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int bufsz = RCVBUF_BYTES;
	static char buf[16384];
	char tmp[4096];
	FILE *log, *envlog = NULL;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: gbtest-ueventd LOG SEQFILE [ENVLOG [SUBSYSTEM...]]\n");
		return 2;
	}
	if (argc > 3) {
		envlog = fopen(argv[3], "a");
		if (!envlog) {
			perror(argv[3]);
			return 1;
		}
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
	log = fopen(argv[1], "a");
	if (!log) {
		perror(argv[1]);
		return 1;
	}
	setvbuf(log, NULL, _IOLBF, 0);

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0) {
		perror("gbtest-ueventd: socket");
		return 1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bufsz, sizeof(bufsz)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("gbtest-ueventd: bind");
		return 1;
	}

	for (;;) {
		struct uevent ev;
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				fprintf(log, "- lost events: receive buffer overflowed\n");
				continue;
			}
			perror("gbtest-ueventd: recv");
			return 1;
		}
		buf[n] = '\0';
		/* only the kernel's own messages, not libudev's re-broadcasts */
		if (!memchr(buf, '@', strnlen(buf, n)))
			continue;
		parse(buf, n, &ev);
		if (!ev.action || !ev.seqnum)
			continue;
		if (!strcmp(ev.action, "add") && ev.modalias)
			modprobe(ev.modalias);
		if (envlog)
			log_env(envlog, argv + 4, argc - 4, buf, (size_t)n, &ev);
		fprintf(log, "%s %s %s%s%s\n", ev.seqnum, ev.action,
			ev.devpath ? ev.devpath : "?",
			ev.modalias ? " " : "", ev.modalias ? ev.modalias : "");
		store_seq(argv[2], tmp, ev.seqnum);
	}
}
