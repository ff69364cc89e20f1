/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * HID protocol: a HID device behind a module.  The AP reads its HID and
 * report descriptors, gets and sets reports; the module sends its input
 * reports as IRQ_EVENT requests.
 */
#ifndef _UAPI_GREYBUS_HID_H
#define _UAPI_GREYBUS_HID_H

#include "greybus.h"

#define GB_HID_TYPE_GET_DESC			0x02
#define GB_HID_TYPE_GET_REPORT_DESC		0x03
#define GB_HID_TYPE_PWR_ON			0x04
#define GB_HID_TYPE_PWR_OFF			0x05
#define GB_HID_TYPE_GET_REPORT			0x06
#define GB_HID_TYPE_SET_REPORT			0x07
#define GB_HID_TYPE_IRQ_EVENT			0x08

/* report_type of GET_REPORT and SET_REPORT (HID's own numbering) */
#define GB_HID_INPUT_REPORT			0
#define GB_HID_OUTPUT_REPORT			1
#define GB_HID_FEATURE_REPORT			2

/* GET_DESC response: the HID descriptor's fields that matter here */
struct gb_hid_desc_response {
	__u8	bLength;		/* of this structure */
	__le16	wReportDescLength;
	__le16	bcdHID;
	__le16	wProductID;
	__le16	wVendorID;
	__u8	bCountryCode;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_hid_desc_response, 10);

/*
 * GET_REPORT: the response is the report.  SET_REPORT carries it.  A
 * report starts with its id byte when the device numbers its reports
 * (report_id != 0), as on USB.
 */
struct gb_hid_get_report_request {
	__u8	report_type;
	__u8	report_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_hid_get_report_request, 2);

struct gb_hid_set_report_request {
	__u8	report_type;
	__u8	report_id;
	__u8	report[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_hid_set_report_request, 2);

/* IRQ_EVENT (module to AP): the payload is one input report */

#endif /* _UAPI_GREYBUS_HID_H */
