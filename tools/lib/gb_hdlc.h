/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HDLC framing of the Greybus serial link, for the tools: the kernel's
 * own code (kernel/hosts/hdlc_frame.c, built by hdlc_frame_user.c).
 */
#ifndef GB_HDLC_H
#define GB_HDLC_H

#include "../../kernel/include/greybus/hdlc_frame.h"

/*
 * The number N of the host device greybusN whose link runs over @tty (a
 * path or a kernel tty name), from gb-hdlc's sysfs; 0 if none does.
 */
unsigned int gb_hdlc_port_bus(const char *tty);

#endif /* GB_HDLC_H */
