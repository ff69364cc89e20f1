// SPDX-License-Identifier: GPL-2.0
/*
 * Attributes of "N-svc" (docs/sysfs-bus-greybus).
 */
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include "internal.h"

static ssize_t ap_intf_id_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct gb_svc *svc = to_gb_svc(dev);

	return sysfs_emit(buf, "%u\n", svc->ap_intf_id);
}
static DEVICE_ATTR_RO(ap_intf_id);

static ssize_t endo_id_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct gb_svc *svc = to_gb_svc(dev);

	return sysfs_emit(buf, "0x%04x\n", svc->endo_id);
}
static DEVICE_ATTR_RO(endo_id);

/*
 * Forcibly eject the module of an interface, without shutting it down
 * first: once the SVC confirms, the module is marked gone (nothing more is
 * sent to it) and it goes away when the SVC reports it removed.  Junk and
 * the AP's own interface are refused.
 */
static ssize_t intf_eject_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t len)
{
	struct gb_svc *svc = to_gb_svc(dev);
	u8 intf_id;
	int ret;

	if (kstrtou8(buf, 10, &intf_id) || intf_id == svc->ap_intf_id)
		return -EINVAL;

	ret = gb_svc_intf_eject(svc, intf_id);
	if (ret)
		return ret;

	gb_svc_interface_ejected(svc, intf_id);

	return len;
}
static DEVICE_ATTR_WO(intf_eject);

static ssize_t watchdog_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct gb_svc *svc = to_gb_svc(dev);

	return sysfs_emit(buf, "%d\n", gb_svc_watchdog_get(svc));
}

/* "1" turns the pings on, "0" off; nothing else */
static ssize_t watchdog_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t len)
{
	struct gb_svc *svc = to_gb_svc(dev);
	bool enable;
	int ret;

	if (sysfs_streq(buf, "1"))
		enable = true;
	else if (sysfs_streq(buf, "0"))
		enable = false;
	else
		return -EINVAL;

	ret = gb_svc_watchdog_set(svc, enable);

	return ret ? ret : len;
}
static DEVICE_ATTR_RW(watchdog);

static ssize_t watchdog_action_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct gb_svc *svc = to_gb_svc(dev);

	switch (READ_ONCE(svc->action)) {
	case GB_SVC_WATCHDOG_BITE_PANIC_KERNEL:
		return sysfs_emit(buf, "panic\n");
	case GB_SVC_WATCHDOG_BITE_RESET_UNIPRO:
	default:
		return sysfs_emit(buf, "reset\n");
	}
}

static ssize_t watchdog_action_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t len)
{
	struct gb_svc *svc = to_gb_svc(dev);

	if (sysfs_streq(buf, "reset"))
		WRITE_ONCE(svc->action, GB_SVC_WATCHDOG_BITE_RESET_UNIPRO);
	else if (sysfs_streq(buf, "panic"))
		WRITE_ONCE(svc->action, GB_SVC_WATCHDOG_BITE_PANIC_KERNEL);
	else
		return -EINVAL;

	return len;
}
static DEVICE_ATTR_RW(watchdog_action);

static struct attribute *gb_svc_attrs[] = {
	&dev_attr_ap_intf_id.attr,
	&dev_attr_endo_id.attr,
	&dev_attr_intf_eject.attr,
	&dev_attr_watchdog.attr,
	&dev_attr_watchdog_action.attr,
	NULL
};

static const struct attribute_group gb_svc_group = {
	.attrs = gb_svc_attrs,
};

const struct attribute_group *gb_svc_groups[] = {
	&gb_svc_group,
	NULL
};
