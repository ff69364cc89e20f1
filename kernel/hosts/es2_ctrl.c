// SPDX-License-Identifier: GPL-2.0
/*
 * gb-es2: the bridge's control side.  Vendor requests on endpoint 0, and
 * ARPC: a request sent as the data of vendor request ARPC_RUN, answered
 * on the second bulk IN endpoint, matched by id.  A waiter is listed
 * before the request goes out, as the answer may overtake the end of
 * the control transfer.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/usb.h>

#include <greybus/hd.h>
#include <uapi/greybus/es2.h>

#include "es2.h"

struct gb_es2_arpc {
	struct list_head	node;
	struct completion	done;
	u16			id;
	int			result;		/* GB_ES2_ARPC_* or -errno */
};

/* The bridge's vendor requests name interface 0, its only one. */
#define GB_ES2_INTERFACE	0
#define GB_ES2_REQTYPE_OUT	(USB_DIR_OUT | USB_TYPE_VENDOR | USB_RECIP_INTERFACE)
#define GB_ES2_REQTYPE_IN	(USB_DIR_IN | USB_TYPE_VENDOR | USB_RECIP_INTERFACE)

/* Before the host device exists: how many CPorts the bridge has. */
int gb_es2_cport_count(struct usb_device *udev)
{
	__le16 *count;
	int ret;

	count = kmalloc(sizeof(*count), GFP_KERNEL);
	if (!count)
		return -ENOMEM;

	ret = usb_control_msg(udev, usb_rcvctrlpipe(udev, 0),
			      GB_ES2_REQ_CPORT_COUNT, GB_ES2_REQTYPE_IN, 0,
			      GB_ES2_INTERFACE, count, sizeof(*count),
			      GB_ES2_CTRL_TIMEOUT_MS);
	if (ret == sizeof(*count))
		ret = le16_to_cpu(*count);
	else if (ret >= 0)
		ret = -EPROTO;
	kfree(count);

	return ret;
}

int gb_es2_vendor_out(struct gb_es2 *es2, u8 request, u16 value,
		      const void *data, u16 len)
{
	void *buf = NULL;
	int ret;

	if (len) {
		buf = kmemdup(data, len, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}

	ret = usb_control_msg(es2->udev, usb_sndctrlpipe(es2->udev, 0),
			      request, GB_ES2_REQTYPE_OUT, value, GB_ES2_INTERFACE,
			      buf, len, GB_ES2_CTRL_TIMEOUT_MS);
	kfree(buf);

	return ret < 0 ? ret : 0;
}

int gb_es2_arpc(struct gb_es2 *es2, u8 type, const void *payload, u16 len,
		unsigned int timeout_ms)
{
	struct gb_es2_arpc_hdr *hdr;
	struct gb_es2_arpc arpc;
	unsigned long flags;
	size_t size = sizeof(*hdr) + len;
	long left;
	int ret;

	hdr = kmalloc(size, GFP_KERNEL);
	if (!hdr)
		return -ENOMEM;

	init_completion(&arpc.done);
	arpc.result = -ETIMEDOUT;

	spin_lock_irqsave(&es2->lock, flags);
	if (es2->gone) {
		spin_unlock_irqrestore(&es2->lock, flags);
		ret = -ESHUTDOWN;
		goto out_free;
	}
	arpc.id = es2->arpc_id++;
	list_add_tail(&arpc.node, &es2->arpcs);
	spin_unlock_irqrestore(&es2->lock, flags);

	hdr->id = cpu_to_le16(arpc.id);
	hdr->size = cpu_to_le16(size);
	hdr->type = type;
	memcpy(hdr + 1, payload, len);

	ret = usb_control_msg(es2->udev, usb_sndctrlpipe(es2->udev, 0),
			      GB_ES2_REQ_ARPC_RUN, GB_ES2_REQTYPE_OUT, 0,
			      GB_ES2_INTERFACE, hdr, size, GB_ES2_CTRL_TIMEOUT_MS);
	if (ret < 0)
		goto out_unlist;

	left = wait_for_completion_timeout(&arpc.done,
					   msecs_to_jiffies(timeout_ms));
	spin_lock_irqsave(&es2->lock, flags);
	ret = arpc.result;
	spin_unlock_irqrestore(&es2->lock, flags);
	if (!left && ret == -ETIMEDOUT)
		goto out_unlist;
	if (ret > 0) {
		dev_dbg(&es2->intf->dev, "arpc 0x%02x id %u failed: result 0x%02x\n",
			type, arpc.id, ret);
		ret = -EREMOTEIO;
	}

out_unlist:
	spin_lock_irqsave(&es2->lock, flags);
	list_del(&arpc.node);
	spin_unlock_irqrestore(&es2->lock, flags);
out_free:
	kfree(hdr);

	return ret;
}

/* The bridge went away: nobody waits for an answer that cannot come. */
void gb_es2_arpc_fail_all(struct gb_es2 *es2)
{
	struct gb_es2_arpc *arpc;
	unsigned long flags;

	spin_lock_irqsave(&es2->lock, flags);
	list_for_each_entry(arpc, &es2->arpcs, node) {
		arpc->result = -ESHUTDOWN;
		complete(&arpc->done);
	}
	spin_unlock_irqrestore(&es2->lock, flags);
}

static void gb_es2_arpc_answer(struct gb_es2 *es2, const u8 *buf, u32 len)
{
	const struct gb_es2_arpc_rsp *rsp = (const void *)buf;
	struct gb_es2_arpc *arpc;
	unsigned long flags;
	u16 id;

	if (len < sizeof(*rsp)) {
		dev_err_ratelimited(&es2->intf->dev,
				    "%u-byte arpc response is too short, dropped\n",
				    len);
		return;
	}
	id = le16_to_cpu(rsp->id);

	spin_lock_irqsave(&es2->lock, flags);
	list_for_each_entry(arpc, &es2->arpcs, node) {
		if (arpc->id != id || completion_done(&arpc->done))
			continue;
		arpc->result = rsp->result;
		complete(&arpc->done);
		spin_unlock_irqrestore(&es2->lock, flags);
		return;
	}
	spin_unlock_irqrestore(&es2->lock, flags);

	dev_err_ratelimited(&es2->intf->dev,
			    "unexpected arpc response id %u, dropped\n", id);
}

void gb_es2_arpc_in_complete(struct urb *urb)
{
	struct gb_es2 *es2 = urb->context;
	int ret;

	if (gb_es2_urb_gone(urb->status))
		return;
	if (urb->status)
		dev_err_ratelimited(&es2->intf->dev, "arpc in: urb status %d\n",
				    urb->status);
	else
		gb_es2_arpc_answer(es2, urb->transfer_buffer,
				   urb->actual_length);

	ret = usb_submit_urb(urb, GFP_ATOMIC);
	if (ret && ret != -EPERM && ret != -ENODEV)
		dev_err_ratelimited(&es2->intf->dev,
				    "arpc in: cannot resubmit: %d\n", ret);
}
