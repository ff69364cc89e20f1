// SPDX-License-Identifier: GPL-2.0
/*
 * gb-hdlc's line discipline on and off the port.  The kernel answers a
 * failed TIOCSETD with a bare errno ("Invalid argument" when the number
 * is unknown to it); /proc/tty/ldiscs, the disciplines it knows by name
 * and number, tells why, so the error can name the fix.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "gbattach.h"

/*
 * The name of the discipline registered as @num into @name, 1; 0 if
 * none is; -1 if /proc/tty/ldiscs cannot tell.  A line reads "name num".
 */
static int gbattach_ldisc_lookup(int num, char *name, size_t size)
{
	char line[128], n[64];
	int found = 0, v;
	FILE *f;

	f = fopen("/proc/tty/ldiscs", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %d", n, &v) == 2 && v == num) {
			snprintf(name, size, "%s", n);
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

int gbattach_ldisc_attach(int fd, const char *path)
{
	int ldisc = GBATTACH_LDISC, err, known;
	char owner[64] = "";

	if (!ioctl(fd, TIOCSETD, &ldisc))
		return 0;
	err = errno;
	known = gbattach_ldisc_lookup(ldisc, owner, sizeof(owner));
	if (known == 1 && strcmp(owner, GBATTACH_LDISC_NAME)) {
		gbattach_err("%s: line discipline %d belongs to '%s', not %s: unload %s, then modprobe %s",
			     path, ldisc, owner, GBATTACH_LDISC_NAME, owner,
			     GBATTACH_LDISC_NAME);
		return -1;
	}
	switch (err) {
	case EINVAL:
		if (known == 1)
			break;
		gbattach_err("%s: %s is not loaded (line discipline %d is unknown to the kernel): modprobe %s",
			     path, GBATTACH_LDISC_NAME, ldisc, GBATTACH_LDISC_NAME);
		return -1;
	case EPERM:
		/* the kernel's answer when it may not try to autoload it */
		if (known == 0) {
			gbattach_err("%s: %s is not loaded (line discipline %d is unknown to the kernel): modprobe %s",
				     path, GBATTACH_LDISC_NAME, ldisc,
				     GBATTACH_LDISC_NAME);
			return -1;
		}
		gbattach_err("%s: attaching %s needs CAP_SYS_ADMIN: run gbattach as root",
			     path, GBATTACH_LDISC_NAME);
		return -1;
	case EOPNOTSUPP:
		gbattach_err("%s: its driver cannot be written to by a line discipline; use another port",
			     path);
		return -1;
	case EIO:
		gbattach_err("%s: the port hung up (unplugged?) before the link was attached",
			     path);
		return -1;
	}
	gbattach_err("%s: attach line discipline %d (%s): %s", path, ldisc,
		     GBATTACH_LDISC_NAME, strerror(err));
	return -1;
}

int gbattach_ldisc_detach(int fd, const char *path)
{
	int plain = 0;	/* N_TTY */

	if (!ioctl(fd, TIOCSETD, &plain))
		return 0;
	/* a hung-up port answers EIO: its discipline is gone already */
	if (errno == EIO)
		return 1;
	gbattach_err("%s: detach line discipline: %s", path, strerror(errno));
	return -1;
}
