/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gb-firmware: the parts of the firmware-management bundle, each over its
 * own connection, glued together by fw_core.c.
 */
#ifndef __GB_FIRMWARE_H
#define __GB_FIRMWARE_H

#include <greybus/greybus.h>

/* fw_download.c: serves files the module asks for by tag */
struct gb_fw_download;
int gb_fw_download_request_handler(struct gb_operation *op);
struct gb_fw_download *gb_fw_download_create(struct gb_connection *connection);
/* After the connection is disabled: frees every file still held */
void gb_fw_download_destroy(struct gb_fw_download *fw_download);

/* fw_management.c: /dev/gb-fw-mgmt-N */
struct gb_fw_mgmt;
int gb_fw_mgmt_request_handler(struct gb_operation *op);
/* Enables the connection and adds the character device */
struct gb_fw_mgmt *gb_fw_mgmt_create(struct gb_connection *connection);
/* Removes the device, wakes its users, disables the connection */
void gb_fw_mgmt_destroy(struct gb_fw_mgmt *fw_mgmt);
int gb_fw_mgmt_init(void);
void gb_fw_mgmt_exit(void);

/* fw_authentication.c: /dev/gb-authenticate-N */
struct gb_cap;
int gb_cap_request_handler(struct gb_operation *op);
/* Enables the connection and adds the character device */
struct gb_cap *gb_cap_create(struct gb_connection *connection);
/* Removes the device and disables the connection */
void gb_cap_destroy(struct gb_cap *cap);
int gb_cap_init(void);
void gb_cap_exit(void);

#endif /* __GB_FIRMWARE_H */
