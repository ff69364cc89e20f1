/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * SVC protocol: the AP's link to the supervisory controller, on CPort 0 of
 * the AP bridge.  Layouts follow Linux where it and spec 1.0 disagree (no
 * leading status byte in the connection/route/DME responses).
 */
#ifndef _UAPI_GREYBUS_SVC_H
#define _UAPI_GREYBUS_SVC_H

#include "greybus.h"

#define GB_SVC_VERSION_MAJOR			0x00
#define GB_SVC_VERSION_MINOR			0x01

#define GB_SVC_CPORT_ID				0
#define GB_SVC_DEVICE_ID_SVC			0
#define GB_SVC_DEVICE_ID_AP			1
#define GB_SVC_DEVICE_ID_MIN			2
#define GB_SVC_DEVICE_ID_MAX			31

/* Operation types ("S>A" = the SVC sends the request, "A>S" = the AP does) */
#define GB_SVC_TYPE_PROTOCOL_VERSION		0x01	/* S>A */
#define GB_SVC_TYPE_SVC_HELLO			0x02	/* S>A */
#define GB_SVC_TYPE_INTF_DEVICE_ID		0x03	/* A>S */
#define GB_SVC_TYPE_INTF_RESET			0x06	/* S>A */
#define GB_SVC_TYPE_CONN_CREATE			0x07	/* A>S */
#define GB_SVC_TYPE_CONN_DESTROY		0x08	/* A>S */
#define GB_SVC_TYPE_DME_PEER_GET		0x09	/* A>S */
#define GB_SVC_TYPE_DME_PEER_SET		0x0a	/* A>S */
#define GB_SVC_TYPE_ROUTE_CREATE		0x0b	/* A>S */
#define GB_SVC_TYPE_ROUTE_DESTROY		0x0c	/* A>S */
#define GB_SVC_TYPE_TIMESYNC_ENABLE		0x0d	/* A>S */
#define GB_SVC_TYPE_TIMESYNC_DISABLE		0x0e	/* A>S */
#define GB_SVC_TYPE_TIMESYNC_AUTHORITATIVE	0x0f	/* A>S */
#define GB_SVC_TYPE_INTF_SET_PWRM		0x10	/* A>S */
#define GB_SVC_TYPE_INTF_EJECT			0x11	/* A>S */
#define GB_SVC_TYPE_PING			0x13	/* A>S */
#define GB_SVC_TYPE_PWRMON_RAIL_COUNT_GET	0x14	/* A>S */
#define GB_SVC_TYPE_PWRMON_RAIL_NAMES_GET	0x15	/* A>S */
#define GB_SVC_TYPE_PWRMON_SAMPLE_GET		0x16	/* A>S */
#define GB_SVC_TYPE_PWRMON_INTF_SAMPLE_GET	0x17	/* A>S */
#define GB_SVC_TYPE_TIMESYNC_WAKE_PINS_ACQUIRE	0x18	/* A>S */
#define GB_SVC_TYPE_TIMESYNC_WAKE_PINS_RELEASE	0x19	/* A>S */
#define GB_SVC_TYPE_TIMESYNC_PING		0x1a	/* A>S */
#define GB_SVC_TYPE_MODULE_INSERTED		0x1f	/* S>A */
#define GB_SVC_TYPE_MODULE_REMOVED		0x20	/* S>A */
#define GB_SVC_TYPE_INTF_VSYS_ENABLE		0x21	/* A>S */
#define GB_SVC_TYPE_INTF_VSYS_DISABLE		0x22	/* A>S */
#define GB_SVC_TYPE_INTF_REFCLK_ENABLE		0x23	/* A>S */
#define GB_SVC_TYPE_INTF_REFCLK_DISABLE		0x24	/* A>S */
#define GB_SVC_TYPE_INTF_UNIPRO_ENABLE		0x25	/* A>S */
#define GB_SVC_TYPE_INTF_UNIPRO_DISABLE		0x26	/* A>S */
#define GB_SVC_TYPE_INTF_ACTIVATE		0x27	/* A>S */
#define GB_SVC_TYPE_INTF_RESUME			0x28	/* A>S */
#define GB_SVC_TYPE_INTF_MAILBOX_EVENT		0x29	/* S>A */
#define GB_SVC_TYPE_INTF_OOPS			0x2a	/* S>A */

/* SVC status, in the intf_activate / intf_resume responses */
#define GB_SVC_OP_SUCCESS			0x00
#define GB_SVC_OP_UNKNOWN_ERROR			0x01
#define GB_SVC_INTF_NOT_DETECTED		0x02
#define GB_SVC_INTF_NO_UPRO_LINK		0x03
#define GB_SVC_INTF_UPRO_NOT_DOWN		0x04
#define GB_SVC_INTF_UPRO_NOT_HIBERNATED		0x05
#define GB_SVC_INTF_NO_V_SYS			0x06
#define GB_SVC_INTF_V_CHG			0x07
#define GB_SVC_INTF_WAKE_BUSY			0x08
#define GB_SVC_INTF_NO_REFCLK			0x09
#define GB_SVC_INTF_RELEASING			0x0a
#define GB_SVC_INTF_NO_ORDER			0x0b
#define GB_SVC_INTF_MBOX_SET			0x0c
#define GB_SVC_INTF_BAD_MBOX			0x0d
#define GB_SVC_INTF_OP_TIMEOUT			0x0e
#define GB_SVC_PWRMON_OP_NOT_PRESENT		0x0f

struct gb_svc_hello_request {
	__le16	endo_id;
	__u8	interface_id;	/* the AP's own interface */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_hello_request, 3);

struct gb_svc_intf_device_id_request {
	__u8	intf_id;
	__u8	device_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_device_id_request, 2);

struct gb_svc_intf_reset_request {
	__u8	intf_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_reset_request, 1);

/* Connection-create flags */
#define GB_SVC_CONN_E2EFC			0x01
#define GB_SVC_CONN_CSD_N			0x02
#define GB_SVC_CONN_CSV_N			0x04

struct gb_svc_conn_create_request {
	__u8	intf1_id;
	__le16	cport1_id;
	__u8	intf2_id;
	__le16	cport2_id;
	__u8	tc;
	__u8	flags;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_conn_create_request, 8);

struct gb_svc_conn_destroy_request {
	__u8	intf1_id;
	__le16	cport1_id;
	__u8	intf2_id;
	__le16	cport2_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_conn_destroy_request, 6);

/* DME attributes the AP reads during activation and enable */
#define GB_DME_DDBL1_MANUFACTURERID		0x5003
#define GB_DME_DDBL1_PRODUCTID			0x5004
#define GB_DME_ARA_VID				0x6000
#define GB_DME_ARA_PID				0x6001
#define GB_DME_ARA_SN0				0x6002
#define GB_DME_ARA_SN1				0x6003
#define GB_DME_ARA_INIT_STATUS			0x6101
#define GB_DME_T_TSTSRCINCREMENT		0x4083	/* ES2 init status */

#define GB_DDBL1_MFR_TOSHIBA			0x0126
#define GB_DDBL1_PROD_ES2_BRIDGE		0x1000

struct gb_svc_dme_peer_get_request {
	__u8	intf_id;
	__le16	attr;
	__le16	selector;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_dme_peer_get_request, 5);

struct gb_svc_dme_peer_get_response {
	__le16	result_code;
	__le32	attr_value;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_dme_peer_get_response, 6);

struct gb_svc_dme_peer_set_request {
	__u8	intf_id;
	__le16	attr;
	__le16	selector;
	__le32	value;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_dme_peer_set_request, 9);

struct gb_svc_dme_peer_set_response {
	__le16	result_code;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_dme_peer_set_response, 2);

struct gb_svc_route_create_request {
	__u8	intf1_id;
	__u8	dev1_id;
	__u8	intf2_id;
	__u8	dev2_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_route_create_request, 4);

struct gb_svc_route_destroy_request {
	__u8	intf1_id;
	__u8	intf2_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_route_destroy_request, 2);

/* TimeSync: the same bodies travel on the SVC, Control and bridge paths */
#define GB_TIMESYNC_MAX_STROBES			4

struct gb_timesync_enable_request {
	__u8	count;
	__le64	frame_time;
	__le32	strobe_delay;	/* microseconds */
	__le32	refclk;		/* Hz */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_timesync_enable_request, 17);

struct gb_timesync_authoritative {
	__le64	frame_time[GB_TIMESYNC_MAX_STROBES];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_timesync_authoritative, 32);

struct gb_timesync_frame_time {
	__le64	frame_time;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_timesync_frame_time, 8);

struct gb_svc_timesync_wake_pins_acquire_request {
	__le32	strobe_mask;	/* bit n = interface n */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_timesync_wake_pins_acquire_request, 4);

/* Interface power mode (UniPro) */
#define GB_SVC_UNIPRO_HS_SERIES_A		0x01
#define GB_SVC_UNIPRO_HS_SERIES_B		0x02
#define GB_SVC_UNIPRO_FAST_MODE			0x01
#define GB_SVC_UNIPRO_SLOW_MODE			0x02
#define GB_SVC_UNIPRO_FAST_AUTO_MODE		0x04
#define GB_SVC_UNIPRO_SLOW_AUTO_MODE		0x05
#define GB_SVC_UNIPRO_MODE_UNCHANGED		0x07
#define GB_SVC_UNIPRO_HIBERNATE_MODE		0x11
#define GB_SVC_UNIPRO_OFF_MODE			0x12
#define GB_SVC_SMALL_AMPLITUDE			0x01
#define GB_SVC_LARGE_AMPLITUDE			0x02
#define GB_SVC_NO_DE_EMPHASIS			0x00
#define GB_SVC_SMALL_DE_EMPHASIS		0x01
#define GB_SVC_LARGE_DE_EMPHASIS		0x02
#define GB_SVC_PWRM_RXTERMINATION		0x01
#define GB_SVC_PWRM_TXTERMINATION		0x02
#define GB_SVC_PWRM_LINE_RESET			0x04
#define GB_SVC_PWRM_SCRAMBLING			0x20
#define GB_SVC_PWRM_QUIRK_HSSER			0x00000001

/* UniPro PowerChangeResultCode, in the set-power-mode response */
#define GB_SVC_SETPWRM_PWR_OK			0x00
#define GB_SVC_SETPWRM_PWR_LOCAL		0x01
#define GB_SVC_SETPWRM_PWR_REMOTE		0x02
#define GB_SVC_SETPWRM_PWR_BUSY			0x03
#define GB_SVC_SETPWRM_PWR_ERROR_CAP		0x04
#define GB_SVC_SETPWRM_PWR_FATAL_ERROR		0x05

struct gb_svc_l2_timer_cfg {
	__le16	tsb_fc0_protection_timeout;
	__le16	tsb_tc0_replay_timeout;
	__le16	tsb_afc0_req_timeout;
	__le16	tsb_fc1_protection_timeout;
	__le16	tsb_tc1_replay_timeout;
	__le16	tsb_afc1_req_timeout;
	__le16	reserved_for_tc2[3];
	__le16	reserved_for_tc3[3];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_l2_timer_cfg, 24);

struct gb_svc_intf_set_pwrm_request {
	__u8	intf_id;
	__u8	hs_series;
	__u8	tx_mode;
	__u8	tx_gear;
	__u8	tx_nlanes;
	__u8	tx_amplitude;
	__u8	tx_hs_equalizer;
	__u8	rx_mode;
	__u8	rx_gear;
	__u8	rx_nlanes;
	__u8	flags;
	__le32	quirks;
	struct gb_svc_l2_timer_cfg local_l2timerdata;
	struct gb_svc_l2_timer_cfg remote_l2timerdata;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_set_pwrm_request, 63);

struct gb_svc_intf_set_pwrm_response {
	__u8	result_code;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_set_pwrm_response, 1);

struct gb_svc_intf_eject_request {
	__u8	intf_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_eject_request, 1);

/* Power monitor */
#define GB_SVC_PWRMON_RAIL_NAME_BUFSIZE		32
#define GB_SVC_PWRMON_TYPE_CURR			0x01
#define GB_SVC_PWRMON_TYPE_VOL			0x02
#define GB_SVC_PWRMON_TYPE_PWR			0x03
#define GB_SVC_PWRMON_GET_SAMPLE_OK		0x00
#define GB_SVC_PWRMON_GET_SAMPLE_INVAL		0x01
#define GB_SVC_PWRMON_GET_SAMPLE_NOSUPP		0x02
#define GB_SVC_PWRMON_GET_SAMPLE_HWERR		0x03

struct gb_svc_pwrmon_rail_count_get_response {
	__u8	rail_count;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_pwrmon_rail_count_get_response, 1);

struct gb_svc_pwrmon_sample_get_request {
	__u8	rail_id;
	__u8	measurement_type;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_pwrmon_sample_get_request, 2);

struct gb_svc_pwrmon_intf_sample_get_request {
	__u8	intf_id;
	__u8	measurement_type;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_pwrmon_intf_sample_get_request, 2);

struct gb_svc_pwrmon_sample_get_response {
	__u8	result;
	__le32	measurement;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_pwrmon_sample_get_response, 5);

/* Module hotplug */
#define GB_SVC_MODULE_INSERTED_FLAG_NO_PRIMARY	0x0001

struct gb_svc_module_inserted_request {
	__u8	primary_intf_id;
	__u8	intf_count;
	__le16	flags;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_module_inserted_request, 4);

struct gb_svc_module_removed_request {
	__u8	primary_intf_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_module_removed_request, 1);

/* Interface power rails and link: vsys, refclk, unipro enable/disable */
#define GB_SVC_INTF_VSYS_OK			0x00
#define GB_SVC_INTF_VSYS_FAIL			0x02
#define GB_SVC_INTF_REFCLK_OK			0x00
#define GB_SVC_INTF_REFCLK_FAIL			0x02
#define GB_SVC_INTF_UNIPRO_OK			0x00
#define GB_SVC_INTF_UNIPRO_FAIL			0x02
#define GB_SVC_INTF_UNIPRO_NOT_OFF		0x03

/* One request layout for every operation that names just an interface */
struct gb_svc_intf_request {
	__u8	intf_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_request, 1);

struct gb_svc_intf_result_response {
	__u8	result_code;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_result_response, 1);

/* Interface types, in the activate response */
#define GB_SVC_INTF_TYPE_UNKNOWN		0x00
#define GB_SVC_INTF_TYPE_DUMMY			0x01
#define GB_SVC_INTF_TYPE_UNIPRO			0x02
#define GB_SVC_INTF_TYPE_GREYBUS		0x03

struct gb_svc_intf_activate_response {
	__u8	status;		/* GB_SVC_OP_* / GB_SVC_INTF_* */
	__u8	intf_type;	/* GB_SVC_INTF_TYPE_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_activate_response, 2);

struct gb_svc_intf_resume_response {
	__u8	status;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_resume_response, 1);

/* Mailbox values */
#define GB_SVC_INTF_MAILBOX_NONE		0x00
#define GB_SVC_INTF_MAILBOX_AP			0x01
#define GB_SVC_INTF_MAILBOX_GREYBUS		0x02

struct gb_svc_intf_mailbox_event_request {
	__u8	intf_id;
	__le16	result_code;
	__le32	mailbox;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_mailbox_event_request, 7);

/* Interface oops reasons */
#define GB_SVC_INTF_OOPS_INVALID		0x00
#define GB_SVC_INTF_OOPS_OVERCURRENT		0x01

struct gb_svc_intf_oops_request {
	__u8	intf_id;
	__u8	reason;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_svc_intf_oops_request, 2);

#endif /* _UAPI_GREYBUS_SVC_H */
