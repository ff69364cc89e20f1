// SPDX-License-Identifier: GPL-2.0
/*
 * gb-hdlc's serdev driver: the UART a device tree describes as a TI
 * CC1352P7 running Greybus firmware, as on the BeaglePlay.  It takes the
 * properties of the upstream binding (ti,cc1352p7): reset-gpios,
 * bootloader-backdoor-gpios (an input, driven low only by a firmware
 * upload, hdlc_fwup.c) and vdds-supply, and runs the link at 115200 8N1
 * without flow control.
 *
 * A firmware upload replaces the link: it stops and destroys it, talks to
 * the ROM bootloader, and creates and starts a new one.  @lock guards
 * @link against that: the receive and write-wakeup paths hold it while
 * they use the link, and gb_hdlc_fwup_receive() takes the bytes instead
 * while the chip is in its bootloader.  @fwup lives from the end of probe
 * to the start of removal; unregistering it waits for an upload in
 * progress (cancelled) to put a link back.
 *
 * The reset line's value is the level of the chip's RESET_N, as
 * BeaglePlay's device tree declares it (active-high) and upstream's
 * driver drives it: 0 holds the chip in reset, 1 lets it run.
 */
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/err.h>
#include <linux/gpio/consumer.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/property.h>
#include <linux/regulator/consumer.h>
#include <linux/serdev.h>

#include <greybus/compat.h>

#include "hdlc.h"

#define GB_HDLC_SERDEV_BAUD	115200

struct gb_hdlc_serdev {
	struct serdev_device	*serdev;
	spinlock_t		lock;	/* @link against an upload */
	struct gb_hdlc_link	*link;	/* NULL while the chip is flashed */
	struct gb_hdlc_fwup	*fwup;
	struct gpio_desc	*reset;
	struct gpio_desc	*backdoor;
	struct regulator	*vdds;
	size_t			peer_mtu;	/* the binding's */
};

static int gb_hdlc_serdev_write(struct gb_hdlc_link *link, const u8 *data,
				size_t len)
{
	struct gb_hdlc_serdev *gs = gb_hdlc_link_priv(link);

	return serdev_device_write_buf(gs->serdev, data, len);
}

static const struct gb_hdlc_link_ops gb_hdlc_serdev_link_ops = {
	.write	= gb_hdlc_serdev_write,
};

static GB_SERDEV_RX_RET gb_hdlc_serdev_receive(struct serdev_device *serdev,
					       const u8 *data, size_t count)
{
	struct gb_hdlc_serdev *gs = serdev_device_get_drvdata(serdev);
	unsigned long flags;

	spin_lock_irqsave(&gs->lock, flags);
	if (!gb_hdlc_fwup_receive(gs->fwup, data, count) && gs->link)
		gb_hdlc_link_receive(gs->link, data, count);
	spin_unlock_irqrestore(&gs->lock, flags);
	return count;
}

static void gb_hdlc_serdev_wakeup(struct serdev_device *serdev)
{
	struct gb_hdlc_serdev *gs = serdev_device_get_drvdata(serdev);
	unsigned long flags;

	/* serdev_device_write() (the upload's) waits for this */
	serdev_device_write_wakeup(serdev);
	spin_lock_irqsave(&gs->lock, flags);
	if (gs->link)
		gb_hdlc_link_write_wakeup(gs->link);
	spin_unlock_irqrestore(&gs->lock, flags);
}

static int gb_hdlc_serdev_fwup_write(void *priv, const u8 *data, size_t len)
{
	struct gb_hdlc_serdev *gs = priv;
	ssize_t ret;

	ret = serdev_device_write(gs->serdev, data, len, 2 * HZ);
	if (ret < 0)
		return ret;
	return (size_t)ret == len ? 0 : -ETIMEDOUT;
}

static void gb_hdlc_serdev_link_down(void *priv)
{
	struct gb_hdlc_serdev *gs = priv;
	struct gb_hdlc_link *link = gs->link;
	unsigned long flags;

	if (!link)
		return;
	gb_hdlc_link_stop(link);
	spin_lock_irqsave(&gs->lock, flags);
	gs->link = NULL;
	spin_unlock_irqrestore(&gs->lock, flags);
	gb_hdlc_link_destroy(link);
}

static int gb_hdlc_serdev_link_up(void *priv)
{
	struct gb_hdlc_serdev *gs = priv;
	struct device *dev = &gs->serdev->dev;
	struct gb_hdlc_link *link;
	unsigned long flags;
	int ret;

	link = gb_hdlc_link_create(dev, dev_name(dev), &gb_hdlc_serdev_link_ops,
				   gs, gb_hdlc_peer_mtu(gs->peer_mtu));
	if (IS_ERR(link))
		return PTR_ERR(link);
	spin_lock_irqsave(&gs->lock, flags);
	gs->link = link;
	spin_unlock_irqrestore(&gs->lock, flags);
	ret = gb_hdlc_link_start(link);
	if (ret)
		gb_hdlc_serdev_link_down(gs);
	return ret;
}

static const struct serdev_device_ops gb_hdlc_serdev_ops = {
	.receive_buf	= gb_hdlc_serdev_receive,
	.write_wakeup	= gb_hdlc_serdev_wakeup,
};

static int gb_hdlc_serdev_probe(struct serdev_device *serdev)
{
	struct device *dev = &serdev->dev;
	struct gb_hdlc_serdev *gs;
	struct gb_hdlc_fwup_port port = {
		.dev		= dev,
		.name		= "cc1352p7",
		.write		= gb_hdlc_serdev_fwup_write,
		.link_down	= gb_hdlc_serdev_link_down,
		.link_up	= gb_hdlc_serdev_link_up,
	};
	struct gb_hdlc_fwup *fwup;
	unsigned long flags;
	int ret;

	gs = devm_kzalloc(dev, sizeof(*gs), GFP_KERNEL);
	if (!gs)
		return -ENOMEM;
	gs->serdev = serdev;
	spin_lock_init(&gs->lock);

	/* held in reset until the UART is ready */
	gs->reset = devm_gpiod_get_optional(dev, "reset", GPIOD_OUT_LOW);
	if (IS_ERR(gs->reset))
		return dev_err_probe(dev, PTR_ERR(gs->reset), "reset gpio\n");
	gs->backdoor = devm_gpiod_get_optional(dev, "bootloader-backdoor",
					       GPIOD_IN);
	if (IS_ERR(gs->backdoor))
		return dev_err_probe(dev, PTR_ERR(gs->backdoor),
				     "bootloader-backdoor gpio\n");
	gs->vdds = devm_regulator_get_optional(dev, "vdds");
	if (IS_ERR(gs->vdds)) {
		if (PTR_ERR(gs->vdds) != -ENODEV)
			return dev_err_probe(dev, PTR_ERR(gs->vdds), "vdds\n");
		gs->vdds = NULL;
	}

	gs->peer_mtu = (uintptr_t)device_get_match_data(dev);
	gs->link = gb_hdlc_link_create(dev, dev_name(dev),
				       &gb_hdlc_serdev_link_ops, gs,
				       gb_hdlc_peer_mtu(gs->peer_mtu));
	if (IS_ERR(gs->link))
		return PTR_ERR(gs->link);
	serdev_device_set_drvdata(serdev, gs);

	if (gs->vdds) {
		ret = regulator_enable(gs->vdds);
		if (ret)
			goto err_destroy;
	}

	serdev_device_set_client_ops(serdev, &gb_hdlc_serdev_ops);
	ret = serdev_device_open(serdev);
	if (ret)
		goto err_vdds;
	serdev_device_set_baudrate(serdev, GB_HDLC_SERDEV_BAUD);
	serdev_device_set_flow_control(serdev, false);
	ret = serdev_device_set_parity(serdev, SERDEV_PARITY_NONE);
	if (ret)
		goto err_close;

	gpiod_set_value_cansleep(gs->reset, 1);

	ret = gb_hdlc_link_start(gs->link);
	if (ret)
		goto err_reset;

	/* upstream's name, as BeaglePlay's users know it */
	port.reset = gs->reset;
	port.backdoor = gs->backdoor;
	port.priv = gs;
	fwup = gb_hdlc_fwup_register(&port);
	spin_lock_irqsave(&gs->lock, flags);
	gs->fwup = fwup;
	spin_unlock_irqrestore(&gs->lock, flags);
	return 0;

err_reset:
	gpiod_set_value_cansleep(gs->reset, 0);
err_close:
	serdev_device_close(serdev);
err_vdds:
	if (gs->vdds)
		regulator_disable(gs->vdds);
err_destroy:
	gb_hdlc_link_destroy(gs->link);
	return ret;
}

static void gb_hdlc_serdev_remove(struct serdev_device *serdev)
{
	struct gb_hdlc_serdev *gs = serdev_device_get_drvdata(serdev);
	struct gb_hdlc_fwup *fwup = gs->fwup;
	struct gb_hdlc_link *link;
	unsigned long flags;

	/* an upload in progress is cancelled and puts a link back first */
	gb_hdlc_fwup_unregister(fwup);
	spin_lock_irqsave(&gs->lock, flags);
	gs->fwup = NULL;
	spin_unlock_irqrestore(&gs->lock, flags);
	gb_hdlc_fwup_free(fwup);
	link = gs->link;
	if (link)
		gb_hdlc_link_stop(link);
	serdev_device_close(serdev);
	spin_lock_irqsave(&gs->lock, flags);
	gs->link = NULL;
	spin_unlock_irqrestore(&gs->lock, flags);
	gpiod_set_value_cansleep(gs->reset, 0);
	if (gs->vdds)
		regulator_disable(gs->vdds);
	if (link)
		gb_hdlc_link_destroy(link);
}

static const struct of_device_id gb_hdlc_of_match[] = {
	/* .data: the largest message the peer takes */
	{ .compatible = "ti,cc1352p7", .data = (void *)GB_HDLC_MTU_CC1352 },
	{ }
};
MODULE_DEVICE_TABLE(of, gb_hdlc_of_match);

static struct serdev_device_driver gb_hdlc_serdev_driver = {
	.probe	= gb_hdlc_serdev_probe,
	.remove	= gb_hdlc_serdev_remove,
	.driver	= {
		.name		= "gb-hdlc",
		.of_match_table	= gb_hdlc_of_match,
	},
};

/**
 * gb_hdlc_serdev_register() - offer the serdev driver
 *
 * Return: 0 or a negative errno.
 */
int gb_hdlc_serdev_register(void)
{
	return serdev_device_driver_register(&gb_hdlc_serdev_driver);
}

/**
 * gb_hdlc_serdev_unregister() - withdraw it
 */
void gb_hdlc_serdev_unregister(void)
{
	serdev_device_driver_unregister(&gb_hdlc_serdev_driver);
}
