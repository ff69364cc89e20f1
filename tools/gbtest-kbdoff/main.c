// SPDX-License-Identifier: GPL-2.0
/*
 * gbtest-kbdoff: turns the console keyboard of the test guest off.
 *
 * The guest suite plugs in keyboards that type what a fuzzer or a
 * hostile module sends (gb-hid).  Linux's VT keyboard handler listens to
 * every keyboard, and some of its keys act on the whole machine: with
 * the default keymap a shifted or controlled Scroll Lock dumps every
 * task or the registers into the kernel log, Ctrl+Alt+Del signals init,
 * Alt+Fn switches consoles.  Case 110's fuzzed reports typed them.
 * In keyboard mode K_OFF the VT handles none of those keys (only SAK,
 * which the default keymap binds to no key); input devices still
 * deliver every event to evdev readers, which is what the cases test.
 * Magic SysRq from a keyboard is the other way in; init switches it off
 * with kernel.sysrq = 0 (/proc/sysrq-trigger still works).
 *
 * Usage: gbtest-kbdoff [TTY]   (default /dev/tty0: the foreground VT)
 * Exit status 0 once the mode is set, 1 with a message otherwise (a
 * kernel without VTs has nothing to turn off).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *tty = argc > 1 ? argv[1] : "/dev/tty0";
	int fd, ret = 0;

	fd = open(tty, O_RDWR | O_NOCTTY);
	if (fd < 0) {
		fprintf(stderr, "gbtest-kbdoff: %s: %s\n", tty, strerror(errno));
		return 1;
	}
	if (ioctl(fd, KDSKBMODE, K_OFF) < 0) {
		fprintf(stderr, "gbtest-kbdoff: KDSKBMODE K_OFF on %s: %s\n",
			tty, strerror(errno));
		ret = 1;
	}
	close(fd);
	return ret;
}
