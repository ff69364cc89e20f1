/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The gbphy bus: drivers for the protocols of a Bridged-PHY bundle
 * (class 0x0a: GPIO, I2C, UART, SPI, PWM, ...).
 *
 * Such a bundle carries several unrelated protocols, one per CPort, so no
 * single Greybus driver can own it.  gb-gbphy binds to the bundle and
 * creates one gbphy device per CPort ("gbphyN" on /sys/bus/gbphy, a child
 * of the bundle, attribute protocol_id); gbphy drivers match those by
 * protocol id.  A device's uevent carries MODALIAS=gbphy:pXX (protocol
 * id, upper-case hex), so modprobe loads the driver of a new device.
 *
 * How a driver uses it:
 *
 *	static int gb_foo_probe(struct gbphy_device *gbphy_dev,
 *				const struct gbphy_device_id *id)
 *	{
 *		connection = gb_connection_create(gbphy_dev->bundle,
 *				le16_to_cpu(gbphy_dev->cport_desc->id),
 *				handler_or_NULL);
 *		... gb_connection_enable(connection), set up the framework
 *		device with gbphy_dev->dev as its parent ...
 *		gb_gbphy_set_data(gbphy_dev, foo);
 *	}
 *
 *	static void gb_foo_remove(struct gbphy_device *gbphy_dev)
 *	{
 *		... unregister the framework device, then
 *		gb_connection_disable() and gb_connection_destroy() ...
 *	}
 *
 *	static const struct gbphy_device_id gb_foo_id_table[] = {
 *		{ GBPHY_PROTOCOL(GREYBUS_PROTOCOL_FOO) },
 *		{ },
 *	};
 *	MODULE_DEVICE_TABLE(gbphy, gb_foo_id_table);
 *	GBPHY_MODULE_ALIAS(GREYBUS_PROTOCOL_FOO);
 *
 *	static struct gbphy_driver gb_foo_driver = {
 *		.name		= "gb-foo",
 *		.probe		= gb_foo_probe,
 *		.remove		= gb_foo_remove,
 *		.id_table	= gb_foo_id_table,
 *	};
 *	module_gbphy_driver(gb_foo_driver);
 *
 * Runtime PM.  Each gbphy device has runtime PM enabled with autosuspend
 * while a driver is bound; it is a child of the bundle, so resuming it
 * resumes the bundle (Control bundle_resume) and the bundle can suspend
 * only once every gbphy device of it is idle.  The bus holds a reference
 * across probe() and remove(); anywhere else a driver brackets the
 * operations it sends with
 *
 *	ret = gbphy_runtime_get_sync(gbphy_dev);
 *	if (ret)
 *		return ret;		(send nothing)
 *	... operations ...
 *	gbphy_runtime_put_autosuspend(gbphy_dev);
 *
 * or holds a reference for as long as userspace keeps the device in use
 * (a line requested, a tty open).  Requests from the module need none:
 * the core wakes the bundle for them.  Drivers may add runtime suspend
 * and resume callbacks in driver.pm.
 *
 * Locking.  The bus takes the bundle's device lock around a driver's
 * probe and remove (need_parent_lock), so gbphy drivers create and
 * destroy their connections serialised with the bundle driver, as the
 * core's walk of bundle->connections requires.  The gbphy devices are
 * removed in the bundle's disconnect; by then, if the module is gone,
 * their connections are already disabled and every operation fails at
 * once with -ESHUTDOWN.
 *
 * Lifetime.  A gbphy device holds a reference on its bundle from its
 * creation to its release, not only while registered: its cport_desc
 * points into the bundle, and the driver core may still match and lock
 * a device it walks (a driver registering) after the device was
 * unregistered.
 */
#ifndef __GREYBUS_GBPHY_H
#define __GREYBUS_GBPHY_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/pm_runtime.h>
#include <linux/types.h>

#include <greybus/greybus.h>

/* Milliseconds a gbphy device stays resumed after its last use */
#define GBPHY_AUTOSUSPEND_MS	3000

/**
 * struct gbphy_device - one CPort of a Bridged-PHY bundle, "gbphyN"
 * @id: the N of gbphyN, unique on the gbphy bus
 * @bundle: the bundle the CPort belongs to
 * @cport_desc: the CPort's manifest descriptor, in wire layout
 * @list: the entry in the bundle's list of gbphy devices
 * @dev: the device gbphy drivers bind to, a child of @bundle's
 *
 * Owned by gb-gbphy: created in the bundle's probe, unregistered in its
 * disconnect.  @cport_desc points into the bundle's descriptors and
 * lives as long as the bundle.
 */
struct gbphy_device {
	int				id;
	struct gb_bundle		*bundle;
	struct greybus_descriptor_cport	*cport_desc;
	struct list_head		list;
	struct device			dev;
};

#define to_gbphy_dev(d) container_of(d, struct gbphy_device, dev)

static inline u8 gbphy_protocol_id(const struct gbphy_device *gbphy_dev)
{
	return gbphy_dev->cport_desc->protocol_id;
}

static inline u16 gbphy_cport_id(const struct gbphy_device *gbphy_dev)
{
	return le16_to_cpu(gbphy_dev->cport_desc->id);
}

static inline void *gb_gbphy_get_data(struct gbphy_device *gbphy_dev)
{
	return dev_get_drvdata(&gbphy_dev->dev);
}

static inline void gb_gbphy_set_data(struct gbphy_device *gbphy_dev,
				     void *data)
{
	dev_set_drvdata(&gbphy_dev->dev, data);
}

/**
 * struct gbphy_device_id - an entry of a gbphy driver's id table
 * @protocol_id: the protocol (GREYBUS_PROTOCOL_*) of the CPorts the
 *	driver drives; see GBPHY_PROTOCOL()
 * @driver_info: the driver's own data for this entry
 *
 * The table ends with an all-zero entry.
 */
struct gbphy_device_id {
	__u8		protocol_id;
	kernel_ulong_t	driver_info;
};

#define GBPHY_PROTOCOL(p)	.protocol_id = (p)

/*
 * The modinfo alias "gbphy:pXX" of a protocol id (a constant), laid out
 * character by character as GREYBUS_MODULE_ALIAS_CLASS does.
 */
#define GBPHY_MODULE_ALIAS(p)						\
	static const struct {						\
		char head[sizeof(__MODULE_INFO_PREFIX			\
				 "alias=gbphy:p") - 1];			\
		char protocol[2];					\
		char nul;						\
	} __UNIQUE_ID(gbphy_alias)					\
	  __used __section(".modinfo") __aligned(1) = {			\
		__MODULE_INFO_PREFIX "alias=gbphy:p",			\
		__GREYBUS_HEX2(p), '\0'					\
	}

/**
 * struct gbphy_driver - a driver for one protocol of Bridged-PHY bundles
 * @name: the driver's name
 * @probe: binds to a gbphy device; runs with the device resumed and may
 *	send operations; returns 0 or a negative errno
 * @remove: unbinds; must destroy every connection the driver created
 * @id_table: the protocols driven, see struct gbphy_device_id
 * @driver: the driver core's part, filled in by
 *	gb_gbphy_register_driver(); runtime PM callbacks go in @driver.pm
 *
 * The bus calls @probe and @remove with the bundle's device locked.
 */
struct gbphy_driver {
	const char *name;

	int (*probe)(struct gbphy_device *gbphy_dev,
		     const struct gbphy_device_id *id);
	void (*remove)(struct gbphy_device *gbphy_dev);

	const struct gbphy_device_id *id_table;

	struct device_driver driver;
};

#define to_gbphy_driver(d) container_of(d, struct gbphy_driver, driver)

int gb_gbphy_register_driver(struct gbphy_driver *driver,
			     struct module *owner, const char *mod_name);
void gb_gbphy_deregister_driver(struct gbphy_driver *driver);

#define gb_gbphy_register(driver) \
	gb_gbphy_register_driver(driver, THIS_MODULE, KBUILD_MODNAME)
#define gb_gbphy_deregister(driver) \
	gb_gbphy_deregister_driver(driver)

#define module_gbphy_driver(__gbphy_driver) \
	module_driver(__gbphy_driver, gb_gbphy_register, gb_gbphy_deregister)

/* Runtime PM around the operations a driver sends; see the top */
static inline int gbphy_runtime_get_sync(struct gbphy_device *gbphy_dev)
{
	struct device *dev = &gbphy_dev->dev;
	int ret;

	ret = pm_runtime_get_sync(dev);
	if (ret < 0) {
		dev_err_ratelimited(dev, "failed to resume: %d\n", ret);
		pm_runtime_put_noidle(dev);
		return ret;
	}

	return 0;
}

static inline void gbphy_runtime_put_autosuspend(struct gbphy_device *gbphy_dev)
{
	struct device *dev = &gbphy_dev->dev;

	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
}

static inline void gbphy_runtime_get_noresume(struct gbphy_device *gbphy_dev)
{
	pm_runtime_get_noresume(&gbphy_dev->dev);
}

static inline void gbphy_runtime_put_noidle(struct gbphy_device *gbphy_dev)
{
	pm_runtime_put_noidle(&gbphy_dev->dev);
}

extern struct bus_type gbphy_bus_type;

#endif /* __GREYBUS_GBPHY_H */
