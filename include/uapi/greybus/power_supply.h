/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Power Supply protocol: a module describes its supplies and their
 * properties; the AP reads (and, where allowed, writes) property values
 * and the module announces changes with an event.
 */
#ifndef _UAPI_GREYBUS_POWER_SUPPLY_H
#define _UAPI_GREYBUS_POWER_SUPPLY_H

#include "greybus.h"

#define GB_POWER_SUPPLY_TYPE_GET_SUPPLIES		0x02
#define GB_POWER_SUPPLY_TYPE_GET_DESCRIPTION		0x03
#define GB_POWER_SUPPLY_TYPE_GET_PROP_DESCRIPTORS	0x04
#define GB_POWER_SUPPLY_TYPE_GET_PROPERTY		0x05
#define GB_POWER_SUPPLY_TYPE_SET_PROPERTY		0x06
#define GB_POWER_SUPPLY_TYPE_EVENT			0x07

/* Supply types (GET_DESCRIPTION type) */
#define GB_POWER_SUPPLY_UNKNOWN_TYPE			0x00
#define GB_POWER_SUPPLY_BATTERY_TYPE			0x01
#define GB_POWER_SUPPLY_UPS_TYPE			0x02
#define GB_POWER_SUPPLY_MAINS_TYPE			0x03
#define GB_POWER_SUPPLY_USB_TYPE			0x04
#define GB_POWER_SUPPLY_USB_DCP_TYPE			0x05
#define GB_POWER_SUPPLY_USB_CDP_TYPE			0x06
#define GB_POWER_SUPPLY_USB_ACA_TYPE			0x07

/* Property ids: the first of Linux's POWER_SUPPLY_PROP_* list, in order */
#define GB_POWER_SUPPLY_PROP_STATUS			0x00
#define GB_POWER_SUPPLY_PROP_HEALTH			0x02
#define GB_POWER_SUPPLY_PROP_PRESENT			0x03
#define GB_POWER_SUPPLY_PROP_ONLINE			0x04
#define GB_POWER_SUPPLY_PROP_TECHNOLOGY			0x06
#define GB_POWER_SUPPLY_PROP_VOLTAGE_NOW		0x0c
#define GB_POWER_SUPPLY_PROP_CURRENT_NOW		0x11
#define GB_POWER_SUPPLY_PROP_CAPACITY			0x2a
#define GB_POWER_SUPPLY_PROP_CAPACITY_ALERT_MIN		0x2b
#define GB_POWER_SUPPLY_PROP_TEMP			0x2e
/* The highest property id Linux's list has */
#define GB_POWER_SUPPLY_PROP_MAX			0x3d

/* Status values */
#define GB_POWER_SUPPLY_STATUS_UNKNOWN			0x00
#define GB_POWER_SUPPLY_STATUS_CHARGING			0x01
#define GB_POWER_SUPPLY_STATUS_DISCHARGING		0x02
#define GB_POWER_SUPPLY_STATUS_NOT_CHARGING		0x03
#define GB_POWER_SUPPLY_STATUS_FULL			0x04

/* EVENT events */
#define GB_POWER_SUPPLY_UPDATE				0x01

struct gb_power_supply_get_supplies_response {
	__u8	supplies_count;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_get_supplies_response, 1);

struct gb_power_supply_get_description_request {
	__u8	psy_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_get_description_request, 1);

/* Strings are NUL-padded, not necessarily NUL-terminated */
struct gb_power_supply_get_description_response {
	__u8	manufacturer[32];
	__u8	model[32];
	__u8	serial_number[32];
	__le16	type;
	__u8	properties_count;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_get_description_response, 99);

struct gb_power_supply_get_property_descriptors_request {
	__u8	psy_id;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_get_property_descriptors_request, 1);

struct gb_power_supply_props_desc {
	__u8	property;
	__u8	is_writeable;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_props_desc, 2);

struct gb_power_supply_get_property_descriptors_response {
	__u8	properties_count;
	struct gb_power_supply_props_desc props[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_get_property_descriptors_response, 1);

struct gb_power_supply_get_property_request {
	__u8	psy_id;
	__u8	property;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_get_property_request, 2);

struct gb_power_supply_get_property_response {
	__le32	prop_val;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_get_property_response, 4);

struct gb_power_supply_set_property_request {
	__u8	psy_id;
	__u8	property;
	__le32	prop_val;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_set_property_request, 6);

/* Module -> AP */
struct gb_power_supply_event_request {
	__u8	psy_id;
	__u8	event;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_power_supply_event_request, 2);

#endif /* _UAPI_GREYBUS_POWER_SUPPLY_H */
