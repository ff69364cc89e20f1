/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gb-es2 internals shared by es2.c (USB driver, bulk traffic) and
 * es2_ctrl.c (vendor requests and ARPC).
 */
#ifndef __GB_HOSTS_ES2_H
#define __GB_HOSTS_ES2_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/usb.h>

struct gb_es2_out;
struct gb_host_device;
struct gb_message;

#define GB_ES2_IN_URBS		4	/* CPort data in flight from the bridge */
#define GB_ES2_ARPC_URBS	2
/*
 * Pooled URBs for outgoing messages (es2_out.c): as many as Linux's own
 * ES2 driver keeps for its bulk OUT pipe.  A message finding them all in
 * flight gets a URB of its own.
 */
#define GB_ES2_OUT_URBS		8
#define GB_ES2_CTRL_TIMEOUT_MS	1000	/* vendor requests, ARPC answers */

/* Lives in the host device's hd_priv; usb intfdata points here. */
struct gb_es2 {
	struct usb_device	*udev;
	struct usb_interface	*intf;
	struct gb_host_device	*hd;
	u8			ep_cport_in;	/* endpoint numbers */
	u8			ep_arpc_in;
	u8			ep_cport_out;

	struct urb		*cport_in[GB_ES2_IN_URBS];
	struct urb		*arpc_in[GB_ES2_ARPC_URBS];
	struct usb_anchor	out_anchor;	/* OUT urbs submitted */
	struct gb_es2_out	*out_pool;	/* GB_ES2_OUT_URBS of them */

	/*
	 * Irq-safe: message->hcpriv of messages in flight, @out_free and the
	 * state of each struct gb_es2_out, @arpcs, @arpc_id and @gone, all
	 * touched from URB completions.
	 */
	spinlock_t		lock;
	bool			gone;		/* disconnect: refuse new work */
	unsigned long		out_free;	/* bitmap: free in @out_pool */
	struct list_head	arpcs;		/* struct gb_es2_arpc waiting */
	u16			arpc_id;
};

struct gb_es2 *gb_es2_from_hd(struct gb_host_device *hd);

int gb_es2_cport_count(struct usb_device *udev);
int gb_es2_vendor_out(struct gb_es2 *es2, u8 request, u16 value,
		      const void *data, u16 len);
int gb_es2_arpc(struct gb_es2 *es2, u8 type, const void *payload, u16 len,
		unsigned int timeout_ms);
void gb_es2_arpc_in_complete(struct urb *urb);
void gb_es2_arpc_fail_all(struct gb_es2 *es2);

int gb_es2_message_send(struct gb_host_device *hd, u16 cport_id,
			struct gb_message *message, gfp_t gfp_mask);
void gb_es2_message_cancel(struct gb_message *message);
int gb_es2_out_pool_alloc(struct gb_es2 *es2);
void gb_es2_out_poison(struct gb_es2 *es2);
void gb_es2_out_pool_free(struct gb_es2 *es2);

/*
 * A completed URB's status that says it was killed or the bridge is gone
 * (unplugged, or its endpoint stalled for good): nothing to report, and
 * an IN URB is not submitted again
 */
static inline bool gb_es2_urb_gone(int status)
{
	switch (status) {
	case -ENOENT:
	case -ECONNRESET:
	case -ESHUTDOWN:
	case -ENODEV:
	case -EPROTO:
	case -EILSEQ:
		return true;
	default:
		return false;
	}
}

#endif /* __GB_HOSTS_ES2_H */
