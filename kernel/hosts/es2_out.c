// SPDX-License-Identifier: GPL-2.0
/*
 * gb-es2: outgoing CPort messages on the bulk OUT endpoint, from a pool
 * of URBs.
 *
 * A message goes out in a URB that points at the core's buffer (the AP
 * CPort id rides in pad[0] of its header).  The host device keeps
 * GB_ES2_OUT_URBS URBs, allocated at probe; a message takes a free one
 * and its completion gives it back, so a message costs no allocation.
 * When all of them are in flight, the message gets a URB of its own,
 * allocated with the sender's gfp flags (so never sleeping where the
 * sender may not) and freed when it completes: nothing waits for the
 * pool, and a burst is bounded by memory only, as before the pool.
 *
 * Each URB in use is a struct gb_es2_out, which message->hcpriv points
 * at while the bridge has the message.  A pooled URB may carry another
 * message as soon as it is back in the pool, so gb_es2_message_cancel()
 * *holds* it (@held) while it kills it: a URB returns to the pool (or
 * is freed) only once it has completed and nobody holds it.  All of
 * @in_flight, @held, message->hcpriv and es2->out_free change under
 * es2->lock (irq-safe: completions run in interrupt context).
 *
 * Teardown: the disconnect sets es2->gone (no new message), then
 * poisons the anchor (gb_es2_out_poison()), which kills the URBs in
 * flight and makes any that a sender anchors afterwards fail to submit:
 * after it returns no OUT URB runs and none will, and the pool can be
 * freed (gb_es2_out_pool_free()).
 */
#include <linux/bitmap.h>
#include <linux/slab.h>
#include <linux/usb.h>

#include <greybus/connection.h>
#include <greybus/hd.h>
#include <greybus/operation.h>

#include "es2.h"

/* One URB in use or in the pool */
struct gb_es2_out {
	struct gb_es2		*es2;
	struct urb		*urb;
	struct gb_message	*message;	/* while @in_flight */
	bool			pooled;		/* one of es2->out_pool */
	bool			in_flight;	/* submitted, not yet completed */
	bool			held;		/* a cancel is killing it */
};

/* Caller holds es2->lock; @out has completed and nobody holds it. */
static bool gb_es2_out_release_locked(struct gb_es2_out *out)
{
	if (!out->pooled)
		return true;	/* the caller frees it, unlocked */
	__set_bit(out - out->es2->out_pool, &out->es2->out_free);

	return false;
}

static void gb_es2_out_free_one(struct gb_es2_out *out)
{
	usb_free_urb(out->urb);
	kfree(out);
}

/* A free pooled URB, or NULL.  Caller holds es2->lock. */
static struct gb_es2_out *gb_es2_out_take_locked(struct gb_es2 *es2)
{
	unsigned long n;

	n = find_first_bit(&es2->out_free, GB_ES2_OUT_URBS);
	if (n >= GB_ES2_OUT_URBS)
		return NULL;
	__clear_bit(n, &es2->out_free);

	return &es2->out_pool[n];
}

static struct gb_es2_out *gb_es2_out_alloc(struct gb_es2 *es2, gfp_t gfp)
{
	struct gb_es2_out *out;

	out = kzalloc(sizeof(*out), gfp);
	if (!out)
		return NULL;
	out->urb = usb_alloc_urb(0, gfp);
	if (!out->urb) {
		kfree(out);
		return NULL;
	}
	out->es2 = es2;

	return out;
}

/*
 * Ends @out's carrying of @message: the message is the core's again, and
 * @out goes back to the pool unless a cancel holds it.  True if @out is
 * one of our own (not pooled) that nobody holds: the caller frees it once
 * it no longer uses it.
 */
static bool gb_es2_out_detach(struct gb_es2_out *out,
			      struct gb_message *message)
{
	struct gb_es2 *es2 = out->es2;
	unsigned long flags;
	bool free = false;

	message->header->pad[0] = 0;
	spin_lock_irqsave(&es2->lock, flags);
	message->hcpriv = NULL;
	out->message = NULL;
	out->in_flight = false;
	if (!out->held)
		free = gb_es2_out_release_locked(out);
	spin_unlock_irqrestore(&es2->lock, flags);

	return free;
}

static void gb_es2_out_complete(struct urb *urb)
{
	struct gb_es2_out *out = urb->context;
	struct gb_message *message = out->message;
	struct gb_es2 *es2 = out->es2;
	int status = urb->status;
	bool free;

	free = gb_es2_out_detach(out, message);
	/* From here @out may carry another message: not touched again */

	if (status && !gb_es2_urb_gone(status))
		dev_err_ratelimited(&es2->intf->dev, "cport out: urb status %d\n",
				    status);

	greybus_message_sent(es2->hd, message, status);
	/* usbcore holds the URB until this returns */
	if (free)
		gb_es2_out_free_one(out);
}

/**
 * gb_es2_message_send() - the host driver's message_send
 * @hd: the host device
 * @cport_id: the AP CPort the message leaves from
 * @message: the message; its buffer stays the core's
 * @gfp_mask: the sender's allocation flags: used only when every pooled
 *	URB is in flight, and for the submission
 *
 * Context: Any context that @gfp_mask allows.
 * Return: 0 once the URB is submitted (its completion reports the
 * message with greybus_message_sent()), -ESHUTDOWN after a disconnect,
 * -ENOMEM, or the submission's error.
 */
int gb_es2_message_send(struct gb_host_device *hd, u16 cport_id,
			struct gb_message *message, gfp_t gfp_mask)
{
	struct gb_es2 *es2 = gb_es2_from_hd(hd);
	struct gb_es2_out *out, *spare = NULL;
	unsigned long flags;
	size_t size;
	int ret;

	size = le16_to_cpu(message->header->size);
	spin_lock_irqsave(&es2->lock, flags);
	for (;;) {
		if (es2->gone) {
			spin_unlock_irqrestore(&es2->lock, flags);
			if (spare)
				gb_es2_out_free_one(spare);
			return -ESHUTDOWN;
		}
		out = gb_es2_out_take_locked(es2);
		if (out || spare)
			break;
		/* The pool is empty: one of our own, allocated unlocked */
		spin_unlock_irqrestore(&es2->lock, flags);
		spare = gb_es2_out_alloc(es2, gfp_mask);
		if (!spare)
			return -ENOMEM;
		spin_lock_irqsave(&es2->lock, flags);
	}
	if (!out) {
		out = spare;
		spare = NULL;
	}
	out->message = message;
	out->in_flight = true;
	message->hcpriv = out;
	spin_unlock_irqrestore(&es2->lock, flags);
	/* A URB came back to the pool while we allocated */
	if (spare)
		gb_es2_out_free_one(spare);

	message->header->pad[0] = cport_id;
	usb_fill_bulk_urb(out->urb, es2->udev,
			  usb_sndbulkpipe(es2->udev, es2->ep_cport_out),
			  message->header, size, gb_es2_out_complete, out);
	out->urb->transfer_flags = URB_ZERO_PACKET;
	/* After gb_es2_out_poison() this makes the submission fail */
	usb_anchor_urb(out->urb, &es2->out_anchor);

	ret = usb_submit_urb(out->urb, gfp_mask);
	if (!ret)
		return 0;

	usb_unanchor_urb(out->urb);
	if (gb_es2_out_detach(out, message))
		gb_es2_out_free_one(out);

	return ret;
}

/**
 * gb_es2_message_cancel() - the host driver's message_cancel
 * @message: a message gb_es2_message_send() accepted
 *
 * Kills its URB if it is still in flight; its completion reports the
 * message.  The URB is held meanwhile so that it cannot carry another
 * message before the kill.
 *
 * Context: Process context; sleeps.
 */
void gb_es2_message_cancel(struct gb_message *message)
{
	struct gb_es2 *es2 = gb_es2_from_hd(message->operation->connection->hd);
	struct gb_es2_out *out;
	bool free = false;

	spin_lock_irq(&es2->lock);
	out = message->hcpriv;
	if (out)
		out->held = true;
	spin_unlock_irq(&es2->lock);

	if (!out)
		return;
	usb_kill_urb(out->urb);

	spin_lock_irq(&es2->lock);
	out->held = false;
	if (!out->in_flight)
		free = gb_es2_out_release_locked(out);
	spin_unlock_irq(&es2->lock);
	if (free)
		gb_es2_out_free_one(out);
}

/**
 * gb_es2_out_pool_alloc() - the host device's pool of OUT URBs
 * @es2: the bridge, its lock and anchor initialised
 *
 * Context: Process context; sleeps.
 * Return: 0 or -ENOMEM (gb_es2_out_pool_free() frees what was allocated).
 */
int gb_es2_out_pool_alloc(struct gb_es2 *es2)
{
	struct gb_es2_out *out;
	int i;

	BUILD_BUG_ON(GB_ES2_OUT_URBS > BITS_PER_LONG);

	es2->out_pool = kcalloc(GB_ES2_OUT_URBS, sizeof(*out), GFP_KERNEL);
	if (!es2->out_pool)
		return -ENOMEM;
	for (i = 0; i < GB_ES2_OUT_URBS; i++) {
		out = &es2->out_pool[i];
		out->es2 = es2;
		out->pooled = true;
		out->urb = usb_alloc_urb(0, GFP_KERNEL);
		if (!out->urb)
			return -ENOMEM;
		__set_bit(i, &es2->out_free);
	}

	return 0;
}

/**
 * gb_es2_out_poison() - stop every OUT URB for good
 * @es2: the bridge, with @gone set
 *
 * Kills the URBs in flight and waits for their completions; a sender
 * that got past the @gone check before it was set fails to submit.
 *
 * Context: Process context; sleeps.
 */
void gb_es2_out_poison(struct gb_es2 *es2)
{
	usb_poison_anchored_urbs(&es2->out_anchor);
}

/**
 * gb_es2_out_pool_free() - free the pool
 * @es2: the bridge, after gb_es2_out_poison() (or before any send)
 *
 * Context: Process context.
 */
void gb_es2_out_pool_free(struct gb_es2 *es2)
{
	int i;

	if (!es2->out_pool)
		return;
	for (i = 0; i < GB_ES2_OUT_URBS; i++)
		usb_free_urb(es2->out_pool[i].urb);
	kfree(es2->out_pool);
	es2->out_pool = NULL;
}
