/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus interfaces: "N-M.I", one interface block of a module, with its
 * control device and bundles.
 */
#ifndef __GREYBUS_INTERFACE_H
#define __GREYBUS_INTERFACE_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct gb_control;
struct gb_host_device;
struct gb_module;

/**
 * enum gb_interface_type - what the SVC found when it activated an interface
 * @GB_INTERFACE_TYPE_INVALID: not activated (yet)
 * @GB_INTERFACE_TYPE_UNKNOWN: a type the SVC reported that we do not know
 * @GB_INTERFACE_TYPE_DUMMY: no UniPro link (a dummy interface)
 * @GB_INTERFACE_TYPE_UNIPRO: a UniPro link but no Greybus
 * @GB_INTERFACE_TYPE_GREYBUS: speaks Greybus; the only type enabled
 */
enum gb_interface_type {
	GB_INTERFACE_TYPE_INVALID = 0,
	GB_INTERFACE_TYPE_UNKNOWN,
	GB_INTERFACE_TYPE_DUMMY,
	GB_INTERFACE_TYPE_UNIPRO,
	GB_INTERFACE_TYPE_GREYBUS,
};

/* A Toshiba ES2 bridge: no Ara ids, init status in T_TstSrcIncrement */
#define GB_INTERFACE_QUIRK_NO_GMP_IDS		BIT(0)
#define GB_INTERFACE_QUIRK_NO_INIT_STATUS	BIT(1)

/**
 * struct gb_interface - one interface block of a module, "N-M.I"
 * @dev: the device
 * @control: the control device, while the interface is enabled
 * @bundles: its bundles (struct gb_bundle)
 * @manifest_descs: the manifest's descriptors, only while parsing
 * @interface_id: the physical location, given by the SVC
 * @device_id: the UniPro device id, while active
 * @features: GREYBUS_INTERFACE_FEATURE_* bits from the manifest
 * @init_status: the init status the interface reported at activation
 * @ddbl1_manufacturer_id: the UniPro DDB L1 manufacturer id
 * @ddbl1_product_id: the UniPro DDB L1 product id
 * @vendor_id: the Ara vendor id
 * @product_id: the Ara product id
 * @serial_number: the serial number
 * @type: what the SVC found at activation
 * @quirks: GB_INTERFACE_QUIRK_* bits
 * @hd: the host device
 * @module: the module it belongs to
 * @mutex: serialises activate, enable, disable and deactivate (module
 *	insertion and removal, eject, interface oops) and protects the
 *	members they change; never held while the module or the interface
 *	device itself is deleted
 * @disconnected: physically gone (module removed, interface oops):
 *	nothing is sent to it any more and teardown skips the messages.
 *	Never cleared; read locklessly by the operation code
 * @ejected: being shut down for good (eject): an enumeration in progress
 *	stops at its next step and the interface is not activated again.
 *	Set before @mutex is taken, read locklessly; never cleared
 * @active: powered, link up, routed
 * @enabled: the control device and the bundles exist
 * @failed: activation or enable failed while the module was there, or
 *	the interface crashed (oops): "failed" in the sysfs "status"
 * @powered_down: "off" was written to the power_state attribute
 * @sleeping: suspended for system sleep by the core (pm.c)
 * @pwrmon_unanswered: the SVC let a power sample request of this
 *	interface time out; voltage_now, current_now and power_now fail
 *	at once from then on.  Set once, never cleared
 *
 * Owned by its module.
 */
struct gb_interface {
	struct device		dev;
	struct gb_control	*control;
	struct list_head	bundles;
	struct list_head	manifest_descs;

	u8			interface_id;
	u8			device_id;
	u8			features;
	u8			init_status;

	u32			ddbl1_manufacturer_id;
	u32			ddbl1_product_id;
	u32			vendor_id;
	u32			product_id;
	u64			serial_number;
	enum gb_interface_type	type;
	unsigned long		quirks;

	struct gb_host_device	*hd;
	struct gb_module	*module;

	struct mutex		mutex;		/* see above */
	bool			disconnected;
	bool			ejected;
	bool			active;
	bool			enabled;
	bool			failed;
	bool			powered_down;
	bool			sleeping;
	atomic_t		pwrmon_unanswered;
};

#define to_gb_interface(d) container_of(d, struct gb_interface, dev)

extern const struct device_type greybus_interface_type;

static inline bool is_gb_interface(const struct device *dev)
{
	return dev->type == &greybus_interface_type;
}

struct gb_interface *gb_interface_create(struct gb_module *module,
					 u8 interface_id);
int gb_interface_activate(struct gb_interface *intf);
void gb_interface_deactivate(struct gb_interface *intf);
int gb_interface_enable(struct gb_interface *intf);
void gb_interface_disable(struct gb_interface *intf);
int gb_interface_add(struct gb_interface *intf);
void gb_interface_del(struct gb_interface *intf);
void gb_interface_put(struct gb_interface *intf);

void gb_interface_mark_disconnected(struct gb_interface *intf);
const char *gb_interface_status_string(struct gb_interface *intf);

/* interface_sysfs.c */
extern const struct attribute_group *gb_interface_groups[];
const char *gb_interface_type_string(enum gb_interface_type type);

#endif /* __GREYBUS_INTERFACE_H */
