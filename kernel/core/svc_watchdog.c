// SPDX-License-Identifier: GPL-2.0
/*
 * The SVC watchdog: while enabled ("N-svc/watchdog", on by default), the
 * AP pings the SVC every GB_SVC_WATCHDOG_PERIOD_MS.  A ping that fails
 * "bites": with the "reset" action the watchdog turns itself off (until
 * userspace turns it on again) and the Greybus network is reset if the
 * host driver can reset it (else it is left as it is), with "panic" the
 * kernel panics.
 *
 * A network reset runs on the SVC's ordered workqueue, so that no module
 * event is handled at the same time: every module is removed, the SVC's
 * protocol state goes back to "reset", and the host driver is asked to
 * reset the network.  The SVC then says version and hello again (the
 * "N-svc" device stays registered throughout) and reports its modules,
 * which are enumerated as usual.
 */
#include <linux/kernel.h>
#include <linux/workqueue.h>

#include "internal.h"

static void gb_svc_watchdog_schedule_locked(struct gb_svc *svc)
{
	lockdep_assert_held(&svc->lock);

	if (svc->watchdog_enabled && !svc->watchdog_stopped &&
	    READ_ONCE(svc->state) == GB_SVC_STATE_SVC_HELLO)
		schedule_delayed_work(&svc->watchdog_work,
				      msecs_to_jiffies(GB_SVC_WATCHDOG_PERIOD_MS));
}

static void gb_svc_watchdog_bite(struct gb_svc *svc, int ret)
{
	if (READ_ONCE(svc->action) == GB_SVC_WATCHDOG_BITE_PANIC_KERNEL) {
		dev_emerg(&svc->dev, "watchdog: ping failed: %d\n", ret);
		panic("SVC is not responding\n");
	}

	/* Off until userspace wants it again (svc->lock held) */
	svc->watchdog_enabled = false;

	/*
	 * Removing every module is worth it only if the host driver can
	 * make the SVC start over and report them again; without a reset
	 * (gb-es2: a real bridge's SVC cannot be reset over USB) nothing
	 * would bring them back, while a late SVC may still serve them.
	 */
	if (!svc->hd->driver->reset) {
		dev_err(&svc->dev, "watchdog: ping failed: %d; the host driver cannot reset the network, so it stays as it is\n",
			ret);
		return;
	}

	dev_err(&svc->dev, "watchdog: ping failed: %d, resetting the Greybus network\n",
		ret);
	if (!svc->resetting) {
		svc->resetting = true;
		queue_work(svc->wq, &svc->reset_work);
	}
}

static void gb_svc_watchdog_work(struct work_struct *work)
{
	struct gb_svc *svc = container_of(to_delayed_work(work), struct gb_svc,
					  watchdog_work);
	int ret;

	ret = gb_svc_ping(svc);

	mutex_lock(&svc->lock);
	/*
	 * A ping that failed because the host device is going away, or was
	 * sent while the watchdog was being turned off, says nothing about
	 * the SVC.
	 */
	if (ret && svc->watchdog_enabled && !svc->watchdog_stopped &&
	    !READ_ONCE(svc->hd->removing) && !READ_ONCE(svc->removing))
		gb_svc_watchdog_bite(svc, ret);
	else
		gb_svc_watchdog_schedule_locked(svc);
	mutex_unlock(&svc->lock);
}

static void gb_svc_reset_work(struct work_struct *work)
{
	struct gb_svc *svc = container_of(work, struct gb_svc, reset_work);
	struct gb_host_device *hd = svc->hd;
	int ret;

	if (READ_ONCE(svc->removing))
		goto out;

	dev_info(&svc->dev, "resetting the Greybus network\n");

	gb_svc_network_teardown(svc);

	/* Only queued when the host driver has a reset (the bite) */
	ret = hd->driver->reset(hd);
	if (ret)
		dev_err(&svc->dev, "host driver failed to reset the network: %d\n",
			ret);
out:
	mutex_lock(&svc->lock);
	svc->resetting = false;
	mutex_unlock(&svc->lock);
}

void gb_svc_watchdog_init(struct gb_svc *svc)
{
	INIT_DELAYED_WORK(&svc->watchdog_work, gb_svc_watchdog_work);
	INIT_WORK(&svc->reset_work, gb_svc_reset_work);
	svc->watchdog_enabled = true;
	svc->action = GB_SVC_WATCHDOG_BITE_RESET_UNIPRO;
}

/* The SVC said hello: the pings start if the watchdog is enabled */
void gb_svc_watchdog_start(struct gb_svc *svc)
{
	mutex_lock(&svc->lock);
	gb_svc_watchdog_schedule_locked(svc);
	mutex_unlock(&svc->lock);
}

/* For good: the host device is going away */
void gb_svc_watchdog_stop(struct gb_svc *svc)
{
	mutex_lock(&svc->lock);
	svc->watchdog_stopped = true;
	mutex_unlock(&svc->lock);

	cancel_delayed_work_sync(&svc->watchdog_work);
}

bool gb_svc_watchdog_get(struct gb_svc *svc)
{
	bool enabled;

	mutex_lock(&svc->lock);
	enabled = svc->watchdog_enabled;
	mutex_unlock(&svc->lock);

	return enabled;
}

int gb_svc_watchdog_set(struct gb_svc *svc, bool enable)
{
	int ret = 0;

	mutex_lock(&svc->lock);
	if (svc->watchdog_stopped) {
		ret = -ENODEV;
	} else if (enable != svc->watchdog_enabled) {
		svc->watchdog_enabled = enable;
		if (enable)
			gb_svc_watchdog_schedule_locked(svc);
	}
	mutex_unlock(&svc->lock);

	/*
	 * Turned off: a ping already scheduled finds it off and does not
	 * re-arm; one in flight is not waited for (it may take as long as
	 * its timeout) and does not bite.
	 */
	if (!ret && !enable)
		cancel_delayed_work(&svc->watchdog_work);

	return ret;
}

/*
 * System sleep: the SVC (a userspace simulator, possibly) is frozen and
 * cannot answer pings; the watchdog is off until the system is back.
 */
void gb_svc_watchdog_pause(struct gb_svc *svc, bool pause)
{
	if (pause) {
		svc->watchdog_paused = gb_svc_watchdog_get(svc);
		if (svc->watchdog_paused)
			gb_svc_watchdog_set(svc, false);
	} else if (svc->watchdog_paused) {
		svc->watchdog_paused = false;
		gb_svc_watchdog_set(svc, true);
	}
}
