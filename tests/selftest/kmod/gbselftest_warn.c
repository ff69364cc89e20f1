// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a module whose init triggers a WARN_ON on purpose.
 * The case that loads it exits 0, so only the harness's kernel log scan
 * can report it failed.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init gbselftest_warn_init(void)
{
	WARN_ON(1);
	return 0;
}
module_init(gbselftest_warn_init);

static void __exit gbselftest_warn_exit(void)
{
}
module_exit(gbselftest_warn_exit);

MODULE_DESCRIPTION("Greybus harness self-test: WARN_ON at load");
MODULE_LICENSE("GPL");
