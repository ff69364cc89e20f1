// SPDX-License-Identifier: GPL-2.0
/*
 * Power management of the Greybus tree: runtime PM of bundles and
 * interfaces (with autosuspend), the host device and modules following
 * their children, and system sleep.
 *
 * References: a bound bundle's usage count is held by the core across
 * probe and remove and by its driver around the operations it sends
 * (gb_pm_runtime_get_sync()/gb_pm_runtime_put_autosuspend()) and while
 * an incoming request is handled.  A bundle that is active keeps its
 * interface active (child count); an active interface keeps its module
 * and host device active.  Unbound bundles have runtime PM disabled:
 * they are deactivated and never counted.
 *
 * On the wire: a bundle suspends with Control bundle_suspend and resumes
 * with bundle_resume.  An interface whose bundles are all suspended
 * suspends with Control intf_suspend_prepare then SVC set power mode
 * (hibernate), and resumes with SVC intf_resume.  Any error from the
 * module aborts a suspend with -EBUSY, which runtime PM treats as "stay
 * active" without recording an error, so the device remains usable; a
 * bundle suspend left unanswered is followed by a resume, an interface
 * suspend prepare left unanswered by a hibernate abort, in case the
 * module did act on them.
 * Nothing is sent to an interface that is gone.
 *
 * System sleep: the far end of a host device may be a userspace process
 * (gb-vhd), which the freezer stops before devices are suspended.  So the
 * tree is suspended from the PM notifier, while tasks still run, and
 * resumed from it after thawing; the SVC watchdog pauses meanwhile.
 */
#include <linux/device.h>
#include <linux/pm_runtime.h>
#include <linux/suspend.h>

#include "internal.h"

static const struct dev_pm_ops *gb_driver_pm(struct device *dev)
{
	return dev->driver ? dev->driver->pm : NULL;
}

/*
 * A suspend that got no answer may still have reached the module, which
 * would then refuse the bundle's traffic while we keep it active.  A
 * resume, queued behind the suspend on the same connection, makes both
 * ends agree again; "not suspended" (-ENOMSG) means the suspend never
 * arrived, which is as good.
 */
static void gb_bundle_undo_lost_suspend(struct gb_bundle *bundle)
{
	int ret;

	ret = gb_control_bundle_resume(bundle->intf->control, bundle->id);
	if (ret && ret != -ENOMSG && ret != -ESHUTDOWN)
		dev_err_ratelimited(&bundle->dev,
				    "state unknown after a lost suspend: resume failed: %d\n",
				    ret);
}

static int gb_bundle_runtime_suspend(struct device *dev)
{
	const struct dev_pm_ops *pm = gb_driver_pm(dev);
	struct gb_bundle *bundle = to_gb_bundle(dev);
	struct gb_interface *intf = bundle->intf;
	int ret;

	if (pm && pm->runtime_suspend) {
		ret = pm->runtime_suspend(dev);
		if (ret)
			return -EBUSY;
	}

	if (READ_ONCE(intf->disconnected) || !intf->control)
		return 0;

	ret = gb_control_bundle_suspend(intf->control, bundle->id);
	if (ret) {
		if (ret == -ESHUTDOWN)
			return 0;
		dev_info_ratelimited(dev, "suspend refused (%d): staying active\n",
				     ret);
		if (ret == -ETIMEDOUT)
			gb_bundle_undo_lost_suspend(bundle);
		if (pm && pm->runtime_resume)
			pm->runtime_resume(dev);
		return -EBUSY;
	}

	return 0;
}

static int gb_bundle_runtime_resume(struct device *dev)
{
	const struct dev_pm_ops *pm = gb_driver_pm(dev);
	struct gb_bundle *bundle = to_gb_bundle(dev);
	struct gb_interface *intf = bundle->intf;
	int ret;

	if (!READ_ONCE(intf->disconnected) && intf->control) {
		ret = gb_control_bundle_resume(intf->control, bundle->id);
		if (ret && ret != -ESHUTDOWN)
			return ret;
	}

	if (pm && pm->runtime_resume)
		return pm->runtime_resume(dev);

	return 0;
}

const struct dev_pm_ops gb_bundle_pm_ops = {
	SET_RUNTIME_PM_OPS(gb_bundle_runtime_suspend, gb_bundle_runtime_resume,
			   NULL)
};

static int gb_interface_runtime_suspend(struct device *dev)
{
	struct gb_interface *intf = to_gb_interface(dev);
	int ret;

	if (READ_ONCE(intf->disconnected) || !intf->control)
		return 0;

	ret = gb_control_intf_suspend_prepare(intf->control);
	if (ret) {
		/* Unanswered, it may have prepared: call hibernation off */
		if (ret == -ETIMEDOUT)
			gb_control_intf_hibernate_abort(intf->control);
		goto err_busy;
	}

	ret = gb_svc_intf_set_power_mode_hibernate(intf->hd->svc,
						   intf->interface_id);
	if (ret) {
		gb_control_intf_hibernate_abort(intf->control);
		goto err_busy;
	}

	return 0;

err_busy:
	if (ret == -ESHUTDOWN)
		return 0;
	dev_info_ratelimited(dev, "suspend refused (%d): staying active\n", ret);
	return -EBUSY;
}

static int gb_interface_runtime_resume(struct device *dev)
{
	struct gb_interface *intf = to_gb_interface(dev);
	int ret;

	if (READ_ONCE(intf->disconnected) || !intf->control)
		return 0;

	ret = gb_svc_intf_resume(intf->hd->svc, intf->interface_id);
	if (ret == -ESHUTDOWN)
		return 0;
	if (ret)
		return ret;

	/* Hibernation lost the FrameTime; the interface works without it */
	ret = gb_timesync_schedule_synchronous(intf);
	if (ret && ret != -ESHUTDOWN)
		dev_err_ratelimited(dev, "failed to restore TimeSync: %d\n",
				    ret);

	return 0;
}

const struct dev_pm_ops gb_interface_pm_ops = {
	SET_RUNTIME_PM_OPS(gb_interface_runtime_suspend,
			   gb_interface_runtime_resume, NULL)
};

/*
 * Runtime PM on, the device active: its parent (when it counts children)
 * is held awake meanwhile, since an active child needs an active parent.
 */
static void gb_pm_enable_active(struct device *dev)
{
	struct device *parent = dev->parent;
	bool hold = parent && pm_runtime_enabled(parent);

	if (hold)
		pm_runtime_get_sync(parent);
	pm_runtime_set_active(dev);
	pm_runtime_enable(dev);
	if (hold)
		pm_runtime_put(parent);
}

/*
 * Host devices and modules only follow their children: they are
 * "suspended" when everything below them is.
 */
void gb_pm_follow_children(struct device *dev)
{
	pm_runtime_no_callbacks(dev);
	gb_pm_enable_active(dev);
	pm_request_idle(dev);
}

void gb_pm_stop(struct device *dev)
{
	pm_runtime_disable(dev);
	pm_runtime_set_suspended(dev);
}

/*
 * Called with intf->mutex held once the control connection works and
 * before the bundles are added; the caller's reference (dropped with
 * gb_interface_pm_put()) keeps the interface awake until then.
 */
void gb_interface_pm_start(struct gb_interface *intf)
{
	struct device *dev = &intf->dev;

	pm_runtime_set_autosuspend_delay(dev, GB_INTERFACE_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_get_noresume(dev);
	gb_pm_enable_active(dev);
}

/* Before the interface is disabled: awake for the messages to come */
void gb_interface_pm_stop(struct gb_interface *intf)
{
	struct device *dev = &intf->dev;

	if (!pm_runtime_enabled(dev))
		return;

	pm_runtime_get_sync(dev);
	pm_runtime_disable(dev);
	pm_runtime_put_noidle(dev);
}

/* The interface is disabled: its bundles are gone, it counts no more */
void gb_interface_pm_finish(struct gb_interface *intf)
{
	pm_runtime_set_suspended(&intf->dev);
}

void gb_interface_pm_put(struct gb_interface *intf)
{
	pm_runtime_mark_last_busy(&intf->dev);
	pm_runtime_put_autosuspend(&intf->dev);
}

/* System sleep */

static int gb_pm_suspend_bundle(struct device *dev, void *data)
{
	struct gb_bundle *bundle;

	if (!is_gb_bundle(dev))
		return 0;

	bundle = to_gb_bundle(dev);
	device_lock(dev);
	if (dev->driver && pm_runtime_enabled(dev) &&
	    !pm_runtime_force_suspend(dev))
		bundle->sleeping = true;
	device_unlock(dev);

	return 0;
}

static int gb_pm_resume_bundle(struct device *dev, void *data)
{
	struct gb_bundle *bundle;

	if (!is_gb_bundle(dev))
		return 0;

	bundle = to_gb_bundle(dev);
	device_lock(dev);
	if (bundle->sleeping) {
		bundle->sleeping = false;
		pm_runtime_force_resume(dev);
	}
	device_unlock(dev);

	return 0;
}

static int gb_pm_suspend_interface(struct device *dev, void *data)
{
	struct gb_interface *intf;

	if (!is_gb_interface(dev))
		return 0;

	intf = to_gb_interface(dev);
	mutex_lock(&intf->mutex);
	if (intf->enabled && pm_runtime_enabled(dev) &&
	    !pm_runtime_force_suspend(dev))
		intf->sleeping = true;
	mutex_unlock(&intf->mutex);

	return 0;
}

static int gb_pm_resume_interface(struct device *dev, void *data)
{
	struct gb_interface *intf;

	if (!is_gb_interface(dev))
		return 0;

	intf = to_gb_interface(dev);
	mutex_lock(&intf->mutex);
	if (intf->sleeping) {
		intf->sleeping = false;
		pm_runtime_force_resume(dev);
	}
	mutex_unlock(&intf->mutex);

	return 0;
}

static int gb_pm_watchdog_pause(struct device *dev, void *data)
{
	if (is_gb_svc(dev))
		gb_svc_watchdog_pause(to_gb_svc(dev), *(bool *)data);

	return 0;
}

static int gb_pm_notify(struct notifier_block *nb, unsigned long event,
			void *unused)
{
	bool pause;

	switch (event) {
	case PM_SUSPEND_PREPARE:
	case PM_HIBERNATION_PREPARE:
		pause = true;
		bus_for_each_dev(&greybus_bus_type, NULL, &pause,
				 gb_pm_watchdog_pause);
		bus_for_each_dev(&greybus_bus_type, NULL, NULL,
				 gb_pm_suspend_bundle);
		bus_for_each_dev(&greybus_bus_type, NULL, NULL,
				 gb_pm_suspend_interface);
		break;
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
		bus_for_each_dev(&greybus_bus_type, NULL, NULL,
				 gb_pm_resume_interface);
		bus_for_each_dev(&greybus_bus_type, NULL, NULL,
				 gb_pm_resume_bundle);
		pause = false;
		bus_for_each_dev(&greybus_bus_type, NULL, &pause,
				 gb_pm_watchdog_pause);
		break;
	}

	return NOTIFY_DONE;
}

static struct notifier_block gb_pm_notifier = {
	.notifier_call = gb_pm_notify,
};

int gb_pm_init(void)
{
	return register_pm_notifier(&gb_pm_notifier);
}

void gb_pm_exit(void)
{
	unregister_pm_notifier(&gb_pm_notifier);
}
