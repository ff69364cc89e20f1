/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TimeSync: one FrameTime shared by the AP, the SVC and every interface
 * whose manifest sets GREYBUS_INTERFACE_FEATURE_TIMESYNC.  FrameTime
 * counts at GB_TIMESYNC_REFCLK_HZ; docs/timesync.md describes the
 * protocol, the state machine and the tolerances.
 */
#ifndef __GREYBUS_TIMESYNC_H
#define __GREYBUS_TIMESYNC_H

#include <linux/ktime.h>
#include <linux/time64.h>
#include <linux/types.h>

struct gb_host_device;
struct gb_interface;
struct gb_svc;

/* The FrameTime clock: 19.2 MHz, so one tick is 52.083 ns */
#define GB_TIMESYNC_REFCLK_HZ		19200000

/*
 * Resynchronise now and wait for the result: 0 once the interface shares
 * the FrameTime again (also when the check ping is still running),
 * -ETIMEDOUT after the retries failed, -ESHUTDOWN while the host device
 * goes away.  An interface without the TimeSync feature: 0 at once.
 * Sleeps.
 */
int gb_timesync_schedule_synchronous(struct gb_interface *intf);
/* The same without waiting; any process context */
void gb_timesync_schedule_asynchronous(struct gb_interface *intf);

/*
 * The current FrameTime as the AP computes it from its own clock: 0 or
 * -EAGAIN while not synchronised, -ENODEV without TimeSync.  Any context.
 */
int gb_timesync_get_frame_time_by_interface(struct gb_interface *intf,
					    u64 *frame_time);
int gb_timesync_get_frame_time_by_svc(struct gb_svc *svc, u64 *frame_time);

/* FrameTime <-> the AP's CLOCK_MONOTONIC; same errors.  Any context. */
int gb_timesync_to_ktime(struct gb_host_device *hd, u64 frame_time,
			 ktime_t *kt);
int gb_timesync_to_timespec(struct gb_host_device *hd, u64 frame_time,
			    struct timespec64 *ts);
int gb_timesync_from_ktime(struct gb_host_device *hd, ktime_t kt,
			   u64 *frame_time);

/*
 * The clock arithmetic behind the conversions (any context; KUnit tests
 * it): FrameTime ticks <-> nanoseconds, rounded down, and a reading of
 * one clock moved onto the other through an anchor, a pair of readings
 * of both clocks at the same instant.
 */
u64 gb_timesync_ns_to_ticks(u64 ns);
u64 gb_timesync_ticks_to_ns(u64 ticks);
u64 gb_timesync_ns_to_ft(u64 ns, u64 anchor_ns, u64 anchor_ft);
u64 gb_timesync_ft_to_ns(u64 frame_time, u64 anchor_ft, u64 anchor_ns);

/*
 * For host drivers: the bridge latched a strobe at @timestamp_ns
 * (CLOCK_MONOTONIC).  Strobes nobody waits for are counted and ignored.
 * Any context.
 */
void gb_timesync_strobe(struct gb_host_device *hd, u64 timestamp_ns);

#endif /* __GREYBUS_TIMESYNC_H */
