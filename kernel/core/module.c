// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus modules ("N-M").
 *
 * A module is created with all its interfaces when the SVC reports it
 * inserted.  Adding it registers the module device, then for each
 * interface: activate, register the interface device (even when
 * activation failed, so that its type is visible), enable.  Deleting it
 * undoes that in reverse.  Eject (sysfs) powers the interfaces down and
 * asks the SVC to release the module; the SVC then reports it removed.
 */
#include <linux/slab.h>

#include "internal.h"
#include "greybus_trace.h"

/*
 * "1": shut every interface down, then ask the SVC to release the module
 * (through its primary interface); the module goes when the SVC reports
 * it removed.  "0" does nothing; anything else is refused.
 */
static ssize_t eject_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct gb_module *module = to_gb_module(dev);
	struct gb_interface *intf;
	unsigned int val;
	size_t i;
	int ret;

	if (kstrtouint(buf, 10, &val) || val > 1)
		return -EINVAL;

	if (!val)
		return len;

	if (READ_ONCE(module->disconnected))
		return -ENODEV;

	/*
	 * An enumeration in progress stops at its next step, and what it
	 * waits for now fails at once: the interface is going away.  The
	 * teardown that follows still talks to the module.
	 */
	for (i = 0; i < module->num_interfaces; i++) {
		intf = module->interfaces[i];
		WRITE_ONCE(intf->ejected, true);
		gb_interface_cancel_operations(intf, -ESHUTDOWN);
	}

	for (i = 0; i < module->num_interfaces; i++) {
		intf = module->interfaces[i];

		mutex_lock(&intf->mutex);
		gb_interface_disable(intf);
		gb_interface_deactivate(intf);
		mutex_unlock(&intf->mutex);
	}

	ret = gb_svc_intf_eject(module->hd->svc, module->module_id);
	if (ret)
		return ret;

	/* Released: nothing is said to it any more */
	gb_module_mark_disconnected(module);

	return len;
}
static DEVICE_ATTR_WO(eject);

static ssize_t module_id_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct gb_module *module = to_gb_module(dev);

	return sysfs_emit(buf, "%u\n", module->module_id);
}
static DEVICE_ATTR_RO(module_id);

static ssize_t num_interfaces_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct gb_module *module = to_gb_module(dev);

	return sysfs_emit(buf, "%zu\n", module->num_interfaces);
}
static DEVICE_ATTR_RO(num_interfaces);

static struct attribute *gb_module_attrs[] = {
	&dev_attr_eject.attr,
	&dev_attr_module_id.attr,
	&dev_attr_num_interfaces.attr,
	NULL
};
ATTRIBUTE_GROUPS(gb_module);

static void gb_module_release(struct device *dev)
{
	struct gb_module *module = to_gb_module(dev);

	trace_gb_module_release(module);
	kfree(module);
}

const struct device_type greybus_module_type = {
	.name		= "greybus_module",
	.release	= gb_module_release,
};
EXPORT_SYMBOL_NS_GPL(greybus_module_type, GREYBUS);

struct gb_module *gb_module_create(struct gb_host_device *hd, u8 module_id,
				   size_t num_interfaces)
{
	struct gb_interface *intf;
	struct gb_module *module;
	size_t i;
	int ret;

	module = kzalloc(struct_size(module, interfaces, num_interfaces),
			 GFP_KERNEL);
	if (!module)
		return ERR_PTR(-ENOMEM);

	module->hd = hd;
	module->module_id = module_id;
	module->bus_id = hd->bus_id;
	module->num_interfaces = num_interfaces;
	INIT_LIST_HEAD(&module->hd_node);

	module->dev.parent = &hd->dev;
	module->dev.bus = &greybus_bus_type;
	module->dev.type = &greybus_module_type;
	module->dev.groups = gb_module_groups;
	device_initialize(&module->dev);
	/* From here on the release function frees the module */

	ret = dev_set_name(&module->dev, "%d-%u", hd->bus_id, module_id);
	if (ret)
		goto err_put_module;

	for (i = 0; i < num_interfaces; i++) {
		intf = gb_interface_create(module, module_id + i);
		if (IS_ERR(intf)) {
			ret = PTR_ERR(intf);
			goto err_put_interfaces;
		}
		module->interfaces[i] = intf;
	}

	trace_gb_module_create(module);
	return module;

err_put_interfaces:
	while (i--)
		gb_interface_put(module->interfaces[i]);
err_put_module:
	put_device(&module->dev);
	return ERR_PTR(ret);
}

/*
 * Failing because the hardware or the host went away, or because the
 * module is being ejected, is not news.
 */
static bool gb_module_interface_gone(struct gb_interface *intf)
{
	return READ_ONCE(intf->disconnected) || READ_ONCE(intf->ejected) ||
	       READ_ONCE(intf->hd->removing);
}

/* Failures are logged and leave the interface registered, powered off */
static void gb_module_register_interface(struct gb_interface *intf)
{
	struct gb_module *module = intf->module;
	int ret;

	mutex_lock(&intf->mutex);

	ret = gb_interface_activate(intf);
	if (ret && !gb_module_interface_gone(intf)) {
		dev_err_ratelimited(&module->dev,
				    "failed to activate interface %u: %d\n",
				    intf->interface_id, ret);
		WRITE_ONCE(intf->failed, true);
	}

	ret = gb_interface_add(intf);
	if (ret)
		goto err_deactivate;

	if (intf->active) {
		ret = gb_interface_enable(intf);
		if (ret) {
			if (!gb_module_interface_gone(intf)) {
				dev_err_ratelimited(&module->dev,
						    "failed to enable interface %u: %d\n",
						    intf->interface_id, ret);
				WRITE_ONCE(intf->failed, true);
			}
			goto err_deactivate;
		}
	}

	mutex_unlock(&intf->mutex);

	return;

err_deactivate:
	gb_interface_deactivate(intf);
	mutex_unlock(&intf->mutex);
}

int gb_module_add(struct gb_module *module)
{
	size_t i;
	int ret;

	ret = device_add(&module->dev);
	if (ret) {
		dev_err(&module->dev, "failed to register module: %d\n", ret);
		return ret;
	}
	trace_gb_object_add(&module->dev);
	trace_gb_module_add(module);
	gb_pm_follow_children(&module->dev);

	for (i = 0; i < module->num_interfaces; i++)
		gb_module_register_interface(module->interfaces[i]);

	return 0;
}

void gb_module_del(struct gb_module *module)
{
	struct gb_interface *intf;
	size_t i;

	for (i = 0; i < module->num_interfaces; i++) {
		intf = module->interfaces[i];

		mutex_lock(&intf->mutex);
		gb_interface_disable(intf);
		gb_interface_deactivate(intf);
		mutex_unlock(&intf->mutex);

		gb_interface_del(intf);
	}

	gb_pm_stop(&module->dev);
	trace_gb_module_del(module);
	trace_gb_object_del(&module->dev);
	device_del(&module->dev);
}

void gb_module_put(struct gb_module *module)
{
	size_t i;

	for (i = 0; i < module->num_interfaces; i++)
		gb_interface_put(module->interfaces[i]);

	put_device(&module->dev);
}

void gb_module_mark_disconnected(struct gb_module *module)
{
	size_t i;

	WRITE_ONCE(module->disconnected, true);

	for (i = 0; i < module->num_interfaces; i++)
		gb_interface_mark_disconnected(module->interfaces[i]);
}
