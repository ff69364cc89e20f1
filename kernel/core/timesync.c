// SPDX-License-Identifier: GPL-2.0
/*
 * TimeSync: the AP, the SVC and the interfaces with the TimeSync feature
 * agree on one FrameTime.  A run, on system_long_wq, arms every
 * participant (Control and the bridge), has the SVC emit a series of
 * strobes that everybody latches, hands the SVC's FrameTimes of the
 * strobes to every participant, then checks the result with a ping.  The
 * AP's own FrameTime is the SVC's value at one strobe plus the time its
 * bridge latched since, so conversions need no wire traffic.
 *
 * Runs are requested on membership changes (asynchronously) and on an
 * interface's runtime resume and enable (synchronously, retried up to
 * GB_TIMESYNC_MAX_RETRIES times).  The work starts
 * GB_TIMESYNC_START_DELAY_MS after the request; one run serves
 * every request made before it started.  Locking: timesync_priv.h.
 */
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>

#include <greybus/compat.h>

#include "timesync_priv.h"

/* 19.2 MHz: ticks = ns * 12 / 625 */
#define GB_TIMESYNC_TICKS_MUL		12
#define GB_TIMESYNC_NS_MUL		625

static const char *const gb_timesync_state_names[] = {
	[GB_TIMESYNC_STATE_INVALID]		= "invalid",
	[GB_TIMESYNC_STATE_INACTIVE]		= "inactive",
	[GB_TIMESYNC_STATE_INIT]		= "init",
	[GB_TIMESYNC_STATE_WAIT_SVC]		= "wait_svc",
	[GB_TIMESYNC_STATE_AUTHORITATIVE]	= "authoritative",
	[GB_TIMESYNC_STATE_PING]		= "ping",
	[GB_TIMESYNC_STATE_ACTIVE]		= "active",
};

const char *gb_timesync_state_name(enum gb_timesync_state state)
{
	if (state >= ARRAY_SIZE(gb_timesync_state_names))
		return "?";

	return gb_timesync_state_names[state];
}

/**
 * gb_timesync_ns_to_ticks() - nanoseconds to FrameTime ticks
 * @ns: a duration in nanoseconds
 *
 * Context: Any context.
 * Return: @ns in ticks of the 19.2 MHz FrameTime clock, rounded down.
 */
u64 gb_timesync_ns_to_ticks(u64 ns)
{
	BUILD_BUG_ON((u64)GB_TIMESYNC_REFCLK_HZ * GB_TIMESYNC_NS_MUL !=
		     (u64)NSEC_PER_SEC * GB_TIMESYNC_TICKS_MUL);

	return mul_u64_u32_div(ns, GB_TIMESYNC_TICKS_MUL, GB_TIMESYNC_NS_MUL);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_ns_to_ticks, GREYBUS);

/**
 * gb_timesync_ticks_to_ns() - FrameTime ticks to nanoseconds
 * @ticks: a duration in FrameTime ticks
 *
 * Context: Any context.
 * Return: @ticks in nanoseconds, rounded down.
 */
u64 gb_timesync_ticks_to_ns(u64 ticks)
{
	return mul_u64_u32_div(ticks, GB_TIMESYNC_NS_MUL, GB_TIMESYNC_TICKS_MUL);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_ticks_to_ns, GREYBUS);

/**
 * gb_timesync_ns_to_ft() - a clock reading moved onto the FrameTime
 * @ns: the reading, in nanoseconds of the AP's clock
 * @anchor_ns: the AP's clock at the anchor
 * @anchor_ft: the FrameTime at the same instant
 *
 * Only the distance from the anchor is scaled, so a reading long after
 * the last synchronisation loses no more than one tick to rounding.
 *
 * Context: Any context.
 * Return: the FrameTime at @ns.
 */
u64 gb_timesync_ns_to_ft(u64 ns, u64 anchor_ns, u64 anchor_ft)
{
	if (ns >= anchor_ns)
		return anchor_ft + gb_timesync_ns_to_ticks(ns - anchor_ns);
	return anchor_ft - gb_timesync_ns_to_ticks(anchor_ns - ns);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_ns_to_ft, GREYBUS);

/**
 * gb_timesync_ft_to_ns() - a FrameTime moved onto the AP's clock
 * @frame_time: the FrameTime
 * @anchor_ft: the FrameTime at the anchor
 * @anchor_ns: the AP's clock, in nanoseconds, at the same instant
 *
 * The inverse of gb_timesync_ns_to_ft(), scaling only the distance from
 * the anchor as well.
 *
 * Context: Any context.
 * Return: the AP's clock, in nanoseconds, at @frame_time.
 */
u64 gb_timesync_ft_to_ns(u64 frame_time, u64 anchor_ft, u64 anchor_ns)
{
	if (frame_time >= anchor_ft)
		return anchor_ns + gb_timesync_ticks_to_ns(frame_time - anchor_ft);
	return anchor_ns - gb_timesync_ticks_to_ns(anchor_ft - frame_time);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_ft_to_ns, GREYBUS);

static struct gb_timesync *gb_timesync_of(struct gb_host_device *hd)
{
	return hd ? READ_ONCE(hd->timesync) : NULL;
}

static void gb_timesync_set_state(struct gb_timesync *ts,
				  enum gb_timesync_state state)
{
	unsigned long flags;

	spin_lock_irqsave(&ts->lock, flags);
	ts->state = state;
	spin_unlock_irqrestore(&ts->lock, flags);
}

/* Conversions, under ts->lock */

static int gb_timesync_ns_to_ft_locked(struct gb_timesync *ts, u64 ns,
				       u64 *frame_time)
{
	if (!ts->synced)
		return -EAGAIN;

	*frame_time = gb_timesync_ns_to_ft(ns, ts->anchor_ns, ts->anchor_ft);
	return 0;
}

static int gb_timesync_ft_to_ns_locked(struct gb_timesync *ts, u64 frame_time,
				       u64 *ns)
{
	if (!ts->synced)
		return -EAGAIN;

	*ns = gb_timesync_ft_to_ns(frame_time, ts->anchor_ft, ts->anchor_ns);
	return 0;
}

/**
 * gb_timesync_from_ktime() - the FrameTime at a CLOCK_MONOTONIC time
 * @hd: the host device whose FrameTime is meant
 * @kt: the time
 * @frame_time: where the FrameTime goes
 *
 * Uses the anchor of the last synchronisation, under the TimeSync lock.
 *
 * Context: Any context.
 * Return: 0; -EAGAIN while not synchronised (@frame_time untouched);
 * -ENODEV if @hd has no TimeSync state (not added, or being deleted).
 */
int gb_timesync_from_ktime(struct gb_host_device *hd, ktime_t kt,
			   u64 *frame_time)
{
	struct gb_timesync *ts = gb_timesync_of(hd);
	unsigned long flags;
	int ret;

	if (!ts)
		return -ENODEV;

	spin_lock_irqsave(&ts->lock, flags);
	ret = gb_timesync_ns_to_ft_locked(ts, ktime_to_ns(kt), frame_time);
	spin_unlock_irqrestore(&ts->lock, flags);

	return ret;
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_from_ktime, GREYBUS);

/**
 * gb_timesync_to_ktime() - the CLOCK_MONOTONIC time at a FrameTime
 * @hd: the host device whose FrameTime is meant
 * @frame_time: the FrameTime
 * @kt: where the time goes
 *
 * Context: Any context.
 * Return: as gb_timesync_from_ktime().
 */
int gb_timesync_to_ktime(struct gb_host_device *hd, u64 frame_time,
			 ktime_t *kt)
{
	struct gb_timesync *ts = gb_timesync_of(hd);
	unsigned long flags;
	u64 ns;
	int ret;

	if (!ts)
		return -ENODEV;

	spin_lock_irqsave(&ts->lock, flags);
	ret = gb_timesync_ft_to_ns_locked(ts, frame_time, &ns);
	spin_unlock_irqrestore(&ts->lock, flags);
	if (!ret)
		*kt = ns_to_ktime(ns);

	return ret;
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_to_ktime, GREYBUS);

/**
 * gb_timesync_to_timespec() - gb_timesync_to_ktime() as a timespec64
 * @hd: the host device whose FrameTime is meant
 * @frame_time: the FrameTime
 * @ts: where the CLOCK_MONOTONIC time goes
 *
 * Context: Any context.
 * Return: as gb_timesync_from_ktime().
 */
int gb_timesync_to_timespec(struct gb_host_device *hd, u64 frame_time,
			    struct timespec64 *ts)
{
	ktime_t kt;
	int ret;

	ret = gb_timesync_to_ktime(hd, frame_time, &kt);
	if (!ret)
		*ts = ktime_to_timespec64(kt);

	return ret;
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_to_timespec, GREYBUS);

/**
 * gb_timesync_get_frame_time_by_interface() - the current FrameTime
 * @intf: an interface taking part in TimeSync
 * @frame_time: where the FrameTime goes
 *
 * The FrameTime now, computed from the AP's clock; the interface keeps
 * the same FrameTime once synchronised.
 *
 * Context: Any context.
 * Return: 0; -ENODEV if @intf's manifest does not announce TimeSync or
 * the host device has no TimeSync state; -EAGAIN while not
 * synchronised.
 */
int gb_timesync_get_frame_time_by_interface(struct gb_interface *intf,
					    u64 *frame_time)
{
	if (!(intf->features & GREYBUS_INTERFACE_FEATURE_TIMESYNC))
		return -ENODEV;

	return gb_timesync_from_ktime(intf->hd, ktime_get(), frame_time);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_get_frame_time_by_interface, GREYBUS);

/**
 * gb_timesync_get_frame_time_by_svc() - the current FrameTime
 * @svc: the SVC of the host device whose FrameTime is meant
 * @frame_time: where the FrameTime goes
 *
 * Context: Any context.
 * Return: as gb_timesync_from_ktime().
 */
int gb_timesync_get_frame_time_by_svc(struct gb_svc *svc, u64 *frame_time)
{
	return gb_timesync_from_ktime(svc->hd, ktime_get(), frame_time);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_get_frame_time_by_svc, GREYBUS);

/**
 * gb_timesync_strobe() - a host driver saw a TimeSync strobe
 * @hd: the host device
 * @timestamp_ns: CLOCK_MONOTONIC when the bridge latched it
 *
 * Records the strobe for the synchronisation waiting for it and wakes
 * it up with the last one expected.  Strobes nobody waits for are
 * counted and otherwise ignored, as are strobes on a host device
 * without TimeSync state.
 *
 * Context: Any context.
 */
void gb_timesync_strobe(struct gb_host_device *hd, u64 timestamp_ns)
{
	struct gb_timesync *ts = gb_timesync_of(hd);
	unsigned long flags;
	bool done = false;

	if (!ts)
		return;

	spin_lock_irqsave(&ts->lock, flags);
	if (ts->strobes_seen < ts->strobes_wanted) {
		ts->strobe_ns[ts->strobes_seen++] = timestamp_ns;
		done = ts->strobes_seen == ts->strobes_wanted;
	} else {
		ts->stray_strobes++;
	}
	spin_unlock_irqrestore(&ts->lock, flags);

	if (done)
		wake_up_all(&ts->wait);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_strobe, GREYBUS);

/* Requests */

static struct gb_timesync_member *
gb_timesync_find_locked(struct gb_timesync *ts, struct gb_interface *intf)
{
	struct gb_timesync_member *m;

	list_for_each_entry(m, &ts->members, node) {
		if (m->intf == intf)
			return m;
	}

	return NULL;
}

/*
 * Returns the number of the request, 0 when the host device goes away.
 * @intf (may be NULL) takes part in the run even if runtime PM does not
 * call it active: it is resuming or being enabled, so its caller keeps
 * it awake.
 */
static u64 gb_timesync_request(struct gb_timesync *ts,
			       struct gb_interface *intf)
{
	struct gb_timesync_member *m;
	unsigned long flags;
	u64 nr = 0;

	spin_lock_irqsave(&ts->lock, flags);
	if (ts->removing)
		goto out_unlock;

	if (!ts->first_request_set) {
		ts->first_request = ktime_get();
		ts->first_request_set = true;
	}
	nr = ++ts->requested;
	if (intf) {
		m = gb_timesync_find_locked(ts, intf);
		if (m)
			m->wanted = true;
	}
	/* Under the lock, so gb_timesync_hd_stop() sees every queueing */
	mod_delayed_work(system_long_wq, &ts->work,
			 msecs_to_jiffies(GB_TIMESYNC_START_DELAY_MS));

out_unlock:
	spin_unlock_irqrestore(&ts->lock, flags);

	return nr;
}

static void gb_timesync_complete(struct gb_timesync *ts, u64 nr, int result)
{
	unsigned long flags;

	spin_lock_irqsave(&ts->lock, flags);
	if (nr > ts->completed) {
		ts->completed = nr;
		ts->completed_result = result;
	}
	spin_unlock_irqrestore(&ts->lock, flags);

	wake_up_all(&ts->wait);
}

static bool gb_timesync_served(struct gb_timesync *ts, u64 nr)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ts->lock, flags);
	ret = ts->removing || ts->completed >= nr;
	spin_unlock_irqrestore(&ts->lock, flags);

	return ret;
}

/* A run that reached the check ping has synchronised */
static int gb_timesync_status(enum gb_timesync_state state)
{
	switch (state) {
	case GB_TIMESYNC_STATE_INACTIVE:
	case GB_TIMESYNC_STATE_PING:
	case GB_TIMESYNC_STATE_ACTIVE:
		return 0;
	default:
		return -EAGAIN;
	}
}

static bool gb_timesync_stopping(struct gb_timesync *ts)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ts->lock, flags);
	ret = ts->removing;
	spin_unlock_irqrestore(&ts->lock, flags);

	return ret;
}

static int gb_timesync_sync_once(struct gb_timesync *ts,
				 struct gb_interface *intf)
{
	unsigned long flags;
	long left;
	u64 nr;
	int ret;

	nr = gb_timesync_request(ts, intf);
	if (!nr)
		return -ESHUTDOWN;

	left = wait_event_timeout(ts->wait, gb_timesync_served(ts, nr),
				  msecs_to_jiffies(GB_TIMESYNC_SYNC_WAIT_MS));

	spin_lock_irqsave(&ts->lock, flags);
	if (ts->removing)
		ret = -ESHUTDOWN;
	else if (!left && ts->completed < nr)
		ret = -ETIMEDOUT;
	else if (ts->completed_result)
		ret = ts->completed_result;
	else
		ret = gb_timesync_status(ts->state);
	ts->sync_state = ts->state;
	spin_unlock_irqrestore(&ts->lock, flags);

	return ret;
}

int gb_timesync_sync_retry(struct gb_timesync *ts, struct gb_interface *intf)
{
	unsigned long flags;
	unsigned int tries;
	int ret = 0;

	/*
	 * Only the host device's end is final.  A run that failed with
	 * -ESHUTDOWN because a participant was unplugged under it is tried
	 * again like any other failure: the next run goes without it.
	 */
	for (tries = 1; tries <= GB_TIMESYNC_MAX_RETRIES; tries++) {
		ret = gb_timesync_sync_once(ts, intf);
		if (!ret || gb_timesync_stopping(ts))
			break;
	}
	if (tries > GB_TIMESYNC_MAX_RETRIES) {
		tries = GB_TIMESYNC_MAX_RETRIES;
		ret = -ETIMEDOUT;
	}

	spin_lock_irqsave(&ts->lock, flags);
	ts->sync_result = ret;
	ts->sync_tries = tries;
	spin_unlock_irqrestore(&ts->lock, flags);

	return ret;
}

/**
 * gb_timesync_schedule_synchronous() - resynchronise and wait
 * @intf: the interface that needs the FrameTime
 *
 * Asks for a synchronisation run of every TimeSync participant of the
 * host device and waits for it, trying again up to five times.  A run
 * that reached the final check ping counts as a success.
 *
 * Context: Process context; sleeps.
 * Return: 0 once @intf shares the FrameTime, and at once for an
 * interface whose manifest does not announce TimeSync; -ETIMEDOUT when
 * every try failed; -ESHUTDOWN while the host device goes away; -ENODEV
 * if it has no TimeSync state.
 */
int gb_timesync_schedule_synchronous(struct gb_interface *intf)
{
	struct gb_timesync *ts;

	if (!(intf->features & GREYBUS_INTERFACE_FEATURE_TIMESYNC))
		return 0;

	ts = gb_timesync_of(intf->hd);
	if (!ts)
		return -ENODEV;

	return gb_timesync_sync_retry(ts, intf);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_schedule_synchronous, GREYBUS);

/**
 * gb_timesync_schedule_asynchronous() - resynchronise in the background
 * @intf: the interface that needs the FrameTime
 *
 * Queues a synchronisation run, as gb_timesync_schedule_synchronous()
 * does, without waiting for it.  Does nothing for an interface whose
 * manifest does not announce TimeSync or while the host device goes
 * away.
 *
 * Context: Any context.
 */
void gb_timesync_schedule_asynchronous(struct gb_interface *intf)
{
	struct gb_timesync *ts;

	if (!(intf->features & GREYBUS_INTERFACE_FEATURE_TIMESYNC))
		return;

	ts = gb_timesync_of(intf->hd);
	if (ts)
		gb_timesync_request(ts, NULL);
}
EXPORT_SYMBOL_NS_GPL(gb_timesync_schedule_asynchronous, GREYBUS);

/* Runs; ts->mutex held */

/* A member removal or the host device's end stops a run at once */
static int gb_timesync_check(struct gb_timesync *ts, u64 gen)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&ts->lock, flags);
	if (ts->removing)
		ret = -ESHUTDOWN;
	else if (ts->gen != gen)
		ret = -EINTR;
	spin_unlock_irqrestore(&ts->lock, flags);

	return ret;
}

/*
 * Whether an interface can take part without being woken up: runtime
 * active (then pinned until the run ends), or runtime PM off while it is
 * awake (being enabled or disabled).  Under ts->lock.
 */
static void gb_timesync_pin_locked(struct gb_timesync_member *m)
{
	struct gb_interface *intf = m->intf;
	struct device *dev = &intf->dev;
	int ret;

	m->taking_part = false;
	m->pinned = false;
	if (READ_ONCE(intf->disconnected) || READ_ONCE(intf->sleeping))
		return;

	ret = gb_pm_runtime_get_if_active(dev);
	if (ret > 0) {
		m->pinned = true;
		m->taking_part = true;
	} else if (ret == -EINVAL &&
		   READ_ONCE(dev->power.runtime_status) == RPM_ACTIVE) {
		m->taking_part = true;
	}
}

static void gb_timesync_unpin(struct gb_timesync *ts)
{
	struct gb_timesync_member *m;

	list_for_each_entry(m, &ts->members, node) {
		if (m->pinned)
			pm_runtime_put_autosuspend(&m->intf->dev);
		m->pinned = false;
		m->taking_part = false;
	}
}

/* Picks the participants of a run and the requests it serves */
static u64 gb_timesync_select(struct gb_timesync *ts, u64 *gen,
			      ktime_t *since)
{
	struct gb_timesync_member *m;
	unsigned long flags;
	u64 nr;

	spin_lock_irqsave(&ts->lock, flags);
	nr = ts->requested;
	*gen = ts->gen;
	*since = ts->first_request;
	ts->first_request_set = false;	/* the next request is the next run's */
	ts->strobe_mask = 0;
	list_for_each_entry(m, &ts->members, node) {
		gb_timesync_pin_locked(m);
		if (m->wanted && !m->taking_part)
			m->taking_part = !READ_ONCE(m->intf->disconnected);
		m->wanted = false;
		if (m->taking_part)
			ts->strobe_mask |= BIT(m->intf->interface_id);
		else
			m->synced = false;	/* resyncs when it resumes */
	}
	spin_unlock_irqrestore(&ts->lock, flags);

	return nr;
}

static void gb_timesync_unsync(struct gb_timesync *ts,
			       enum gb_timesync_state state)
{
	struct gb_timesync_member *m;
	unsigned long flags;

	list_for_each_entry(m, &ts->members, node)
		m->synced = false;

	spin_lock_irqsave(&ts->lock, flags);
	ts->synced = false;
	ts->state = state;
	spin_unlock_irqrestore(&ts->lock, flags);
}

/* After a failure: every participant stops, whatever it said */
static void gb_timesync_teardown(struct gb_timesync *ts)
{
	struct gb_host_device *hd = ts->hd;
	struct gb_timesync_member *m;

	if (READ_ONCE(hd->removing))
		return;

	list_for_each_entry(m, &ts->members, node) {
		if (m->taking_part && !READ_ONCE(m->intf->disconnected))
			gb_timesync_control_disable(m->intf->control);
	}
	if (hd->driver->timesync_disable)
		hd->driver->timesync_disable(hd);
	gb_timesync_svc_wake_pins_release(hd->svc);
	gb_timesync_svc_disable(hd->svc);
}

/*
 * The SVC's FrameTimes must grow with the strobes, and so must the
 * times the bridge latched them.  The AP anchors its FrameTime at the
 * second strobe of the pair whose spacing on its own clock is closest to
 * the nominal delay: the least disturbed latch.
 */
static int gb_timesync_set_anchor(struct gb_timesync *ts, const u64 *ap_ns)
{
	const u64 *svc_ft = ts->svc_frame_time;
	s64 best = S64_MAX, d;
	unsigned long flags;
	unsigned int i, pick = 0;

	for (i = 1; i < GB_TIMESYNC_STROBE_COUNT; i++) {
		if (svc_ft[i] <= svc_ft[i - 1] || ap_ns[i] <= ap_ns[i - 1]) {
			dev_err_ratelimited(&ts->hd->dev,
					    "timesync: strobe %u out of order (svc %llu after %llu, ap %llu after %llu ns)\n",
					    i, svc_ft[i], svc_ft[i - 1],
					    ap_ns[i], ap_ns[i - 1]);
			return -EPROTO;
		}
		d = abs((s64)(ap_ns[i] - ap_ns[i - 1]) -
			(s64)GB_TIMESYNC_STROBE_DELAY_US * NSEC_PER_USEC);
		if (d < best) {
			best = d;
			pick = i;
		}
	}

	spin_lock_irqsave(&ts->lock, flags);
	ts->anchor_ns = ap_ns[pick];
	ts->anchor_ft = svc_ft[pick];
	ts->synced = true;
	spin_unlock_irqrestore(&ts->lock, flags);
	ts->anchor_strobe = pick;

	return 0;
}

static bool gb_timesync_strobes_in(struct gb_timesync *ts, u64 gen)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ts->lock, flags);
	ret = ts->strobes_seen >= ts->strobes_wanted || ts->removing ||
	      ts->gen != gen;
	spin_unlock_irqrestore(&ts->lock, flags);

	return ret;
}

/* Arms the latch for @count strobes */
static void gb_timesync_latch(struct gb_timesync *ts, unsigned int count,
			      enum gb_timesync_state state)
{
	unsigned long flags;

	spin_lock_irqsave(&ts->lock, flags);
	ts->strobes_seen = 0;
	ts->strobes_wanted = count;
	ts->state = state;
	spin_unlock_irqrestore(&ts->lock, flags);
}

/* Disarms it; returns how many strobes came, copied to @ns */
static unsigned int gb_timesync_unlatch(struct gb_timesync *ts, u64 *ns)
{
	unsigned long flags;
	unsigned int seen;

	spin_lock_irqsave(&ts->lock, flags);
	seen = ts->strobes_seen;
	memcpy(ns, ts->strobe_ns, sizeof(ts->strobe_ns));
	ts->strobes_wanted = 0;
	spin_unlock_irqrestore(&ts->lock, flags);

	return seen;
}

static u64 gb_timesync_initial_frame_time(struct gb_timesync *ts)
{
	u64 now = ktime_get_ns();
	unsigned long flags;
	u64 ft;

	spin_lock_irqsave(&ts->lock, flags);
	if (gb_timesync_ns_to_ft_locked(ts, now, &ft))
		ft = gb_timesync_ns_to_ticks(now);
	spin_unlock_irqrestore(&ts->lock, flags);

	return ft + GB_TIMESYNC_INITIAL_TICKS;
}

static int gb_timesync_arm(struct gb_timesync *ts, u64 gen)
{
	struct gb_host_device *hd = ts->hd;
	struct gb_timesync_member *m;
	u64 ft;
	int ret;

	ret = gb_timesync_svc_wake_pins_acquire(hd->svc, ts->strobe_mask);
	if (ret)
		return ret;

	ft = gb_timesync_initial_frame_time(ts);
	ts->initial_frame_time = ft;
	list_for_each_entry(m, &ts->members, node) {
		if (!m->taking_part)
			continue;
		ret = gb_timesync_check(ts, gen);
		if (ret)
			return ret;
		ret = gb_timesync_control_enable(m->intf->control,
						 GB_TIMESYNC_STROBE_COUNT, ft,
						 GB_TIMESYNC_STROBE_DELAY_US,
						 GB_TIMESYNC_REFCLK_HZ);
		if (ret) {
			dev_err_ratelimited(&m->intf->dev,
					    "timesync enable failed: %d\n", ret);
			return ret;
		}
	}

	if (hd->driver->timesync_enable) {
		ret = hd->driver->timesync_enable(hd, GB_TIMESYNC_STROBE_COUNT,
						  ft, GB_TIMESYNC_STROBE_DELAY_US,
						  GB_TIMESYNC_REFCLK_HZ);
		if (ret)
			return ret;
	}

	gb_timesync_latch(ts, GB_TIMESYNC_STROBE_COUNT,
			  GB_TIMESYNC_STATE_WAIT_SVC);
	ret = gb_timesync_svc_enable(hd->svc, GB_TIMESYNC_STROBE_COUNT, ft,
				     GB_TIMESYNC_STROBE_DELAY_US,
				     GB_TIMESYNC_REFCLK_HZ);
	if (!ret)
		wait_event_timeout(ts->wait, gb_timesync_strobes_in(ts, gen),
				   msecs_to_jiffies(GB_TIMESYNC_STROBE_WAIT_MS));

	return ret;
}

static int gb_timesync_distribute(struct gb_timesync *ts, u64 gen)
{
	struct gb_host_device *hd = ts->hd;
	struct gb_timesync_member *m;
	int ret;

	gb_timesync_set_state(ts, GB_TIMESYNC_STATE_AUTHORITATIVE);
	ret = gb_timesync_svc_authoritative(hd->svc, ts->svc_frame_time);
	if (ret)
		return ret;

	ret = gb_timesync_set_anchor(ts, ts->ap_strobe_ns);
	if (ret)
		return ret;

	if (hd->driver->timesync_authoritative) {
		ret = hd->driver->timesync_authoritative(hd,
							 ts->svc_frame_time);
		if (ret)
			return ret;
	}

	list_for_each_entry(m, &ts->members, node) {
		if (!m->taking_part)
			continue;
		ret = gb_timesync_check(ts, gen);
		if (ret)
			return ret;
		ret = gb_timesync_control_authoritative(m->intf->control,
							ts->svc_frame_time);
		if (ret) {
			dev_err_ratelimited(&m->intf->dev,
					    "timesync authoritative failed: %d\n",
					    ret);
			return ret;
		}
		m->synced = true;
	}

	/* The wake pins stay acquired for the check ping */
	return 0;
}

static int gb_timesync_sync_locked(struct gb_timesync *ts, u64 gen)
{
	unsigned int seen;
	int ret;

	gb_timesync_set_state(ts, GB_TIMESYNC_STATE_INIT);
	ret = gb_timesync_arm(ts, gen);
	seen = gb_timesync_unlatch(ts, ts->ap_strobe_ns);
	if (ret)
		return ret;

	ret = gb_timesync_check(ts, gen);
	if (ret)
		return ret;
	if (seen < GB_TIMESYNC_STROBE_COUNT) {
		dev_err_ratelimited(&ts->hd->dev,
				    "timesync: %u of %u strobes seen\n", seen,
				    GB_TIMESYNC_STROBE_COUNT);
		return -ETIMEDOUT;
	}

	return gb_timesync_distribute(ts, gen);
}

/*
 * The check: the SVC pings, everybody latches the ping strobe, and the
 * FrameTimes they report must agree with the AP's within
 * GB_TIMESYNC_PING_TOLERANCE.  Members that take part and are synced
 * answer; the others are left alone.  A run comes here with the wake
 * pins still acquired (@pins_held), saving two round trips on the
 * resume path.
 */
static int gb_timesync_ping_locked(struct gb_timesync *ts, bool pins_held)
{
	struct gb_host_device *hd = ts->hd;
	struct gb_timesync_member *m;
	unsigned long flags;
	u64 svc_ft, ap_ft, ns[GB_TIMESYNC_STROBE_COUNT];
	u32 mask = 0;
	bool bad = false;
	int ret, ret2;

	list_for_each_entry(m, &ts->members, node) {
		m->pinged = false;
		if (m->taking_part && m->synced)
			mask |= BIT(m->intf->interface_id);
	}

	ts->pinged = false;
	gb_timesync_latch(ts, 1, GB_TIMESYNC_STATE_PING);
	ret = pins_held ? 0 : gb_timesync_svc_wake_pins_acquire(hd->svc, mask);
	if (ret)
		goto out_unlatch;
	ret = gb_timesync_svc_ping(hd->svc, &svc_ft);
	if (!ret)
		wait_event_timeout(ts->wait, gb_timesync_strobes_in(ts, ts->gen),
				   msecs_to_jiffies(GB_TIMESYNC_STROBE_WAIT_MS));
out_unlatch:
	if (gb_timesync_unlatch(ts, ns) < 1 && !ret) {
		dev_err_ratelimited(&hd->dev, "timesync: ping strobe not seen\n");
		ret = -ETIMEDOUT;
	}
	if (ret)
		goto out_release;

	spin_lock_irqsave(&ts->lock, flags);
	ret = gb_timesync_ns_to_ft_locked(ts, ns[0], &ap_ft);
	spin_unlock_irqrestore(&ts->lock, flags);
	if (ret)
		goto out_release;

	list_for_each_entry(m, &ts->members, node) {
		if (!(mask & BIT(m->intf->interface_id)))
			continue;
		ret = gb_timesync_control_get_last_event(m->intf->control,
							 &m->ping_frame_time);
		if (ret) {
			dev_err_ratelimited(&m->intf->dev,
					    "timesync get last event failed: %d\n",
					    ret);
			goto out_release;
		}
		m->offset = (s64)(m->ping_frame_time - ap_ft);
		m->pinged = true;
		if (abs(m->offset) > GB_TIMESYNC_PING_TOLERANCE) {
			dev_err_ratelimited(&m->intf->dev,
					    "timesync: FrameTime off by %lld ticks\n",
					    m->offset);
			bad = true;
		}
	}

	ts->ping_ap_ft = ap_ft;
	ts->ping_svc_ft = svc_ft;
	ts->ping_svc_offset = (s64)(svc_ft - ap_ft);
	ts->pinged = true;
	if (abs(ts->ping_svc_offset) > GB_TIMESYNC_PING_TOLERANCE) {
		dev_err_ratelimited(&hd->dev,
				    "timesync: SVC FrameTime off by %lld ticks\n",
				    ts->ping_svc_offset);
		bad = true;
	}
	if (bad)
		ret = -EREMOTEIO;

out_release:
	ret2 = gb_timesync_svc_wake_pins_release(hd->svc);

	return ret ? ret : ret2;
}

static void gb_timesync_run(struct gb_timesync *ts)
{
	ktime_t since;
	u64 nr, gen;
	int ret;

	nr = gb_timesync_select(ts, &gen, &since);
	if (list_empty(&ts->members) || gb_timesync_check(ts, gen)) {
		gb_timesync_unsync(ts, GB_TIMESYNC_STATE_INACTIVE);
		gb_timesync_complete(ts, nr, 0);
		goto out_unpin;
	}

	ts->runs++;
	ret = gb_timesync_sync_locked(ts, gen);
	if (ret)
		goto err_teardown;

	/* Synchronised: waiters may go on while the ping checks */
	gb_timesync_complete(ts, nr, 0);

	ret = gb_timesync_ping_locked(ts, true);
	if (ret)
		goto err_teardown;

	gb_timesync_set_state(ts, GB_TIMESYNC_STATE_ACTIVE);
	ts->last_sync_us = ktime_us_delta(ktime_get(), since);
	ts->last_result = 0;
	goto out_unpin;

err_teardown:
	dev_dbg(&ts->hd->dev, "timesync run failed: %d\n", ret);
	gb_timesync_teardown(ts);
	gb_timesync_unsync(ts, GB_TIMESYNC_STATE_INVALID);
	ts->failures++;
	ts->last_result = ret;
	gb_timesync_complete(ts, nr, ret);
out_unpin:
	gb_timesync_unpin(ts);
}

static void gb_timesync_work(struct work_struct *work)
{
	struct gb_timesync *ts = container_of(to_delayed_work(work),
					      struct gb_timesync, work);

	mutex_lock(&ts->mutex);
	gb_timesync_run(ts);
	mutex_unlock(&ts->mutex);
}

/* A ping outside a run (debugfs): the synced members that are awake */
int gb_timesync_ping(struct gb_timesync *ts)
{
	struct gb_timesync_member *m;
	unsigned long flags;
	int ret = -EAGAIN;

	mutex_lock(&ts->mutex);
	spin_lock_irqsave(&ts->lock, flags);
	if (ts->removing) {
		ret = -ESHUTDOWN;
	} else if (ts->state == GB_TIMESYNC_STATE_ACTIVE) {
		ret = 0;
		list_for_each_entry(m, &ts->members, node) {
			if (m->synced)
				gb_timesync_pin_locked(m);
		}
	}
	spin_unlock_irqrestore(&ts->lock, flags);
	if (ret)
		goto out_unlock;

	ret = gb_timesync_ping_locked(ts, false);
	if (ret) {
		gb_timesync_teardown(ts);
		gb_timesync_unsync(ts, GB_TIMESYNC_STATE_INVALID);
	} else {
		gb_timesync_set_state(ts, GB_TIMESYNC_STATE_ACTIVE);
	}
	gb_timesync_unpin(ts);

out_unlock:
	mutex_unlock(&ts->mutex);

	return ret;
}

/* Membership */

int gb_timesync_interface_add(struct gb_interface *intf)
{
	struct gb_timesync *ts = gb_timesync_of(intf->hd);
	struct gb_timesync_member *m;
	unsigned long flags;
	int ret;

	if (!(intf->features & GREYBUS_INTERFACE_FEATURE_TIMESYNC))
		return 0;
	if (!ts)
		return -ENODEV;
	/* Its wake line is one bit of a 32-bit strobe mask */
	if (intf->interface_id >= 32) {
		dev_err_ratelimited(&intf->dev,
				    "interface id %u beyond the TimeSync strobe mask\n",
				    intf->interface_id);
		return -ERANGE;
	}

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->intf = intf;

	mutex_lock(&ts->mutex);
	spin_lock_irqsave(&ts->lock, flags);
	list_add_tail(&m->node, &ts->members);
	spin_unlock_irqrestore(&ts->lock, flags);
	mutex_unlock(&ts->mutex);

	ret = gb_timesync_sync_retry(ts, intf);
	if (ret) {
		gb_timesync_interface_remove(intf);
		return ret;
	}

	return 0;
}

void gb_timesync_interface_remove(struct gb_interface *intf)
{
	struct gb_timesync *ts = gb_timesync_of(intf->hd);
	struct gb_timesync_member *m;
	unsigned long flags;

	if (!ts)
		return;

	/* Stop a run in progress first: it cannot go on without us */
	spin_lock_irqsave(&ts->lock, flags);
	m = gb_timesync_find_locked(ts, intf);
	if (m)
		ts->gen++;
	spin_unlock_irqrestore(&ts->lock, flags);
	if (!m)
		return;
	wake_up_all(&ts->wait);

	mutex_lock(&ts->mutex);
	if (m->synced && !READ_ONCE(intf->disconnected) &&
	    !READ_ONCE(intf->hd->removing))
		gb_timesync_control_disable(intf->control);
	spin_lock_irqsave(&ts->lock, flags);
	list_del(&m->node);
	spin_unlock_irqrestore(&ts->lock, flags);
	mutex_unlock(&ts->mutex);

	kfree(m);

	/* The others synchronise again (or the state becomes inactive) */
	gb_timesync_request(ts, NULL);
}

/* Host devices */

int gb_timesync_hd_add(struct gb_host_device *hd)
{
	struct gb_timesync *ts;

	ts = kzalloc(sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;

	ts->hd = hd;
	mutex_init(&ts->mutex);
	INIT_LIST_HEAD(&ts->members);
	INIT_DELAYED_WORK(&ts->work, gb_timesync_work);
	init_waitqueue_head(&ts->wait);
	spin_lock_init(&ts->lock);
	ts->state = GB_TIMESYNC_STATE_INACTIVE;

	WRITE_ONCE(hd->timesync, ts);
	gb_timesync_debugfs_add(ts);

	return 0;
}

/*
 * First step of the host device's removal: no run starts any more,
 * waiters give up, and a debugfs ping in progress has finished.
 */
void gb_timesync_hd_stop(struct gb_host_device *hd)
{
	struct gb_timesync *ts = hd->timesync;
	unsigned long flags;

	spin_lock_irqsave(&ts->lock, flags);
	ts->removing = true;
	spin_unlock_irqrestore(&ts->lock, flags);
	wake_up_all(&ts->wait);

	cancel_delayed_work_sync(&ts->work);
	mutex_lock(&ts->mutex);
	mutex_unlock(&ts->mutex);
}

/* After every interface has gone */
void gb_timesync_hd_del(struct gb_host_device *hd)
{
	struct gb_timesync *ts = hd->timesync;
	struct gb_timesync_member *m, *tmp;

	debugfs_remove(ts->debugfs_timesync);
	debugfs_remove(ts->debugfs_frame_time);
	WRITE_ONCE(hd->timesync, NULL);

	list_for_each_entry_safe(m, tmp, &ts->members, node) {
		list_del(&m->node);
		kfree(m);
	}
	mutex_destroy(&ts->mutex);
	kfree(ts);
}
