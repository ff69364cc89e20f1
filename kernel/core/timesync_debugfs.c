// SPDX-License-Identifier: GPL-2.0
/*
 * TimeSync in /sys/kernel/debug/greybus/greybusN/:
 *
 *   timesync    read: state, members, the last strobe series and ping;
 *               write "sync": a synchronous resync, its result is the
 *               write's (0 = the byte count)
 *   frame_time  read: pings, then the FrameTimes of the AP, the SVC and
 *               every synced member at the ping strobe
 *
 * docs/timesync.md documents the format; tests parse it.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "timesync_priv.h"

static int gb_timesync_debugfs_show(struct seq_file *s, void *data)
{
	struct gb_timesync *ts = s->private;
	struct gb_timesync_member *m;
	enum gb_timesync_state state, sync_state;
	int sync_result;
	unsigned int sync_tries, i;
	u64 stray;

	mutex_lock(&ts->mutex);
	spin_lock_irq(&ts->lock);
	state = ts->state;
	stray = ts->stray_strobes;
	sync_result = ts->sync_result;
	sync_state = ts->sync_state;
	sync_tries = ts->sync_tries;
	spin_unlock_irq(&ts->lock);

	seq_printf(s, "state: %s\n", gb_timesync_state_name(state));
	seq_printf(s, "runs: %llu\nfailures: %llu\nlast_result: %d\n",
		   ts->runs, ts->failures, ts->last_result);
	seq_printf(s, "last_sync_us: %lld\n", ts->last_sync_us);
	seq_printf(s, "synchronous: result %d tries %u state %s\n",
		   sync_result, sync_tries, gb_timesync_state_name(sync_state));
	seq_printf(s, "stray_strobes: %llu\n", stray);
	seq_printf(s, "strobe_mask: 0x%08x\n", ts->strobe_mask);
	seq_printf(s, "initial_frame_time: %llu\n", ts->initial_frame_time);
	seq_printf(s, "anchor_strobe: %u\n", ts->anchor_strobe);
	for (i = 0; i < GB_TIMESYNC_STROBE_COUNT; i++)
		seq_printf(s, "strobe %u: ap_ns %llu svc %llu\n", i,
			   ts->ap_strobe_ns[i], ts->svc_frame_time[i]);
	if (ts->pinged)
		seq_printf(s, "ping: ap %llu svc %llu svc_offset %lld\n",
			   ts->ping_ap_ft, ts->ping_svc_ft, ts->ping_svc_offset);
	list_for_each_entry(m, &ts->members, node) {
		seq_printf(s, "member %s: id %u synced %d", dev_name(&m->intf->dev),
			   m->intf->interface_id, m->synced);
		if (m->pinged)
			seq_printf(s, " frame_time %llu offset %lld",
				   m->ping_frame_time, m->offset);
		seq_putc(s, '\n');
	}
	mutex_unlock(&ts->mutex);

	return 0;
}

static int gb_timesync_debugfs_open(struct inode *inode, struct file *file)
{
	return single_open(file, gb_timesync_debugfs_show, inode->i_private);
}

static ssize_t gb_timesync_debugfs_write(struct file *file,
					 const char __user *ubuf, size_t count,
					 loff_t *ppos)
{
	struct seq_file *s = file->private_data;
	struct gb_timesync *ts = s->private;
	char buf[8];
	size_t len = min(count, sizeof(buf) - 1);
	int ret;

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (strcmp(strim(buf), "sync"))
		return -EINVAL;

	ret = gb_timesync_sync_retry(ts, NULL);
	dev_info(&ts->hd->dev, "timesync: synchronous resync from debugfs: %d\n",
		 ret);

	return ret ? ret : count;
}

static const struct file_operations gb_timesync_debugfs_fops = {
	.owner		= THIS_MODULE,
	.open		= gb_timesync_debugfs_open,
	.read		= seq_read,
	.write		= gb_timesync_debugfs_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int gb_timesync_frame_time_show(struct seq_file *s, void *data)
{
	struct gb_timesync *ts = s->private;
	struct gb_timesync_member *m;
	int ret;

	ret = gb_timesync_ping(ts);
	if (ret)
		return ret;

	mutex_lock(&ts->mutex);
	seq_printf(s, "ap %llu\nsvc %llu\n", ts->ping_ap_ft, ts->ping_svc_ft);
	list_for_each_entry(m, &ts->members, node) {
		if (m->pinged)
			seq_printf(s, "%s %llu\n", dev_name(&m->intf->dev),
				   m->ping_frame_time);
	}
	mutex_unlock(&ts->mutex);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gb_timesync_frame_time);

void gb_timesync_debugfs_add(struct gb_timesync *ts)
{
	struct dentry *dir = ts->hd->debugfs_dir;

	ts->debugfs_timesync = debugfs_create_file("timesync", 0644, dir, ts,
						   &gb_timesync_debugfs_fops);
	ts->debugfs_frame_time = debugfs_create_file("frame_time", 0444, dir,
						     ts,
						     &gb_timesync_frame_time_fops);
}
