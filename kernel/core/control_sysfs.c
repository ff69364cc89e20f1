// SPDX-License-Identifier: GPL-2.0
/*
 * Attributes of "N-M.I.ctrl" (docs/sysfs-bus-greybus): the manifest's
 * strings, set before the device is registered and constant after.
 */
#include <linux/sysfs.h>

#include "internal.h"

static ssize_t vendor_string_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct gb_control *control = to_gb_control(dev);

	return sysfs_emit(buf, "%s\n", control->vendor_string ?: "");
}
static DEVICE_ATTR_RO(vendor_string);

static ssize_t product_string_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct gb_control *control = to_gb_control(dev);

	return sysfs_emit(buf, "%s\n", control->product_string ?: "");
}
static DEVICE_ATTR_RO(product_string);

static struct attribute *gb_control_attrs[] = {
	&dev_attr_vendor_string.attr,
	&dev_attr_product_string.attr,
	NULL
};

static const struct attribute_group gb_control_group = {
	.attrs = gb_control_attrs,
};

const struct attribute_group *gb_control_groups[] = {
	&gb_control_group,
	NULL
};
