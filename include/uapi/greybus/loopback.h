/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Loopback protocol: ping, transfer (echo) and sink, used to measure a link.
 */
#ifndef _UAPI_GREYBUS_LOOPBACK_H
#define _UAPI_GREYBUS_LOOPBACK_H

#include "greybus.h"

#define GB_LOOPBACK_TYPE_PING			0x02
#define GB_LOOPBACK_TYPE_TRANSFER		0x03
#define GB_LOOPBACK_TYPE_SINK			0x04

/* Transfer and sink requests, and the transfer response (an echo) */
struct gb_loopback_transfer {
	__le32	len;
	__le32	reserved0;	/* response: bridge-measured UniPro latency, us */
	__le32	reserved1;	/* response: module firmware latency, us */
	__u8	data[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_loopback_transfer, 12);

#endif /* _UAPI_GREYBUS_LOOPBACK_H */
