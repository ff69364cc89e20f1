/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * The firmware-management bundle (class 0x16): Firmware Management
 * (0x18, the AP drives updates), Firmware Download (0x17, the module
 * pulls files from the AP) and Component Authentication (0x19).
 */
#ifndef _UAPI_GREYBUS_FIRMWARE_H
#define _UAPI_GREYBUS_FIRMWARE_H

#include "greybus.h"

/* A tag names one firmware image; NUL-terminated within its 10 bytes */
#define GB_FIRMWARE_TAG_MAX_SIZE		10

/* Firmware Download (0x17), module -> AP */
#define GB_FW_DOWNLOAD_TYPE_FIND_FIRMWARE	0x01
#define GB_FW_DOWNLOAD_TYPE_FETCH_FIRMWARE	0x02
#define GB_FW_DOWNLOAD_TYPE_RELEASE_FIRMWARE	0x03

/* Milliseconds the AP keeps a file open without a request for it */
#define GB_FW_DOWNLOAD_TIMEOUT_MS		1000

struct gb_fw_download_find_firmware_request {
	__u8	firmware_tag[GB_FIRMWARE_TAG_MAX_SIZE];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_download_find_firmware_request, 10);

struct gb_fw_download_find_firmware_response {
	__u8	firmware_id;
	__le32	size;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_download_find_firmware_response, 5);

/* The response is the @size bytes at @offset */
struct gb_fw_download_fetch_firmware_request {
	__u8	firmware_id;
	__le32	offset;
	__le32	size;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_download_fetch_firmware_request, 9);

struct gb_fw_download_release_firmware_request {
	__u8	firmware_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_download_release_firmware_request, 1);

/* Firmware Management (0x18) */
#define GB_FW_MGMT_TYPE_INTERFACE_FW_VERSION	0x01	/* AP -> module */
#define GB_FW_MGMT_TYPE_LOAD_AND_VALIDATE_FW	0x02	/* AP -> module */
#define GB_FW_MGMT_TYPE_LOADED_FW		0x03	/* module -> AP */
#define GB_FW_MGMT_TYPE_BACKEND_FW_VERSION	0x04	/* AP -> module */
#define GB_FW_MGMT_TYPE_BACKEND_FW_UPDATE	0x05	/* AP -> module */
#define GB_FW_MGMT_TYPE_BACKEND_FW_UPDATED	0x06	/* module -> AP */

#define GB_FW_LOAD_METHOD_UNIPRO		0x01
#define GB_FW_LOAD_METHOD_INTERNAL		0x02

#define GB_FW_LOAD_STATUS_FAILED		0x00
#define GB_FW_LOAD_STATUS_UNVALIDATED		0x01
#define GB_FW_LOAD_STATUS_VALIDATED		0x02
#define GB_FW_LOAD_STATUS_VALIDATION_FAILED	0x03

#define GB_FW_BACKEND_FW_STATUS_SUCCESS		0x01
#define GB_FW_BACKEND_FW_STATUS_FAIL_FIND	0x02
#define GB_FW_BACKEND_FW_STATUS_FAIL_FETCH	0x03
#define GB_FW_BACKEND_FW_STATUS_FAIL_WRITE	0x04
#define GB_FW_BACKEND_FW_STATUS_INT		0x05
#define GB_FW_BACKEND_FW_STATUS_RETRY		0x06
#define GB_FW_BACKEND_FW_STATUS_NOT_SUPPORTED	0x07

#define GB_FW_BACKEND_VERSION_STATUS_SUCCESS		0x01
#define GB_FW_BACKEND_VERSION_STATUS_NOT_AVAILABLE	0x02
#define GB_FW_BACKEND_VERSION_STATUS_NOT_SUPPORTED	0x03
#define GB_FW_BACKEND_VERSION_STATUS_RETRY		0x04
#define GB_FW_BACKEND_VERSION_STATUS_FAIL_INT		0x05

struct gb_fw_mgmt_interface_fw_version_response {
	__u8	firmware_tag[GB_FIRMWARE_TAG_MAX_SIZE];
	__le16	major;
	__le16	minor;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_mgmt_interface_fw_version_response, 14);

struct gb_fw_mgmt_load_and_validate_fw_request {
	__u8	request_id;
	__u8	load_method;
	__u8	firmware_tag[GB_FIRMWARE_TAG_MAX_SIZE];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_mgmt_load_and_validate_fw_request, 12);

struct gb_fw_mgmt_loaded_fw_request {
	__u8	request_id;
	__u8	status;
	__le16	major;
	__le16	minor;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_mgmt_loaded_fw_request, 6);

struct gb_fw_mgmt_backend_fw_version_request {
	__u8	firmware_tag[GB_FIRMWARE_TAG_MAX_SIZE];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_mgmt_backend_fw_version_request, 10);

struct gb_fw_mgmt_backend_fw_version_response {
	__le16	major;
	__le16	minor;
	__u8	status;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_mgmt_backend_fw_version_response, 5);

struct gb_fw_mgmt_backend_fw_update_request {
	__u8	request_id;
	__u8	firmware_tag[GB_FIRMWARE_TAG_MAX_SIZE];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_mgmt_backend_fw_update_request, 11);

struct gb_fw_mgmt_backend_fw_updated_request {
	__u8	request_id;
	__u8	status;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_fw_mgmt_backend_fw_updated_request, 2);

/* Component Authentication (0x19), AP -> module */
#define GB_CAP_TYPE_GET_ENDPOINT_UID		0x01
#define GB_CAP_TYPE_GET_IMS_CERTIFICATE		0x02
#define GB_CAP_TYPE_AUTHENTICATE		0x03

struct gb_cap_get_endpoint_uid_response {
	__u8	uid[8];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_cap_get_endpoint_uid_response, 8);

struct gb_cap_get_ims_certificate_request {
	__le32	certificate_class;
	__le32	certificate_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_cap_get_ims_certificate_request, 8);

/* The certificate is the rest of the response */
struct gb_cap_get_ims_certificate_response {
	__u8	result_code;
	__u8	certificate[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_cap_get_ims_certificate_response, 1);

struct gb_cap_authenticate_request {
	__le32	auth_type;
	__u8	uid[8];
	__u8	challenge[32];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_cap_authenticate_request, 44);

/* The signature is the rest of the response */
struct gb_cap_authenticate_response {
	__u8	result_code;
	__u8	response[64];
	__u8	signature[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_cap_authenticate_response, 65);

#endif /* _UAPI_GREYBUS_FIRMWARE_H */
