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

enum gb_interface_type {
	GB_INTERFACE_TYPE_INVALID = 0,	/* not activated (yet) */
	GB_INTERFACE_TYPE_UNKNOWN,
	GB_INTERFACE_TYPE_DUMMY,
	GB_INTERFACE_TYPE_UNIPRO,
	GB_INTERFACE_TYPE_GREYBUS,
};

/* A Toshiba ES2 bridge: no Ara ids, init status in T_TstSrcIncrement */
#define GB_INTERFACE_QUIRK_NO_GMP_IDS		BIT(0)
#define GB_INTERFACE_QUIRK_NO_INIT_STATUS	BIT(1)

/*
 * Owned by its module.  @mutex serialises activate / enable / disable /
 * deactivate (module insertion and removal, eject, interface oops) and
 * protects the fields they change; it is never held while the module or
 * the interface device itself is deleted.
 */
struct gb_interface {
	struct device		dev;
	struct gb_control	*control;	/* while enabled */
	struct list_head	bundles;	/* struct gb_bundle */
	struct list_head	manifest_descs;	/* only while parsing */

	u8			interface_id;	/* physical location */
	u8			device_id;	/* UniPro, while active */
	u8			features;	/* from the manifest */
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
	/*
	 * Physically gone (module removed, interface oops): nothing is sent
	 * to it any more, teardown skips the messages.  Never cleared; read
	 * locklessly by the operation code.
	 */
	bool			disconnected;
	/*
	 * Being shut down for good (eject): an enumeration in progress
	 * stops at its next step and the interface is not activated again.
	 * Set before @mutex is taken, read locklessly; never cleared.
	 */
	bool			ejected;
	bool			active;		/* powered, link up, routed */
	bool			enabled;	/* control + bundles exist */
	/*
	 * Activation or enable failed while the module was there, or the
	 * interface crashed (oops): shown as "failed" in sysfs "status".
	 */
	bool			failed;
	bool			powered_down;	/* "off" written to power_state */
	bool			sleeping;	/* system sleep, pm.c */
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
