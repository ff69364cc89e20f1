// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus bundles ("N-M.I.B"), the devices protocol drivers bind to.
 */
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "internal.h"
#include "greybus_trace.h"

static ssize_t bundle_class_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct gb_bundle *bundle = to_gb_bundle(dev);

	return sysfs_emit(buf, "0x%02x\n", bundle->class);
}
static DEVICE_ATTR_RO(bundle_class);

static ssize_t bundle_id_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct gb_bundle *bundle = to_gb_bundle(dev);

	return sysfs_emit(buf, "%u\n", bundle->id);
}
static DEVICE_ATTR_RO(bundle_id);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct gb_bundle *bundle = to_gb_bundle(dev);
	ssize_t ret;

	mutex_lock(&bundle->state_lock);
	ret = sysfs_emit(buf, "%s\n", bundle->state ?: "");
	mutex_unlock(&bundle->state_lock);

	return ret;
}

/*
 * Free-form text for userspace to pass around (one trailing newline is
 * dropped); control characters other than tab are refused.  Pollers of
 * the attribute are woken on every write.
 */
static ssize_t state_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct gb_bundle *bundle = to_gb_bundle(dev);
	size_t n = len;
	char *state;
	size_t i;

	if (n && buf[n - 1] == '\n')
		n--;
	for (i = 0; i < n; i++) {
		if (iscntrl(buf[i]) && buf[i] != '\t')
			return -EINVAL;
	}

	state = kmemdup_nul(buf, n, GFP_KERNEL);
	if (!state)
		return -ENOMEM;

	mutex_lock(&bundle->state_lock);
	swap(bundle->state, state);
	mutex_unlock(&bundle->state_lock);
	kfree(state);

	sysfs_notify(&bundle->dev.kobj, NULL, "state");

	return len;
}
static DEVICE_ATTR_RW(state);

static struct attribute *gb_bundle_attrs[] = {
	&dev_attr_bundle_class.attr,
	&dev_attr_bundle_id.attr,
	&dev_attr_state.attr,
	NULL
};

static const struct attribute_group gb_bundle_group = {
	.attrs = gb_bundle_attrs,
};

const struct attribute_group *gb_bundle_groups[] = {
	&gb_bundle_group,
	NULL
};

static void gb_bundle_release(struct device *dev)
{
	struct gb_bundle *bundle = to_gb_bundle(dev);

	kfree(bundle->state);
	kfree(bundle->cport_desc);
	kfree(bundle);
}

const struct device_type greybus_bundle_type = {
	.name		= "greybus_bundle",
	.release	= gb_bundle_release,
	.pm		= &gb_bundle_pm_ops,
};
EXPORT_SYMBOL_NS_GPL(greybus_bundle_type, GREYBUS);

/* Created on intf->bundles; the interface destroys it */
struct gb_bundle *gb_bundle_create(struct gb_interface *intf, u8 bundle_id,
				   u8 class)
{
	struct gb_bundle *bundle;
	int ret;

	bundle = kzalloc(sizeof(*bundle), GFP_KERNEL);
	if (!bundle)
		return NULL;

	bundle->intf = intf;
	bundle->id = bundle_id;
	bundle->class = class;
	INIT_LIST_HEAD(&bundle->connections);
	mutex_init(&bundle->state_lock);

	bundle->dev.parent = &intf->dev;
	bundle->dev.bus = &greybus_bus_type;
	bundle->dev.type = &greybus_bundle_type;
	bundle->dev.groups = gb_bundle_groups;
	device_initialize(&bundle->dev);
	/* From here on the release function frees the bundle */

	/* Runtime PM is enabled while a driver is bound (core.c) */
	pm_runtime_set_autosuspend_delay(&bundle->dev, GB_BUNDLE_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(&bundle->dev);

	ret = dev_set_name(&bundle->dev, "%s.%u", dev_name(&intf->dev),
			   bundle_id);
	if (ret) {
		put_device(&bundle->dev);
		return NULL;
	}

	list_add_tail(&bundle->links, &intf->bundles);

	return bundle;
}

int gb_bundle_add(struct gb_bundle *bundle)
{
	int ret;

	ret = device_add(&bundle->dev);
	if (ret)
		return ret;
	trace_gb_object_add(&bundle->dev);

	return 0;
}

/* Unbinds the driver (which destroys its connections) and frees */
void gb_bundle_destroy(struct gb_bundle *bundle)
{
	if (device_is_registered(&bundle->dev)) {
		trace_gb_object_del(&bundle->dev);
		device_del(&bundle->dev);
	}

	list_del(&bundle->links);

	put_device(&bundle->dev);
}
