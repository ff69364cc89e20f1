/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Vibrator protocol.  ON and OFF carry no payload: the AP times the pulse.
 */
#ifndef _UAPI_GREYBUS_VIBRATOR_H
#define _UAPI_GREYBUS_VIBRATOR_H

#include "greybus.h"

#define GB_VIBRATOR_TYPE_ON			0x02
#define GB_VIBRATOR_TYPE_OFF			0x03

#endif /* _UAPI_GREYBUS_VIBRATOR_H */
