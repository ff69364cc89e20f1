// SPDX-License-Identifier: GPL-2.0
/*
 * gb-hdlc's serdev driver: the UART a device tree describes as a TI
 * CC1352P7 running Greybus firmware, as on the BeaglePlay.  It takes the
 * properties of the upstream binding (ti,cc1352p7): reset-gpios,
 * bootloader-backdoor-gpios (held released: firmware upload is not done
 * here) and vdds-supply, and runs the link at 115200 8N1 without flow
 * control.
 *
 * The reset line's value is the level of the chip's RESET_N, as
 * BeaglePlay's device tree declares it (active-high) and upstream's
 * driver drives it: 0 holds the chip in reset, 1 lets it run.
 */
#include <linux/device.h>
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
	struct gb_hdlc_link	*link;
	struct gpio_desc	*reset;
	struct gpio_desc	*backdoor;
	struct regulator	*vdds;
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

	gb_hdlc_link_receive(gs->link, data, count);
	return count;
}

static void gb_hdlc_serdev_wakeup(struct serdev_device *serdev)
{
	struct gb_hdlc_serdev *gs = serdev_device_get_drvdata(serdev);

	gb_hdlc_link_write_wakeup(gs->link);
}

static const struct serdev_device_ops gb_hdlc_serdev_ops = {
	.receive_buf	= gb_hdlc_serdev_receive,
	.write_wakeup	= gb_hdlc_serdev_wakeup,
};

static int gb_hdlc_serdev_probe(struct serdev_device *serdev)
{
	struct device *dev = &serdev->dev;
	struct gb_hdlc_serdev *gs;
	uintptr_t peer_mtu;
	int ret;

	gs = devm_kzalloc(dev, sizeof(*gs), GFP_KERNEL);
	if (!gs)
		return -ENOMEM;
	gs->serdev = serdev;

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

	peer_mtu = (uintptr_t)device_get_match_data(dev);
	gs->link = gb_hdlc_link_create(dev, dev_name(dev),
				       &gb_hdlc_serdev_link_ops, gs,
				       gb_hdlc_peer_mtu(peer_mtu));
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

	gb_hdlc_link_stop(gs->link);
	serdev_device_close(serdev);
	gpiod_set_value_cansleep(gs->reset, 0);
	if (gs->vdds)
		regulator_disable(gs->vdds);
	gb_hdlc_link_destroy(gs->link);
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
