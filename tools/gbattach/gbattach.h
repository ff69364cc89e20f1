/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbattach's parts: the port (refused unless a tty, opened, its settings
 * saved and given back), the line discipline (attached and detached, its
 * errors explained) and the privileges given up once attached.
 */
#ifndef GBATTACH_H
#define GBATTACH_H

#include <stdbool.h>
#include <termios.h>

/* Exit statuses (also in --help and docs/hdlc.md) */
#define GBATTACH_EXIT_DETACHED	0	/* detached by a signal */
#define GBATTACH_EXIT_FAILED	1	/* the port or the discipline failed */
#define GBATTACH_EXIT_USAGE	2	/* a bad option */
#define GBATTACH_EXIT_HANGUP	3	/* the port hung up under the link */

/* gb-hdlc's line discipline: N_DEVELOPMENT, an out-of-tree module's */
#define GBATTACH_LDISC		29
#define GBATTACH_LDISC_NAME	"gb-hdlc"

void gbattach_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * The port: gbattach_port_check() looks at @path without opening it and
 * refuses anything but a tty; gbattach_port_open() opens it and saves its
 * settings in @saved; gbattach_port_restore() gives them back.  Each
 * prints its error and returns -1 on failure.
 */
int gbattach_port_check(const char *path);
int gbattach_port_open(const char *path, struct termios *saved);
int gbattach_port_raw(int fd, const char *path, speed_t speed);
int gbattach_port_restore(int fd, const char *path,
			  const struct termios *saved);
bool gbattach_port_hung_up(int fd);

/*
 * The discipline: attach prints an error that names the fix; detach
 * returns 1 if the port hung up meanwhile (nothing left to detach).
 */
int gbattach_ldisc_attach(int fd, const char *path);
int gbattach_ldisc_detach(int fd, const char *path);

/* Once attached: every capability given up, no new ones by exec */
void gbattach_drop_privileges(void);

#endif /* GBATTACH_H */
