// SPDX-License-Identifier: GPL-2.0
/*
 * gb-hdlc: a Greybus host device over an HDLC-framed serial link, the
 * link BeaglePlay's CC1352 and Zephyr's UART transport speak (framing in
 * greybus/hdlc_frame.h, the whole story in docs/hdlc.md).  This file is
 * the link core: the host device, the transmit queue, the receive
 * dispatch and the statistics.  The line discipline and the serdev driver
 * only move bytes.
 *
 * Objects, lifetime and locking:
 *
 * struct gb_hdlc_link is allocated on its own; the host device's hd_priv
 * holds a pointer to it.  The port side owns the link: create, start,
 * stop, destroy (or close, which ends in destroy on a work item).
 * gb_hdlc_link_destroy() frees the link first and drops
 * its reference to the host device last, so a host device may outlive
 * its link (someone else may still hold a reference).  That is safe
 * because nothing reaches the link through the host device any more by
 * then: gb_hd_del() has returned (no connection, so no message_send()
 * or message_cancel() call, and the hdlc/ group, which the core created
 * with the device, is gone, sysfs having waited for its readers), the
 * port side calls neither receive nor write-wakeup after destroy (the
 * tty core, or serdev_device_close(), guarantee it), and destroy waits
 * for the link's own work items.
 *
 * Receive runs in the port's receive context (tty flip-buffer work or
 * serdev), one call at a time, under @rx_lock, and touches only @rx and
 * the rx counters; it allocates nothing and never sleeps.  A good
 * Greybus frame goes to the core with the frame's own length, after its
 * header's size has been checked against it.  Receive may go on after
 * gb_hdlc_link_stop() (serdev delivers bytes until serdev_device_close());
 * @closing, set under @rx_lock at the start of the stop, makes it drop
 * everything from then on, so that nothing it sees can queue
 * @reset_work once the stop has cancelled it.
 *
 * Transmit: message_send() encodes the message into a buffer of its own
 * and queues it under @tx_lock (irq-safe: message_send() may be called in
 * atomic context).  @tx_work hands queued bytes to the port outside the
 * lock, as much as the port takes, and waits for the port's write-wakeup
 * when it is full; it never sleeps under a spinlock.  A message is
 * reported sent once its last byte is in the port's hands.  @tx_busy is
 * the buffer the work is writing from, outside the lock: a cancel leaves
 * it alone and marks it @abort instead, and the work then ends the frame
 * with an escape and a flag, which makes the peer drop it.
 *
 * Closing (the line discipline): gb_hdlc_link_close() runs under the
 * tty's own locks (its legacy mutex and its ldisc semaphore), so it must
 * not remove the host device there: a gb-uart below it hangs its own tty
 * up, which takes the same kinds of lock of another tty (lockdep:
 * "possible recursive locking"), and waiting for a work item that does
 * would be the same dependency: so it waits neither for gb_hd_del() nor
 * for @reset_work, which calls it.  It sets @closing (no restart begins
 * from then on, and a running one's gb_hdlc_link_start() refuses to start
 * again), does what needs the port (SVC_STOP unless a restart in progress
 * sends its own, then @tx_halted: the port is never written again) and
 * hands the rest, waiting for @reset_work, gb_hd_del() and the link's
 * freeing, to @close_work on gb_hdlc_wq, which it does not wait for;
 * module exit drains that queue.
 *
 * Stopping: SVC_STOP is queued and pushed out, then @stopping makes every
 * new message fail at once (-ESHUTDOWN), then gb_hd_del() tears the tree
 * down while the link still completes what it was given.  Last the queue
 * is purged: @tx_halted, set under @tx_lock before the work is cancelled,
 * makes a @tx_work that a write-wakeup schedules again return without
 * touching the queue, so nothing writes from, or unlinks, a frame the
 * purge frees.  Only gb_hdlc_link_start() clears it.
 *
 * The peer starting over (a protocol version request on the SVC CPort
 * after its hello, or a second one before it: a request the peer sent to
 * the link before an unbind can still be in the UART's buffers and be
 * taken as the first after the next start, while the peer, rebooted,
 * sends its own later) cannot be answered by the core, whose SVC is past
 * that point: @reset_work stops the link and starts it again with a new host
 * device, so the peer sees SVC_STOP then SVC_START and the tree is
 * enumerated afresh.  @hd changes only there, under @rx_lock, which the
 * receive path holds while it uses @hd; Greybus frames that arrive while
 * @resetting are dropped.
 *
 * Starting, and the core's network reset (.reset), send SVC_STOP then
 * SVC_START (a CC1352 still running from this host's previous boot stays
 * silent at a start alone) and arm @start_work, which does it again if
 * the receive path has not seen the SVC's version request (@svc_version,
 * under @rx_lock) in time.  @idle_work sends one flag a while after a
 * burst of frames (a CC1352's receive ring may hold the last frame until
 * a byte after it comes).  Both are cancelled when the link goes down,
 * again after gb_hd_del(), whose network reset may have armed them.
 * Neither is armed once @tx_halted is set (a restart's frames are then
 * refused with -ESHUTDOWN, and @tx_work arms @idle_work only on a queue
 * that is not halted), so destroy cancels them for good after the purge;
 * one still pending after a line discipline's close runs harmlessly
 * (its frame refused) until @close_work destroys the link.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <greybus/connection.h>
#include <greybus/hd.h>
#include <greybus/operation.h>
#include <uapi/greybus/svc.h>

#include "hdlc.h"

static unsigned int gb_hdlc_mtu;
module_param_named(mtu, gb_hdlc_mtu, uint, 0644);
MODULE_PARM_DESC(mtu, "largest Greybus message toward the peer on a new link, header included (64..4096; 0, the default: the peer's own limit, 250 for a CC1352)");

static unsigned int gb_hdlc_start_timeout_ms = 10000;
module_param_named(start_timeout_ms, gb_hdlc_start_timeout_ms, uint, 0644);
MODULE_PARM_DESC(start_timeout_ms, "SVC_STOP and SVC_START again when the peer's SVC has not asked for a version this long after SVC_START (ms, over the CC1352's 5 s after a boot; 0: never)");

static unsigned int gb_hdlc_idle_flag_ms = 20;
module_param_named(idle_flag_ms, gb_hdlc_idle_flag_ms, uint, 0644);
MODULE_PARM_DESC(idle_flag_ms, "one idle flag this long after a burst of frames, for a receive ring that holds the last frame (ms; 0: none)");

/**
 * gb_hdlc_peer_mtu() - the largest message toward a new link's peer
 * @peer: what the peer takes (its binding says, or GB_HDLC_MTU_CC1352)
 *
 * Return: the module parameter "mtu" if set, else @peer.
 */
size_t gb_hdlc_peer_mtu(size_t peer)
{
	unsigned int mtu = READ_ONCE(gb_hdlc_mtu);

	return mtu ? mtu : peer;
}

/* One frame on its way to the wire */
struct gb_hdlc_txbuf {
	struct list_head	node;
	struct gb_message	*msg;	/* NULL: not a message, or cancelled */
	size_t			len;	/* bytes of @data to send */
	size_t			off;	/* bytes already handed to the port */
	bool			abort;	/* cancelled while partly sent */
	bool			idle;	/* an idle flag, not a frame */
	u8			data[];	/* the frame, plus the abort's room */
};

/*
 * A frame cut short: an escape and a flag abort it; the CC1352 keeps the
 * escape across that flag, so a filler byte takes it and a flag ends the
 * one-byte frame, which every peer drops as too short.
 */
static const u8 gb_hdlc_abort_seq[] = {
	GB_HDLC_ESCAPE, GB_HDLC_FLAG, 0x00, GB_HDLC_FLAG,
};

/*
 * Peer debug text kept per link: the receive context is the only user.
 * Longer text is cut.
 */
#define GB_HDLC_DEBUG_MAX	160

struct gb_hdlc_link {
	struct gb_host_device	*hd;
	const struct gb_hdlc_link_ops *ops;
	void			*priv;
	size_t			mtu;	/* toward the peer */
	size_t			mru;	/* from the peer */
	char			port[32];
	bool			added;

	struct gb_hdlc_rx	rx;	/* receive context only */
	bool			rx_synced;	/* a good frame came */
	char			debug[GB_HDLC_DEBUG_MAX];	/* ditto */
	spinlock_t		rx_lock;	/* @hd against a reset */
	bool			svc_version;	/* the SVC asked a version */
	bool			svc_hello;	/* the SVC said hello */
	bool			resetting;
	bool			closing;	/* stopping for good */
	struct work_struct	reset_work;
	struct delayed_work	start_work;	/* no version came */

	spinlock_t		tx_lock;	/* all of the below */
	struct list_head	tx_queue;
	unsigned int		tx_queued;
	struct gb_hdlc_txbuf	*tx_busy;
	bool			tx_burst;	/* frames since the idle flag */
	bool			stopping;
	bool			tx_halted;	/* the work leaves the queue */
	struct work_struct	tx_work;
	struct delayed_work	idle_work;	/* the idle flag */
	struct work_struct	close_work;	/* gb_hdlc_link_close() */

	struct gb_hdlc_stats	stats;

	u8			rxbuf[];	/* rx.size bytes */
};

static struct device *gb_hdlc_root_dev;
/* Host devices of closed line disciplines being removed; exit drains it */
static struct workqueue_struct *gb_hdlc_wq;

/*
 * Test points: kernel/testing/hdlc_selftest.c builds this file with
 * GB_HDLC_SELFTEST defined and provides the hook, which opens the race
 * windows on purpose; the module has none.
 */
enum gb_hdlc_hook {
	GB_HDLC_HOOK_TX_PURGE,		/* the queue is about to be purged */
};

#ifdef GB_HDLC_SELFTEST
static void gb_hdlc_test_hook(struct gb_hdlc_link *link,
			      enum gb_hdlc_hook where);
#else
static inline void gb_hdlc_test_hook(struct gb_hdlc_link *link,
				     enum gb_hdlc_hook where)
{
}
#endif

static void gb_hdlc_reset_work(struct work_struct *work);
static void gb_hdlc_start_work(struct work_struct *work);
static void gb_hdlc_idle_work(struct work_struct *work);
static void gb_hdlc_close_work(struct work_struct *work);

/**
 * gb_hdlc_root() - the parent of links whose port has no device
 *
 * Return: the "gb-hdlc" root device (pseudo-terminals have no device of
 * their own to hang a host device under).
 */
struct device *gb_hdlc_root(void)
{
	return gb_hdlc_root_dev;
}

static struct gb_hdlc_link *gb_hdlc_link_of(struct gb_host_device *hd)
{
	return *(struct gb_hdlc_link **)gb_hd_priv(hd);
}

/**
 * gb_hdlc_link_priv() - the port side's data given to gb_hdlc_link_create()
 * @link: the link
 *
 * Return: that pointer.
 */
void *gb_hdlc_link_priv(struct gb_hdlc_link *link)
{
	return link->priv;
}

/* Each counter has one writer; sysfs reads it without a lock */
static inline void gb_hdlc_stat_add(unsigned long *counter, unsigned long n)
{
	WRITE_ONCE(*counter, *counter + n);
}

/* Transmit */

static struct gb_hdlc_txbuf *gb_hdlc_txbuf_build(u8 addr, const void *head,
						 size_t head_len,
						 const void *body,
						 size_t body_len, gfp_t gfp)
{
	size_t max = GB_HDLC_ENCODED_MAX(head_len + body_len);
	struct gb_hdlc_txbuf *tb;

	tb = kmalloc(struct_size(tb, data, max + sizeof(gb_hdlc_abort_seq)),
		     gfp);
	if (!tb)
		return NULL;
	tb->msg = NULL;
	tb->off = 0;
	tb->abort = false;
	tb->idle = false;
	tb->len = gb_hdlc_encode(tb->data, max, addr, GB_HDLC_CTRL_UI,
				 head, head_len, body, body_len);
	return tb;
}

/* Queue @tb unless stopping; the caller keeps it on failure */
static int gb_hdlc_tx_queue(struct gb_hdlc_link *link,
			    struct gb_hdlc_txbuf *tb, struct gb_message *msg,
			    bool force)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&link->tx_lock, flags);
	if ((link->stopping && !force) || link->tx_halted) {
		ret = -ESHUTDOWN;
	} else if (link->tx_queued >= GB_HDLC_TX_QUEUE_MAX && !force) {
		ret = -ENOBUFS;
	} else {
		tb->msg = msg;
		if (msg)
			msg->hcpriv = tb;
		list_add_tail(&tb->node, &link->tx_queue);
		link->tx_queued++;
	}
	spin_unlock_irqrestore(&link->tx_lock, flags);

	if (!ret)
		schedule_work(&link->tx_work);
	return ret;
}

static int gb_hdlc_send_control(struct gb_hdlc_link *link, u8 what,
				bool force);

/* SVC_STOP then SVC_START: a peer whose SVC runs starts it over */
static int gb_hdlc_send_restart(struct gb_hdlc_link *link)
{
	unsigned int ms = READ_ONCE(gb_hdlc_start_timeout_ms);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&link->rx_lock, flags);
	link->svc_version = false;
	link->svc_hello = false;
	spin_unlock_irqrestore(&link->rx_lock, flags);

	ret = gb_hdlc_send_control(link, GB_HDLC_CONTROL_SVC_STOP, false);
	if (!ret)
		ret = gb_hdlc_send_control(link, GB_HDLC_CONTROL_SVC_START,
					   false);
	/* a start that could not be queued is tried again too */
	if (ret != -ESHUTDOWN && ms)
		mod_delayed_work(system_wq, &link->start_work,
				 msecs_to_jiffies(ms));
	return ret;
}

/* A control frame; @force: even while stopping or with a full queue */
static int gb_hdlc_send_control(struct gb_hdlc_link *link, u8 what,
				bool force)
{
	struct gb_hdlc_txbuf *tb;
	int ret;

	tb = gb_hdlc_txbuf_build(GB_HDLC_ADDR_CONTROL, &what, 1, NULL, 0,
				 GFP_KERNEL);
	if (!tb)
		return -ENOMEM;
	ret = gb_hdlc_tx_queue(link, tb, NULL, force);
	if (ret)
		kfree(tb);
	return ret;
}

/* Under @tx_lock: @tb leaves the queue */
static void gb_hdlc_tx_unlink(struct gb_hdlc_link *link,
			      struct gb_hdlc_txbuf *tb)
{
	list_del(&tb->node);
	link->tx_queued--;
}

/* Under @tx_lock: the message of @tb, detached from it, or NULL */
static struct gb_message *gb_hdlc_tx_detach(struct gb_hdlc_txbuf *tb)
{
	struct gb_message *msg = tb->msg;

	if (msg) {
		msg->hcpriv = NULL;
		tb->msg = NULL;
	}
	return msg;
}

static void gb_hdlc_tx_work(struct work_struct *work)
{
	struct gb_hdlc_link *link = container_of(work, struct gb_hdlc_link,
						 tx_work);
	struct gb_hdlc_txbuf *tb;
	struct gb_message *msg;
	unsigned long flags;
	int n;

	for (;;) {
		spin_lock_irqsave(&link->tx_lock, flags);
		tb = list_first_entry_or_null(&link->tx_queue,
					      struct gb_hdlc_txbuf, node);
		if (!tb || link->tx_halted) {
			/* a burst ended: one flag a little later */
			if (!link->tx_halted && link->tx_burst &&
			    !link->stopping && READ_ONCE(gb_hdlc_idle_flag_ms))
				mod_delayed_work(system_wq, &link->idle_work,
						 msecs_to_jiffies(READ_ONCE(gb_hdlc_idle_flag_ms)));
			link->tx_burst = false;
			spin_unlock_irqrestore(&link->tx_lock, flags);
			return;
		}
		if (tb->abort) {
			tb->abort = false;
			if (!tb->off) {
				/* nothing of it reached the wire */
				gb_hdlc_tx_unlink(link, tb);
				spin_unlock_irqrestore(&link->tx_lock, flags);
				kfree(tb);
				continue;
			}
			/* the peer drops the frame and takes the next one */
			memcpy(tb->data + tb->off, gb_hdlc_abort_seq,
			       sizeof(gb_hdlc_abort_seq));
			tb->len = tb->off + sizeof(gb_hdlc_abort_seq);
		}
		link->tx_busy = tb;
		spin_unlock_irqrestore(&link->tx_lock, flags);

		n = link->ops->write(link, tb->data + tb->off, tb->len - tb->off);

		spin_lock_irqsave(&link->tx_lock, flags);
		link->tx_busy = NULL;
		if (n < 0) {
			gb_hdlc_tx_unlink(link, tb);
			msg = gb_hdlc_tx_detach(tb);
			gb_hdlc_stat_add(&link->stats.tx_errors, 1);
			spin_unlock_irqrestore(&link->tx_lock, flags);
			dev_err_ratelimited(&link->hd->dev,
					    "%s: write failed: %d\n",
					    link->port, n);
			if (msg)
				greybus_message_sent(link->hd, msg, n);
			kfree(tb);
			continue;
		}
		tb->off += min_t(size_t, n, tb->len - tb->off);
		gb_hdlc_stat_add(&link->stats.tx_bytes, n);
		if (tb->off < tb->len) {
			/* the port is full: its write-wakeup brings us back */
			spin_unlock_irqrestore(&link->tx_lock, flags);
			return;
		}
		gb_hdlc_tx_unlink(link, tb);
		msg = gb_hdlc_tx_detach(tb);
		if (!tb->idle) {
			gb_hdlc_stat_add(&link->stats.tx_frames, 1);
			link->tx_burst = true;
		}
		spin_unlock_irqrestore(&link->tx_lock, flags);
		if (msg)
			greybus_message_sent(link->hd, msg, 0);
		kfree(tb);
	}
}

/*
 * A burst of frames ended a while ago: one flag, idle fill to any peer.
 * The CC1352's receive ring may hold the last frame until a byte after
 * it comes (docs/hdlc.md); on an idle link that byte is this flag.
 */
static void gb_hdlc_idle_work(struct work_struct *work)
{
	struct gb_hdlc_link *link = container_of(to_delayed_work(work),
						 struct gb_hdlc_link,
						 idle_work);
	struct gb_hdlc_txbuf *tb;

	tb = kmalloc(struct_size(tb, data, 1), GFP_KERNEL);
	if (!tb)
		return;
	tb->msg = NULL;
	tb->off = 0;
	tb->abort = false;
	tb->idle = true;
	tb->data[0] = GB_HDLC_FLAG;
	tb->len = 1;
	if (gb_hdlc_tx_queue(link, tb, NULL, false))
		kfree(tb);
}

/**
 * gb_hdlc_link_write_wakeup() - the port has room again
 * @link: the link
 *
 * Context: any, including atomic.
 */
void gb_hdlc_link_write_wakeup(struct gb_hdlc_link *link)
{
	schedule_work(&link->tx_work);
}

/* Host-driver callbacks */

static int gb_hdlc_message_send(struct gb_host_device *hd, u16 cport_id,
				struct gb_message *message, gfp_t gfp_mask)
{
	struct gb_hdlc_link *link = gb_hdlc_link_of(hd);
	size_t size = le16_to_cpu(message->header->size);
	struct gb_hdlc_txbuf *tb;
	__le16 cport = cpu_to_le16(cport_id);
	int ret;

	if (size > link->mtu) {
		/* the core builds none; a peer would drop it (docs/hdlc.md) */
		dev_err_ratelimited(&hd->dev,
				    "%s: %zu-byte message refused: the peer takes %zu at most\n",
				    link->port, size, link->mtu);
		return -EMSGSIZE;
	}

	tb = gb_hdlc_txbuf_build(GB_HDLC_ADDR_GREYBUS, &cport, sizeof(cport),
				 message->header, size, gfp_mask);
	if (!tb)
		return -ENOMEM;
	ret = gb_hdlc_tx_queue(link, tb, message, false);
	if (ret)
		kfree(tb);
	return ret;
}

static void gb_hdlc_message_cancel(struct gb_message *message)
{
	struct gb_host_device *hd = message->operation->connection->hd;
	struct gb_hdlc_link *link = gb_hdlc_link_of(hd);
	struct gb_hdlc_txbuf *tb, *unsent = NULL;
	unsigned long flags;

	spin_lock_irqsave(&link->tx_lock, flags);
	tb = message->hcpriv;
	if (!tb) {
		/* already completed */
		spin_unlock_irqrestore(&link->tx_lock, flags);
		return;
	}
	gb_hdlc_tx_detach(tb);
	gb_hdlc_stat_add(&link->stats.tx_cancelled, 1);
	if (tb != link->tx_busy && !tb->off) {
		gb_hdlc_tx_unlink(link, tb);
		unsent = tb;
	} else {
		tb->abort = true;
	}
	spin_unlock_irqrestore(&link->tx_lock, flags);

	kfree(unsent);
	if (!unsent)
		schedule_work(&link->tx_work);
	greybus_message_sent(hd, message, -ECANCELED);
}

/*
 * The core resets the network (the SVC watchdog bit): the peer's SVC
 * stops and starts again, then says version and hello to the same host
 * device.  The peer does not announce again modules it still has.
 */
static int gb_hdlc_reset(struct gb_host_device *hd)
{
	struct gb_hdlc_link *link = gb_hdlc_link_of(hd);

	dev_info(&hd->dev, "%s: resetting the peer's SVC\n", link->port);
	return gb_hdlc_send_restart(link);
}

/* Receive */

/* Log one line of the peer's text, if it has any */
static void gb_hdlc_debug_line(struct gb_hdlc_link *link, size_t n,
			       bool cut)
{
	while (n && link->debug[n - 1] == ' ')
		n--;
	if (!n)
		return;
	link->debug[n] = '\0';
	dev_info_ratelimited(&link->hd->dev, "%s: peer: %s%s\n", link->port,
			     link->debug, cut ? "..." : "");
}

/*
 * Peer text for the log, a line at a time: ANSI escape sequences (a
 * Zephyr log's colours: ESC [ parameters final-byte) left out, other
 * control bytes shown as '.', each line cut at GB_HDLC_DEBUG_MAX.
 */
static void gb_hdlc_rx_debug(struct gb_hdlc_link *link, const u8 *p,
			     size_t len)
{
	enum { TEXT, ESC, CSI } state = TEXT;
	size_t i, n = 0;
	bool cut = false;

	gb_hdlc_stat_add(&link->stats.rx_debug, 1);
	for (i = 0; i < len; i++) {
		u8 c = p[i];

		if (state == ESC) {
			state = c == '[' ? CSI : TEXT;
			continue;
		}
		if (state == CSI) {
			if (c >= 0x40 && c <= 0x7e)
				state = TEXT;
			continue;
		}
		if (c == 0x1b) {
			state = ESC;
		} else if (c == '\n' || c == '\r') {
			gb_hdlc_debug_line(link, n, cut);
			n = 0;
			cut = false;
		} else if (n < sizeof(link->debug) - 1) {
			link->debug[n++] = isprint(c) ? c : '.';
		} else {
			cut = true;
		}
	}
	gb_hdlc_debug_line(link, n, cut);
}

static void gb_hdlc_rx_drop(struct gb_hdlc_link *link, const char *why,
			    size_t len)
{
	gb_hdlc_stat_add(&link->stats.rx_dropped, 1);
	dev_warn_ratelimited(&link->hd->dev, "%s: %zu-byte frame dropped: %s\n",
			     link->port, len, why);
}

static void gb_hdlc_rx_greybus(struct gb_hdlc_link *link, u8 *p, size_t len)
{
	struct gb_operation_msg_hdr *hdr;
	u16 cport_id;

	if (len < GB_HDLC_CPORT_SIZE + sizeof(*hdr)) {
		gb_hdlc_rx_drop(link, "too short for a message", len);
		return;
	}
	/* byte by byte: the frame buffer gives no alignment */
	cport_id = p[0] | p[1] << 8;
	hdr = (struct gb_operation_msg_hdr *)(p + GB_HDLC_CPORT_SIZE);
	len -= GB_HDLC_CPORT_SIZE;
	if ((p[GB_HDLC_CPORT_SIZE] | p[GB_HDLC_CPORT_SIZE + 1] << 8) != len) {
		gb_hdlc_rx_drop(link, "header size is not the frame's", len);
		return;
	}
	if (cport_id >= link->hd->num_cports) {
		gb_hdlc_rx_drop(link, "no such cport", len);
		return;
	}
	if (link->resetting) {
		gb_hdlc_stat_add(&link->stats.rx_dropped, 1);
		return;
	}
	if (cport_id == 0 && !(hdr->type & GB_MSG_TYPE_RESPONSE)) {
		if (hdr->type == GB_SVC_TYPE_SVC_HELLO) {
			link->svc_hello = true;
		} else if (hdr->type == GB_REQUEST_TYPE_PROTOCOL_VERSION &&
			   !link->svc_hello && !link->svc_version) {
			/* the start took: start_work has nothing to do */
			link->svc_version = true;
		} else if (hdr->type == GB_REQUEST_TYPE_PROTOCOL_VERSION) {
			/* a peer that starts over and over logs at a bounded rate */
			dev_info_ratelimited(&link->hd->dev,
					     "%s: the peer's SVC started over: restarting the link\n",
					     link->port);
			link->resetting = true;
			schedule_work(&link->reset_work);
			return;
		}
	}
	gb_hdlc_stat_add(&link->stats.rx_frames, 1);
	greybus_data_rcvd(link->hd, cport_id, (u8 *)hdr, len);
}

static void gb_hdlc_rx_frame(struct gb_hdlc_link *link)
{
	u8 *f = link->rx.buf;
	size_t plen = link->rx.len - 2;
	u8 ctrl = f[1];

	/* UI frames, and numbered I-frames (bit 0 clear) taken alike */
	if (ctrl != GB_HDLC_CTRL_UI && (ctrl & 1)) {
		gb_hdlc_rx_drop(link, "unknown control byte", plen);
		return;
	}
	switch (f[0]) {
	case GB_HDLC_ADDR_GREYBUS:
		gb_hdlc_rx_greybus(link, f + 2, plen);
		break;
	case GB_HDLC_ADDR_DEBUG:
		gb_hdlc_rx_debug(link, f + 2, plen);
		break;
	case GB_HDLC_ADDR_CONTROL:
		gb_hdlc_stat_add(&link->stats.rx_control, 1);
		dev_info_ratelimited(&link->hd->dev,
				     "%s: peer control frame 0x%02x (%zu bytes) ignored\n",
				     link->port, plen ? f[2] : 0, plen);
		break;
	default:
		gb_hdlc_rx_drop(link, "unknown address", plen);
		break;
	}
}

/**
 * gb_hdlc_link_receive() - bytes from the wire
 * @link: the link
 * @data: the bytes
 * @len: how many
 *
 * Context: the port's receive context, one call at a time; does not
 * sleep.
 */
void gb_hdlc_link_receive(struct gb_hdlc_link *link, const u8 *data,
			  size_t len)
{
	enum gb_hdlc_rx_result res;
	unsigned long flags;
	size_t used;

	spin_lock_irqsave(&link->rx_lock, flags);
	gb_hdlc_stat_add(&link->stats.rx_bytes, len);
	/* stopping for good: no frame may reach the core or a restart */
	while (len && !link->closing) {
		res = gb_hdlc_rx_feed(&link->rx, data, len, &used);
		data += used;
		len -= used;
		switch (res) {
		case GB_HDLC_RX_MORE:
			break;
		case GB_HDLC_RX_FRAME:
			link->rx_synced = true;
			gb_hdlc_rx_frame(link);
			break;
		case GB_HDLC_RX_BAD_FCS:
			gb_hdlc_stat_add(&link->stats.rx_crc_errors, 1);
			/* the tail of a frame sent before the port was opened */
			if (!link->rx_synced)
				dev_dbg_ratelimited(&link->hd->dev,
						    "%s: bad FCS before the first good frame\n",
						    link->port);
			else
				dev_warn_ratelimited(&link->hd->dev,
						     "%s: bad FCS\n", link->port);
			break;
		case GB_HDLC_RX_ABORT:
			gb_hdlc_stat_add(&link->stats.rx_aborts, 1);
			break;
		case GB_HDLC_RX_OVERSIZE:
			gb_hdlc_stat_add(&link->stats.rx_oversize, 1);
			dev_warn_ratelimited(&link->hd->dev,
					     "%s: frame over %zu bytes dropped\n",
					     link->port, link->rx.size);
			break;
		case GB_HDLC_RX_SHORT:
			gb_hdlc_stat_add(&link->stats.rx_short, 1);
			break;
		}
	}
	spin_unlock_irqrestore(&link->rx_lock, flags);
}

/* Statistics: /sys/bus/greybus/devices/greybusN/hdlc/ */

/* Which counter a statistics file shows, by the file's name */
static const struct {
	const char	*name;
	size_t		offset;
} gb_hdlc_stat_files[] = {
	{ "rx_bytes", offsetof(struct gb_hdlc_stats, rx_bytes) },
	{ "rx_frames", offsetof(struct gb_hdlc_stats, rx_frames) },
	{ "rx_crc_errors", offsetof(struct gb_hdlc_stats, rx_crc_errors) },
	{ "rx_aborts", offsetof(struct gb_hdlc_stats, rx_aborts) },
	{ "rx_oversize", offsetof(struct gb_hdlc_stats, rx_oversize) },
	{ "rx_short", offsetof(struct gb_hdlc_stats, rx_short) },
	{ "rx_dropped", offsetof(struct gb_hdlc_stats, rx_dropped) },
	{ "rx_debug", offsetof(struct gb_hdlc_stats, rx_debug) },
	{ "rx_control", offsetof(struct gb_hdlc_stats, rx_control) },
	{ "tx_bytes", offsetof(struct gb_hdlc_stats, tx_bytes) },
	{ "tx_frames", offsetof(struct gb_hdlc_stats, tx_frames) },
	{ "tx_errors", offsetof(struct gb_hdlc_stats, tx_errors) },
	{ "tx_cancelled", offsetof(struct gb_hdlc_stats, tx_cancelled) },
};

static ssize_t gb_hdlc_stat_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct gb_hdlc_link *link = gb_hdlc_link_of(to_gb_host_device(dev));
	const unsigned long *counter;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gb_hdlc_stat_files); i++) {
		if (strcmp(attr->attr.name, gb_hdlc_stat_files[i].name))
			continue;
		counter = (const void *)&link->stats +
			  gb_hdlc_stat_files[i].offset;
		return sysfs_emit(buf, "%lu\n", READ_ONCE(*counter));
	}
	return -ENOENT;
}

static struct device_attribute dev_attr_rx_bytes =
	__ATTR(rx_bytes, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_rx_frames =
	__ATTR(rx_frames, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_rx_crc_errors =
	__ATTR(rx_crc_errors, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_rx_aborts =
	__ATTR(rx_aborts, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_rx_oversize =
	__ATTR(rx_oversize, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_rx_short =
	__ATTR(rx_short, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_rx_dropped =
	__ATTR(rx_dropped, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_rx_debug =
	__ATTR(rx_debug, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_rx_control =
	__ATTR(rx_control, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_tx_bytes =
	__ATTR(tx_bytes, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_tx_frames =
	__ATTR(tx_frames, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_tx_errors =
	__ATTR(tx_errors, 0444, gb_hdlc_stat_show, NULL);
static struct device_attribute dev_attr_tx_cancelled =
	__ATTR(tx_cancelled, 0444, gb_hdlc_stat_show, NULL);

static ssize_t port_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  gb_hdlc_link_of(to_gb_host_device(dev))->port);
}
static DEVICE_ATTR_RO(port);

static ssize_t mtu_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%zu\n",
			  gb_hdlc_link_of(to_gb_host_device(dev))->mtu);
}
static DEVICE_ATTR_RO(mtu);

static ssize_t mru_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%zu\n",
			  gb_hdlc_link_of(to_gb_host_device(dev))->mru);
}
static DEVICE_ATTR_RO(mru);

static struct attribute *gb_hdlc_attrs[] = {
	&dev_attr_port.attr,
	&dev_attr_mtu.attr,
	&dev_attr_mru.attr,
	&dev_attr_rx_bytes.attr,
	&dev_attr_rx_frames.attr,
	&dev_attr_rx_crc_errors.attr,
	&dev_attr_rx_aborts.attr,
	&dev_attr_rx_oversize.attr,
	&dev_attr_rx_short.attr,
	&dev_attr_rx_dropped.attr,
	&dev_attr_rx_debug.attr,
	&dev_attr_rx_control.attr,
	&dev_attr_tx_bytes.attr,
	&dev_attr_tx_frames.attr,
	&dev_attr_tx_errors.attr,
	&dev_attr_tx_cancelled.attr,
	NULL,
};

static const struct attribute_group gb_hdlc_attr_group = {
	.name	= "hdlc",
	.attrs	= gb_hdlc_attrs,
};

static const struct attribute_group *gb_hdlc_attr_groups[] = {
	&gb_hdlc_attr_group,
	NULL,
};

static const struct gb_hd_driver gb_hdlc_hd_driver = {
	.hd_priv_size		= sizeof(struct gb_hdlc_link *),
	.groups			= gb_hdlc_attr_groups,
	.message_send		= gb_hdlc_message_send,
	.message_cancel		= gb_hdlc_message_cancel,
	.reset			= gb_hdlc_reset,
};

/* Life cycle */

/**
 * gb_hdlc_link_create() - a link and its host device, not started yet
 * @parent: the port's device
 * @port: the port's name, for the log and sysfs
 * @ops: how to write to the port
 * @priv: the port side's data (gb_hdlc_link_priv())
 * @mtu: the largest message toward the peer, header included; the link
 *	takes messages of up to max(@mtu, GB_HDLC_MRU_MIN) from it
 *
 * Context: process context; sleeps.
 * Return: the link, or an ERR_PTR().
 */
struct gb_hdlc_link *gb_hdlc_link_create(struct device *parent,
					 const char *port,
					 const struct gb_hdlc_link_ops *ops,
					 void *priv, size_t mtu)
{
	size_t mru = max_t(size_t, mtu, GB_HDLC_MRU_MIN);
	size_t rx_size = GB_HDLC_OVERHEAD + GB_HDLC_CPORT_SIZE + mru;
	struct gb_host_device *hd;
	struct gb_hdlc_link *link;

	if (mtu < GB_HDLC_MTU_MIN || mtu > GB_HDLC_MTU_MAX)
		return ERR_PTR(-EINVAL);

	link = kzalloc(struct_size(link, rxbuf, rx_size), GFP_KERNEL);
	if (!link)
		return ERR_PTR(-ENOMEM);

	hd = gb_hd_create(&gb_hdlc_hd_driver, parent, mtu, GB_HDLC_NUM_CPORTS);
	if (IS_ERR(hd)) {
		kfree(link);
		return ERR_CAST(hd);
	}
	*(struct gb_hdlc_link **)gb_hd_priv(hd) = link;

	link->hd = hd;
	link->ops = ops;
	link->priv = priv;
	link->mtu = mtu;
	link->mru = mru;
	strscpy(link->port, port, sizeof(link->port));
	link->rx.buf = link->rxbuf;
	link->rx.size = rx_size;
	gb_hdlc_rx_reset(&link->rx);
	spin_lock_init(&link->rx_lock);
	spin_lock_init(&link->tx_lock);
	INIT_LIST_HEAD(&link->tx_queue);
	INIT_WORK(&link->tx_work, gb_hdlc_tx_work);
	INIT_WORK(&link->reset_work, gb_hdlc_reset_work);
	INIT_DELAYED_WORK(&link->start_work, gb_hdlc_start_work);
	INIT_DELAYED_WORK(&link->idle_work, gb_hdlc_idle_work);
	INIT_WORK(&link->close_work, gb_hdlc_close_work);

	return link;
}

/**
 * gb_hdlc_link_start() - add the host device and ask the peer's SVC to start
 * @link: the link
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno; on failure the link is as created.
 */
int gb_hdlc_link_start(struct gb_hdlc_link *link)
{
	unsigned long flags;
	bool closing;
	int ret;

	/*
	 * @rx_lock, then @tx_lock: a close sets @closing, then @tx_halted,
	 * so a restart either clears @tx_halted before the close sets it or
	 * sees @closing and leaves the port alone.
	 */
	spin_lock_irqsave(&link->rx_lock, flags);
	closing = link->closing;
	if (!closing) {
		link->resetting = false;
		spin_lock(&link->tx_lock);
		link->stopping = false;
		link->tx_halted = false;
		spin_unlock(&link->tx_lock);
	}
	spin_unlock_irqrestore(&link->rx_lock, flags);
	if (closing)
		return -ESHUTDOWN;

	ret = gb_hd_add(link->hd);
	if (ret)
		return ret;
	link->added = true;

	/*
	 * A peer that kept running while this host restarted stays silent
	 * at a second start: a stop goes first, which a stopped peer
	 * ignores.
	 */
	ret = gb_hdlc_send_restart(link);
	if (ret)
		goto err_stop;
	dev_info(&link->hd->dev, "%s: Greybus link up, messages up to %zu bytes to the peer, %zu from it\n",
		 link->port, link->mtu, link->mru);
	return 0;

err_stop:
	cancel_delayed_work_sync(&link->start_work);
	link->added = false;
	gb_hd_del(link->hd);
	return ret;
}

/*
 * Complete and free whatever is still queued.  The work is halted first,
 * then cancelled: a write-wakeup may schedule it again at any time, and
 * it then returns at once instead of taking a frame freed here.
 */
static void gb_hdlc_tx_purge(struct gb_hdlc_link *link)
{
	struct gb_hdlc_txbuf *tb, *next;
	struct gb_message *msg;
	unsigned long flags;
	LIST_HEAD(gone);

	gb_hdlc_test_hook(link, GB_HDLC_HOOK_TX_PURGE);
	spin_lock_irqsave(&link->tx_lock, flags);
	link->tx_halted = true;
	spin_unlock_irqrestore(&link->tx_lock, flags);
	cancel_work_sync(&link->tx_work);

	spin_lock_irqsave(&link->tx_lock, flags);
	WARN_ON(link->tx_busy);
	list_splice_init(&link->tx_queue, &gone);
	link->tx_queued = 0;
	spin_unlock_irqrestore(&link->tx_lock, flags);

	list_for_each_entry_safe(tb, next, &gone, node) {
		spin_lock_irqsave(&link->tx_lock, flags);
		msg = gb_hdlc_tx_detach(tb);
		spin_unlock_irqrestore(&link->tx_lock, flags);
		if (msg)
			greybus_message_sent(link->hd, msg, -ESHUTDOWN);
		kfree(tb);
	}
}

/* SVC_STOP out as far as the port takes it, then no new message */
static void gb_hdlc_link_say_stop(struct gb_hdlc_link *link)
{
	unsigned long flags;

	if (!link->added)
		return;
	cancel_delayed_work_sync(&link->start_work);
	if (gb_hdlc_send_control(link, GB_HDLC_CONTROL_SVC_STOP, true))
		dev_warn(&link->hd->dev, "%s: no memory for SVC_STOP\n",
			 link->port);
	flush_work(&link->tx_work);

	spin_lock_irqsave(&link->tx_lock, flags);
	link->stopping = true;
	spin_unlock_irqrestore(&link->tx_lock, flags);
}

/* The body of gb_hdlc_link_stop(), also the first half of a reset */
static void gb_hdlc_link_down(struct gb_hdlc_link *link)
{
	if (!link->added)
		return;
	gb_hdlc_link_say_stop(link);

	gb_hd_del(link->hd);
	link->added = false;

	/* a network reset during gb_hd_del() may have armed them again */
	cancel_delayed_work_sync(&link->start_work);
	cancel_delayed_work_sync(&link->idle_work);
	gb_hdlc_tx_purge(link);
	dev_info(&link->hd->dev, "%s: Greybus link down\n", link->port);
}

/*
 * No version request came in time after SVC_START: the start was lost,
 * or the peer was busy or booting; stop and start it again.
 */
static void gb_hdlc_start_work(struct work_struct *work)
{
	struct gb_hdlc_link *link = container_of(to_delayed_work(work),
						 struct gb_hdlc_link,
						 start_work);
	unsigned long flags;
	bool answered;

	spin_lock_irqsave(&link->rx_lock, flags);
	answered = link->svc_version || link->resetting;
	spin_unlock_irqrestore(&link->rx_lock, flags);
	if (answered)
		return;
	dev_warn_ratelimited(&link->hd->dev,
			     "%s: the peer's SVC did not start in %u ms: starting it again\n",
			     link->port, READ_ONCE(gb_hdlc_start_timeout_ms));
	gb_hdlc_send_restart(link);
}

/* The peer started over: the same link, a new host device */
static void gb_hdlc_reset_work(struct work_struct *work)
{
	struct gb_hdlc_link *link = container_of(work, struct gb_hdlc_link,
						 reset_work);
	struct gb_host_device *hd, *old;
	unsigned long flags;
	int ret;

	/* gb_hdlc_link_stop() waits for this work once it set @closing */
	spin_lock_irqsave(&link->rx_lock, flags);
	if (link->closing) {
		spin_unlock_irqrestore(&link->rx_lock, flags);
		return;
	}
	spin_unlock_irqrestore(&link->rx_lock, flags);

	gb_hdlc_link_down(link);

	hd = gb_hd_create(&gb_hdlc_hd_driver, link->hd->dev.parent, link->mtu,
			  GB_HDLC_NUM_CPORTS);
	if (IS_ERR(hd)) {
		dev_err(&link->hd->dev, "%s: no new host device: %ld\n",
			link->port, PTR_ERR(hd));
		return;
	}
	*(struct gb_hdlc_link **)gb_hd_priv(hd) = link;
	spin_lock_irqsave(&link->rx_lock, flags);
	old = link->hd;
	link->hd = hd;
	spin_unlock_irqrestore(&link->rx_lock, flags);
	gb_hd_put(old);

	ret = gb_hdlc_link_start(link);
	if (ret && ret != -ESHUTDOWN)	/* -ESHUTDOWN: the port closed */
		dev_err(&hd->dev, "%s: restart failed: %d\n", link->port, ret);
}

/* Nothing may start a restart from now on; one in progress has ended */
static void gb_hdlc_link_closing(struct gb_hdlc_link *link)
{
	unsigned long flags;

	spin_lock_irqsave(&link->rx_lock, flags);
	link->closing = true;
	spin_unlock_irqrestore(&link->rx_lock, flags);
	/* nothing queues the work again: receive sees @closing */
	cancel_work_sync(&link->reset_work);
}

/**
 * gb_hdlc_link_stop() - tell the peer, then tear the host device down
 * @link: the link, started
 *
 * From now on whatever the port still receives is dropped, and no
 * restart of the link can begin; a restart in progress is waited for.
 * SVC_STOP goes to the port first, as far as the port takes it; then
 * every new message fails and gb_hd_del() removes the tree.  The port
 * must keep working (writes may fail) until this returns; it may go on
 * calling gb_hdlc_link_receive() and gb_hdlc_link_write_wakeup() until
 * it is closed, before gb_hdlc_link_destroy().  A stopped link is not
 * started again.
 *
 * Context: process context; sleeps.
 */
void gb_hdlc_link_stop(struct gb_hdlc_link *link)
{
	gb_hdlc_link_closing(link);
	gb_hdlc_link_down(link);
}

static void gb_hdlc_close_work(struct work_struct *work)
{
	struct gb_hdlc_link *link = container_of(work, struct gb_hdlc_link,
						 close_work);

	/* a restart running when the port closed: it ends without a start */
	cancel_work_sync(&link->reset_work);
	if (link->added) {
		gb_hd_del(link->hd);
		link->added = false;
		dev_info(&link->hd->dev, "%s: Greybus link down\n",
			 link->port);
	}
	gb_hdlc_link_destroy(link);
}

/**
 * gb_hdlc_link_close() - stop and destroy the link, the port let go now
 * @link: the link, started or not
 *
 * For a caller that holds locks a device under the host device may take
 * too (a line discipline's close: a tty's locks).  Whatever the port
 * still receives is dropped, SVC_STOP goes to the port as far as it
 * takes it, and once this returns the link neither writes to the port
 * nor uses its @priv; the host device's removal and the link's freeing
 * finish later on a work item, which the caller must not wait for.
 *
 * Context: process context; sleeps.
 */
void gb_hdlc_link_close(struct gb_hdlc_link *link)
{
	unsigned long flags;
	bool resetting;

	/*
	 * No restart begins from now on, but one may be running: it is not
	 * waited for here (it removes a host device, under which a gb-uart
	 * takes its own tty's locks) but by @close_work.  It sends its own
	 * SVC_STOP, and its gb_hdlc_link_start() refuses a closing link.
	 */
	spin_lock_irqsave(&link->rx_lock, flags);
	link->closing = true;
	resetting = link->resetting;
	spin_unlock_irqrestore(&link->rx_lock, flags);
	if (!resetting && link->added)
		gb_hdlc_link_say_stop(link);

	/* the port is let go: a wakeup now finds the work halted */
	spin_lock_irqsave(&link->tx_lock, flags);
	link->tx_halted = true;
	spin_unlock_irqrestore(&link->tx_lock, flags);
	cancel_work_sync(&link->tx_work);

	queue_work(gb_hdlc_wq, &link->close_work);
}

/**
 * gb_hdlc_link_destroy() - drop the link, stopped or never started
 * @link: the link
 *
 * Context: process context; sleeps.
 */
void gb_hdlc_link_destroy(struct gb_hdlc_link *link)
{
	struct gb_host_device *hd = link->hd;

	gb_hdlc_link_closing(link);
	gb_hdlc_tx_purge(link);
	/* neither is armed again once the queue is halted */
	cancel_delayed_work_sync(&link->start_work);
	cancel_delayed_work_sync(&link->idle_work);
	/* the link first: the host device may outlive it (see the top) */
	kfree(link);
	gb_hd_put(hd);
}

#ifndef GB_HDLC_SELFTEST
static int __init gb_hdlc_init(void)
{
	int ret;

	gb_hdlc_root_dev = root_device_register("gb-hdlc");
	if (IS_ERR(gb_hdlc_root_dev))
		return PTR_ERR(gb_hdlc_root_dev);
	gb_hdlc_wq = alloc_workqueue("gb-hdlc", 0, 0);
	if (!gb_hdlc_wq) {
		ret = -ENOMEM;
		goto err_root;
	}

	ret = gb_hdlc_ldisc_register();
	if (ret)
		goto err_wq;
	ret = gb_hdlc_serdev_register();
	if (ret)
		goto err_ldisc;
	return 0;

err_ldisc:
	gb_hdlc_ldisc_unregister();
err_wq:
	destroy_workqueue(gb_hdlc_wq);
err_root:
	root_device_unregister(gb_hdlc_root_dev);
	return ret;
}
module_init(gb_hdlc_init);

static void __exit gb_hdlc_exit(void)
{
	gb_hdlc_serdev_unregister();
	gb_hdlc_ldisc_unregister();
	/* links closed under a tty's locks finish their removal first */
	destroy_workqueue(gb_hdlc_wq);
	root_device_unregister(gb_hdlc_root_dev);
}
module_exit(gb_hdlc_exit);

MODULE_DESCRIPTION("Greybus host device over an HDLC-framed serial link");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
#endif /* !GB_HDLC_SELFTEST */
