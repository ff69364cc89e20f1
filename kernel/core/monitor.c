// SPDX-License-Identifier: GPL-2.0
/*
 * The Greybus monitor: a copy of every message the core sends or
 * receives, for readers of /sys/kernel/debug/greybus/monitor (every host
 * device) and /sys/kernel/debug/greybus/greybusN/monitor (one).  The
 * record format is include/uapi/greybus/monitor.h; docs/gbmon.md
 * describes the files.
 *
 * Each open file is a reader with a byte ring allocated at open.  The
 * hot path (gb_mon_store()) never sleeps, never allocates and never
 * waits for a reader: under the reader's spinlock it copies the record
 * into the free part of the ring, or counts it lost if it does not fit.
 * read() copies whole records out of the used part without the lock
 * (only read() moves @tail, and writers never touch [@tail, @head)),
 * then gives the space back.
 *
 * Lifetimes:
 *  - A reader is on gb_mon_readers (RCU; changed under gb_mon_mutex)
 *    from open until release, or until its host device goes; the hot
 *    path walks the list under rcu_read_lock(), so release unlinks it,
 *    waits for an RCU grace period and only then frees it.
 *  - gb_mon_hd_del() runs before the host device's debugfs directory is
 *    removed: under gb_mon_mutex it sets @monitor_closed (an open that
 *    comes later fails with -ENODEV), unlinks the host's readers and
 *    marks them gone, and wakes them, so a blocked read() returns and
 *    debugfs' removal, which waits for reads in progress, goes through.
 *    A reader keeps only the bus id, never a pointer to the host device,
 *    so it may stay open for as long as it likes afterwards.
 *  - The files' fops name this module as owner: debugfs holds a module
 *    reference for every open file, so the module cannot go while a
 *    reader exists.
 *  - gb_mon_active counts the open readers: the hooks cost a no-op while
 *    it is 0.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include <greybus/timesync.h>

#include "internal.h"
#include "monitor.h"

#define GB_MON_RING_MIN		(128 * 1024)
#define GB_MON_RING_MAX		(64 * 1024 * 1024)
#define GB_MON_ALL		(-1)

static unsigned int monitor_ring_size = 1024 * 1024;
module_param(monitor_ring_size, uint, 0644);
MODULE_PARM_DESC(monitor_ring_size,
		 "bytes of ring per monitor reader, taken at open (128 KiB..64 MiB)");

static unsigned int monitor_snaplen = GB_MON_SNAPLEN_MAX;
module_param(monitor_snaplen, uint, 0644);
MODULE_PARM_DESC(monitor_snaplen,
		 "bytes of each message a monitor reader captures, taken at open (0..65535)");

DEFINE_STATIC_KEY_FALSE(gb_mon_active);

static LIST_HEAD(gb_mon_readers);
static DEFINE_MUTEX(gb_mon_mutex);	/* gb_mon_readers, @monitor_closed */

/**
 * struct gb_mon_reader - one open monitor file
 * @links: on gb_mon_readers while @listed
 * @listed: on the list; under gb_mon_mutex
 * @bus_id: the host device it watches, or GB_MON_ALL
 * @snaplen: bytes of each message captured
 * @size: bytes of @ring, a power of two
 * @ring: the records
 * @lock: @head, @tail's advance, @lost, @gone; irq-safe, taken in the
 *	hot path
 * @head: bytes ever stored (free-running)
 * @tail: bytes ever read (free-running); only read() moves it
 * @lost: records dropped since the last one stored or reported
 * @gone: the host device of a per-host reader went away
 * @wait: read() and poll() wait here
 * @read_mutex: one read() at a time
 */
struct gb_mon_reader {
	struct list_head	links;
	bool			listed;
	int			bus_id;
	u32			snaplen;
	size_t			size;
	u8			*ring;

	spinlock_t		lock;	/* see above */
	unsigned long		head;
	unsigned long		tail;
	u32			lost;
	bool			gone;

	wait_queue_head_t	wait;
	struct mutex		read_mutex;	/* one read() at a time */
};

static size_t gb_mon_record_size(u32 cap_len)
{
	return ALIGN(sizeof(struct gb_mon_hdr) + cap_len, 8);
}

/* Copy @len bytes into the ring at byte counter @pos, wrapping */
static void gb_mon_ring_put(struct gb_mon_reader *r, unsigned long pos,
			    const void *src, size_t len)
{
	size_t off = pos & (r->size - 1);
	size_t first = min(len, r->size - off);

	memcpy(r->ring + off, src, first);
	memcpy(r->ring, src + first, len - first);
}

static void gb_mon_ring_zero(struct gb_mon_reader *r, unsigned long pos,
			     size_t len)
{
	size_t off = pos & (r->size - 1);
	size_t first = min(len, r->size - off);

	memset(r->ring + off, 0, first);
	memset(r->ring, 0, len - first);
}

static void gb_mon_ring_get(struct gb_mon_reader *r, unsigned long pos,
			    void *dst, size_t len)
{
	size_t off = pos & (r->size - 1);
	size_t first = min(len, r->size - off);

	memcpy(dst, r->ring + off, first);
	memcpy(dst + first, r->ring, len - first);
}

/*
 * Stores one record, @msg_len bytes of message at @data of which the
 * reader's snap length is captured, or counts it lost.  Any context.
 */
static void gb_mon_store(struct gb_mon_reader *r,
			 const struct gb_mon_hdr *proto, const void *data,
			 size_t msg_len)
{
	u32 cap_len = min_t(size_t, msg_len, r->snaplen);
	size_t need = gb_mon_record_size(cap_len);
	struct gb_mon_hdr hdr = *proto;
	unsigned long flags;
	bool stored = false;

	hdr.cap_len = cpu_to_le32(cap_len);
	if (cap_len < msg_len)
		hdr.flags |= cpu_to_le32(GB_MON_F_TRUNCATED);

	spin_lock_irqsave(&r->lock, flags);
	if (r->gone)
		goto out_unlock;
	if (r->size - (r->head - r->tail) < need) {
		if (r->lost < U32_MAX)
			r->lost++;
		goto out_unlock;
	}
	hdr.lost = cpu_to_le32(r->lost);
	r->lost = 0;
	gb_mon_ring_put(r, r->head, &hdr, sizeof(hdr));
	if (cap_len)
		gb_mon_ring_put(r, r->head + sizeof(hdr), data, cap_len);
	gb_mon_ring_zero(r, r->head + sizeof(hdr) + cap_len,
			 need - sizeof(hdr) - cap_len);
	r->head += need;
	stored = true;
out_unlock:
	spin_unlock_irqrestore(&r->lock, flags);

	if (stored && wq_has_sleeper(&r->wait))
		wake_up_interruptible(&r->wait);
}

static void gb_mon_emit(const struct gb_mon_hdr *hdr, int bus_id,
			const void *data, size_t msg_len)
{
	struct gb_mon_reader *r;

	rcu_read_lock();
	list_for_each_entry_rcu(r, &gb_mon_readers, links) {
		if (r->bus_id == GB_MON_ALL || r->bus_id == bus_id)
			gb_mon_store(r, hdr, data, msg_len);
	}
	rcu_read_unlock();
}

/* The fields every record of @hd (and @connection, if any) shares */
static void gb_mon_hdr_init(struct gb_mon_hdr *hdr, u8 kind, u32 flags,
			    struct gb_host_device *hd,
			    struct gb_connection *connection, u16 hd_cport_id)
{
	u64 now = ktime_get_ns();
	u64 frame_time;

	memset(hdr, 0, sizeof(*hdr));
	hdr->version = GB_MON_VERSION;
	hdr->kind = kind;
	hdr->hdr_len = cpu_to_le16(sizeof(*hdr));
	hdr->flags = cpu_to_le32(flags);
	hdr->timestamp_ns = cpu_to_le64(now);
	if (!gb_timesync_from_ktime(hd, ns_to_ktime(now), &frame_time))
		hdr->frame_time = cpu_to_le64(frame_time);
	hdr->bus_id = cpu_to_le16(hd->bus_id);
	hdr->hd_cport_id = cpu_to_le16(hd_cport_id);
	if (connection) {
		hdr->intf_cport_id = cpu_to_le16(connection->intf ?
						 connection->intf_cport_id :
						 GB_MON_CPORT_NONE);
		hdr->intf_id = connection->intf_id;
		hdr->bundle_id = connection->bundle_id;
		hdr->protocol_id = connection->protocol_id;
	} else {
		hdr->intf_cport_id = cpu_to_le16(GB_MON_CPORT_NONE);
		hdr->intf_id = GB_MON_ID_NONE;
		hdr->bundle_id = GB_MON_ID_NONE;
	}
}

void __gb_mon_message(struct gb_host_device *hd,
		      struct gb_connection *connection, u16 hd_cport_id,
		      const void *data, size_t length, u32 flags)
{
	const struct gb_operation_msg_hdr *header = data;
	struct gb_mon_hdr hdr;

	if (!connection)
		flags |= GB_MON_F_NO_CONNECTION;
	if (length >= sizeof(*header) && (header->type & GB_MSG_TYPE_RESPONSE))
		flags |= GB_MON_F_RESPONSE;

	gb_mon_hdr_init(&hdr, GB_MON_KIND_MESSAGE, flags, hd, connection,
			hd_cport_id);
	length = min_t(size_t, length, U32_MAX);
	hdr.msg_len = cpu_to_le32(length);
	if (length >= sizeof(*header)) {
		hdr.operation_id = header->operation_id;
		hdr.type = header->type;
		hdr.result = header->result;
	}

	gb_mon_emit(&hdr, hd->bus_id, data, length);
}

void __gb_mon_event(struct gb_connection *connection, u8 kind, u32 flags,
		    u8 type, u16 operation_id, int status)
{
	struct gb_host_device *hd = connection->hd;
	struct gb_mon_hdr hdr;

	if (kind == GB_MON_KIND_CANCEL)
		flags |= GB_MON_F_CANCELLED;
	if (status)
		flags |= GB_MON_F_ERROR;
	if (type & GB_MSG_TYPE_RESPONSE)
		flags |= GB_MON_F_RESPONSE;

	gb_mon_hdr_init(&hdr, kind, flags, hd, connection,
			connection->hd_cport_id);
	hdr.operation_id = cpu_to_le16(operation_id);
	hdr.type = type;
	hdr.status = cpu_to_le32((u32)status);

	gb_mon_emit(&hdr, hd->bus_id, NULL, 0);
}

/* The file */

static int gb_mon_open_bus(struct file *file, int bus_id)
{
	unsigned int ring_size = READ_ONCE(monitor_ring_size);
	struct gb_mon_reader *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;

	ring_size = clamp_t(unsigned int, ring_size, GB_MON_RING_MIN,
			    GB_MON_RING_MAX);
	r->size = roundup_pow_of_two(ring_size);
	r->ring = vmalloc(r->size);
	if (!r->ring) {
		kfree(r);
		return -ENOMEM;
	}
	r->bus_id = bus_id;
	r->snaplen = min_t(unsigned int, READ_ONCE(monitor_snaplen),
			   GB_MON_SNAPLEN_MAX);
	spin_lock_init(&r->lock);
	init_waitqueue_head(&r->wait);
	mutex_init(&r->read_mutex);

	file->private_data = r;
	static_branch_inc(&gb_mon_active);

	return 0;
}

static void gb_mon_free(struct gb_mon_reader *r)
{
	mutex_destroy(&r->read_mutex);
	vfree(r->ring);
	kfree(r);
}

static int gb_mon_open(struct inode *inode, struct file *file)
{
	struct gb_host_device *hd = inode->i_private;
	struct gb_mon_reader *r;
	int ret;

	ret = gb_mon_open_bus(file, hd ? hd->bus_id : GB_MON_ALL);
	if (ret)
		return ret;
	r = file->private_data;

	mutex_lock(&gb_mon_mutex);
	/* debugfs keeps @hd alive while open() runs */
	if (hd && hd->monitor_closed) {
		mutex_unlock(&gb_mon_mutex);
		static_branch_dec(&gb_mon_active);
		gb_mon_free(r);
		return -ENODEV;
	}
	list_add_tail_rcu(&r->links, &gb_mon_readers);
	r->listed = true;
	mutex_unlock(&gb_mon_mutex);

	return nonseekable_open(inode, file);
}

static int gb_mon_release(struct inode *inode, struct file *file)
{
	struct gb_mon_reader *r = file->private_data;

	mutex_lock(&gb_mon_mutex);
	if (r->listed) {
		list_del_rcu(&r->links);
		r->listed = false;
	}
	mutex_unlock(&gb_mon_mutex);

	/* The hot path may still be storing into it */
	synchronize_rcu();
	static_branch_dec(&gb_mon_active);
	gb_mon_free(r);

	return 0;
}

/* Something for read(): records, a loss to report, or the end */
static bool gb_mon_readable(struct gb_mon_reader *r)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&r->lock, flags);
	ret = r->head != r->tail || r->lost || r->gone;
	spin_unlock_irqrestore(&r->lock, flags);

	return ret;
}

/* Reports a pending loss with the ring empty; 0 if there is none */
static ssize_t gb_mon_read_lost(struct gb_mon_reader *r, char __user *buf,
				size_t count)
{
	struct gb_mon_hdr hdr;
	u32 lost;

	spin_lock_irq(&r->lock);
	lost = r->head == r->tail ? r->lost : 0;
	if (lost && count >= sizeof(hdr))
		r->lost = 0;	/* taken; given back if not delivered */
	spin_unlock_irq(&r->lock);
	if (!lost)
		return 0;
	if (count < sizeof(hdr))
		return -EMSGSIZE;

	memset(&hdr, 0, sizeof(hdr));
	hdr.version = GB_MON_VERSION;
	hdr.kind = GB_MON_KIND_LOST;
	hdr.hdr_len = cpu_to_le16(sizeof(hdr));
	hdr.timestamp_ns = cpu_to_le64(ktime_get_ns());
	hdr.lost = cpu_to_le32(lost);
	hdr.bus_id = cpu_to_le16(r->bus_id == GB_MON_ALL ? 0 : r->bus_id);
	hdr.intf_cport_id = cpu_to_le16(GB_MON_CPORT_NONE);
	hdr.intf_id = GB_MON_ID_NONE;
	hdr.bundle_id = GB_MON_ID_NONE;
	if (copy_to_user(buf, &hdr, sizeof(hdr))) {
		spin_lock_irq(&r->lock);
		r->lost = min_t(u64, (u64)r->lost + lost, U32_MAX);
		spin_unlock_irq(&r->lock);
		return -EFAULT;
	}

	return sizeof(hdr);
}

/* Copies the whole records at @tail that fit in @count bytes */
static ssize_t gb_mon_read_records(struct gb_mon_reader *r,
				   char __user *buf, size_t count)
{
	unsigned long tail = r->tail;
	unsigned long head, pos;
	size_t done = 0, off, first;

	spin_lock_irq(&r->lock);
	head = r->head;
	spin_unlock_irq(&r->lock);

	for (pos = tail; pos != head; ) {
		struct gb_mon_hdr hdr;
		size_t len;

		gb_mon_ring_get(r, pos, &hdr, sizeof(hdr));
		len = gb_mon_record_size(le32_to_cpu(hdr.cap_len));
		if (done + len > count)
			break;
		done += len;
		pos += len;
	}
	if (!done)
		return -EMSGSIZE;

	/* [tail, tail + done) is ours: writers only fill beyond head */
	off = tail & (r->size - 1);
	first = min(done, r->size - off);
	if (copy_to_user(buf, r->ring + off, first) ||
	    copy_to_user(buf + first, r->ring, done - first))
		return -EFAULT;

	spin_lock_irq(&r->lock);
	r->tail += done;
	spin_unlock_irq(&r->lock);

	return done;
}

static ssize_t gb_mon_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	struct gb_mon_reader *r = file->private_data;
	ssize_t ret;
	bool empty, gone;

	if (mutex_lock_interruptible(&r->read_mutex))
		return -ERESTARTSYS;

	for (;;) {
		spin_lock_irq(&r->lock);
		empty = r->head == r->tail;
		gone = r->gone;
		spin_unlock_irq(&r->lock);

		if (!empty) {
			ret = gb_mon_read_records(r, buf, count);
			break;
		}
		ret = gb_mon_read_lost(r, buf, count);
		if (ret)
			break;
		if (gone)
			break;	/* ret is 0: end of file */
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (wait_event_interruptible(r->wait, gb_mon_readable(r))) {
			ret = -ERESTARTSYS;
			break;
		}
	}

	mutex_unlock(&r->read_mutex);
	return ret;
}

static __poll_t gb_mon_poll(struct file *file, poll_table *wait)
{
	struct gb_mon_reader *r = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &r->wait, wait);

	spin_lock_irq(&r->lock);
	if (r->head != r->tail || r->lost)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (r->gone)
		mask |= EPOLLHUP;
	spin_unlock_irq(&r->lock);

	return mask;
}

static const struct file_operations gb_mon_fops = {
	.owner		= THIS_MODULE,
	.open		= gb_mon_open,
	.release	= gb_mon_release,
	.read		= gb_mon_read,
	.poll		= gb_mon_poll,
};

/**
 * gb_mon_init() - create the monitor file of every host device
 * @root: the greybus debugfs directory (an error pointer is ignored)
 *
 * Context: Process context, at module load.
 */
void gb_mon_init(struct dentry *root)
{
	debugfs_create_file("monitor", 0400, root, NULL, &gb_mon_fops);
}

/**
 * gb_mon_hd_add() - create @hd's monitor file in its debugfs directory
 * @hd: the host device
 * @dir: its debugfs directory
 *
 * Context: Process context.
 */
void gb_mon_hd_add(struct gb_host_device *hd, struct dentry *dir)
{
	debugfs_create_file("monitor", 0400, dir, hd, &gb_mon_fops);
}

/**
 * gb_mon_hd_del() - end the readers of @hd's monitor file
 * @hd: the host device
 *
 * Closes the file to new readers, stops recording for the open ones and
 * wakes them: they read what is left, then end of file.  Must come
 * before the file is removed (debugfs waits for reads in progress).
 *
 * Context: Process context; sleeps.
 */
void gb_mon_hd_del(struct gb_host_device *hd)
{
	struct gb_mon_reader *r, *tmp;

	mutex_lock(&gb_mon_mutex);
	hd->monitor_closed = true;
	list_for_each_entry_safe(r, tmp, &gb_mon_readers, links) {
		if (r->bus_id != hd->bus_id)
			continue;
		list_del_rcu(&r->links);
		r->listed = false;
		spin_lock_irq(&r->lock);
		r->gone = true;
		spin_unlock_irq(&r->lock);
		wake_up_interruptible_all(&r->wait);
	}
	mutex_unlock(&gb_mon_mutex);
}
