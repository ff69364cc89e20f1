/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Raw protocol: opaque messages, either direction, in one request type.
 */
#ifndef _UAPI_GREYBUS_RAW_H
#define _UAPI_GREYBUS_RAW_H

#include "greybus.h"

#define GB_RAW_TYPE_SEND			0x02

/* Both directions; the response has no payload */
struct gb_raw_send_request {
	__le32	len;
	__u8	data[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_raw_send_request, 4);

#endif /* _UAPI_GREYBUS_RAW_H */
