// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: registers a platform device whose driver lives in
 * gbselftest_drv, so loading this module must autoload that one through
 * the uevent's MODALIAS. A debugfs file "pin" takes a reference on this
 * module when written, to check that the harness reports a module left
 * in use after a case. Two more files wedge the kernel on purpose, to
 * check that the harness gives up a guest it cannot trust: reading
 * "stuck" blocks the reader uninterruptibly (a task no signal can end),
 * and writing "wedge_exit" makes the module's exit block the same way (an
 * rmmod that never returns). Both last until the guest is stopped.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/wait.h>

static struct platform_device *gbselftest_pdev;
static struct dentry *gbselftest_dir;
static DECLARE_WAIT_QUEUE_HEAD(gbselftest_never);
static bool gbselftest_wedged_exit;

static ssize_t gbselftest_pin_write(struct file *file, const char __user *buf,
				    size_t count, loff_t *ppos)
{
	/* Never dropped: the module stays in use until reboot. */
	__module_get(THIS_MODULE);
	return count;
}

static const struct file_operations gbselftest_pin_fops = {
	.owner = THIS_MODULE,
	.write = gbselftest_pin_write,
};

/* Nothing ever wakes this queue: the reader stays in D state. */
static ssize_t gbselftest_stuck_read(struct file *file, char __user *buf,
				     size_t count, loff_t *ppos)
{
	wait_event(gbselftest_never, false);
	return 0;
}

static const struct file_operations gbselftest_stuck_fops = {
	.owner = THIS_MODULE,
	.read = gbselftest_stuck_read,
};

static ssize_t gbselftest_wedge_exit_write(struct file *file,
					   const char __user *buf,
					   size_t count, loff_t *ppos)
{
	WRITE_ONCE(gbselftest_wedged_exit, true);
	return count;
}

static const struct file_operations gbselftest_wedge_exit_fops = {
	.owner = THIS_MODULE,
	.write = gbselftest_wedge_exit_write,
};

static int __init gbselftest_dev_init(void)
{
	gbselftest_pdev = platform_device_register_simple("gbselftest-autoload",
							  PLATFORM_DEVID_NONE,
							  NULL, 0);
	if (IS_ERR(gbselftest_pdev))
		return PTR_ERR(gbselftest_pdev);

	gbselftest_dir = debugfs_create_dir("gbselftest", NULL);
	debugfs_create_file("pin", 0200, gbselftest_dir, NULL,
			    &gbselftest_pin_fops);
	debugfs_create_file("stuck", 0400, gbselftest_dir, NULL,
			    &gbselftest_stuck_fops);
	debugfs_create_file("wedge_exit", 0200, gbselftest_dir, NULL,
			    &gbselftest_wedge_exit_fops);
	return 0;
}
module_init(gbselftest_dev_init);

static void __exit gbselftest_dev_exit(void)
{
	if (READ_ONCE(gbselftest_wedged_exit))
		wait_event(gbselftest_never, false);
	debugfs_remove(gbselftest_dir);
	platform_device_unregister(gbselftest_pdev);
}
module_exit(gbselftest_dev_exit);

MODULE_DESCRIPTION("Greybus harness self-test: a device to autoload a driver for");
MODULE_LICENSE("GPL");
