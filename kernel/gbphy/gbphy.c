// SPDX-License-Identifier: GPL-2.0
/*
 * gb-gbphy: the bus of Bridged-PHY protocol drivers (see greybus/gbphy.h).
 *
 * A Greybus driver for class 0x0a bundles whose probe creates one gbphy
 * device per CPort and whose disconnect unregisters them, which unbinds
 * their drivers first.  The gbphy bus matches those devices to drivers
 * by the CPort's protocol id and runs each driver's probe and remove with
 * runtime PM set up on the device (child of the bundle).
 */
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>

#include <greybus/compat.h>
#include <greybus/gbphy.h>

/* The bundle driver's data: its gbphy devices */
struct gbphy_host {
	struct gb_bundle	*bundle;
	struct list_head	devices;
};

static DEFINE_IDA(gbphy_id);

static ssize_t protocol_id_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%02x\n", gbphy_protocol_id(to_gbphy_dev(dev)));
}
static DEVICE_ATTR_RO(protocol_id);

static struct attribute *gbphy_dev_attrs[] = {
	&dev_attr_protocol_id.attr,
	NULL,
};
ATTRIBUTE_GROUPS(gbphy_dev);

/*
 * The last reference to a gbphy device can outlive its unregistration
 * (a driver being registered iterates the bus with the device pinned,
 * then takes its parent's lock: need_parent_lock), and its cport_desc
 * points into the bundle's descriptors: so each gbphy device holds its
 * bundle from creation to here, not only while it is registered.
 */
static void gbphy_dev_release(struct device *dev)
{
	struct gbphy_device *gbphy_dev = to_gbphy_dev(dev);

	put_device(&gbphy_dev->bundle->dev);
	ida_free(&gbphy_id, gbphy_dev->id);
	kfree(gbphy_dev);
}

static const struct device_type gbphy_dev_type = {
	.name		= "gbphy_device",
	.release	= gbphy_dev_release,
	GB_TYPE_NEED_PARENT_LOCK
};

static const struct gbphy_device_id *
gbphy_match_id(struct gbphy_device *gbphy_dev,
	       const struct gbphy_device_id *id)
{
	for (; id && id->protocol_id; id++) {
		if (id->protocol_id == gbphy_protocol_id(gbphy_dev))
			return id;
	}

	return NULL;
}

static int gbphy_dev_match(struct device *dev,
			   GB_MATCH_CONST struct device_driver *drv)
{
	struct gbphy_driver *driver = to_gbphy_driver(drv);

	return !!gbphy_match_id(to_gbphy_dev(dev), driver->id_table);
}

static int gbphy_dev_uevent(GB_UEVENT_CONST struct device *dev,
			    struct kobj_uevent_env *env)
{
	struct gbphy_device *gbphy_dev = to_gbphy_dev(dev);
	u8 protocol = gbphy_protocol_id(gbphy_dev);

	if (add_uevent_var(env, "BUNDLE=%s", dev_name(&gbphy_dev->bundle->dev)))
		return -ENOMEM;
	if (add_uevent_var(env, "GBPHY=%d", gbphy_dev->id))
		return -ENOMEM;
	if (add_uevent_var(env, "PROTOCOL_ID=%02X", protocol))
		return -ENOMEM;
	if (add_uevent_var(env, "MODALIAS=gbphy:p%02X", protocol))
		return -ENOMEM;

	return 0;
}

/*
 * The driver core resumes the parent (the bundle) around probe, so the
 * device can start out active; the reference taken here keeps it active
 * until the driver's probe returned.
 */
static int gbphy_dev_probe(struct device *dev)
{
	struct gbphy_driver *driver = to_gbphy_driver(dev->driver);
	struct gbphy_device *gbphy_dev = to_gbphy_dev(dev);
	const struct gbphy_device_id *id;
	int ret;

	id = gbphy_match_id(gbphy_dev, driver->id_table);
	if (!id)
		return -ENODEV;

	pm_runtime_get_noresume(dev);
	ret = pm_runtime_set_active(dev);
	if (ret)
		goto err_put;
	pm_runtime_set_autosuspend_delay(dev, GBPHY_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);

	ret = driver->probe(gbphy_dev, id);
	if (ret)
		goto err_disable;

	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);

	return 0;

err_disable:
	pm_runtime_disable(dev);
	pm_runtime_set_suspended(dev);
	pm_runtime_dont_use_autosuspend(dev);
err_put:
	pm_runtime_put_noidle(dev);
	/* the module left while probing: quiet, like a missing device */
	if (ret == -ESHUTDOWN)
		ret = -ENODEV;
	return ret;
}

static void gbphy_dev_remove(struct device *dev)
{
	struct gbphy_driver *driver = to_gbphy_driver(dev->driver);
	struct gbphy_device *gbphy_dev = to_gbphy_dev(dev);
	int ret;

	/* A failed resume only makes the driver's last operations fail */
	ret = pm_runtime_get_sync(dev);
	if (ret < 0)
		dev_dbg(dev, "not resumed for remove: %d\n", ret);

	driver->remove(gbphy_dev);

	pm_runtime_disable(dev);
	pm_runtime_set_suspended(dev);
	pm_runtime_dont_use_autosuspend(dev);
	pm_runtime_put_noidle(dev);
}

struct bus_type gbphy_bus_type = {
	.name			= "gbphy",
	.match			= gbphy_dev_match,
	.uevent			= gbphy_dev_uevent,
	.probe			= gbphy_dev_probe,
	.remove			= gbphy_dev_remove,
	GB_BUS_NEED_PARENT_LOCK
};
EXPORT_SYMBOL_NS_GPL(gbphy_bus_type, GREYBUS);

/**
 * gb_gbphy_register_driver() - register a gbphy driver
 * @driver: the driver; probe, remove and id_table are mandatory
 * @owner: the module the driver belongs to
 * @mod_name: its name
 *
 * Drivers call gb_gbphy_register() or use module_gbphy_driver(), which
 * fill in @owner and @mod_name.  The driver core probes the driver
 * against the gbphy devices already present before this returns.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL if a mandatory member is missing, or the error of
 * driver_register().
 */
int gb_gbphy_register_driver(struct gbphy_driver *driver,
			     struct module *owner, const char *mod_name)
{
	if (!driver->probe || !driver->remove || !driver->id_table)
		return -EINVAL;

	driver->driver.bus = &gbphy_bus_type;
	driver->driver.name = driver->name;
	driver->driver.owner = owner;
	driver->driver.mod_name = mod_name;

	return driver_register(&driver->driver);
}
EXPORT_SYMBOL_NS_GPL(gb_gbphy_register_driver, GREYBUS);

/**
 * gb_gbphy_deregister_driver() - unregister a gbphy driver
 * @driver: a driver registered with gb_gbphy_register_driver()
 *
 * Calls remove() for every gbphy device the driver is bound to.
 *
 * Context: Process context; sleeps.
 */
void gb_gbphy_deregister_driver(struct gbphy_driver *driver)
{
	driver_unregister(&driver->driver);
}
EXPORT_SYMBOL_NS_GPL(gb_gbphy_deregister_driver, GREYBUS);

/* The bundle driver */

static int gbphy_device_add(struct gbphy_host *host,
			    struct greybus_descriptor_cport *desc)
{
	struct gbphy_device *gbphy_dev;
	int ret;

	gbphy_dev = kzalloc(sizeof(*gbphy_dev), GFP_KERNEL);
	if (!gbphy_dev)
		return -ENOMEM;

	ret = ida_alloc_min(&gbphy_id, 1, GFP_KERNEL);
	if (ret < 0) {
		kfree(gbphy_dev);
		return ret;
	}
	gbphy_dev->id = ret;
	gbphy_dev->bundle = host->bundle;
	gbphy_dev->cport_desc = desc;

	/* From here the release function owns gbphy_dev, its id and this */
	get_device(&host->bundle->dev);
	device_initialize(&gbphy_dev->dev);
	gbphy_dev->dev.parent = &host->bundle->dev;
	gbphy_dev->dev.bus = &gbphy_bus_type;
	gbphy_dev->dev.type = &gbphy_dev_type;
	gbphy_dev->dev.groups = gbphy_dev_groups;
	gbphy_dev->dev.dma_mask = host->bundle->dev.dma_mask;
	dev_set_name(&gbphy_dev->dev, "gbphy%d", gbphy_dev->id);

	ret = device_add(&gbphy_dev->dev);
	if (ret) {
		put_device(&gbphy_dev->dev);
		return ret;
	}

	list_add_tail(&gbphy_dev->list, &host->devices);

	return 0;
}

/* In reverse order of creation, each unbound from its driver first */
static void gbphy_devices_remove(struct gbphy_host *host)
{
	struct gbphy_device *gbphy_dev, *tmp;

	list_for_each_entry_safe_reverse(gbphy_dev, tmp, &host->devices,
					 list) {
		list_del(&gbphy_dev->list);
		device_unregister(&gbphy_dev->dev);
	}
}

static int gb_gbphy_probe(struct gb_bundle *bundle,
			  const struct greybus_bundle_id *id)
{
	struct gbphy_host *host;
	size_t i;
	int ret;

	if (!bundle->num_cports)
		return -ENODEV;

	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host)
		return -ENOMEM;

	host->bundle = bundle;
	INIT_LIST_HEAD(&host->devices);
	greybus_set_drvdata(bundle, host);

	for (i = 0; i < bundle->num_cports; i++) {
		ret = gbphy_device_add(host, &bundle->cport_desc[i]);
		if (ret)
			goto err_remove_devices;
	}

	return 0;

err_remove_devices:
	gbphy_devices_remove(host);
	greybus_set_drvdata(bundle, NULL);
	kfree(host);
	return ret;
}

static void gb_gbphy_disconnect(struct gb_bundle *bundle)
{
	struct gbphy_host *host = greybus_get_drvdata(bundle);

	gbphy_devices_remove(host);
	kfree(host);
}

static const struct greybus_bundle_id gb_gbphy_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_BRIDGED_PHY) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_gbphy_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_BRIDGED_PHY);

static struct greybus_driver gb_gbphy_driver = {
	.name		= "gbphy",
	.probe		= gb_gbphy_probe,
	.disconnect	= gb_gbphy_disconnect,
	.id_table	= gb_gbphy_id_table,
};

static int __init gbphy_init(void)
{
	int ret;

	ret = bus_register(&gbphy_bus_type);
	if (ret)
		return ret;

	ret = greybus_register(&gb_gbphy_driver);
	if (ret)
		goto err_bus_unregister;

	return 0;

err_bus_unregister:
	bus_unregister(&gbphy_bus_type);
	return ret;
}
module_init(gbphy_init);

static void __exit gbphy_exit(void)
{
	greybus_deregister(&gb_gbphy_driver);
	bus_unregister(&gbphy_bus_type);
	ida_destroy(&gbphy_id);
}
module_exit(gbphy_exit);

MODULE_DESCRIPTION("Greybus Bridged-PHY bus");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
