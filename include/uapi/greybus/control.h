/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Control protocol: the AP's management link to one interface, on the
 * interface's CPort 0.  Only the AP sends requests.
 */
#ifndef _UAPI_GREYBUS_CONTROL_H
#define _UAPI_GREYBUS_CONTROL_H

#include "greybus.h"

#define GB_CONTROL_VERSION_MAJOR		0x00
#define GB_CONTROL_VERSION_MINOR		0x01

#define GB_CONTROL_TYPE_VERSION			0x01
#define GB_CONTROL_TYPE_PROBE_AP		0x02	/* unused */
#define GB_CONTROL_TYPE_GET_MANIFEST_SIZE	0x03
#define GB_CONTROL_TYPE_GET_MANIFEST		0x04
#define GB_CONTROL_TYPE_CONNECTED		0x05
#define GB_CONTROL_TYPE_DISCONNECTED		0x06
#define GB_CONTROL_TYPE_TIMESYNC_ENABLE		0x07
#define GB_CONTROL_TYPE_TIMESYNC_DISABLE	0x08
#define GB_CONTROL_TYPE_TIMESYNC_AUTHORITATIVE	0x09
#define GB_CONTROL_TYPE_BUNDLE_VERSION		0x0b
#define GB_CONTROL_TYPE_DISCONNECTING		0x0c
#define GB_CONTROL_TYPE_TIMESYNC_GET_LAST_EVENT	0x0d
#define GB_CONTROL_TYPE_MODE_SWITCH		0x0e	/* unidirectional */
#define GB_CONTROL_TYPE_BUNDLE_SUSPEND		0x0f
#define GB_CONTROL_TYPE_BUNDLE_RESUME		0x10
#define GB_CONTROL_TYPE_BUNDLE_DEACTIVATE	0x11
#define GB_CONTROL_TYPE_BUNDLE_ACTIVATE		0x12
#define GB_CONTROL_TYPE_INTF_SUSPEND_PREPARE	0x13
#define GB_CONTROL_TYPE_INTF_DEACTIVATE_PREPARE	0x14
#define GB_CONTROL_TYPE_INTF_HIBERNATE_ABORT	0x15

struct gb_control_get_manifest_size_response {
	__le16	size;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_control_get_manifest_size_response, 2);

/* connected, disconnecting and disconnected name one interface CPort */
struct gb_control_cport_request {
	__le16	cport_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_control_cport_request, 2);

struct gb_control_bundle_version_request {
	__u8	bundle_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_control_bundle_version_request, 1);

struct gb_control_bundle_version_response {
	__u8	major;
	__u8	minor;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_control_bundle_version_response, 2);

/* Bundle power management: suspend, resume, deactivate, activate */
#define GB_CONTROL_BUNDLE_PM_OK			0x00
#define GB_CONTROL_BUNDLE_PM_INVAL		0x01
#define GB_CONTROL_BUNDLE_PM_BUSY		0x02
#define GB_CONTROL_BUNDLE_PM_FAIL		0x03
#define GB_CONTROL_BUNDLE_PM_NA			0x04

struct gb_control_bundle_pm_request {
	__u8	bundle_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_control_bundle_pm_request, 1);

struct gb_control_bundle_pm_response {
	__u8	status;		/* GB_CONTROL_BUNDLE_PM_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_control_bundle_pm_response, 1);

/* Interface power management: suspend/deactivate prepare, hibernate abort */
#define GB_CONTROL_INTF_PM_OK			0x00
#define GB_CONTROL_INTF_PM_BUSY			0x01
#define GB_CONTROL_INTF_PM_NA			0x02

struct gb_control_intf_pm_response {
	__u8	status;		/* GB_CONTROL_INTF_PM_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_control_intf_pm_response, 1);

/*
 * TimeSync on Control uses the bodies defined with the SVC protocol:
 * timesync enable = struct gb_timesync_enable_request,
 * timesync authoritative = struct gb_timesync_authoritative,
 * get last event response = struct gb_timesync_frame_time.
 */

#endif /* _UAPI_GREYBUS_CONTROL_H */
