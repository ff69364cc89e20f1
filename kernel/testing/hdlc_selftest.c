// SPDX-License-Identifier: GPL-2.0
/*
 * gb-hdlc-selftest: gb-hdlc's link core (kernel/hosts/hdlc.c, built into
 * this module with GB_HDLC_SELFTEST defined) against a port of its own, to
 * provoke the teardown races deterministically.  Debian's kernels have
 * no KUnit, so the scenarios run on request:
 *
 *	echo NAME >/sys/kernel/debug/gb-hdlc-selftest/run
 *
 * The write succeeds if the scenario passed and fails with EIO if not,
 * each failed check logged with its line.  Scenarios:
 *  - purge-wakeup: a write-wakeup arrives just before the stop purges the
 *    transmit queue, and the port takes the frame the work is writing
 *    only after the purge (race 8: the work must not write from, or
 *    unlink, a frame the purge freed; the queue count must stay right);
 *  - version-after-stop: the peer's SVC starts over (a protocol version
 *    request after its hello) once the link is stopped but the port not
 *    yet closed, as serdev allows (race 7: no restart may begin);
 *  - reset-storm: the same request over and over from another thread
 *    while the link stops, then is destroyed;
 *  - groups-at-add: the host device's hdlc/ group exists when the bus
 *    is told about the new device, which is just before its add uevent
 *    goes out (udev rules on greybusN may read hdlc/port).
 *
 * On a KASAN/lockdep kernel a use-after-free or a lock report fails the
 * case too (the harness scans the log).
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernfs.h>
#include <linux/kthread.h>
#include <linux/uaccess.h>

#include <greybus/greybus.h>

#define GB_HDLC_SELFTEST
#include "../hosts/hdlc.c"
#include "../hosts/hdlc_frame.c"

/* How the test port treats a write */
enum gb_hst_mode {
	GB_HST_TAKE,		/* takes everything */
	GB_HST_FULL,		/* takes nothing (0): wait for a wakeup */
	GB_HST_BLOCK,		/* waits to be released, then takes all */
};

/* A write held by GB_HST_BLOCK goes on by itself after this long */
#define GB_HST_BLOCK_MAX_MS	2000

struct gb_hst_port {
	enum gb_hst_mode	mode;
	struct completion	entered;	/* a write is held */
	struct completion	release;	/* let it go */
	atomic_t		writes;
};

static struct gb_hst_port gb_hst_port;
static struct gb_hdlc_link *gb_hst_hook_link;
static bool gb_hst_hook_entered;
static int gb_hst_failed;

#define GB_HST_CHECK(cond) do {						\
	if (!(cond)) {							\
		pr_err("gb-hdlc-selftest: line %d: check failed: %s\n",	\
		       __LINE__, #cond);				\
		gb_hst_failed++;					\
	}								\
} while (0)

static int gb_hst_write(struct gb_hdlc_link *link, const u8 *data,
			size_t len)
{
	struct gb_hst_port *port = gb_hdlc_link_priv(link);

	atomic_inc(&port->writes);
	switch (READ_ONCE(port->mode)) {
	case GB_HST_FULL:
		return 0;
	case GB_HST_BLOCK:
		complete(&port->entered);
		wait_for_completion_timeout(&port->release,
					    msecs_to_jiffies(GB_HST_BLOCK_MAX_MS));
		return len;
	default:
		return len;
	}
}

static const struct gb_hdlc_link_ops gb_hst_ops = {
	.write	= gb_hst_write,
};

/*
 * The link core's test point: just before the purge, a wakeup makes the
 * work take the first queued frame and hold in the port's write.
 */
static void gb_hdlc_test_hook(struct gb_hdlc_link *link,
			      enum gb_hdlc_hook where)
{
	if (where != GB_HDLC_HOOK_TX_PURGE || link != gb_hst_hook_link)
		return;
	gb_hst_hook_link = NULL;
	WRITE_ONCE(gb_hst_port.mode, GB_HST_BLOCK);
	gb_hdlc_link_write_wakeup(link);
	gb_hst_hook_entered =
		wait_for_completion_timeout(&gb_hst_port.entered,
					    msecs_to_jiffies(5000)) != 0;
}

static struct gb_hdlc_link *gb_hst_link(enum gb_hst_mode mode)
{
	struct gb_hdlc_link *link;
	int ret;

	gb_hst_port.mode = mode;
	init_completion(&gb_hst_port.entered);
	init_completion(&gb_hst_port.release);
	atomic_set(&gb_hst_port.writes, 0);

	link = gb_hdlc_link_create(gb_hdlc_root_dev, "selftest", &gb_hst_ops,
				   &gb_hst_port, GB_HDLC_MTU_CC1352);
	if (IS_ERR(link)) {
		pr_err("gb-hdlc-selftest: no link: %ld\n", PTR_ERR(link));
		return NULL;
	}
	ret = gb_hdlc_link_start(link);
	if (ret) {
		pr_err("gb-hdlc-selftest: link start: %d\n", ret);
		gb_hdlc_link_destroy(link);
		return NULL;
	}
	return link;
}

/* Pretend the peer's SVC said hello (the core is not involved) */
static void gb_hst_hello(struct gb_hdlc_link *link)
{
	unsigned long flags;

	spin_lock_irqsave(&link->rx_lock, flags);
	link->svc_hello = true;
	spin_unlock_irqrestore(&link->rx_lock, flags);
}

/* A protocol version request on the SVC CPort, framed; its length */
static size_t gb_hst_version_frame(u8 *out, size_t size)
{
	struct {
		struct gb_operation_msg_hdr	hdr;
		u8				major, minor;
	} __packed msg = {
		.hdr.size	= cpu_to_le16(sizeof(msg)),
		.hdr.operation_id = cpu_to_le16(1),
		.hdr.type	= GB_REQUEST_TYPE_PROTOCOL_VERSION,
		.major		= 0,
		.minor		= 1,
	};
	__le16 cport = cpu_to_le16(0);

	return gb_hdlc_encode(out, size, GB_HDLC_ADDR_GREYBUS,
			      GB_HDLC_CTRL_UI, &cport, sizeof(cport),
			      &msg, sizeof(msg));
}

/* What a stopped link must look like whatever reached it */
static void gb_hst_check_stopped(struct gb_hdlc_link *link)
{
	flush_work(&link->reset_work);
	GB_HST_CHECK(!link->added);
	GB_HST_CHECK(!device_is_registered(&link->hd->dev));
	if (link->added)	/* a restart got through: undo it */
		gb_hdlc_link_down(link);
}

static void gb_hst_purge_wakeup(void)
{
	struct gb_hdlc_link *link;
	unsigned long flags;
	unsigned int queued;
	bool empty;

	/* the port takes nothing: SVC_STOP and SVC_START stay queued */
	link = gb_hst_link(GB_HST_FULL);
	if (!link) {
		gb_hst_failed++;
		return;
	}
	flush_work(&link->tx_work);
	GB_HST_CHECK(link->tx_queued == 2);

	gb_hst_hook_entered = false;
	gb_hst_hook_link = link;
	gb_hdlc_link_stop(link);
	GB_HST_CHECK(gb_hst_hook_entered);
	/* the port takes the frame only now, after the purge */
	complete(&gb_hst_port.release);
	flush_work(&link->tx_work);

	spin_lock_irqsave(&link->tx_lock, flags);
	queued = link->tx_queued;
	empty = list_empty(&link->tx_queue);
	spin_unlock_irqrestore(&link->tx_lock, flags);
	GB_HST_CHECK(queued == 0);
	GB_HST_CHECK(empty);
	GB_HST_CHECK(!link->tx_busy);
	gb_hdlc_link_destroy(link);
}

static void gb_hst_version_after_stop(void)
{
	struct gb_hdlc_link *link;
	u8 frame[64];
	size_t len;

	link = gb_hst_link(GB_HST_TAKE);
	if (!link) {
		gb_hst_failed++;
		return;
	}
	gb_hst_hello(link);
	gb_hdlc_link_stop(link);

	/* serdev delivers until the port is closed */
	len = gb_hst_version_frame(frame, sizeof(frame));
	gb_hdlc_link_receive(link, frame, len);
	gb_hst_check_stopped(link);
	gb_hdlc_link_destroy(link);
}

static int gb_hst_storm(void *data)
{
	struct gb_hdlc_link *link = data;
	u8 frame[64];
	size_t len = gb_hst_version_frame(frame, sizeof(frame));

	while (!kthread_should_stop()) {
		gb_hst_hello(link);
		gb_hdlc_link_receive(link, frame, len);
		usleep_range(50, 200);
	}
	return 0;
}

static void gb_hst_reset_storm(void)
{
	struct task_struct *storm;
	struct gb_hdlc_link *link;
	int i;

	for (i = 0; i < 5; i++) {
		link = gb_hst_link(GB_HST_TAKE);
		if (!link) {
			gb_hst_failed++;
			return;
		}
		storm = kthread_run(gb_hst_storm, link, "gb-hdlc-storm");
		if (IS_ERR(storm)) {
			gb_hst_failed++;
			gb_hdlc_link_stop(link);
			gb_hdlc_link_destroy(link);
			return;
		}
		msleep(20 * i);
		gb_hdlc_link_stop(link);
		msleep(20);
		kthread_stop(storm);
		gb_hst_check_stopped(link);
		gb_hdlc_link_destroy(link);
	}
}

/* Did greybusN have hdlc/port when the bus was told it was added? */
static int gb_hst_port_at_add = -1;

static int gb_hst_bus_event(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct device *dev = data;
	struct kernfs_node *group, *port = NULL;

	if (action != BUS_NOTIFY_ADD_DEVICE || !is_gb_host_device(dev))
		return NOTIFY_DONE;
	group = kernfs_find_and_get(dev->kobj.sd, "hdlc");
	if (group)
		port = kernfs_find_and_get(group, "port");
	WRITE_ONCE(gb_hst_port_at_add, !!port);
	kernfs_put(port);
	kernfs_put(group);
	return NOTIFY_DONE;
}

static struct notifier_block gb_hst_bus_nb = {
	.notifier_call	= gb_hst_bus_event,
};

static void gb_hst_groups_at_add(void)
{
	struct gb_hdlc_link *link;
	int ret;

	/* BUS_NOTIFY_ADD_DEVICE comes after the groups, before the uevent */
	ret = bus_register_notifier(&greybus_bus_type, &gb_hst_bus_nb);
	if (ret) {
		pr_err("gb-hdlc-selftest: bus notifier: %d\n", ret);
		gb_hst_failed++;
		return;
	}
	gb_hst_port_at_add = -1;
	link = gb_hst_link(GB_HST_TAKE);
	bus_unregister_notifier(&greybus_bus_type, &gb_hst_bus_nb);
	if (!link) {
		gb_hst_failed++;
		return;
	}
	GB_HST_CHECK(gb_hst_port_at_add == 1);
	gb_hdlc_link_stop(link);
	gb_hdlc_link_destroy(link);
}

static const struct {
	const char	*name;
	void		(*run)(void);
} gb_hst_scenarios[] = {
	{ "purge-wakeup", gb_hst_purge_wakeup },
	{ "version-after-stop", gb_hst_version_after_stop },
	{ "reset-storm", gb_hst_reset_storm },
	{ "groups-at-add", gb_hst_groups_at_add },
};

static DEFINE_MUTEX(gb_hst_lock);	/* one scenario at a time */

static ssize_t gb_hst_run_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char name[32];
	size_t i, n = min(count, sizeof(name) - 1);
	int ret = -EINVAL;

	if (copy_from_user(name, ubuf, n))
		return -EFAULT;
	name[n] = '\0';
	strim(name);

	mutex_lock(&gb_hst_lock);
	for (i = 0; i < ARRAY_SIZE(gb_hst_scenarios); i++) {
		if (strcmp(name, gb_hst_scenarios[i].name))
			continue;
		gb_hst_failed = 0;
		pr_info("gb-hdlc-selftest: %s: start\n", name);
		gb_hst_scenarios[i].run();
		pr_info("gb-hdlc-selftest: %s: %s\n", name,
			gb_hst_failed ? "FAILED" : "passed");
		ret = gb_hst_failed ? -EIO : count;
		break;
	}
	mutex_unlock(&gb_hst_lock);
	return ret;
}

static const struct file_operations gb_hst_run_fops = {
	.owner	= THIS_MODULE,
	.write	= gb_hst_run_write,
};

static struct dentry *gb_hst_dir;

static int __init gb_hst_init(void)
{
	gb_hdlc_root_dev = root_device_register("gb-hdlc-selftest");
	if (IS_ERR(gb_hdlc_root_dev))
		return PTR_ERR(gb_hdlc_root_dev);
	gb_hdlc_wq = alloc_workqueue("gb-hdlc-selftest", 0, 0);
	if (!gb_hdlc_wq) {
		root_device_unregister(gb_hdlc_root_dev);
		return -ENOMEM;
	}
	gb_hst_dir = debugfs_create_dir("gb-hdlc-selftest", NULL);
	debugfs_create_file("run", 0200, gb_hst_dir, NULL, &gb_hst_run_fops);
	return 0;
}
module_init(gb_hst_init);

static void __exit gb_hst_exit(void)
{
	debugfs_remove_recursive(gb_hst_dir);
	destroy_workqueue(gb_hdlc_wq);
	root_device_unregister(gb_hdlc_root_dev);
}
module_exit(gb_hst_exit);

MODULE_DESCRIPTION("Self-test of gb-hdlc's link core: its teardown races");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
