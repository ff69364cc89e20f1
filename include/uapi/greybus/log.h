/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Log protocol: the module sends text lines for the AP's kernel log.
 */
#ifndef _UAPI_GREYBUS_LOG_H
#define _UAPI_GREYBUS_LOG_H

#include "greybus.h"

#define GB_LOG_TYPE_SEND_LOG			0x02

/* The longest message the AP accepts */
#define GB_LOG_MAX_LEN				1024

/* Module -> AP, no response payload; @msg is not NUL-terminated */
struct gb_log_send_log_request {
	__le16	len;
	__u8	msg[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_log_send_log_request, 2);

#endif /* _UAPI_GREYBUS_LOG_H */
