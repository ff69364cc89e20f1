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

/* One line per CPort, in manifest order: "ID PROTOCOL" */
static ssize_t cports_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct gb_bundle *bundle = to_gb_bundle(dev);
	int len = 0;
	size_t i;

	for (i = 0; i < bundle->num_cports; i++)
		len += sysfs_emit_at(buf, len, "%u 0x%02x\n",
				     le16_to_cpu(bundle->cport_desc[i].id),
				     bundle->cport_desc[i].protocol_id);

	return len;
}
static DEVICE_ATTR_RO(cports);

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

static ssize_t authorized_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct gb_bundle *bundle = to_gb_bundle(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(bundle->authorized));
}

/* Returns once the driver is bound (if one matches) or unbound. */
static ssize_t authorized_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t len)
{
	struct gb_bundle *bundle = to_gb_bundle(dev);
	bool authorized;
	int ret;

	if (sysfs_streq(buf, "1"))
		authorized = true;
	else if (sysfs_streq(buf, "0"))
		authorized = false;
	else
		return -EINVAL;

	ret = gb_bundle_set_authorized(bundle, authorized, true);

	return ret ? ret : len;
}
static DEVICE_ATTR_RW(authorized);

static struct attribute *gb_bundle_attrs[] = {
	&dev_attr_authorized.attr,
	&dev_attr_bundle_class.attr,
	&dev_attr_bundle_id.attr,
	&dev_attr_cports.attr,
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

/*
 * Authorization, after USB's: a bundle that is not authorized is
 * registered (class, CPorts and uevent visible to a policy) but no driver
 * matches it (core.c), so it is never activated and has no connection.
 *
 * @authorized is the truth.  It is changed without a lock, so that
 * gb-vhd's request never waits behind a probe that needs the very
 * process making the request; whoever changes it then brings the binding
 * in line under @auth_lock: attach a driver when authorized, release it
 * when not.  The last of these sees the last value.  greybus_probe()
 * reads the flag again under the device lock, so a probe racing with a
 * deauthorization either fails or finishes before the release unbinds.
 */
static struct workqueue_struct *gb_bundle_auth_wq;

static void gb_bundle_auth_apply(struct gb_bundle *bundle)
{
	int ret;

	mutex_lock(&bundle->auth_lock);
	/* Once deleted the driver core neither binds nor needs unbinding */
	if (!device_is_registered(&bundle->dev))
		goto out_unlock;

	if (READ_ONCE(bundle->authorized)) {
		ret = device_attach(&bundle->dev);
		if (ret < 0)
			dev_dbg(&bundle->dev, "attach failed: %d\n", ret);
	} else {
		device_release_driver(&bundle->dev);
	}

out_unlock:
	mutex_unlock(&bundle->auth_lock);
}

/* Holds the reference gb_bundle_set_authorized() took for it */
static void gb_bundle_auth_work(struct work_struct *work)
{
	struct gb_bundle *bundle = container_of(work, struct gb_bundle,
						auth_work);

	gb_bundle_auth_apply(bundle);
	put_device(&bundle->dev);
}

/**
 * gb_bundle_set_authorized() - let drivers bind to a bundle, or not
 * @bundle: a registered bundle
 * @authorized: the new state
 * @wait: bind or unbind before returning; otherwise on a workqueue
 *
 * A change is announced with a "change" uevent (AUTHORIZED=0/1).  Writing
 * the state a bundle is in still brings the binding in line with it.
 * Callers that the probe may need (a host driver's own process) must not
 * @wait.
 *
 * Context: Process context; sleeps (for as long as a probe or a
 * disconnect takes if @wait).
 * Return: 0.
 */
int gb_bundle_set_authorized(struct gb_bundle *bundle, bool authorized,
			     bool wait)
{
	if (xchg(&bundle->authorized, authorized) != authorized) {
		dev_dbg(&bundle->dev, "%sauthorized\n", authorized ? "" : "de");
		kobject_uevent(&bundle->dev.kobj, KOBJ_CHANGE);
	}

	if (wait) {
		gb_bundle_auth_apply(bundle);
		return 0;
	}

	get_device(&bundle->dev);
	if (!queue_work(gb_bundle_auth_wq, &bundle->auth_work))
		put_device(&bundle->dev);	/* the queued one will do */

	return 0;
}

struct gb_bundle_key {
	struct gb_host_device	*hd;
	u8			intf_id;
	u8			bundle_id;
};

static int gb_bundle_match_key(struct device *dev, const void *data)
{
	const struct gb_bundle_key *key = data;
	struct gb_bundle *bundle;

	if (!is_gb_bundle(dev))
		return 0;
	bundle = to_gb_bundle(dev);

	return bundle->intf->hd == key->hd &&
	       bundle->intf->interface_id == key->intf_id &&
	       bundle->id == key->bundle_id;
}

/**
 * gb_hd_bundle_authorize() - authorize or deauthorize a bundle of a host
 * @hd: the host device
 * @intf_id: the interface id of the bundle
 * @bundle_id: the bundle id within the interface
 * @authorized: the new state
 *
 * For a host driver acting for the process behind it: the state changes
 * before this returns, the driver binds or unbinds afterwards on a
 * workqueue (the probe or disconnect may need the host driver).
 *
 * Context: Process context.
 * Return: 0, or -ENODEV if @hd has no such bundle registered.
 */
int gb_hd_bundle_authorize(struct gb_host_device *hd, u8 intf_id,
			   u8 bundle_id, bool authorized)
{
	struct gb_bundle_key key = {
		.hd = hd,
		.intf_id = intf_id,
		.bundle_id = bundle_id,
	};
	struct device *dev;

	dev = bus_find_device(&greybus_bus_type, NULL, &key,
			      gb_bundle_match_key);
	if (!dev)
		return -ENODEV;

	gb_bundle_set_authorized(to_gb_bundle(dev), authorized, false);
	put_device(dev);

	return 0;
}
EXPORT_SYMBOL_NS_GPL(gb_hd_bundle_authorize, GREYBUS);

int gb_bundle_auth_init(void)
{
	gb_bundle_auth_wq = alloc_workqueue("greybus_auth", WQ_UNBOUND, 0);

	return gb_bundle_auth_wq ? 0 : -ENOMEM;
}

void gb_bundle_auth_exit(void)
{
	destroy_workqueue(gb_bundle_auth_wq);
}

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
	bundle->authorized = READ_ONCE(intf->hd->authorized_default);
	mutex_init(&bundle->auth_lock);
	INIT_WORK(&bundle->auth_work, gb_bundle_auth_work);

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

	trace_gb_bundle_create(bundle);
	return bundle;
}

int gb_bundle_add(struct gb_bundle *bundle)
{
	struct gb_host_device *hd = bundle->intf->hd;
	int ret;

	ret = device_add(&bundle->dev);
	if (ret)
		return ret;
	trace_gb_object_add(&bundle->dev);
	trace_gb_bundle_add(bundle);

	if (hd->driver->bundle_added)
		hd->driver->bundle_added(hd, bundle);

	return 0;
}

/* Unbinds the driver (which destroys its connections) and frees */
void gb_bundle_destroy(struct gb_bundle *bundle)
{
	trace_gb_bundle_destroy(bundle);
	if (device_is_registered(&bundle->dev)) {
		trace_gb_object_del(&bundle->dev);
		device_del(&bundle->dev);
	}

	list_del(&bundle->links);

	put_device(&bundle->dev);
}
