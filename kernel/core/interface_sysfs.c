// SPDX-License-Identifier: GPL-2.0
/*
 * Attributes of "N-M.I" (docs/sysfs-bus-greybus).  The identification
 * attributes are read during activation, before the device is
 * registered, and only exist for interfaces that reached that point
 * (type "greybus").
 */
#include <linux/string.h>
#include <linux/sysfs.h>
#include <uapi/greybus/svc.h>

#include "internal.h"

const char *gb_interface_type_string(enum gb_interface_type type)
{
	switch (type) {
	case GB_INTERFACE_TYPE_INVALID:
		return "invalid";
	case GB_INTERFACE_TYPE_UNKNOWN:
		return "unknown";
	case GB_INTERFACE_TYPE_DUMMY:
		return "dummy";
	case GB_INTERFACE_TYPE_UNIPRO:
		return "unipro";
	case GB_INTERFACE_TYPE_GREYBUS:
		return "greybus";
	}

	return "invalid";
}

static ssize_t interface_id_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "%u\n", intf->interface_id);
}
static DEVICE_ATTR_RO(interface_id);

static ssize_t ddbl1_manufacturer_id_show(struct device *dev,
					  struct device_attribute *attr,
					  char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "0x%08x\n", intf->ddbl1_manufacturer_id);
}
static DEVICE_ATTR_RO(ddbl1_manufacturer_id);

static ssize_t ddbl1_product_id_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "0x%08x\n", intf->ddbl1_product_id);
}
static DEVICE_ATTR_RO(ddbl1_product_id);

static ssize_t vendor_id_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "0x%08x\n", intf->vendor_id);
}
static DEVICE_ATTR_RO(vendor_id);

static ssize_t product_id_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "0x%08x\n", intf->product_id);
}
static DEVICE_ATTR_RO(product_id);

static ssize_t serial_number_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "0x%016llx\n", intf->serial_number);
}
static DEVICE_ATTR_RO(serial_number);

static ssize_t interface_type_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "%s\n", gb_interface_type_string(intf->type));
}
static DEVICE_ATTR_RO(interface_type);

/*
 * Derived from flags that change under intf->mutex (and, for "gone", in
 * the SVC's request handler); read without it, so a value may be a
 * moment old, never inconsistent.
 */
const char *gb_interface_status_string(struct gb_interface *intf)
{
	if (READ_ONCE(intf->module->disconnected))
		return "gone";
	if (READ_ONCE(intf->enabled))
		return "enabled";
	if (READ_ONCE(intf->failed))
		return "failed";
	if (READ_ONCE(intf->ejected) || READ_ONCE(intf->powered_down))
		return "off";

	return "enumerating";
}

static ssize_t status_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "%s\n", gb_interface_status_string(intf));
}
static DEVICE_ATTR_RO(status);

static ssize_t power_state_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct gb_interface *intf = to_gb_interface(dev);

	return sysfs_emit(buf, "%s\n", READ_ONCE(intf->active) ? "on" : "off");
}

/*
 * Powering up is what insertion does (activate, then enable), so a
 * failed interface can be tried again; on any error it is left powered
 * down.  The bundles and the control device are children of the
 * interface, so deleting them from its own attribute is safe; module
 * removal takes intf->mutex before it deletes the interface and finds
 * the interface gone when it gets it after us.
 */
static ssize_t power_state_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	struct gb_interface *intf = to_gb_interface(dev);
	bool on;
	int ret = 0;

	/* The ABI document's words only, not all that kstrtobool() takes */
	if (sysfs_streq(buf, "on") || sysfs_streq(buf, "1") ||
	    sysfs_streq(buf, "y") || sysfs_streq(buf, "Y"))
		on = true;
	else if (sysfs_streq(buf, "off") || sysfs_streq(buf, "0") ||
		 sysfs_streq(buf, "n") || sysfs_streq(buf, "N"))
		on = false;
	else
		return -EINVAL;

	mutex_lock(&intf->mutex);

	if (READ_ONCE(intf->disconnected) || READ_ONCE(intf->ejected)) {
		ret = -ENODEV;
		goto out_unlock;
	}

	if (!on) {
		gb_interface_disable(intf);
		gb_interface_deactivate(intf);
		WRITE_ONCE(intf->failed, false);
		WRITE_ONCE(intf->powered_down, true);
		goto out_unlock;
	}

	if (intf->active)
		goto out_unlock;

	WRITE_ONCE(intf->powered_down, false);
	ret = gb_interface_activate(intf);
	if (!ret) {
		ret = gb_interface_enable(intf);
		if (ret)
			gb_interface_deactivate(intf);
	}
	if (ret && (READ_ONCE(intf->disconnected) ||
		    READ_ONCE(intf->hd->removing))) {
		ret = -ENODEV;
	} else if (ret) {
		dev_err_ratelimited(dev, "failed to power up: %d\n", ret);
		WRITE_ONCE(intf->failed, true);
	} else {
		WRITE_ONCE(intf->failed, false);
	}

out_unlock:
	mutex_unlock(&intf->mutex);

	return ret ? ret : len;
}
static DEVICE_ATTR_RW(power_state);

static struct attribute *gb_interface_common_attrs[] = {
	&dev_attr_interface_id.attr,
	&dev_attr_interface_type.attr,
	&dev_attr_status.attr,
	&dev_attr_power_state.attr,
	NULL
};

static const struct attribute_group gb_interface_common_group = {
	.attrs = gb_interface_common_attrs,
};

/*
 * The SVC's measurement of the interface's supply, in uV, uA or uW.  An
 * SVC that lets one sample request time out has no power monitor for the
 * interface (BeaglePlay's CC1352 firmware never answers them): every
 * later read fails at once instead of costing a time-out each.
 */
static ssize_t gb_interface_pwrmon_show(struct device *dev, char *buf,
					u8 measurement_type)
{
	struct gb_interface *intf = to_gb_interface(dev);
	u32 value;
	int ret;

	if (READ_ONCE(intf->disconnected))
		return -ENODEV;
	if (atomic_read(&intf->pwrmon_unanswered))
		return -EOPNOTSUPP;

	ret = gb_svc_pwrmon_intf_sample_get(intf->hd->svc, intf->interface_id,
					    measurement_type, &value);
	if (ret == -ETIMEDOUT && !atomic_xchg(&intf->pwrmon_unanswered, 1))
		dev_warn(dev, "the SVC did not answer a power sample request: voltage_now, current_now and power_now are not supported\n");
	if (ret)
		return ret;

	return sysfs_emit(buf, "%u\n", value);
}

static ssize_t voltage_now_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return gb_interface_pwrmon_show(dev, buf, GB_SVC_PWRMON_TYPE_VOL);
}
static DEVICE_ATTR_RO(voltage_now);

static ssize_t current_now_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return gb_interface_pwrmon_show(dev, buf, GB_SVC_PWRMON_TYPE_CURR);
}
static DEVICE_ATTR_RO(current_now);

static ssize_t power_now_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return gb_interface_pwrmon_show(dev, buf, GB_SVC_PWRMON_TYPE_PWR);
}
static DEVICE_ATTR_RO(power_now);

static struct attribute *gb_interface_unipro_attrs[] = {
	&dev_attr_voltage_now.attr,
	&dev_attr_current_now.attr,
	&dev_attr_power_now.attr,
	NULL
};

/* Interfaces with a UniPro link, whether they speak Greybus or not */
static umode_t gb_interface_unipro_is_visible(struct kobject *kobj,
					      struct attribute *attr, int n)
{
	struct gb_interface *intf = to_gb_interface(kobj_to_dev(kobj));

	return intf->type == GB_INTERFACE_TYPE_GREYBUS ||
	       intf->type == GB_INTERFACE_TYPE_UNIPRO ? attr->mode : 0;
}

static const struct attribute_group gb_interface_unipro_group = {
	.attrs		= gb_interface_unipro_attrs,
	.is_visible	= gb_interface_unipro_is_visible,
};

static struct attribute *gb_interface_greybus_attrs[] = {
	&dev_attr_ddbl1_manufacturer_id.attr,
	&dev_attr_ddbl1_product_id.attr,
	&dev_attr_vendor_id.attr,
	&dev_attr_product_id.attr,
	&dev_attr_serial_number.attr,
	NULL
};

static umode_t gb_interface_greybus_is_visible(struct kobject *kobj,
					       struct attribute *attr, int n)
{
	struct gb_interface *intf = to_gb_interface(kobj_to_dev(kobj));

	return intf->type == GB_INTERFACE_TYPE_GREYBUS ? attr->mode : 0;
}

static const struct attribute_group gb_interface_greybus_group = {
	.attrs		= gb_interface_greybus_attrs,
	.is_visible	= gb_interface_greybus_is_visible,
};

const struct attribute_group *gb_interface_groups[] = {
	&gb_interface_common_group,
	&gb_interface_unipro_group,
	&gb_interface_greybus_group,
	NULL
};
