// SPDX-License-Identifier: GPL-2.0
/*
 * gb-es2: the Greybus host driver for the ES2 "APBridgeA" USB bridge
 * (docs/es2.md, include/uapi/greybus/es2.h).
 *
 * All CPorts share one bulk pipe pair; the AP CPort id rides in pad[0]
 * of the message header.  An outgoing message takes a URB from the host
 * device's pool, which points at the core's buffer; its completion hands
 * the message back with greybus_message_sent() (es2_out.c).  A few IN
 * URBs stay queued for the bridge's messages and two more for ARPC
 * answers.
 *
 * Teardown (unplug or unbind): gb_hd_del() first, while the IN URBs
 * still run, so that an unbind can shut connections down cleanly (after
 * an unplug every request fails at once with -ENODEV); then @gone
 * refuses new work, the OUT anchor is poisoned (no OUT URB runs or
 * starts after that), the IN URBs are killed, everything is freed and
 * the host device put.  soft_unbind keeps usbcore from killing our URBs
 * before that.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/usb.h>

#include <greybus/connection.h>
#include <greybus/hd.h>
#include <greybus/operation.h>
#include <uapi/greybus/es2.h>

#include "es2.h"

struct gb_es2 *gb_es2_from_hd(struct gb_host_device *hd)
{
	return gb_hd_priv(hd);
}

/* Bulk IN */

static void gb_es2_cport_in_complete(struct urb *urb)
{
	struct gb_es2 *es2 = urb->context;
	struct gb_operation_msg_hdr *header = urb->transfer_buffer;
	u16 cport_id;
	int ret;

	if (gb_es2_urb_gone(urb->status))
		return;
	if (urb->status) {
		dev_err_ratelimited(&es2->intf->dev, "cport in: urb status %d\n",
				    urb->status);
		goto resubmit;
	}

	if (!urb->actual_length)
		goto resubmit;	/* a zero-length packet */
	if (urb->actual_length < sizeof(*header)) {
		dev_err_ratelimited(&es2->intf->dev,
				    "%u-byte message is shorter than a Greybus header, dropped\n",
				    urb->actual_length);
		goto resubmit;
	}

	cport_id = header->pad[0];
	header->pad[0] = 0;
	if (cport_id >= es2->hd->num_cports) {
		dev_err_ratelimited(&es2->intf->dev,
				    "message for cport %u, beyond the %zu cports, dropped\n",
				    cport_id, es2->hd->num_cports);
		goto resubmit;
	}

	greybus_data_rcvd(es2->hd, cport_id, urb->transfer_buffer,
			  urb->actual_length);

resubmit:
	ret = usb_submit_urb(urb, GFP_ATOMIC);
	if (ret && ret != -EPERM && ret != -ENODEV)
		dev_err_ratelimited(&es2->intf->dev,
				    "cport in: cannot resubmit: %d\n", ret);
}

/* Host-driver callbacks */

static int gb_es2_cport_enable(struct gb_host_device *hd, u16 cport_id,
			       unsigned long flags)
{
	struct gb_es2_cport_flags req = { 0 };
	u32 bridge_flags = 0;
	int ret;

	if (flags & GB_CONNECTION_FLAG_CONTROL)
		bridge_flags |= GB_ES2_CPORT_FLAG_CONTROL;
	if (flags & GB_CONNECTION_FLAG_HIGH_PRIO)
		bridge_flags |= GB_ES2_CPORT_FLAG_HIGH_PRIO;
	req.flags = cpu_to_le32(bridge_flags);

	ret = gb_es2_vendor_out(gb_es2_from_hd(hd), GB_ES2_REQ_CPORT_FLAGS,
				cport_id, &req, sizeof(req));
	if (ret)
		dev_err_ratelimited(&hd->dev, "cport %u: cannot set flags: %d\n",
				    cport_id, ret);

	return ret;
}

/* Best effort: a bridge without the request loses nothing. */
static int gb_es2_cport_disable(struct gb_host_device *hd, u16 cport_id)
{
	int ret;

	ret = gb_es2_vendor_out(gb_es2_from_hd(hd), GB_ES2_REQ_RESET_CPORT,
				cport_id, NULL, 0);
	if (ret)
		dev_dbg(&hd->dev, "cport %u: reset failed: %d\n", cport_id, ret);

	return 0;
}

static int gb_es2_arpc_cport(struct gb_host_device *hd, u8 type,
			     u16 cport_id)
{
	struct gb_es2_arpc_cport req = { .cport_id = cpu_to_le16(cport_id) };
	int ret;

	ret = gb_es2_arpc(gb_es2_from_hd(hd), type, &req, sizeof(req),
			  GB_ES2_CTRL_TIMEOUT_MS);
	if (ret && ret != -ENODEV && ret != -ESHUTDOWN)
		dev_err_ratelimited(&hd->dev, "cport %u: arpc 0x%02x failed: %d\n",
				    cport_id, type, ret);

	return ret;
}

static int gb_es2_cport_connected(struct gb_host_device *hd, u16 cport_id)
{
	return gb_es2_arpc_cport(hd, GB_ES2_ARPC_CPORT_CONNECTED, cport_id);
}

static int gb_es2_cport_flush(struct gb_host_device *hd, u16 cport_id)
{
	return gb_es2_arpc_cport(hd, GB_ES2_ARPC_CPORT_FLUSH, cport_id);
}

static int gb_es2_cport_clear(struct gb_host_device *hd, u16 cport_id)
{
	return gb_es2_arpc_cport(hd, GB_ES2_ARPC_CPORT_CLEAR, cport_id);
}

static int gb_es2_cport_quiesce(struct gb_host_device *hd, u16 cport_id,
				size_t peer_space, unsigned int timeout)
{
	struct gb_es2_arpc_quiesce req;
	int ret;

	if (peer_space > U16_MAX || timeout > U16_MAX)
		return -EINVAL;
	req.cport_id = cpu_to_le16(cport_id);
	req.peer_space = cpu_to_le16(peer_space);
	req.timeout = cpu_to_le16(timeout);

	ret = gb_es2_arpc(gb_es2_from_hd(hd), GB_ES2_ARPC_CPORT_QUIESCE, &req,
			  sizeof(req), GB_ES2_CTRL_TIMEOUT_MS + timeout);
	if (ret && ret != -ENODEV && ret != -ESHUTDOWN)
		dev_err_ratelimited(&hd->dev, "cport %u: quiesce failed: %d\n",
				    cport_id, ret);

	return ret;
}

static int gb_es2_latency_tag(struct gb_host_device *hd, u16 cport_id,
			      bool on)
{
	struct gb_es2 *es2 = gb_es2_from_hd(hd);
	int ret;

	ret = gb_es2_vendor_out(es2, on ? GB_ES2_REQ_LATENCY_TAG_EN :
					  GB_ES2_REQ_LATENCY_TAG_DIS,
				cport_id, NULL, 0);
	/* After an unplug there is nothing to tag any more. */
	if (ret && es2->udev->state == USB_STATE_NOTATTACHED)
		return 0;

	return ret;
}

static int gb_es2_latency_tag_enable(struct gb_host_device *hd, u16 cport_id)
{
	return gb_es2_latency_tag(hd, cport_id, true);
}

static int gb_es2_latency_tag_disable(struct gb_host_device *hd,
				      u16 cport_id)
{
	return gb_es2_latency_tag(hd, cport_id, false);
}

static const struct gb_hd_driver gb_es2_driver = {
	.hd_priv_size		= sizeof(struct gb_es2),
	.cport_enable		= gb_es2_cport_enable,
	.cport_disable		= gb_es2_cport_disable,
	.cport_connected	= gb_es2_cport_connected,
	.cport_flush		= gb_es2_cport_flush,
	.cport_quiesce		= gb_es2_cport_quiesce,
	.cport_clear		= gb_es2_cport_clear,
	.message_send		= gb_es2_message_send,
	.message_cancel		= gb_es2_message_cancel,
	.latency_tag_enable	= gb_es2_latency_tag_enable,
	.latency_tag_disable	= gb_es2_latency_tag_disable,
};

/* USB driver */

static void gb_es2_urbs_kill(struct gb_es2 *es2)
{
	int i;

	for (i = 0; i < GB_ES2_IN_URBS; i++)
		usb_kill_urb(es2->cport_in[i]);
	for (i = 0; i < GB_ES2_ARPC_URBS; i++)
		usb_kill_urb(es2->arpc_in[i]);
	usb_kill_anchored_urbs(&es2->out_anchor);
}

static void gb_es2_urbs_free(struct gb_es2 *es2)
{
	struct urb *urb;
	int i;

	for (i = 0; i < GB_ES2_IN_URBS + GB_ES2_ARPC_URBS; i++) {
		urb = i < GB_ES2_IN_URBS ? es2->cport_in[i] :
					   es2->arpc_in[i - GB_ES2_IN_URBS];
		if (!urb)
			continue;
		kfree(urb->transfer_buffer);
		usb_free_urb(urb);
	}
}

static struct urb *gb_es2_in_urb(struct gb_es2 *es2, u8 ep, size_t size,
				 usb_complete_t complete)
{
	struct urb *urb;
	void *buf;

	urb = usb_alloc_urb(0, GFP_KERNEL);
	if (!urb)
		return NULL;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf) {
		usb_free_urb(urb);
		return NULL;
	}
	usb_fill_bulk_urb(urb, es2->udev, usb_rcvbulkpipe(es2->udev, ep),
			  buf, size, complete, es2);

	return urb;
}

static int gb_es2_urbs_alloc(struct gb_es2 *es2)
{
	int i;

	for (i = 0; i < GB_ES2_IN_URBS; i++) {
		es2->cport_in[i] = gb_es2_in_urb(es2, es2->ep_cport_in,
						 GB_ES2_MSG_SIZE_MAX,
						 gb_es2_cport_in_complete);
		if (!es2->cport_in[i])
			return -ENOMEM;
	}
	for (i = 0; i < GB_ES2_ARPC_URBS; i++) {
		es2->arpc_in[i] = gb_es2_in_urb(es2, es2->ep_arpc_in,
						GB_ES2_ARPC_RSP_SIZE_MAX,
						gb_es2_arpc_in_complete);
		if (!es2->arpc_in[i])
			return -ENOMEM;
	}

	return 0;
}

static int gb_es2_urbs_submit(struct gb_es2 *es2)
{
	int i, ret;

	for (i = 0; i < GB_ES2_IN_URBS; i++) {
		ret = usb_submit_urb(es2->cport_in[i], GFP_KERNEL);
		if (ret)
			return ret;
	}
	for (i = 0; i < GB_ES2_ARPC_URBS; i++) {
		ret = usb_submit_urb(es2->arpc_in[i], GFP_KERNEL);
		if (ret)
			return ret;
	}

	return 0;
}

/*
 * The two lowest-numbered bulk IN endpoints carry CPort data and ARPC
 * answers, the lowest bulk OUT one CPort data; the others are unused.
 */
static int gb_es2_endpoints(struct usb_interface *intf, u8 *cport_in,
			    u8 *arpc_in, u8 *cport_out)
{
	struct usb_device *udev = interface_to_usbdev(intf);
	struct usb_host_endpoint *hep;
	int n, n_in = 0, n_out = 0;

	for (n = 1; n < ARRAY_SIZE(udev->ep_in); n++) {
		hep = udev->ep_in[n];
		if (hep && usb_endpoint_xfer_bulk(&hep->desc)) {
			if (n_in == 0)
				*cport_in = n;
			else if (n_in == 1)
				*arpc_in = n;
			n_in++;
		}
		hep = udev->ep_out[n];
		if (hep && usb_endpoint_xfer_bulk(&hep->desc)) {
			if (n_out == 0)
				*cport_out = n;
			n_out++;
		}
	}

	if (n_in < 2 || n_out < 1) {
		dev_err(&intf->dev, "needs 2 bulk in and 1 bulk out endpoints, has %d and %d\n",
			n_in, n_out);
		return -ENODEV;
	}
	if (n_in > 2 || n_out > 1)
		dev_dbg(&intf->dev, "%d bulk in and %d bulk out endpoints, extra ones unused\n",
			n_in, n_out);

	return 0;
}

static int gb_es2_probe(struct usb_interface *intf,
			const struct usb_device_id *id)
{
	struct usb_device *udev = interface_to_usbdev(intf);
	u8 cport_in = 0, arpc_in = 0, cport_out = 0;
	struct gb_host_device *hd;
	struct gb_es2 *es2;
	int num_cports;
	int ret;

	ret = gb_es2_endpoints(intf, &cport_in, &arpc_in, &cport_out);
	if (ret)
		return ret;

	num_cports = gb_es2_cport_count(udev);
	if (num_cports < 0) {
		dev_err(&intf->dev, "cannot read the cport count: %d\n",
			num_cports);
		return num_cports;
	}
	if (num_cports == 0) {
		dev_err(&intf->dev, "bridge reports no cports\n");
		return -ENODEV;
	}
	if (num_cports > GB_ES2_CPORTS_MAX) {
		dev_info(&intf->dev, "bridge has %d cports, using %d\n",
			 num_cports, GB_ES2_CPORTS_MAX);
		num_cports = GB_ES2_CPORTS_MAX;
	}

	hd = gb_hd_create(&gb_es2_driver, &intf->dev, GB_ES2_MSG_SIZE_MAX,
			  num_cports);
	if (IS_ERR(hd))
		return PTR_ERR(hd);

	es2 = gb_es2_from_hd(hd);
	es2->udev = udev;
	es2->intf = intf;
	es2->hd = hd;
	es2->ep_cport_in = cport_in;
	es2->ep_arpc_in = arpc_in;
	es2->ep_cport_out = cport_out;
	init_usb_anchor(&es2->out_anchor);
	spin_lock_init(&es2->lock);
	INIT_LIST_HEAD(&es2->arpcs);

	/* The camera CPorts are the bridge's own, never handed out. */
	if (num_cports > GB_ES2_CPORT_CDSI1) {
		ret = gb_hd_cport_reserve(hd, GB_ES2_CPORT_CDSI0);
		if (ret)
			goto err_put_hd;
		ret = gb_hd_cport_reserve(hd, GB_ES2_CPORT_CDSI1);
		if (ret)
			goto err_release_cdsi0;
	}

	ret = gb_es2_urbs_alloc(es2);
	if (ret)
		goto err_free_urbs;
	ret = gb_es2_out_pool_alloc(es2);
	if (ret)
		goto err_free_urbs;

	usb_set_intfdata(intf, es2);

	ret = gb_es2_urbs_submit(es2);
	if (ret)
		goto err_kill_urbs;

	ret = gb_hd_add(hd);
	if (ret)
		goto err_kill_urbs;

	dev_info(&intf->dev, "APBridgeA with %d cports is greybus%d\n",
		 num_cports, hd->bus_id);

	return 0;

err_kill_urbs:
	spin_lock_irq(&es2->lock);
	es2->gone = true;
	spin_unlock_irq(&es2->lock);
	gb_es2_out_poison(es2);
	gb_es2_urbs_kill(es2);
	usb_set_intfdata(intf, NULL);
err_free_urbs:
	gb_es2_out_pool_free(es2);
	gb_es2_urbs_free(es2);
	if (num_cports > GB_ES2_CPORT_CDSI1)
		gb_hd_cport_release_reserved(hd, GB_ES2_CPORT_CDSI1);
err_release_cdsi0:
	if (num_cports > GB_ES2_CPORT_CDSI1)
		gb_hd_cport_release_reserved(hd, GB_ES2_CPORT_CDSI0);
err_put_hd:
	gb_hd_put(hd);

	return ret;
}

static void gb_es2_disconnect(struct usb_interface *intf)
{
	struct gb_es2 *es2 = usb_get_intfdata(intf);
	struct gb_host_device *hd = es2->hd;

	gb_hd_del(hd);

	spin_lock_irq(&es2->lock);
	es2->gone = true;
	spin_unlock_irq(&es2->lock);
	gb_es2_arpc_fail_all(es2);
	gb_es2_out_poison(es2);
	gb_es2_urbs_kill(es2);
	gb_es2_out_pool_free(es2);
	gb_es2_urbs_free(es2);
	usb_set_intfdata(intf, NULL);

	if (hd->num_cports > GB_ES2_CPORT_CDSI1) {
		gb_hd_cport_release_reserved(hd, GB_ES2_CPORT_CDSI1);
		gb_hd_cport_release_reserved(hd, GB_ES2_CPORT_CDSI0);
	}
	gb_hd_put(hd);
}

static const struct usb_device_id gb_es2_id_table[] = {
	{ USB_DEVICE(GB_ES2_USB_VENDOR, GB_ES2_USB_PRODUCT) },
	{ }
};
MODULE_DEVICE_TABLE(usb, gb_es2_id_table);

/*
 * System sleep.  greybus.ko suspends the Greybus tree from its PM
 * notifier, before any device suspends, so by now the bridge carries no
 * operation: only the IN URBs wait on it.  They stop here and wait again
 * on resume, and every module stays enumerated.  There is no reset
 * resume: a bridge that was reset has lost its CPorts, so the USB core
 * unbinds and probes us again, which enumerates everything anew.
 */
static int gb_es2_suspend(struct usb_interface *intf, pm_message_t message)
{
	struct gb_es2 *es2 = usb_get_intfdata(intf);

	gb_es2_urbs_kill(es2);

	return 0;
}

static int gb_es2_resume(struct usb_interface *intf)
{
	struct gb_es2 *es2 = usb_get_intfdata(intf);
	int ret;

	ret = gb_es2_urbs_submit(es2);
	if (ret) {
		dev_err(&intf->dev, "cannot restart the IN urbs: %d\n", ret);
		gb_es2_urbs_kill(es2);
	}

	return ret;
}

static struct usb_driver gb_es2_usb_driver = {
	.name		= "gb-es2",
	.probe		= gb_es2_probe,
	.disconnect	= gb_es2_disconnect,
	.suspend	= gb_es2_suspend,
	.resume		= gb_es2_resume,
	.id_table	= gb_es2_id_table,
	.soft_unbind	= 1,
};
module_usb_driver(gb_es2_usb_driver);

MODULE_DESCRIPTION("Greybus host driver for the ES2 APBridgeA USB bridge");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
