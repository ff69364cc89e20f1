// SPDX-License-Identifier: GPL-2.0
/*
 * gb-vhd: a Greybus AP bridge played by a userspace process through the
 * misc device /dev/greybus-vhd.  Each open file may own one host device;
 * the process writes what the network sends (RECV) and reads what the AP
 * sends (SEND) plus the host-driver callbacks (CPORT_*).  The ABI is
 * include/uapi/greybus/vhd.h, documented in docs/vhd.md.
 *
 * Objects, lifetime and locking:
 *
 * struct gb_vhd_file is the open file, freed by release().  Its @lock (a
 * mutex) serialises write() and the host device's creation and removal;
 * @hd, @enabled, @rxbuf, @num_cports and @mtu change only under it.  The
 * read queue is protected by @qlock (a spinlock, irq-safe: message_send()
 * may be called in atomic context); @read_lock serialises readers with
 * each other and with the flush on DESTROY, and is never held while
 * waiting for an event.  Lock order: @lock, then @read_lock, then @qlock.
 * @batch (a version 3 host: several events per read() and write()) is
 * written only under @lock, together with @hd; write() reads it under
 * @lock, read() without (READ_ONCE): a read racing CREATE or DESTROY may
 * return one event where it could have returned several, which both
 * ABIs allow.
 *
 * struct gb_vhd_host lives in the host device's hd_priv and may outlive
 * the file: the core holds references of its own.  Its @file points back
 * to the file while the host device is alive, under the host's spinlock,
 * which nests outside @qlock.  Removal clears @file *before* gb_hd_del(),
 * so every callback the core makes during teardown, or later, finds NULL
 * and fails (message_send: -ESHUTDOWN) or does nothing; the file is freed
 * only after that, so no callback can see it freed.
 */
#include <linux/bitmap.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <greybus/bundle.h>
#include <greybus/hd.h>
#include <greybus/interface.h>
#include <greybus/operation.h>
#include <greybus/timesync.h>
#include <uapi/greybus/vhd.h>

#include "vhd.h"

/* One to-user event; @buf is what read() returns */
struct gb_vhd_event {
	struct list_head	node;
	u32			size;	/* header + payload bytes */
	bool			ctrl;	/* may use the control reserve */
	u8			buf[] __aligned(8);
};

struct gb_vhd_file {
	struct mutex		lock;		/* write(), create, remove */
	struct gb_host_device	*hd;		/* NULL: no host device */
	unsigned long		*enabled;	/* CPorts enabled; atomic bitops */
	u8			*rxbuf;		/* RECV staging, @mtu bytes */
	u16			num_cports;
	u16			mtu;
	bool			batch;		/* version 3 host */

	struct mutex		read_lock;	/* readers, flush */
	spinlock_t		qlock;		/* both lists and counts */
	struct list_head	queue;		/* what read() returns next */
	struct list_head	staging;	/* held back while creating */
	bool			staging_on;
	unsigned int		q_events;	/* both lists */
	size_t			q_bytes;
	wait_queue_head_t	waitq;
};

struct gb_vhd_host {
	spinlock_t		lock;		/* @file against removal */
	struct gb_vhd_file	*file;		/* NULL once removal started */
	u32			version;	/* CREATE's; constant */
};

static struct miscdevice gb_vhd_misc;

static struct gb_vhd_host *gb_vhd_host(struct gb_host_device *hd)
{
	return gb_hd_priv(hd);
}

static void *gb_vhd_event_payload(struct gb_vhd_event *ev)
{
	return ev->buf + sizeof(struct gb_vhd_event_hdr);
}

static struct gb_vhd_event *gb_vhd_event_alloc(u32 type, u32 len, bool ctrl,
					       gfp_t gfp)
{
	struct gb_vhd_event_hdr *hdr;
	struct gb_vhd_event *ev;
	u32 size = sizeof(*hdr) + len;

	ev = kmalloc(struct_size(ev, buf, size), gfp);
	if (!ev)
		return NULL;

	ev->size = size;
	ev->ctrl = ctrl;
	hdr = (struct gb_vhd_event_hdr *)ev->buf;
	hdr->type = type;
	hdr->len = len;

	return ev;
}

/* The queue's memory budget; control events may dip into a reserve. */
static bool gb_vhd_queue_has_room(struct gb_vhd_file *f,
				  struct gb_vhd_event *ev)
{
	if (ev->ctrl)
		return f->q_events < GB_VHD_QUEUE_EVENTS_MAX +
				     GB_VHD_QUEUE_CTRL_RESERVE;

	return f->q_events < GB_VHD_QUEUE_EVENTS_MAX &&
	       f->q_bytes + ev->size <= GB_VHD_QUEUE_BYTES_MAX;
}

/*
 * Queues @ev for read(), or fails with -ENOSPC and leaves @ev to the
 * caller.  Events of the host device (@of_host) are held back while it is
 * being created; an ECHO_REPLY never is.
 */
static int gb_vhd_queue(struct gb_vhd_file *f, struct gb_vhd_event *ev,
			bool of_host)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&f->qlock, flags);
	if (!gb_vhd_queue_has_room(f, ev)) {
		ret = -ENOSPC;
		goto out_unlock;
	}

	f->q_events++;
	f->q_bytes += ev->size;
	if (of_host && f->staging_on) {
		list_add_tail(&ev->node, &f->staging);
	} else {
		list_add_tail(&ev->node, &f->queue);
		wake_up_interruptible(&f->waitq);
	}

out_unlock:
	spin_unlock_irqrestore(&f->qlock, flags);

	return ret;
}

static void gb_vhd_events_free(struct list_head *list)
{
	struct gb_vhd_event *ev, *tmp;

	list_for_each_entry_safe(ev, tmp, list, node) {
		list_del(&ev->node);
		kfree(ev);
	}
}

/* Drops both lists; no reader may be in the middle of a dequeue. */
static void gb_vhd_queue_flush(struct gb_vhd_file *f)
{
	LIST_HEAD(dead);

	mutex_lock(&f->read_lock);
	spin_lock_irq(&f->qlock);
	list_splice_init(&f->queue, &dead);
	list_splice_init(&f->staging, &dead);
	f->q_events = 0;
	f->q_bytes = 0;
	spin_unlock_irq(&f->qlock);
	mutex_unlock(&f->read_lock);

	gb_vhd_events_free(&dead);
}

/* Hold events back until the host device is complete, CREATED first. */
static void gb_vhd_staging_start(struct gb_vhd_file *f)
{
	spin_lock_irq(&f->qlock);
	f->staging_on = true;
	spin_unlock_irq(&f->qlock);
}

/* Publishes (@publish) or drops what was staged. */
static void gb_vhd_staging_end(struct gb_vhd_file *f, bool publish)
{
	struct gb_vhd_event *ev;
	LIST_HEAD(dead);

	spin_lock_irq(&f->qlock);
	f->staging_on = false;
	if (publish) {
		list_splice_tail_init(&f->staging, &f->queue);
		wake_up_interruptible(&f->waitq);
	} else {
		list_for_each_entry(ev, &f->staging, node) {
			f->q_events--;
			f->q_bytes -= ev->size;
		}
		list_splice_init(&f->staging, &dead);
	}
	spin_unlock_irq(&f->qlock);

	gb_vhd_events_free(&dead);
}

/*
 * Queues @ev for the file behind @hd, if there still is one; consumes @ev
 * whatever happens.  Any context.  CPORT_ENABLE and CPORT_DISABLE events
 * also track which CPorts RECV may use: the state changes before the
 * event can be read, and @ev must not be touched once queued (a reader
 * may already have freed it).
 */
static int gb_vhd_host_queue(struct gb_host_device *hd,
			     struct gb_vhd_event *ev)
{
	struct gb_vhd_event_hdr *hdr = (struct gb_vhd_event_hdr *)ev->buf;
	struct gb_vhd_host *host = gb_vhd_host(hd);
	struct gb_vhd_cport *cport;
	struct gb_vhd_file *f;
	unsigned long flags;
	u32 type = hdr->type;
	u16 cport_id = 0;
	int ret;

	if (type == GB_VHD_CPORT_ENABLE || type == GB_VHD_CPORT_DISABLE) {
		cport = gb_vhd_event_payload(ev);
		cport_id = cport->cport_id;
	}

	spin_lock_irqsave(&host->lock, flags);
	f = host->file;
	if (!f) {
		ret = -ESHUTDOWN;
		goto out_unlock;
	}

	if (type == GB_VHD_CPORT_DISABLE)
		clear_bit(cport_id, f->enabled);
	if (type == GB_VHD_CPORT_ENABLE)
		set_bit(cport_id, f->enabled);

	ret = gb_vhd_queue(f, ev, true);
	if (ret && type == GB_VHD_CPORT_ENABLE)
		clear_bit(cport_id, f->enabled);

out_unlock:
	spin_unlock_irqrestore(&host->lock, flags);

	if (ret == -ENOSPC)
		dev_warn_ratelimited(&hd->dev,
				     "read queue full, event 0x%02x dropped: is the bridge process reading?\n",
				     type);
	if (ret)
		kfree(ev);

	return ret;
}

/* Host-driver callbacks */

static int gb_vhd_message_send(struct gb_host_device *hd, u16 cport_id,
			       struct gb_message *message, gfp_t gfp_mask)
{
	struct gb_vhd_message *msg;
	struct gb_vhd_event *ev;
	size_t size;
	int ret;

	size = le16_to_cpu(message->header->size);
	ev = gb_vhd_event_alloc(GB_VHD_SEND, sizeof(*msg) + size, false,
				gfp_mask);
	if (!ev)
		return -ENOMEM;

	msg = gb_vhd_event_payload(ev);
	msg->cport_id = cport_id;
	msg->pad = 0;
	memcpy(msg->data, message->header, size);

	ret = gb_vhd_host_queue(hd, ev);
	if (ret)
		return ret;

	/*
	 * Once queued the message is the process's: it is complete, and
	 * message_cancel() has nothing left to cancel.  Completed outside
	 * our locks, as the core may send the next message from here.
	 */
	greybus_message_sent(hd, message, 0);

	return 0;
}

static void gb_vhd_message_cancel(struct gb_message *message)
{
	/* Every message was completed when message_send() queued it. */
}

static int gb_vhd_cport_event(struct gb_host_device *hd, u32 type,
			      u16 cport_id, u32 arg)
{
	struct gb_vhd_cport *cport;
	struct gb_vhd_event *ev;

	if (cport_id >= hd->num_cports)
		return -EINVAL;

	ev = gb_vhd_event_alloc(type, sizeof(*cport), true, GFP_KERNEL);
	if (!ev)
		return -ENOMEM;

	cport = gb_vhd_event_payload(ev);
	cport->cport_id = cport_id;
	cport->pad = 0;
	cport->arg = arg;

	return gb_vhd_host_queue(hd, ev);
}

static int gb_vhd_cport_enable(struct gb_host_device *hd, u16 cport_id,
			       unsigned long flags)
{
	return gb_vhd_cport_event(hd, GB_VHD_CPORT_ENABLE, cport_id,
				  (u32)flags);
}

static int gb_vhd_cport_connected(struct gb_host_device *hd, u16 cport_id)
{
	return gb_vhd_cport_event(hd, GB_VHD_CPORT_CONNECTED, cport_id, 0);
}

/*
 * The teardown callbacks cannot fail in a way the AP could act on: the
 * event is best effort (the queue is full only when the process stopped
 * reading, and gone when the bridge is being unplugged).
 */
static int gb_vhd_cport_disable(struct gb_host_device *hd, u16 cport_id)
{
	gb_vhd_cport_event(hd, GB_VHD_CPORT_DISABLE, cport_id, 0);
	return 0;
}

static int gb_vhd_cport_flush(struct gb_host_device *hd, u16 cport_id)
{
	gb_vhd_cport_event(hd, GB_VHD_CPORT_FLUSH, cport_id, 0);
	return 0;
}

static int gb_vhd_cport_quiesce(struct gb_host_device *hd, u16 cport_id,
				size_t peer_space, unsigned int timeout)
{
	gb_vhd_cport_event(hd, GB_VHD_CPORT_QUIESCE, cport_id,
			   min_t(size_t, peer_space, U32_MAX));
	return 0;
}

static int gb_vhd_cport_clear(struct gb_host_device *hd, u16 cport_id)
{
	gb_vhd_cport_event(hd, GB_VHD_CPORT_CLEAR, cport_id, 0);
	return 0;
}

static int gb_vhd_cport_shutdown(struct gb_host_device *hd, u16 cport_id,
				 u8 phase, unsigned int timeout)
{
	gb_vhd_cport_event(hd, GB_VHD_CPORT_SHUTDOWN, cport_id, phase);
	return 0;
}

/* Version 2 and 3 hosts hear of every bundle, to authorize it or not */
static void gb_vhd_bundle_added(struct gb_host_device *hd,
				struct gb_bundle *bundle)
{
	struct gb_vhd_bundle *b;
	struct gb_vhd_event *ev;

	if (gb_vhd_host(hd)->version < GB_VHD_VERSION_AUTH)
		return;

	ev = gb_vhd_event_alloc(GB_VHD_BUNDLE, sizeof(*b), true, GFP_KERNEL);
	if (!ev)
		return;

	b = gb_vhd_event_payload(ev);
	b->intf_id = bundle->intf->interface_id;
	b->bundle_id = bundle->id;
	b->bundle_class = bundle->class;
	b->authorized = READ_ONCE(bundle->authorized);

	gb_vhd_host_queue(hd, ev);
}

/*
 * Two drivers that differ only in who shuts CPorts down: without
 * cport_shutdown the core sends the CPort Shutdown operation to the
 * module, which is what a plain bridge does (the default); with it the
 * bridge process is told instead (GB_VHD_CREATE_BRIDGE_SHUTDOWN).
 */
#define GB_VHD_DRIVER_COMMON						\
	.hd_priv_size		= sizeof(struct gb_vhd_host),		\
	.cport_enable		= gb_vhd_cport_enable,			\
	.cport_disable		= gb_vhd_cport_disable,			\
	.cport_connected	= gb_vhd_cport_connected,		\
	.cport_flush		= gb_vhd_cport_flush,			\
	.cport_quiesce		= gb_vhd_cport_quiesce,			\
	.cport_clear		= gb_vhd_cport_clear,			\
	.message_send		= gb_vhd_message_send,			\
	.message_cancel		= gb_vhd_message_cancel,		\
	.reset			= gb_vhd_reset,				\
	.bundle_added		= gb_vhd_bundle_added

static const struct gb_hd_driver gb_vhd_driver = {
	GB_VHD_DRIVER_COMMON,
};

static const struct gb_hd_driver gb_vhd_driver_bridge_shutdown = {
	GB_VHD_DRIVER_COMMON,
	.cport_shutdown		= gb_vhd_cport_shutdown,
};

static bool gb_vhd_is_ours(struct gb_host_device *hd)
{
	return hd->driver == &gb_vhd_driver ||
	       hd->driver == &gb_vhd_driver_bridge_shutdown;
}

/**
 * gb_vhd_reset() - ask the bridge process to reset the Greybus network
 * @hd: a host device of gb-vhd
 *
 * Queues a RESET event; the process answers by restarting its SVC (version
 * and hello on CPort 0) and re-inserting its modules.  Any context.
 *
 * Return: 0, -ENODEV if @hd is not ours, -ESHUTDOWN if it is being
 * removed, -ENOMEM or -ENOSPC.
 */
int gb_vhd_reset(struct gb_host_device *hd)
{
	struct gb_vhd_event *ev;

	if (!gb_vhd_is_ours(hd))
		return -ENODEV;

	ev = gb_vhd_event_alloc(GB_VHD_RESET, 0, true, GFP_ATOMIC);
	if (!ev)
		return -ENOMEM;

	return gb_vhd_host_queue(hd, ev);
}
EXPORT_SYMBOL_NS_GPL(gb_vhd_reset, GREYBUS);

/* Events from the process; all under f->lock */

static int gb_vhd_create(struct gb_vhd_file *f, const void __user *ubuf,
			 u32 len)
{
	const struct gb_hd_driver *driver = &gb_vhd_driver;
	struct gb_vhd_created *created;
	struct gb_vhd_event *ev;
	struct gb_host_device *hd;
	struct gb_vhd_create req;
	struct gb_vhd_host *host;
	int ret;

	if (f->hd || len != sizeof(req))
		return -EINVAL;
	if (copy_from_user(&req, ubuf, sizeof(req)))
		return -EFAULT;
	if (req.version < GB_VHD_VERSION ||
	    req.version > GB_VHD_VERSION_MAX ||
	    req.flags & ~GB_VHD_CREATE_FLAGS ||
	    req.num_cports < 1 || req.num_cports > GB_VHD_CPORTS_MAX ||
	    req.mtu < GB_VHD_MTU_MIN)
		return -EINVAL;
	if (req.flags & GB_VHD_CREATE_BRIDGE_SHUTDOWN)
		driver = &gb_vhd_driver_bridge_shutdown;

	f->enabled = bitmap_zalloc(req.num_cports, GFP_KERNEL);
	if (!f->enabled)
		return -ENOMEM;

	f->rxbuf = kvmalloc(req.mtu, GFP_KERNEL);
	if (!f->rxbuf) {
		ret = -ENOMEM;
		goto err_free_enabled;
	}

	ev = gb_vhd_event_alloc(GB_VHD_CREATED, sizeof(*created), true,
				GFP_KERNEL);
	if (!ev) {
		ret = -ENOMEM;
		goto err_free_rxbuf;
	}

	hd = gb_hd_create(driver, gb_vhd_misc.this_device, req.mtu,
			  req.num_cports);
	if (IS_ERR(hd)) {
		ret = PTR_ERR(hd);
		goto err_free_event;
	}

	host = gb_vhd_host(hd);
	spin_lock_init(&host->lock);
	host->file = NULL;
	host->version = req.version;
	f->num_cports = req.num_cports;
	f->mtu = req.mtu;

	created = gb_vhd_event_payload(ev);
	created->bus_id = hd->bus_id;
	gb_vhd_staging_start(f);
	ret = gb_vhd_queue(f, ev, true);
	if (ret)
		goto err_put_hd;
	ev = NULL;	/* the queue owns it */

	/* From here on the core's callbacks reach the file. */
	spin_lock_irq(&host->lock);
	host->file = f;
	spin_unlock_irq(&host->lock);

	ret = gb_hd_add(hd);
	if (ret)
		goto err_unlink_host;

	f->hd = hd;
	WRITE_ONCE(f->batch, req.version >= GB_VHD_VERSION_BATCH);
	gb_vhd_staging_end(f, true);

	return 0;

err_unlink_host:
	spin_lock_irq(&host->lock);
	host->file = NULL;
	spin_unlock_irq(&host->lock);
err_put_hd:
	gb_vhd_staging_end(f, false);
	gb_hd_put(hd);
err_free_event:
	kfree(ev);
err_free_rxbuf:
	kvfree(f->rxbuf);
	f->rxbuf = NULL;
err_free_enabled:
	bitmap_free(f->enabled);
	f->enabled = NULL;

	return ret;
}

/* Unplugs the host device: DESTROY and close() */
static void gb_vhd_remove(struct gb_vhd_file *f)
{
	struct gb_host_device *hd = f->hd;
	struct gb_vhd_host *host = gb_vhd_host(hd);

	spin_lock_irq(&host->lock);
	host->file = NULL;
	spin_unlock_irq(&host->lock);

	gb_hd_del(hd);
	gb_hd_put(hd);

	f->hd = NULL;
	WRITE_ONCE(f->batch, false);
	kvfree(f->rxbuf);
	f->rxbuf = NULL;
	bitmap_free(f->enabled);
	f->enabled = NULL;
}

static int gb_vhd_destroy(struct gb_vhd_file *f, u32 len)
{
	if (!f->hd || len)
		return -EINVAL;

	gb_vhd_remove(f);
	gb_vhd_queue_flush(f);

	return 0;
}

static int gb_vhd_recv(struct gb_vhd_file *f, const void __user *ubuf,
		       u32 len)
{
	char who[GB_HD_CPORT_NAME_MAX];
	struct gb_operation_msg_hdr *header;
	struct gb_vhd_message msg;
	size_t size;

	if (!f->hd || len < sizeof(msg))
		return -EINVAL;
	size = len - sizeof(msg);

	if (copy_from_user(&msg, ubuf, sizeof(msg)))
		return -EFAULT;
	if (msg.pad || msg.cport_id >= f->num_cports)
		return -EINVAL;

	/*
	 * The framing refusals name the connection (or the CPort); the
	 * core's own checks of the same things never see these messages.
	 */
	if (size > f->mtu) {
		gb_hd_cport_name(f->hd, msg.cport_id, who, sizeof(who));
		dev_warn_ratelimited(&f->hd->dev,
				     "%s: %zu-byte message exceeds the mtu of %u, refused\n",
				     who, size, f->mtu);
		return -EINVAL;
	}
	/* CPort 0 carries the SVC connection, which exists from the start. */
	if (msg.cport_id && !test_bit(msg.cport_id, f->enabled)) {
		dev_warn_ratelimited(&f->hd->dev,
				     "cport %u: message for a disabled cport, refused\n",
				     msg.cport_id);
		return -EINVAL;
	}

	if (size < sizeof(*header)) {
		gb_hd_cport_name(f->hd, msg.cport_id, who, sizeof(who));
		dev_warn_ratelimited(&f->hd->dev,
				     "%s: %zu-byte message is shorter than a Greybus header, refused\n",
				     who, size);
		return -EINVAL;
	}

	if (copy_from_user(f->rxbuf, ubuf + sizeof(msg), size))
		return -EFAULT;
	header = (struct gb_operation_msg_hdr *)f->rxbuf;
	if (le16_to_cpu(header->size) != size) {
		gb_hd_cport_name(f->hd, msg.cport_id, who, sizeof(who));
		dev_warn_ratelimited(&f->hd->dev,
				     "%s: header size %u disagrees with the %zu-byte message, refused\n",
				     who, le16_to_cpu(header->size), size);
		return -EINVAL;
	}

	greybus_data_rcvd(f->hd, msg.cport_id, f->rxbuf, size);

	return 0;
}

/*
 * The process latched a TimeSync strobe.  Its clock is ours (the process
 * runs on this machine), so a time still to come is a lie.
 */
static int gb_vhd_strobe(struct gb_vhd_file *f, const void __user *ubuf,
			 u32 len)
{
	struct gb_vhd_strobe strobe;
	u64 now;

	if (!f->hd || len != sizeof(strobe))
		return -EINVAL;
	if (copy_from_user(&strobe, ubuf, sizeof(strobe)))
		return -EFAULT;

	now = ktime_get_ns();
	if (strobe.timestamp_ns > now) {
		dev_warn_ratelimited(&f->hd->dev,
				     "timesync strobe %llu ns in the future, refused\n",
				     strobe.timestamp_ns - now);
		return -EINVAL;
	}

	gb_timesync_strobe(f->hd, strobe.timestamp_ns);

	return 0;
}

/*
 * The process rules its own host: the default for new bundles, and each
 * bundle.  Binding happens on the core's workqueue, since the probe talks
 * to the module through this process.
 */
static int gb_vhd_authorize(struct gb_vhd_file *f, const void __user *ubuf,
			    u32 len)
{
	struct gb_vhd_authorize req;

	if (!f->hd || len != sizeof(req) ||
	    gb_vhd_host(f->hd)->version < GB_VHD_VERSION_AUTH)
		return -EINVAL;
	if (copy_from_user(&req, ubuf, sizeof(req)))
		return -EFAULT;
	if (req.authorized > 1)
		return -EINVAL;

	switch (req.scope) {
	case GB_VHD_AUTH_DEFAULT:
		if (req.intf_id || req.bundle_id)
			return -EINVAL;
		gb_hd_set_authorized_default(f->hd, req.authorized);
		return 0;
	case GB_VHD_AUTH_BUNDLE:
		return gb_hd_bundle_authorize(f->hd, req.intf_id,
					      req.bundle_id, req.authorized);
	default:
		return -EINVAL;
	}
}

/* Needs no host device and no f->lock: it only touches the queue. */
static int gb_vhd_echo(struct gb_vhd_file *f, const void __user *ubuf,
		       u32 len)
{
	struct gb_vhd_event *ev;
	int ret;

	ev = gb_vhd_event_alloc(GB_VHD_ECHO_REPLY, len, false, GFP_KERNEL);
	if (!ev)
		return -ENOMEM;

	if (copy_from_user(gb_vhd_event_payload(ev), ubuf, len)) {
		ret = -EFAULT;
		goto err_free;
	}

	ret = gb_vhd_queue(f, ev, false);
	if (ret)
		goto err_free;

	return 0;

err_free:
	kfree(ev);

	return ret;
}

/* File operations */

static int gb_vhd_open(struct inode *inode, struct file *file)
{
	struct gb_vhd_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;

	mutex_init(&f->lock);
	mutex_init(&f->read_lock);
	spin_lock_init(&f->qlock);
	INIT_LIST_HEAD(&f->queue);
	INIT_LIST_HEAD(&f->staging);
	init_waitqueue_head(&f->waitq);

	file->private_data = f;

	return stream_open(inode, file);
}

static int gb_vhd_release(struct inode *inode, struct file *file)
{
	struct gb_vhd_file *f = file->private_data;

	mutex_lock(&f->lock);
	if (f->hd)
		gb_vhd_remove(f);
	mutex_unlock(&f->lock);

	gb_vhd_queue_flush(f);
	mutex_destroy(&f->read_lock);
	mutex_destroy(&f->lock);
	kfree(f);

	return 0;
}

static bool gb_vhd_readable(struct gb_vhd_file *f)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&f->qlock, flags);
	ret = !list_empty(&f->queue);
	spin_unlock_irqrestore(&f->qlock, flags);

	return ret;
}

/*
 * Takes the next event off the queue if it fits in @count bytes.  Returns
 * it, NULL if the queue is empty, or an ERR_PTR(-EMSGSIZE).
 */
static struct gb_vhd_event *gb_vhd_dequeue(struct gb_vhd_file *f,
					   size_t count)
{
	struct gb_vhd_event *ev;

	spin_lock_irq(&f->qlock);
	ev = list_first_entry_or_null(&f->queue, struct gb_vhd_event, node);
	if (ev && ev->size > count) {
		ev = ERR_PTR(-EMSGSIZE);
	} else if (ev) {
		list_del(&ev->node);
		f->q_events--;
		f->q_bytes -= ev->size;
	}
	spin_unlock_irq(&f->qlock);

	return ev;
}

/*
 * Version 3: takes events off the queue, oldest first, onto @taken, as
 * many as fit in @count bytes together.  Returns their bytes, 0 if the
 * queue is empty, or -EMSGSIZE if the oldest does not fit alone (it
 * stays queued).
 */
static ssize_t gb_vhd_dequeue_batch(struct gb_vhd_file *f, size_t count,
				    struct list_head *taken)
{
	struct gb_vhd_event *ev, *tmp;
	size_t bytes = 0;

	spin_lock_irq(&f->qlock);
	list_for_each_entry_safe(ev, tmp, &f->queue, node) {
		if (ev->size > count - bytes)
			break;
		list_move_tail(&ev->node, taken);
		f->q_events--;
		f->q_bytes -= ev->size;
		bytes += ev->size;
	}
	if (!bytes && !list_empty(&f->queue))
		bytes = -EMSGSIZE;
	spin_unlock_irq(&f->qlock);

	return bytes;
}

/* Puts back, in their place, events read() could not deliver. */
static void gb_vhd_requeue(struct gb_vhd_file *f, struct list_head *events)
{
	struct gb_vhd_event *ev;

	spin_lock_irq(&f->qlock);
	list_for_each_entry(ev, events, node) {
		f->q_events++;
		f->q_bytes += ev->size;
	}
	list_splice(events, &f->queue);
	spin_unlock_irq(&f->qlock);
}

/*
 * Copies the events on @taken to @ubuf back-to-back and frees them.  An
 * event that faults goes back to the queue with those after it; returns
 * the bytes copied before it, or -EFAULT if none were.
 */
static ssize_t gb_vhd_deliver(struct gb_vhd_file *f, char __user *ubuf,
			      struct list_head *taken)
{
	struct gb_vhd_event *ev, *tmp;
	size_t done = 0;

	list_for_each_entry_safe(ev, tmp, taken, node) {
		if (copy_to_user(ubuf + done, ev->buf, ev->size)) {
			gb_vhd_requeue(f, taken);
			return done ? done : -EFAULT;
		}
		done += ev->size;
		list_del(&ev->node);
		kfree(ev);
	}

	return done;
}

/* Version 3: as many whole events as fit; under f->read_lock */
static ssize_t gb_vhd_read_batch(struct gb_vhd_file *f, char __user *ubuf,
				 size_t count)
{
	LIST_HEAD(taken);
	ssize_t ret;

	ret = gb_vhd_dequeue_batch(f, count, &taken);
	if (ret > 0)
		ret = gb_vhd_deliver(f, ubuf, &taken);

	return ret;
}

/* One event; under f->read_lock.  0: nothing queued. */
static ssize_t gb_vhd_read_one(struct gb_vhd_file *f, char __user *ubuf,
			       size_t count)
{
	struct gb_vhd_event *ev;
	ssize_t ret;

	ev = gb_vhd_dequeue(f, count);
	if (IS_ERR_OR_NULL(ev))
		return PTR_ERR_OR_ZERO(ev);

	if (copy_to_user(ubuf, ev->buf, ev->size)) {
		spin_lock_irq(&f->qlock);
		list_add(&ev->node, &f->queue);
		f->q_events++;
		f->q_bytes += ev->size;
		spin_unlock_irq(&f->qlock);
		return -EFAULT;
	}
	ret = ev->size;
	kfree(ev);

	return ret;
}

static ssize_t gb_vhd_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct gb_vhd_file *f = file->private_data;
	ssize_t ret;

	for (;;) {
		ret = mutex_lock_interruptible(&f->read_lock);
		if (ret)
			return ret;

		if (READ_ONCE(f->batch))
			ret = gb_vhd_read_batch(f, ubuf, count);
		else
			ret = gb_vhd_read_one(f, ubuf, count);
		if (ret)
			break;
		mutex_unlock(&f->read_lock);

		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(f->waitq, gb_vhd_readable(f));
		if (ret)
			return ret;
	}

	mutex_unlock(&f->read_lock);

	return ret;
}

/* One event from the process, whatever the ABI; under f->lock */
static int gb_vhd_dispatch(struct gb_vhd_file *f, u32 type,
			   const void __user *payload, u32 len)
{
	switch (type) {
	case GB_VHD_CREATE:
		return gb_vhd_create(f, payload, len);
	case GB_VHD_DESTROY:
		return gb_vhd_destroy(f, len);
	case GB_VHD_RECV:
		return gb_vhd_recv(f, payload, len);
	case GB_VHD_TIMESYNC_STROBE:
		return gb_vhd_strobe(f, payload, len);
	case GB_VHD_AUTHORIZE:
		return gb_vhd_authorize(f, payload, len);
	case GB_VHD_ECHO_REQUEST:
		return gb_vhd_echo(f, payload, len);
	default:
		return -EINVAL;
	}
}

/* Versions 1 and 2, and any file without a host: one whole event */
static ssize_t gb_vhd_write_one(struct gb_vhd_file *f,
				const char __user *ubuf, size_t count)
{
	struct gb_vhd_event_hdr hdr;
	const char __user *payload = ubuf + sizeof(hdr);
	int ret;

	if (count < sizeof(hdr) || count > GB_VHD_EVENT_SIZE_MAX)
		return -EINVAL;
	if (copy_from_user(&hdr, ubuf, sizeof(hdr)))
		return -EFAULT;
	if (hdr.len != count - sizeof(hdr))
		return -EINVAL;

	if (hdr.type == GB_VHD_ECHO_REQUEST) {
		ret = gb_vhd_echo(f, payload, hdr.len);
		return ret ? ret : count;
	}

	ret = mutex_lock_interruptible(&f->lock);
	if (ret)
		return ret;
	ret = gb_vhd_dispatch(f, hdr.type, payload, hdr.len);
	mutex_unlock(&f->lock);

	return ret ? ret : count;
}

/*
 * Version 3: whole events back-to-back, taken in order.  The first one
 * refused (bad framing included) stops the write: it and everything after
 * it are not consumed, and write() returns the bytes of the events before
 * it, or the refusal's error if it was the first.  DESTROY ends the batch
 * the same way (the file is back to one event per write).  Under f->lock.
 */
static ssize_t gb_vhd_write_batch(struct gb_vhd_file *f,
				  const char __user *ubuf, size_t count)
{
	struct gb_vhd_event_hdr hdr = { };
	unsigned int i;
	size_t done;
	int ret = 0;

	for (i = 0, done = 0; done < count && f->batch; i++) {
		if (count - done < sizeof(hdr)) {
			ret = -EINVAL;
			break;
		}
		if (copy_from_user(&hdr, ubuf + done, sizeof(hdr))) {
			ret = -EFAULT;
			break;
		}
		if (hdr.len > count - done - sizeof(hdr) ||
		    hdr.len > GB_VHD_EVENT_SIZE_MAX - sizeof(hdr)) {
			ret = -EINVAL;
			break;
		}

		ret = gb_vhd_dispatch(f, hdr.type, ubuf + done + sizeof(hdr),
				      hdr.len);
		if (ret)
			break;
		done += sizeof(hdr) + hdr.len;
		cond_resched();
	}

	/*
	 * Malformed events are named, and so is any refusal after the first
	 * event: the short count alone does not say why.
	 */
	if (ret == -EINVAL || (ret && ret != -EFAULT && i))
		dev_warn_ratelimited(&f->hd->dev,
				     "write: event %u (type 0x%x, %u bytes) at byte %zu refused (%d); it and the %zu bytes after it not consumed\n",
				     i, hdr.type, hdr.len, done, ret,
				     count - done);

	return done ? done : ret;
}

static ssize_t gb_vhd_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct gb_vhd_file *f = file->private_data;
	ssize_t ret;

	/* Only a version 3 host's file takes the lock up front. */
	if (!READ_ONCE(f->batch))
		return gb_vhd_write_one(f, ubuf, count);

	ret = mutex_lock_interruptible(&f->lock);
	if (ret)
		return ret;
	if (f->batch) {
		ret = gb_vhd_write_batch(f, ubuf, count);
		mutex_unlock(&f->lock);
		return ret;
	}
	mutex_unlock(&f->lock);

	/* DESTROY came first: the one-event ABI again */
	return gb_vhd_write_one(f, ubuf, count);
}

static __poll_t gb_vhd_poll(struct file *file, poll_table *wait)
{
	struct gb_vhd_file *f = file->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;	/* write() never blocks */

	poll_wait(file, &f->waitq, wait);
	if (gb_vhd_readable(f))
		mask |= EPOLLIN | EPOLLRDNORM;

	return mask;
}

static const struct file_operations gb_vhd_fops = {
	.owner		= THIS_MODULE,
	.open		= gb_vhd_open,
	.release	= gb_vhd_release,
	.read		= gb_vhd_read,
	.write		= gb_vhd_write,
	.poll		= gb_vhd_poll,
};

static struct miscdevice gb_vhd_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= GB_VHD_DEVICE_NAME,
	.fops		= &gb_vhd_fops,
	.mode		= 0600,
};
module_misc_device(gb_vhd_misc);

MODULE_DESCRIPTION("Greybus AP bridge backed by a userspace process");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
