/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TimeSync inside greybus.ko: the per-host-device object that timesync.c
 * runs, timesync_ops.c talks for and timesync_debugfs.c shows.
 */
#ifndef __GREYBUS_TIMESYNC_PRIV_H
#define __GREYBUS_TIMESYNC_PRIV_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <uapi/greybus/svc.h>

#include "internal.h"

/* Numbered as in docs/timesync.md (and the 2016 implementation) */
enum gb_timesync_state {
	GB_TIMESYNC_STATE_INVALID	= 0,	/* the last sync failed */
	GB_TIMESYNC_STATE_INACTIVE	= 1,	/* nothing to synchronise */
	GB_TIMESYNC_STATE_INIT		= 2,	/* participants being armed */
	GB_TIMESYNC_STATE_WAIT_SVC	= 3,	/* waiting for the strobes */
	GB_TIMESYNC_STATE_AUTHORITATIVE	= 4,	/* distributing FrameTimes */
	GB_TIMESYNC_STATE_PING		= 5,	/* checking with a ping */
	GB_TIMESYNC_STATE_ACTIVE	= 6,	/* synchronised */
};

#define GB_TIMESYNC_STROBE_COUNT	GB_TIMESYNC_MAX_STROBES
#define GB_TIMESYNC_STROBE_DELAY_US	1000
/* A synchronous resync must not wait long before it starts */
#define GB_TIMESYNC_START_DELAY_MS	10
/* Tries of a synchronous resync before it fails with -ETIMEDOUT */
#define GB_TIMESYNC_MAX_RETRIES		5
/* Strobes of a series, after the SVC answered timesync enable */
#define GB_TIMESYNC_STROBE_WAIT_MS	200
/* Where the SVC starts counting: ahead of the AP's current FrameTime */
#define GB_TIMESYNC_INITIAL_TICKS	100000
/* Largest |FrameTime difference| a ping accepts, in ticks */
#define GB_TIMESYNC_PING_TOLERANCE	2
/* Bound on one synchronous wait: a run's operations all time out */
#define GB_TIMESYNC_SYNC_WAIT_MS	30000

/* One interface with the TimeSync feature, between enable and disable */
struct gb_timesync_member {
	struct list_head	node;
	struct gb_interface	*intf;
	bool			wanted;		/* a request names it; @lock */
	bool			taking_part;	/* in the run in progress */
	bool			pinned;		/* runtime PM reference held */
	bool			synced;		/* shares the FrameTime */
	bool			pinged;		/* in the last ping */
	u64			ping_frame_time;
	s64			offset;		/* intf - AP, last ping, ticks */
};

/*
 * Locking.  @mutex is held by whoever talks to the participants: the
 * work item for a whole run, a debugfs ping; it protects @members and
 * every result below it.  Adding or removing a member takes it too, so
 * a member cannot go while a run uses it.  Removal first bumps @gen
 * (under @lock) and wakes @wait: a run in progress checks @gen between
 * steps and gives up at once, so removal waits at most for one
 * operation.  Nobody takes an interface's mutex or waits for runtime PM
 * while holding @mutex, so the interface paths (enable, disable,
 * runtime resume) can wait for @mutex or for a run.
 *
 * @lock (irq-safe, innermost) protects the state, the strobe latch, the
 * conversion anchor and the request counters: gb_timesync_strobe() and
 * the conversions run in any context.
 */
struct gb_timesync {
	struct gb_host_device	*hd;
	struct mutex		mutex;		/* the participants: see above */
	struct list_head	members;
	struct delayed_work	work;
	wait_queue_head_t	wait;	/* strobes, finished runs, removal */

	spinlock_t		lock;		/* state, latch, anchor: see above */
	enum gb_timesync_state	state;
	bool			removing;	/* gb_timesync_hd_del() */
	u64			gen;		/* bumped by member removal */
	/* strobe latch */
	unsigned int		strobes_wanted;
	unsigned int		strobes_seen;
	u64			strobe_ns[GB_TIMESYNC_STROBE_COUNT];
	u64			stray_strobes;
	/* FrameTime = anchor_ft + ticks since anchor_ns, when @synced */
	bool			synced;
	u64			anchor_ns;
	u64			anchor_ft;
	/* requests: a run serves every request made before it started */
	u64			requested;
	u64			completed;
	int			completed_result;
	ktime_t			first_request;	/* oldest one not served */
	bool			first_request_set;

	/* results, under @mutex */
	u32			strobe_mask;
	u64			svc_frame_time[GB_TIMESYNC_STROBE_COUNT];
	u64			ap_strobe_ns[GB_TIMESYNC_STROBE_COUNT];
	u64			initial_frame_time;
	unsigned int		anchor_strobe;
	bool			pinged;
	u64			ping_ap_ft;
	u64			ping_svc_ft;
	s64			ping_svc_offset;
	u64			runs;
	u64			failures;
	int			last_result;
	s64			last_sync_us;	/* request to active */
	/* the last synchronous request: its result and what it saw */
	int			sync_result;
	enum gb_timesync_state	sync_state;
	unsigned int		sync_tries;

	struct dentry		*debugfs_timesync;
	struct dentry		*debugfs_frame_time;
};

const char *gb_timesync_state_name(enum gb_timesync_state state);
int gb_timesync_sync_retry(struct gb_timesync *ts, struct gb_interface *intf);
int gb_timesync_ping(struct gb_timesync *ts);

/* timesync_ops.c: the operations on the wire; 0 or -errno */
int gb_timesync_svc_wake_pins_acquire(struct gb_svc *svc, u32 strobe_mask);
int gb_timesync_svc_wake_pins_release(struct gb_svc *svc);
int gb_timesync_svc_enable(struct gb_svc *svc, u8 count, u64 frame_time,
			   u32 strobe_delay, u32 refclk);
int gb_timesync_svc_disable(struct gb_svc *svc);
int gb_timesync_svc_authoritative(struct gb_svc *svc, u64 *frame_time);
int gb_timesync_svc_ping(struct gb_svc *svc, u64 *frame_time);
int gb_timesync_control_enable(struct gb_control *control, u8 count,
			       u64 frame_time, u32 strobe_delay, u32 refclk);
int gb_timesync_control_disable(struct gb_control *control);
int gb_timesync_control_authoritative(struct gb_control *control,
				      const u64 *frame_time);
int gb_timesync_control_get_last_event(struct gb_control *control,
				       u64 *frame_time);

/* timesync_debugfs.c */
void gb_timesync_debugfs_add(struct gb_timesync *ts);

#endif /* __GREYBUS_TIMESYNC_PRIV_H */
