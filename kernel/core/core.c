// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus core: the greybus bus type (matching bundles to protocol
 * drivers, uevents, probe and remove) and module init/exit.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/pm_runtime.h>

#include <greybus/compat.h>

#include "internal.h"

static const struct greybus_bundle_id *
greybus_match_id(struct gb_bundle *bundle, const struct greybus_bundle_id *id)
{
	struct gb_interface *intf = bundle->intf;

	if (!id)
		return NULL;

	/* The table ends with an entry that matches on nothing */
	for (; id->match_flags; id++) {
		if ((id->match_flags & GREYBUS_ID_MATCH_VENDOR) &&
		    id->vendor != intf->vendor_id)
			continue;
		if ((id->match_flags & GREYBUS_ID_MATCH_PRODUCT) &&
		    id->product != intf->product_id)
			continue;
		if ((id->match_flags & GREYBUS_ID_MATCH_CLASS) &&
		    id->class != bundle->class)
			continue;
		return id;
	}

	return NULL;
}

/* Only bundles have drivers */
static int greybus_match_device(struct device *dev,
				GB_MATCH_CONST struct device_driver *drv)
{
	struct greybus_driver *driver = to_greybus_driver(drv);

	if (!is_gb_bundle(dev))
		return 0;

	/* Not authorized: no driver is told about it (bundle.c) */
	if (!READ_ONCE(to_gb_bundle(dev)->authorized))
		return 0;

	return !!greybus_match_id(to_gb_bundle(dev), driver->id_table);
}

static int greybus_uevent(GB_UEVENT_CONST struct device *dev,
			  struct kobj_uevent_env *env)
{
	struct gb_host_device *hd;
	struct gb_module *module = NULL;
	struct gb_interface *intf = NULL;
	struct gb_bundle *bundle = NULL;

	if (is_gb_host_device(dev)) {
		hd = to_gb_host_device(dev);
	} else if (is_gb_svc(dev)) {
		hd = to_gb_svc(dev)->hd;
	} else if (is_gb_module(dev)) {
		module = to_gb_module(dev);
		hd = module->hd;
	} else if (is_gb_interface(dev)) {
		intf = to_gb_interface(dev);
	} else if (is_gb_control(dev)) {
		intf = to_gb_control(dev)->intf;
	} else if (is_gb_bundle(dev)) {
		bundle = to_gb_bundle(dev);
		intf = bundle->intf;
	} else {
		dev_warn(dev, "uevent for unknown greybus device type\n");
		return -EINVAL;
	}

	if (intf) {
		module = intf->module;
		hd = intf->hd;
	}

	if (add_uevent_var(env, "BUS=%u", hd->bus_id))
		return -ENOMEM;

	if (module && add_uevent_var(env, "MODULE=%u", module->module_id))
		return -ENOMEM;

	if (intf) {
		if (add_uevent_var(env, "INTERFACE=%u", intf->interface_id))
			return -ENOMEM;
		if (add_uevent_var(env, "GREYBUS_ID=%08x/%08x",
				   intf->vendor_id, intf->product_id))
			return -ENOMEM;
	}

	if (bundle) {
		if (add_uevent_var(env, "BUNDLE=%u", bundle->id))
			return -ENOMEM;
		if (add_uevent_var(env, "BUNDLE_CLASS=%02x", bundle->class))
			return -ENOMEM;
		if (add_uevent_var(env, "AUTHORIZED=%u",
				   READ_ONCE(bundle->authorized)))
			return -ENOMEM;
		/* What GREYBUS_MODULE_ALIAS_*() in greybus_id.h matches */
		if (add_uevent_var(env, "MODALIAS=greybus:v%08Xp%08Xc%02X",
				   intf->vendor_id, intf->product_id,
				   bundle->class))
			return -ENOMEM;
	}

	return 0;
}

/*
 * The bundle is activated (Control bundle_activate) before the driver
 * sees it and deactivated after the driver let go; a bundle whose
 * activation fails stays unbound and can be bound again later.
 *
 * Runtime PM is enabled on the bundle only while it is bound.  The
 * interface is resumed for the activation; from then on the active
 * bundle keeps it awake.  The core's reference on the bundle covers the
 * driver's probe and is dropped after it, so an idle bundle suspends
 * (pm.c); every error path gives back exactly what was taken.
 */
static int greybus_probe(struct device *dev)
{
	struct greybus_driver *driver = to_greybus_driver(dev->driver);
	struct gb_bundle *bundle = to_gb_bundle(dev);
	struct gb_interface *intf = bundle->intf;
	struct gb_control *control = intf->control;
	const struct greybus_bundle_id *id;
	int ret;

	/* Deauthorized since the match: its release follows this probe */
	if (!READ_ONCE(bundle->authorized))
		return -ENODEV;

	id = greybus_match_id(bundle, driver->id_table);
	if (!id)
		return -ENODEV;

	if (!control)
		return -ENODEV;

	ret = pm_runtime_resume_and_get(&intf->dev);
	if (ret)
		goto err_map_errno;

	ret = gb_control_bundle_activate(control, bundle->id);
	if (ret)
		goto err_put_interface;

	pm_runtime_get_noresume(dev);
	ret = pm_runtime_set_active(dev);
	if (ret)
		goto err_put_bundle;
	pm_runtime_enable(dev);

	ret = driver->probe(bundle, id);
	if (ret)
		goto err_disable_rpm;

	gb_interface_pm_put(intf);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);

	return 0;

err_disable_rpm:
	if (!list_empty(&bundle->connections))
		dev_err(dev, "driver %s left connections behind after failed probe\n",
			driver->name);
	pm_runtime_disable(dev);
	pm_runtime_set_suspended(dev);
err_put_bundle:
	pm_runtime_put_noidle(dev);
	if (!READ_ONCE(intf->disconnected))
		gb_control_bundle_deactivate(control, bundle->id);
err_put_interface:
	gb_interface_pm_put(intf);
err_map_errno:
	/*
	 * -ESHUTDOWN: the interface or host left while probing.  The driver
	 * core reports -ENODEV quietly, which is what this is.
	 */
	if (ret == -ESHUTDOWN)
		ret = -ENODEV;
	return ret;
}

static void greybus_remove(struct device *dev)
{
	struct greybus_driver *driver = to_greybus_driver(dev->driver);
	struct gb_bundle *bundle = to_gb_bundle(dev);
	bool disconnected = READ_ONCE(bundle->intf->disconnected);

	/* Awake for the driver's last words (nothing is sent if gone) */
	pm_runtime_get_sync(dev);

	/* Nobody to answer: make the driver's operations fail at once */
	if (disconnected)
		gb_bundle_disable_connections(bundle);

	driver->disconnect(bundle);

	if (!list_empty(&bundle->connections))
		dev_err(dev, "driver %s left connections behind\n",
			driver->name);

	if (!disconnected && bundle->intf->control)
		gb_control_bundle_deactivate(bundle->intf->control, bundle->id);

	pm_runtime_disable(dev);
	pm_runtime_set_suspended(dev);
	pm_runtime_put_noidle(dev);
}

struct bus_type greybus_bus_type = {
	.name		= "greybus",
	.match		= greybus_match_device,
	.uevent		= greybus_uevent,
	.probe		= greybus_probe,
	.remove		= greybus_remove,
};
EXPORT_SYMBOL_NS_GPL(greybus_bus_type, GREYBUS);

/**
 * greybus_register_driver() - register a Greybus protocol driver
 * @driver: the driver; probe, disconnect and id_table are mandatory
 * @owner: the module the driver belongs to
 * @mod_name: its name
 *
 * Drivers call greybus_register() or use module_greybus_driver(), which
 * fill in @owner and @mod_name.  The driver core probes the driver
 * against the bundles already present before this returns.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL if a mandatory member is missing, or the error of
 * driver_register().
 */
int greybus_register_driver(struct greybus_driver *driver,
			    struct module *owner, const char *mod_name)
{
	int ret;

	if (!driver->probe || !driver->disconnect || !driver->id_table)
		return -EINVAL;

	driver->driver.bus = &greybus_bus_type;
	driver->driver.name = driver->name;
	driver->driver.owner = owner;
	driver->driver.mod_name = mod_name;

	ret = driver_register(&driver->driver);
	if (ret)
		return ret;

	pr_debug("greybus: registered driver %s\n", driver->name);

	return 0;
}
EXPORT_SYMBOL_NS_GPL(greybus_register_driver, GREYBUS);

/**
 * greybus_deregister_driver() - unregister a Greybus protocol driver
 * @driver: a driver registered with greybus_register_driver()
 *
 * Calls disconnect() for every bundle the driver is bound to, then
 * deactivates those bundles.
 *
 * Context: Process context; sleeps.
 */
void greybus_deregister_driver(struct greybus_driver *driver)
{
	driver_unregister(&driver->driver);
}
EXPORT_SYMBOL_NS_GPL(greybus_deregister_driver, GREYBUS);

static int __init gb_init(void)
{
	int ret;

	gb_debugfs_init();

	ret = bus_register(&greybus_bus_type);
	if (ret)
		goto err_debugfs_cleanup;

	ret = gb_operation_init();
	if (ret)
		goto err_bus_unregister;

	ret = gb_pm_init();
	if (ret)
		goto err_operation_exit;

	ret = gb_bundle_auth_init();
	if (ret)
		goto err_pm_exit;

	return 0;

err_pm_exit:
	gb_pm_exit();
err_operation_exit:
	gb_operation_exit();
err_bus_unregister:
	bus_unregister(&greybus_bus_type);
err_debugfs_cleanup:
	gb_debugfs_cleanup();
	return ret;
}
module_init(gb_init);

static void __exit gb_exit(void)
{
	gb_bundle_auth_exit();
	gb_pm_exit();
	gb_operation_exit();
	bus_unregister(&greybus_bus_type);
	gb_debugfs_cleanup();
	gb_hd_exit();
}
module_exit(gb_exit);

MODULE_DESCRIPTION("Greybus core");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
