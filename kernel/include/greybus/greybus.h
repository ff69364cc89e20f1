/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus in-kernel API: what a protocol driver includes.
 *
 * The object tree is host device (greybusN) -> SVC (N-svc) and modules
 * (N-M) -> interfaces (N-M.I) -> control device (N-M.I.ctrl) and bundles
 * (N-M.I.B).  Drivers bind to bundles and talk to the module over the
 * connections they create on the bundle's CPorts.
 */
#ifndef __GREYBUS_GREYBUS_H
#define __GREYBUS_GREYBUS_H

#include <linux/device.h>
#include <linux/module.h>
#include <linux/types.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/manifest.h>

#include <greybus/greybus_id.h>
#include <greybus/hd.h>
#include <greybus/operation.h>
#include <greybus/connection.h>
#include <greybus/svc.h>
#include <greybus/module.h>
#include <greybus/interface.h>
#include <greybus/control.h>
#include <greybus/bundle.h>
#include <greybus/timesync.h>
#include <greybus/manifest.h>

struct dentry;

/**
 * struct greybus_driver - a Greybus protocol driver, bound to bundles
 * @name: the driver's name
 * @probe: binds to a bundle; runs after the core has activated the
 *	bundle (Control bundle_activate); returns 0 or a negative errno
 * @disconnect: unbinds; must destroy every connection the driver
 *	created, after which the core deactivates the bundle
 * @id_table: the bundles driven, see struct greybus_bundle_id
 * @driver: the driver core's part, filled in by
 *	greybus_register_driver(); attribute groups go in
 *	@driver.dev_groups
 */
struct greybus_driver {
	const char *name;

	int (*probe)(struct gb_bundle *bundle,
		     const struct greybus_bundle_id *id);
	void (*disconnect)(struct gb_bundle *bundle);

	const struct greybus_bundle_id *id_table;

	struct device_driver driver;
};

#define to_greybus_driver(d) container_of(d, struct greybus_driver, driver)

static inline void greybus_set_drvdata(struct gb_bundle *bundle, void *data)
{
	dev_set_drvdata(&bundle->dev, data);
}

static inline void *greybus_get_drvdata(struct gb_bundle *bundle)
{
	return dev_get_drvdata(&bundle->dev);
}

int greybus_register_driver(struct greybus_driver *driver,
			    struct module *owner, const char *mod_name);
void greybus_deregister_driver(struct greybus_driver *driver);

#define greybus_register(driver) \
	greybus_register_driver(driver, THIS_MODULE, KBUILD_MODNAME)
#define greybus_deregister(driver) \
	greybus_deregister_driver(driver)

/* For a driver whose module init/exit only (de)register it */
#define module_greybus_driver(__greybus_driver) \
	module_driver(__greybus_driver, greybus_register, greybus_deregister)

extern struct bus_type greybus_bus_type;

/* /sys/kernel/debug/greybus, or an error pointer without debugfs */
struct dentry *gb_debugfs_get(void);

#endif /* __GREYBUS_GREYBUS_H */
