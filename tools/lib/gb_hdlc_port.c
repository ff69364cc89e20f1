// SPDX-License-Identifier: GPL-2.0
/*
 * Which Greybus host device a serial port carries: gb-hdlc names the
 * port of each link in /sys/bus/greybus/devices/greybusN/hdlc/port, as
 * the kernel names the tty ("/dev/pts/3" is "pts3", "/dev/ttyUSB0" is
 * "ttyUSB0").  gbattach prints it once attached; gbsim's hdlc transport
 * looks it up for its log.
 */
#include <stdio.h>
#include <string.h>

#include "gb_hdlc.h"

unsigned int gb_hdlc_port_bus(const char *tty)
{
	char want[64], path[128], port[64];
	size_t j = 0;
	unsigned int n;
	FILE *f;

	if (!strncmp(tty, "/dev/", 5))
		tty += 5;
	for (; *tty && j + 1 < sizeof(want); tty++)
		if (*tty != '/')
			want[j++] = *tty;
	want[j] = '\0';
	for (n = 1; n < 256; n++) {
		snprintf(path, sizeof(path),
			 "/sys/bus/greybus/devices/greybus%u/hdlc/port", n);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(port, sizeof(port), f)) {
			port[strcspn(port, "\n")] = '\0';
			if (!strcmp(port, want)) {
				fclose(f);
				return n;
			}
		}
		fclose(f);
	}
	return 0;
}
