/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HDLC framing of the Greybus serial link, for the tools: the kernel's
 * own code (kernel/hosts/hdlc_frame.c, built by hdlc_frame_user.c).
 */
#ifndef GB_HDLC_H
#define GB_HDLC_H

#include "../../kernel/include/greybus/hdlc_frame.h"

#endif /* GB_HDLC_H */
