/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Bootrom protocol: a module without its firmware pulls the next boot
 * stage from the AP in chunks, then tells the AP it is about to boot it.
 */
#ifndef _UAPI_GREYBUS_BOOTROM_H
#define _UAPI_GREYBUS_BOOTROM_H

#include "greybus.h"

#define GB_BOOTROM_VERSION_MAJOR		0x00
#define GB_BOOTROM_VERSION_MINOR		0x01

#define GB_BOOTROM_TYPE_VERSION			0x01	/* AP -> module */
#define GB_BOOTROM_TYPE_FIRMWARE_SIZE		0x02	/* module -> AP */
#define GB_BOOTROM_TYPE_GET_FIRMWARE		0x03	/* module -> AP */
#define GB_BOOTROM_TYPE_READY_TO_BOOT		0x04	/* module -> AP */
#define GB_BOOTROM_TYPE_AP_READY		0x05	/* AP -> module */
#define GB_BOOTROM_TYPE_GET_VID_PID		0x06	/* AP -> module */

/* What FIRMWARE_SIZE asks for; the AP serves only stage two */
#define GB_BOOTROM_BOOT_STAGE_ONE		0x01
#define GB_BOOTROM_BOOT_STAGE_TWO		0x02
#define GB_BOOTROM_BOOT_STAGE_THREE		0x03

#define GB_BOOTROM_BOOT_STATUS_INVALID		0x00
#define GB_BOOTROM_BOOT_STATUS_INSECURE		0x01
#define GB_BOOTROM_BOOT_STATUS_SECURE		0x02

/* The largest chunk one GET_FIRMWARE may ask for */
#define GB_BOOTROM_FETCH_MAX			2000

/* Milliseconds the AP waits for the module's next request ... */
#define GB_BOOTROM_NEXT_REQ_TIMEOUT_MS		1000
/* ... and for it to come back as its new self after READY_TO_BOOT */
#define GB_BOOTROM_MODE_SWITCH_TIMEOUT_MS	10000

struct gb_bootrom_firmware_size_request {
	__u8	stage;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_bootrom_firmware_size_request, 1);

struct gb_bootrom_firmware_size_response {
	__le32	size;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_bootrom_firmware_size_response, 4);

/* The response is the @size bytes at @offset */
struct gb_bootrom_get_firmware_request {
	__le32	offset;
	__le32	size;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_bootrom_get_firmware_request, 8);

struct gb_bootrom_ready_to_boot_request {
	__u8	status;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_bootrom_ready_to_boot_request, 1);

struct gb_bootrom_get_vid_pid_response {
	__le32	vendor_id;
	__le32	product_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_bootrom_get_vid_pid_response, 8);

#endif /* _UAPI_GREYBUS_BOOTROM_H */
