// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: the driver for gbselftest_dev's device. Nothing
 * loads it by name; the uevent handler must, from the device's MODALIAS.
 */
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>

static int gbselftest_probe(struct platform_device *pdev)
{
	dev_info(&pdev->dev, "gbselftest: bound by autoload\n");
	return 0;
}

static const struct platform_device_id gbselftest_ids[] = {
	{ .name = "gbselftest-autoload" },
	{ }
};
MODULE_DEVICE_TABLE(platform, gbselftest_ids);

static struct platform_driver gbselftest_driver = {
	.probe = gbselftest_probe,
	.id_table = gbselftest_ids,
	.driver = {
		.name = "gbselftest-drv",
	},
};
module_platform_driver(gbselftest_driver);

MODULE_DESCRIPTION("Greybus harness self-test: a driver loaded by MODALIAS");
MODULE_LICENSE("GPL");
