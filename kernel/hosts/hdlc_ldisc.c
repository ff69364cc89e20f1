// SPDX-License-Identifier: GPL-2.0
/*
 * gb-hdlc's tty line discipline: any serial port, USB-serial adapter or
 * pseudo-terminal carries the link once this discipline is attached
 * (gbattach does it).  An out-of-tree module has no line discipline
 * number of its own, so this one takes N_DEVELOPMENT (docs/hdlc.md).
 * There is deliberately no "tty-ldisc-29" alias: with it, any user's
 * TIOCSETD 29 would load the whole Greybus stack where
 * dev.tty.ldisc_autoload is 1; gbattach (or modprobe) loads gb-hdlc.
 *
 * The tty core serialises open, close, receive and write-wakeup against
 * each other for one tty: close runs only once no receive or wakeup is
 * in progress, and none starts afterwards.  Close holds the tty's locks,
 * so it lets the link remove its host device later (gb_hdlc_link_close()).
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/tty.h>
#include <linux/tty_ldisc.h>

#include <greybus/compat.h>

#include "hdlc.h"

struct gb_hdlc_tty {
	struct tty_struct	*tty;
	struct gb_hdlc_link	*link;
	struct gb_hdlc_fwup	*fwup;	/* refuses: no reset, no backdoor */
};

static int gb_hdlc_tty_write(struct gb_hdlc_link *link, const u8 *data,
			     size_t len)
{
	struct gb_hdlc_tty *gt = gb_hdlc_link_priv(link);
	struct tty_struct *tty = gt->tty;

	/* ask for write_wakeup() before looking, so none is missed */
	set_bit(TTY_DO_WRITE_WAKEUP, &tty->flags);
	return tty->ops->write(tty, data, len);
}

static const struct gb_hdlc_link_ops gb_hdlc_tty_ops = {
	.write	= gb_hdlc_tty_write,
};

static int gb_hdlc_ldisc_open(struct tty_struct *tty)
{
	struct gb_hdlc_fwup_port port = { };
	struct gb_hdlc_link *link;
	struct gb_hdlc_tty *gt;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!tty->ops->write)
		return -EOPNOTSUPP;

	gt = kzalloc(sizeof(*gt), GFP_KERNEL);
	if (!gt)
		return -ENOMEM;
	gt->tty = tty;

	link = gb_hdlc_link_create(tty->dev ? tty->dev : gb_hdlc_root(),
				   tty_name(tty), &gb_hdlc_tty_ops, gt,
				   gb_hdlc_peer_mtu(GB_HDLC_MTU_CC1352));
	if (IS_ERR(link)) {
		ret = PTR_ERR(link);
		goto err_free;
	}
	gt->link = link;
	tty->disc_data = gt;
	tty->receive_room = 65536;

	ret = gb_hdlc_link_start(link);
	if (ret)
		goto err_destroy;

	/*
	 * A tty has no reset or backdoor line: the upload device is there
	 * to say so to whoever writes an image to it (docs/hdlc.md).
	 */
	port.dev = tty->dev ? tty->dev : gb_hdlc_root();
	snprintf(port.name, sizeof(port.name), "cc1352p7-%s", tty_name(tty));
	gt->fwup = gb_hdlc_fwup_register(&port);
	return 0;

err_destroy:
	tty->disc_data = NULL;
	gb_hdlc_link_destroy(link);
err_free:
	kfree(gt);
	return ret;
}

static void gb_hdlc_ldisc_close(struct tty_struct *tty)
{
	struct gb_hdlc_tty *gt = tty->disc_data;

	if (!gt)
		return;
	/* its uploads are refused at once: nothing to wait for */
	gb_hdlc_fwup_unregister(gt->fwup);
	gb_hdlc_fwup_free(gt->fwup);
	/* the host device goes later, outside this tty's locks */
	gb_hdlc_link_close(gt->link);
	clear_bit(TTY_DO_WRITE_WAKEUP, &tty->flags);
	tty->disc_data = NULL;
	kfree(gt);
}

static void gb_hdlc_ldisc_receive(struct tty_struct *tty, const u8 *cp,
				  const GB_LDISC_FLAG_T *fp,
				  GB_LDISC_COUNT_T count)
{
	struct gb_hdlc_tty *gt = tty->disc_data;

	/* bytes with error flags go in too: the FCS catches them */
	if (gt && count > 0)
		gb_hdlc_link_receive(gt->link, cp, count);
}

static void gb_hdlc_ldisc_write_wakeup(struct tty_struct *tty)
{
	struct gb_hdlc_tty *gt = tty->disc_data;

	clear_bit(TTY_DO_WRITE_WAKEUP, &tty->flags);
	if (gt)
		gb_hdlc_link_write_wakeup(gt->link);
}

static int gb_hdlc_ldisc_ioctl(struct tty_struct *tty, unsigned int cmd,
			       unsigned long arg)
{
	/* termios requests keep working: gbattach may change the speed */
	return n_tty_ioctl_helper(tty, cmd, arg);
}

static struct tty_ldisc_ops gb_hdlc_ldisc = {
	.owner		= THIS_MODULE,
	.num		= N_DEVELOPMENT,
	.name		= "gb-hdlc",
	.open		= gb_hdlc_ldisc_open,
	.close		= gb_hdlc_ldisc_close,
	.ioctl		= gb_hdlc_ldisc_ioctl,
	.receive_buf	= gb_hdlc_ldisc_receive,
	.write_wakeup	= gb_hdlc_ldisc_write_wakeup,
};

/**
 * gb_hdlc_ldisc_register() - offer the line discipline as N_DEVELOPMENT
 *
 * Return: 0 or a negative errno (-EBUSY: another module has the number).
 */
int gb_hdlc_ldisc_register(void)
{
	return tty_register_ldisc(&gb_hdlc_ldisc);
}

/**
 * gb_hdlc_ldisc_unregister() - withdraw it
 */
void gb_hdlc_ldisc_unregister(void)
{
	tty_unregister_ldisc(&gb_hdlc_ldisc);
}
