// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus host devices ("greybusN"): one per AP bridge, created and owned
 * by its host-controller driver.
 *
 * gb_hd_create() allocates the host device and its SVC; gb_hd_add() makes
 * it visible and opens the SVC connection on bridge CPort 0, after which
 * the SVC drives everything else.  gb_hd_del() is an unplug: whatever
 * state the network is in, it cancels every operation, removes modules,
 * interfaces, bundles and connections, and returns once nothing uses the
 * host driver any more except for the references the driver itself holds.
 */
#include <linux/idr.h>
#include <linux/slab.h>

#include "internal.h"
#include "greybus_trace.h"

static DEFINE_IDA(gb_hd_bus_id_map);

static ssize_t bus_id_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct gb_host_device *hd = to_gb_host_device(dev);

	return sysfs_emit(buf, "%d\n", hd->bus_id);
}
static DEVICE_ATTR_RO(bus_id);

static ssize_t authorized_default_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	struct gb_host_device *hd = to_gb_host_device(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(hd->authorized_default));
}

static ssize_t authorized_default_store(struct device *dev,
					struct device_attribute *attr,
					const char *buf, size_t len)
{
	struct gb_host_device *hd = to_gb_host_device(dev);

	if (sysfs_streq(buf, "1"))
		gb_hd_set_authorized_default(hd, true);
	else if (sysfs_streq(buf, "0"))
		gb_hd_set_authorized_default(hd, false);
	else
		return -EINVAL;

	return len;
}
static DEVICE_ATTR_RW(authorized_default);

static struct attribute *gb_hd_attrs[] = {
	&dev_attr_authorized_default.attr,
	&dev_attr_bus_id.attr,
	NULL
};
ATTRIBUTE_GROUPS(gb_hd);

static void gb_hd_release(struct device *dev)
{
	struct gb_host_device *hd = to_gb_host_device(dev);

	trace_gb_hd_release(hd);
	if (hd->svc)
		gb_svc_put(hd->svc);
	ida_free(&gb_hd_bus_id_map, hd->bus_id);
	ida_destroy(&hd->cport_id_map);
	kfree(hd);
}

const struct device_type greybus_hd_type = {
	.name		= "greybus_host_device",
	.groups		= gb_hd_groups,
	.release	= gb_hd_release,
};
EXPORT_SYMBOL_NS_GPL(greybus_hd_type, GREYBUS);

/**
 * gb_hd_cport_reserve() - keep a bridge CPort away from allocation
 * @hd: the host device
 * @cport_id: the bridge CPort the host driver uses for itself
 *
 * Marks @cport_id as taken in @hd's CPort id map, so that no connection
 * gets it.  Meant for a host driver between gb_hd_create() and
 * gb_hd_add(); a driver with its own cport_allocate() callback keeps its
 * own map and needs no reservation.
 *
 * Context: Process context; may sleep (allocates with GFP_KERNEL).
 * Return: 0, -EINVAL if @cport_id is not below the host's number of
 * CPorts, -EBUSY if it is already taken, or -ENOMEM.
 */
int gb_hd_cport_reserve(struct gb_host_device *hd, u16 cport_id)
{
	int ret;

	if (cport_id >= hd->num_cports)
		return -EINVAL;

	ret = ida_alloc_range(&hd->cport_id_map, cport_id, cport_id,
			      GFP_KERNEL);
	if (ret < 0)
		return ret == -ENOSPC ? -EBUSY : ret;

	return 0;
}
EXPORT_SYMBOL_NS_GPL(gb_hd_cport_reserve, GREYBUS);

/**
 * gb_hd_cport_release_reserved() - give back a reserved bridge CPort
 * @hd: the host device
 * @cport_id: a CPort reserved with gb_hd_cport_reserve()
 *
 * Returns @cport_id to the pool connections are allocated from.
 *
 * Context: Any context.
 */
void gb_hd_cport_release_reserved(struct gb_host_device *hd, u16 cport_id)
{
	ida_free(&hd->cport_id_map, cport_id);
}
EXPORT_SYMBOL_NS_GPL(gb_hd_cport_release_reserved, GREYBUS);

/* @cport_id < 0: any CPort but 0, which belongs to the SVC */
int gb_hd_cport_allocate(struct gb_host_device *hd, int cport_id,
			 unsigned long flags)
{
	int ret;

	if (hd->driver->cport_allocate)
		return hd->driver->cport_allocate(hd, cport_id, flags);

	if (cport_id >= 0) {
		if (cport_id >= hd->num_cports)
			return -EINVAL;
		ret = ida_alloc_range(&hd->cport_id_map, cport_id, cport_id,
				      GFP_KERNEL);
		return ret == -ENOSPC ? -EBUSY : ret;
	}

	if (hd->num_cports < 2)
		return -ENOSPC;

	return ida_alloc_range(&hd->cport_id_map, 1, hd->num_cports - 1,
			       GFP_KERNEL);
}

void gb_hd_cport_release(struct gb_host_device *hd, u16 cport_id)
{
	if (hd->driver->cport_allocate) {
		if (hd->driver->cport_release)
			hd->driver->cport_release(hd, cport_id);
		return;
	}

	ida_free(&hd->cport_id_map, cport_id);
}

/**
 * gb_hd_create() - allocate a host device
 * @driver: the host driver's callbacks; must provide message_send()
 * @parent: the device of the bridge (USB interface, misc device, ...)
 * @buffer_size_max: the largest message, header included, the bridge
 *	can carry; at least a message header, limited to the 16-bit size
 *	field of the header
 * @num_cports: the number of bridge CPorts, 1 to 4096
 *
 * Allocates the host device, with @driver->hd_priv_size bytes of private
 * data for the host driver (gb_hd_priv()) and @driver->groups as extra
 * sysfs groups (created by gb_hd_add() before the add uevent, removed by
 * gb_hd_del()), names it greybusN after a
 * fresh bus id and creates its SVC.  Nothing is visible yet: the host
 * driver may reserve CPorts, then calls gb_hd_add().
 *
 * The caller owns the returned reference and drops it with gb_hd_put(),
 * after gb_hd_del() if the device was added.
 *
 * Context: Process context; sleeps.
 * Return: the host device, or an ERR_PTR(): -EINVAL for a bad argument,
 * -ENOMEM, or an error from allocating the bus id or the SVC.
 */
struct gb_host_device *gb_hd_create(const struct gb_hd_driver *driver,
				    struct device *parent,
				    size_t buffer_size_max,
				    size_t num_cports)
{
	struct gb_host_device *hd;
	struct gb_svc *svc;
	int ret;

	if (!driver->message_send) {
		dev_err(parent, "host driver without message_send\n");
		return ERR_PTR(-EINVAL);
	}
	if (buffer_size_max < GB_OPERATION_MSG_SIZE_MIN) {
		dev_err(parent, "buffer size %zu too small\n",
			buffer_size_max);
		return ERR_PTR(-EINVAL);
	}
	if (!num_cports || num_cports > GB_CPORT_ID_MAX + 1) {
		dev_err(parent, "invalid number of cports: %zu\n", num_cports);
		return ERR_PTR(-EINVAL);
	}
	/* The size field of a message has 16 bits */
	if (buffer_size_max > GB_OPERATION_MSG_SIZE_MAX) {
		dev_dbg(parent, "buffer size %zu limited to %d\n",
			buffer_size_max, GB_OPERATION_MSG_SIZE_MAX);
		buffer_size_max = GB_OPERATION_MSG_SIZE_MAX;
	}

	hd = kzalloc(sizeof(*hd) + driver->hd_priv_size, GFP_KERNEL);
	if (!hd)
		return ERR_PTR(-ENOMEM);

	ret = ida_alloc_min(&gb_hd_bus_id_map, 1, GFP_KERNEL);
	if (ret < 0)
		goto err_free_hd;
	hd->bus_id = ret;

	hd->driver = driver;
	hd->num_cports = num_cports;
	hd->buffer_size_max = buffer_size_max;
	hd->authorized_default = true;
	INIT_LIST_HEAD(&hd->modules);
	INIT_LIST_HEAD(&hd->connections);
	ida_init(&hd->cport_id_map);
	spin_lock_init(&hd->lock);

	hd->dev.parent = parent;
	hd->dev.bus = &greybus_bus_type;
	hd->dev.type = &greybus_hd_type;
	/* the driver's own files come with the device, before its uevent */
	hd->dev.groups = driver->groups;
	device_initialize(&hd->dev);
	/* From here on the release function undoes everything */

	ret = dev_set_name(&hd->dev, "greybus%d", hd->bus_id);
	if (ret)
		goto err_put_device;

	svc = gb_svc_create(hd);
	if (IS_ERR(svc)) {
		ret = PTR_ERR(svc);
		goto err_put_device;
	}
	hd->svc = svc;

	trace_gb_hd_create(hd);
	return hd;

err_put_device:
	put_device(&hd->dev);
	return ERR_PTR(ret);

err_free_hd:
	kfree(hd);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_NS_GPL(gb_hd_create, GREYBUS);

/**
 * gb_hd_add() - register a host device and start its SVC
 * @hd: a host device from gb_hd_create()
 *
 * Adds the greybusN device, its debugfs directory and its TimeSync
 * state, then creates and enables the static SVC connection on bridge
 * CPort 0: from then on the SVC may speak, and the core enumerates the
 * modules it reports, asynchronously.  The host driver must be ready to
 * send and receive messages before it calls this.
 *
 * Context: Process context; sleeps.
 * Return: 0, or a negative errno with everything it did undone (the
 * caller still owns its reference and drops it with gb_hd_put()).
 */
int gb_hd_add(struct gb_host_device *hd)
{
	int ret;

	ret = device_add(&hd->dev);
	if (ret)
		return ret;
	trace_gb_object_add(&hd->dev);
	trace_gb_hd_add(hd);
	gb_pm_follow_children(&hd->dev);

	gb_debugfs_hd_add(hd);

	ret = gb_timesync_hd_add(hd);
	if (ret)
		goto err_debugfs_del;

	ret = gb_svc_add(hd->svc);
	if (ret)
		goto err_timesync_del;

	return 0;

err_timesync_del:
	gb_timesync_hd_stop(hd);
	gb_timesync_hd_del(hd);
err_debugfs_del:
	gb_debugfs_hd_del(hd);
	gb_pm_stop(&hd->dev);
	trace_gb_hd_del(hd);
	trace_gb_object_del(&hd->dev);
	device_del(&hd->dev);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(gb_hd_add, GREYBUS);

/**
 * gb_hd_del() - tear down a host device added with gb_hd_add()
 * @hd: the host device
 *
 * Fails every operation of @hd, in flight or yet to be sent, with
 * -ESHUTDOWN, stops TimeSync, removes every module (their interfaces,
 * bundles and connections, unbinding the drivers) and the SVC, then
 * deletes the device.  The host driver must keep passing messages to
 * the core and completing the ones it was given until this returns; it
 * still holds its reference afterwards.
 *
 * Context: Process context; sleeps, possibly for as long as the drivers
 * being unbound take.
 */
void gb_hd_del(struct gb_host_device *hd)
{
	/*
	 * First make every operation, in flight or yet to be sent, fail at
	 * once: whatever is running (enumeration on the SVC workqueue, a
	 * driver's probe) then unwinds quickly instead of waiting for
	 * answers that will never come.
	 */
	gb_hd_cancel_operations(hd, -ESHUTDOWN);
	gb_timesync_hd_stop(hd);

	gb_svc_del(hd->svc);

	gb_timesync_hd_del(hd);
	gb_debugfs_hd_del(hd);
	gb_pm_stop(&hd->dev);
	trace_gb_hd_del(hd);
	trace_gb_object_del(&hd->dev);
	device_del(&hd->dev);
}
EXPORT_SYMBOL_NS_GPL(gb_hd_del, GREYBUS);

/**
 * gb_hd_put() - drop the host driver's reference to a host device
 * @hd: the host device
 *
 * The memory, the private data included, is freed once the core's own
 * references (the SVC, connections still finishing) are gone too.
 *
 * Context: Process context.
 */
void gb_hd_put(struct gb_host_device *hd)
{
	put_device(&hd->dev);
}
EXPORT_SYMBOL_NS_GPL(gb_hd_put, GREYBUS);

/**
 * gb_hd_set_authorized_default() - authorize new bundles, or hold them
 * @hd: the host device
 * @authorized: whether bundles registered from now on are authorized
 *
 * Bundles already registered keep their state (gb_hd_bundle_authorize()
 * or their authorized attribute changes it).
 *
 * Context: Any context.
 */
void gb_hd_set_authorized_default(struct gb_host_device *hd, bool authorized)
{
	WRITE_ONCE(hd->authorized_default, authorized);
}
EXPORT_SYMBOL_NS_GPL(gb_hd_set_authorized_default, GREYBUS);

void gb_hd_exit(void)
{
	ida_destroy(&gb_hd_bus_id_map);
}
