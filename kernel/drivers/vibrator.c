// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus vibrator (protocol 0x10): a motor the module switches on and
 * off.  Two ways in:
 *   - /sys/class/vibrator/vibratorN/timeout, as Linux's driver has it:
 *     write N ms to run the motor that long (a new write re-arms), 0 to
 *     stop it;
 *   - an input device with FF_RUMBLE, so that force-feedback clients
 *     drive it: an effect playing means on, stopping it means off.
 *
 * ON carries no payload: the AP times the pulse with a delayed work item
 * that sends OFF.  While the motor runs the driver holds a runtime-PM
 * reference on the bundle, so the bundle is resumed before ON and may
 * suspend once OFF has been sent.  Removal and suspend stop the motor.
 */
#include <linux/idr.h>
#include <linux/input.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <greybus/greybus.h>
#include <uapi/greybus/vibrator.h>

struct gb_vibrator {
	struct gb_bundle	*bundle;
	struct gb_connection	*connection;
	struct device		*dev;		/* vibratorN */
	struct input_dev	*input;
	int			minor;

	/*
	 * @lock serialises ON/OFF and protects @on and @gone.  @on means
	 * the motor runs and the runtime-PM reference is held.
	 */
	struct mutex		lock;
	bool			on;
	bool			gone;		/* being removed */
	struct delayed_work	off_work;	/* the end of a timed pulse */

	/* FF play runs in atomic context: the wire work is deferred */
	struct work_struct	ff_work;
	bool			ff_on;		/* wanted state, atomic access */
};

static struct class gb_vibrator_class = {
	.name	= "vibrator",
};

static DEFINE_IDA(gb_vibrator_minors);

static int gb_vibrator_send(struct gb_vibrator *vib, u8 type)
{
	return gb_operation_sync(vib->connection, type, NULL, 0, NULL, 0);
}

/* Called with @lock held; the motor is on */
static void gb_vibrator_stop_locked(struct gb_vibrator *vib)
{
	int ret;

	ret = gb_vibrator_send(vib, GB_VIBRATOR_TYPE_OFF);
	if (ret && ret != -ESHUTDOWN)
		dev_err_ratelimited(&vib->bundle->dev, "failed to turn off: %d\n",
				    ret);
	/* Off or not, the module is left alone: no retry, the ref goes */
	vib->on = false;
	gb_pm_runtime_put_autosuspend(vib->bundle);
}

/*
 * Motor on; off after @ms milliseconds unless re-armed, or not at all
 * when @ms is 0 (an FF effect, stopped by its client).
 */
static int gb_vibrator_start(struct gb_vibrator *vib, unsigned int ms)
{
	int ret;

	/*
	 * Resumed before @lock is taken: the suspend callback takes it, and
	 * a resume waits for a suspend in progress.
	 */
	ret = gb_pm_runtime_get_sync(vib->bundle);
	if (ret)
		return ret;

	mutex_lock(&vib->lock);
	if (vib->gone) {
		ret = -ENODEV;
		goto err_put;
	}

	if (vib->on) {
		/* Running: it holds a reference already */
		gb_pm_runtime_put_autosuspend(vib->bundle);
	} else {
		ret = gb_vibrator_send(vib, GB_VIBRATOR_TYPE_ON);
		if (ret) {
			dev_err_ratelimited(&vib->bundle->dev, "failed to turn on: %d\n",
					    ret);
			goto err_put;
		}
		vib->on = true;		/* keeps the reference */
	}

	if (ms)
		mod_delayed_work(system_wq, &vib->off_work,
				 msecs_to_jiffies(ms));
	else
		cancel_delayed_work(&vib->off_work);
	mutex_unlock(&vib->lock);

	return 0;

err_put:
	mutex_unlock(&vib->lock);
	gb_pm_runtime_put_autosuspend(vib->bundle);
	return ret;
}

static void gb_vibrator_off_work(struct work_struct *work)
{
	struct gb_vibrator *vib = container_of(to_delayed_work(work),
					       struct gb_vibrator, off_work);

	mutex_lock(&vib->lock);
	if (vib->on)
		gb_vibrator_stop_locked(vib);
	mutex_unlock(&vib->lock);
}

/* Off now; nothing pending afterwards */
static void gb_vibrator_stop(struct gb_vibrator *vib)
{
	cancel_delayed_work_sync(&vib->off_work);

	mutex_lock(&vib->lock);
	cancel_delayed_work(&vib->off_work);	/* re-armed meanwhile */
	if (vib->on)
		gb_vibrator_stop_locked(vib);
	mutex_unlock(&vib->lock);
}

static ssize_t timeout_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct gb_vibrator *vib = dev_get_drvdata(dev);
	unsigned int ms;
	int ret;

	ret = kstrtouint(buf, 10, &ms);
	if (ret)
		return ret;
	/* The protocol once carried it as le16: keep the same range */
	if (ms > U16_MAX)
		return -EINVAL;

	if (!ms) {
		gb_vibrator_stop(vib);
		return count;
	}

	ret = gb_vibrator_start(vib, ms);

	return ret ? ret : count;
}
static DEVICE_ATTR_WO(timeout);

static struct attribute *gb_vibrator_attrs[] = {
	&dev_attr_timeout.attr,
	NULL,
};
ATTRIBUTE_GROUPS(gb_vibrator);

static void gb_vibrator_ff_work(struct work_struct *work)
{
	struct gb_vibrator *vib = container_of(work, struct gb_vibrator,
					       ff_work);

	if (READ_ONCE(vib->ff_on))
		gb_vibrator_start(vib, 0);
	else
		gb_vibrator_stop(vib);
}

/* ff-memless times the effect and calls this at its start and end */
static int gb_vibrator_ff_play(struct input_dev *input, void *data,
			       struct ff_effect *effect)
{
	struct gb_vibrator *vib = input_get_drvdata(input);
	bool on = effect->u.rumble.strong_magnitude ||
		  effect->u.rumble.weak_magnitude;

	WRITE_ONCE(vib->ff_on, on);
	schedule_work(&vib->ff_work);

	return 0;
}

static int gb_vibrator_input_init(struct gb_vibrator *vib)
{
	struct input_dev *input;
	int ret;

	input = input_allocate_device();
	if (!input)
		return -ENOMEM;

	input->name = "Greybus vibrator";
	input->phys = dev_name(&vib->bundle->dev);
	input->id.bustype = BUS_VIRTUAL;
	input->dev.parent = &vib->bundle->dev;
	input_set_drvdata(input, vib);
	input_set_capability(input, EV_FF, FF_RUMBLE);

	ret = input_ff_create_memless(input, NULL, gb_vibrator_ff_play);
	if (ret)
		goto err_free;

	ret = input_register_device(input);
	if (ret)
		goto err_free;	/* frees the ff state too */

	vib->input = input;

	return 0;

err_free:
	input_free_device(input);
	return ret;
}

static int gb_vibrator_probe(struct gb_bundle *bundle,
			     const struct greybus_bundle_id *id)
{
	struct greybus_descriptor_cport *cport_desc;
	struct gb_connection *connection;
	struct gb_vibrator *vib;
	int ret;

	if (bundle->num_cports != 1)
		return -ENODEV;
	cport_desc = &bundle->cport_desc[0];
	if (cport_desc->protocol_id != GREYBUS_PROTOCOL_VIBRATOR)
		return -ENODEV;

	vib = kzalloc(sizeof(*vib), GFP_KERNEL);
	if (!vib)
		return -ENOMEM;

	vib->bundle = bundle;
	mutex_init(&vib->lock);
	INIT_DELAYED_WORK(&vib->off_work, gb_vibrator_off_work);
	INIT_WORK(&vib->ff_work, gb_vibrator_ff_work);

	connection = gb_connection_create(bundle, le16_to_cpu(cport_desc->id),
					  NULL);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_free;
	}
	gb_connection_set_data(connection, vib);
	vib->connection = connection;
	greybus_set_drvdata(bundle, vib);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy_connection;

	vib->minor = ida_alloc(&gb_vibrator_minors, GFP_KERNEL);
	if (vib->minor < 0) {
		ret = vib->minor;
		goto err_disable_connection;
	}

	vib->dev = device_create_with_groups(&gb_vibrator_class, &bundle->dev,
					     MKDEV(0, 0), vib,
					     gb_vibrator_groups,
					     "vibrator%d", vib->minor);
	if (IS_ERR(vib->dev)) {
		ret = PTR_ERR(vib->dev);
		goto err_free_minor;
	}

	ret = gb_vibrator_input_init(vib);
	if (ret)
		goto err_destroy_device;

	return 0;

err_destroy_device:
	device_unregister(vib->dev);
err_free_minor:
	ida_free(&gb_vibrator_minors, vib->minor);
err_disable_connection:
	gb_connection_disable(connection);
err_destroy_connection:
	gb_connection_destroy(connection);
err_free:
	kfree(vib);
	return ret;
}

static void gb_vibrator_disconnect(struct gb_bundle *bundle)
{
	struct gb_vibrator *vib = greybus_get_drvdata(bundle);

	/* No new user: both ways in go first (sysfs writers are waited for) */
	input_unregister_device(vib->input);
	device_unregister(vib->dev);

	mutex_lock(&vib->lock);
	vib->gone = true;
	mutex_unlock(&vib->lock);

	cancel_work_sync(&vib->ff_work);
	gb_vibrator_stop(vib);

	ida_free(&gb_vibrator_minors, vib->minor);
	gb_connection_disable(vib->connection);
	gb_connection_destroy(vib->connection);
	kfree(vib);
}

/*
 * The bundle suspends (system sleep; at run time the reference the motor
 * holds prevents it): the motor stops and the pending OFF is dropped.
 * An FF request queued meanwhile is not waited for: it resumes the
 * bundle, which waits for this callback.
 */
static int gb_vibrator_suspend(struct device *dev)
{
	struct gb_vibrator *vib = greybus_get_drvdata(to_gb_bundle(dev));

	cancel_delayed_work_sync(&vib->off_work);

	mutex_lock(&vib->lock);
	if (vib->on) {
		if (gb_vibrator_send(vib, GB_VIBRATOR_TYPE_OFF))
			dev_err_ratelimited(dev, "failed to turn off for suspend\n");
		vib->on = false;
		/* Within a PM callback: only the count may change */
		pm_runtime_put_noidle(dev);
	}
	mutex_unlock(&vib->lock);

	return 0;
}

static const struct dev_pm_ops gb_vibrator_pm_ops = {
	SET_RUNTIME_PM_OPS(gb_vibrator_suspend, NULL, NULL)
};

static const struct greybus_bundle_id gb_vibrator_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_VIBRATOR) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_vibrator_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_VIBRATOR);

static struct greybus_driver gb_vibrator_driver = {
	.name		= "gb-vibrator",
	.probe		= gb_vibrator_probe,
	.disconnect	= gb_vibrator_disconnect,
	.id_table	= gb_vibrator_id_table,
	.driver.pm	= &gb_vibrator_pm_ops,
};

static int __init gb_vibrator_init(void)
{
	int ret;

	ret = class_register(&gb_vibrator_class);
	if (ret)
		return ret;

	ret = greybus_register(&gb_vibrator_driver);
	if (ret)
		goto err_class_unregister;

	return 0;

err_class_unregister:
	class_unregister(&gb_vibrator_class);
	return ret;
}
module_init(gb_vibrator_init);

static void __exit gb_vibrator_exit(void)
{
	greybus_deregister(&gb_vibrator_driver);
	class_unregister(&gb_vibrator_class);
	ida_destroy(&gb_vibrator_minors);
}
module_exit(gb_vibrator_exit);

MODULE_DESCRIPTION("Greybus vibrator driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
