// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus core: the greybus bus type and module init/exit.
 */
#include <linux/module.h>
#include <linux/device.h>

static struct bus_type greybus_bus_type = {
	.name = "greybus",
};

static int __init gb_init(void)
{
	return bus_register(&greybus_bus_type);
}
module_init(gb_init);

static void __exit gb_exit(void)
{
	bus_unregister(&greybus_bus_type);
}
module_exit(gb_exit);

MODULE_DESCRIPTION("Greybus core");
MODULE_LICENSE("GPL");
