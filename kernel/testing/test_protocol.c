// SPDX-License-Identifier: GPL-2.0
/*
 * gb-test-protocol: a minimal Greybus protocol driver for the test suite.
 *
 * Binds to bundles of class vendor (0xff).  Probe opens a connection on
 * the bundle's first CPort and runs one synchronous "ping" (operation
 * type 0x02, 4-byte payload "ping", the module echoes it back).  The
 * outcome is readable as "ok" or "error -N" in the bundle's test_result
 * attribute and in /sys/kernel/debug/greybus/gb-test-protocol/<bundle>/
 * result; writing 1 to test_ping runs the operation again.
 *
 * Requests from the module: type 0x02 is echoed back; any other type is
 * answered "protocol bad" with a rate-limited log line.  Two parameters
 * (/sys/module/gb_test_protocol/parameters/) let the hostile-input cases
 * set up what they need:
 *  - ping_timeout_ms (0..60000, 0 = the core's default): how long a ping
 *    waits for its answer;
 *  - hold_requests (0 or 1): while 1, the request handler waits (at
 *    most GB_TEST_HOLD_MAX_MS per request) before answering, so that
 *    requests pile up in the core's queue.  Writing 0 lets them go.
 *
 * Writing N (1..4096) to .../gb-test-protocol/<bundle>/reverse_burst puts
 * N pings in flight and answers them newest-first (test_burst.c); reading
 * it gives what the last burst saw.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>

#include <greybus/greybus.h>

#include "test_burst.h"

/* The test protocol's only operation (gbsim: tools/gbsim/proto-test.c) */
#define GB_TEST_TYPE_PING	0x02

static const u8 gb_test_ping_payload[4] = { 'p', 'i', 'n', 'g' };

/* A held request goes on by itself after this long */
#define GB_TEST_HOLD_MAX_MS	10000
#define GB_TEST_TIMEOUT_MAX_MS	60000

static unsigned int gb_test_ping_timeout_ms;
static bool gb_test_hold_requests;
static DECLARE_WAIT_QUEUE_HEAD(gb_test_hold_wq);

static int gb_test_ping_timeout_set(const char *val,
				    const struct kernel_param *kp)
{
	unsigned int ms;

	if (kstrtouint(val, 10, &ms) || ms > GB_TEST_TIMEOUT_MAX_MS)
		return -EINVAL;

	WRITE_ONCE(gb_test_ping_timeout_ms, ms);

	return 0;
}

static const struct kernel_param_ops gb_test_ping_timeout_ops = {
	.set	= gb_test_ping_timeout_set,
	.get	= param_get_uint,
};
module_param_cb(ping_timeout_ms, &gb_test_ping_timeout_ops,
		&gb_test_ping_timeout_ms, 0644);
MODULE_PARM_DESC(ping_timeout_ms, "ping timeout in ms, 0 = default");

static int gb_test_hold_set(const char *val, const struct kernel_param *kp)
{
	unsigned int hold;

	if (kstrtouint(val, 10, &hold) || hold > 1)
		return -EINVAL;

	WRITE_ONCE(gb_test_hold_requests, hold);
	if (!hold)
		wake_up_all(&gb_test_hold_wq);

	return 0;
}

static const struct kernel_param_ops gb_test_hold_ops = {
	.set	= gb_test_hold_set,
	.get	= param_get_bool,
};
module_param_cb(hold_requests, &gb_test_hold_ops, &gb_test_hold_requests,
		0644);
MODULE_PARM_DESC(hold_requests, "1: hold requests from the module back");

struct gb_test {
	struct gb_bundle	*bundle;
	struct gb_connection	*connection;
	struct dentry		*debugfs_dir;

	struct mutex		lock;	/* one ping at a time, @result, @burst */
	int			result;	/* of the last ping */
	struct gb_test_burst_result burst;	/* of the last burst */
};

static struct dentry *gb_test_debugfs_root;

/* Runs one ping and records its outcome */
static int gb_test_ping(struct gb_test *test)
{
	u8 response[sizeof(gb_test_ping_payload)];
	u8 request[sizeof(gb_test_ping_payload)];
	int ret;

	memcpy(request, gb_test_ping_payload, sizeof(request));

	mutex_lock(&test->lock);

	/* The bundle may be suspended: it is resumed for the ping */
	ret = gb_pm_runtime_get_sync(test->bundle);
	if (ret)
		goto out;

	ret = gb_operation_sync_timeout(test->connection, GB_TEST_TYPE_PING,
					request, sizeof(request),
					response, sizeof(response),
					READ_ONCE(gb_test_ping_timeout_ms));
	if (!ret && memcmp(response, gb_test_ping_payload, sizeof(response)))
		ret = -EBADMSG;

	gb_pm_runtime_put_autosuspend(test->bundle);
out:
	test->result = ret;
	mutex_unlock(&test->lock);

	if (ret)
		dev_err(&test->bundle->dev, "ping failed: %d\n", ret);
	else
		dev_dbg(&test->bundle->dev, "ping echoed\n");

	return ret;
}

/* Requests from the module, one at a time (the core serialises them) */
static int gb_test_request_handler(struct gb_operation *operation)
{
	struct gb_connection *connection = operation->connection;
	struct gb_test *test = gb_connection_get_data(connection);
	struct gb_message *request = operation->request;

	wait_event_timeout(gb_test_hold_wq, !READ_ONCE(gb_test_hold_requests),
			   msecs_to_jiffies(GB_TEST_HOLD_MAX_MS));

	if (operation->type != GB_TEST_TYPE_PING) {
		dev_warn_ratelimited(&test->bundle->dev,
				     "%s: unknown request type 0x%02x\n",
				     connection->name, operation->type);
		return -EPROTONOSUPPORT;
	}

	if (!gb_operation_response_alloc(operation, request->payload_size,
					 GFP_KERNEL))
		return -ENOMEM;
	memcpy(operation->response->payload, request->payload,
	       request->payload_size);

	return 0;
}

static int gb_test_result_format(struct gb_test *test, char *buf, size_t size)
{
	int result;

	mutex_lock(&test->lock);
	result = test->result;
	mutex_unlock(&test->lock);

	if (!result)
		return scnprintf(buf, size, "ok\n");

	return scnprintf(buf, size, "error %d\n", result);
}

static ssize_t test_result_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct gb_test *test = dev_get_drvdata(dev);

	return gb_test_result_format(test, buf, PAGE_SIZE);
}
static DEVICE_ATTR_RO(test_result);

static ssize_t test_ping_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t len)
{
	struct gb_test *test = dev_get_drvdata(dev);
	unsigned int val;

	if (kstrtouint(buf, 0, &val) || val != 1)
		return -EINVAL;

	/* The outcome is in test_result; the write itself succeeds */
	gb_test_ping(test);

	return len;
}
static DEVICE_ATTR_WO(test_ping);

static struct attribute *gb_test_attrs[] = {
	&dev_attr_test_result.attr,
	&dev_attr_test_ping.attr,
	NULL
};
ATTRIBUTE_GROUPS(gb_test);

static int gb_test_debugfs_result_show(struct seq_file *s, void *data)
{
	struct gb_test *test = s->private;
	char buf[32];

	gb_test_result_format(test, buf, sizeof(buf));
	seq_puts(s, buf);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gb_test_debugfs_result);

static int gb_test_debugfs_burst_show(struct seq_file *s, void *data)
{
	struct gb_test *test = s->private;
	struct gb_test_burst_result r;

	mutex_lock(&test->lock);
	r = test->burst;
	mutex_unlock(&test->lock);

	seq_printf(s, "sent %u completed %u ok %u lookup_steps %lu answer_ns %llu error %d\n",
		   r.sent, r.completed, r.ok, r.lookup_steps, r.answer_ns,
		   r.error);

	return 0;
}

static int gb_test_debugfs_burst_open(struct inode *inode, struct file *file)
{
	return single_open(file, gb_test_debugfs_burst_show, inode->i_private);
}

static ssize_t gb_test_debugfs_burst_write(struct file *file,
					   const char __user *ubuf,
					   size_t len, loff_t *ppos)
{
	struct gb_test *test = ((struct seq_file *)file->private_data)->private;
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 0, &n);
	if (ret)
		return ret;
	if (!n || n > GB_TEST_BURST_MAX)
		return -EINVAL;

	mutex_lock(&test->lock);
	ret = gb_pm_runtime_get_sync(test->bundle);
	if (ret) {
		memset(&test->burst, 0, sizeof(test->burst));
		test->burst.error = ret;
	} else {
		gb_test_burst_run(test->connection, n, &test->burst);
		gb_pm_runtime_put_autosuspend(test->bundle);
	}
	mutex_unlock(&test->lock);

	return len;
}

static const struct file_operations gb_test_debugfs_burst_fops = {
	.owner		= THIS_MODULE,
	.open		= gb_test_debugfs_burst_open,
	.read		= seq_read,
	.write		= gb_test_debugfs_burst_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int gb_test_probe(struct gb_bundle *bundle,
			 const struct greybus_bundle_id *id)
{
	struct gb_connection *connection;
	struct gb_test *test;
	int ret;

	if (!bundle->num_cports)
		return -ENODEV;

	test = kzalloc(sizeof(*test), GFP_KERNEL);
	if (!test)
		return -ENOMEM;

	test->bundle = bundle;
	test->result = -ENODATA;
	mutex_init(&test->lock);

	connection = gb_connection_create(bundle,
					  le16_to_cpu(bundle->cport_desc[0].id),
					  gb_test_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_free_test;
	}
	gb_connection_set_data(connection, test);
	test->connection = connection;

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy_connection;

	greybus_set_drvdata(bundle, test);

	/* A failed ping is a result to report, not a failed probe */
	gb_test_ping(test);

	test->debugfs_dir = debugfs_create_dir(dev_name(&bundle->dev),
					       gb_test_debugfs_root);
	debugfs_create_file("result", 0444, test->debugfs_dir, test,
			    &gb_test_debugfs_result_fops);
	debugfs_create_file("reverse_burst", 0644, test->debugfs_dir, test,
			    &gb_test_debugfs_burst_fops);

	return 0;

err_destroy_connection:
	gb_connection_destroy(connection);
err_free_test:
	kfree(test);
	return ret;
}

static void gb_test_disconnect(struct gb_bundle *bundle)
{
	struct gb_test *test = greybus_get_drvdata(bundle);

	debugfs_remove_recursive(test->debugfs_dir);
	gb_connection_disable(test->connection);
	gb_connection_destroy(test->connection);
	kfree(test);
}

static const struct greybus_bundle_id gb_test_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_VENDOR) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_test_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_VENDOR);

static struct greybus_driver gb_test_driver = {
	.name		= "gb-test-protocol",
	.probe		= gb_test_probe,
	.disconnect	= gb_test_disconnect,
	.id_table	= gb_test_id_table,
	.driver		= {
		.dev_groups	= gb_test_groups,
	},
};

static int __init gb_test_init(void)
{
	int ret;

	gb_test_debugfs_root = debugfs_create_dir("gb-test-protocol",
						  gb_debugfs_get());

	ret = greybus_register(&gb_test_driver);
	if (ret)
		goto err_debugfs_remove;

	return 0;

err_debugfs_remove:
	debugfs_remove_recursive(gb_test_debugfs_root);
	return ret;
}
module_init(gb_test_init);

static void __exit gb_test_exit(void)
{
	greybus_deregister(&gb_test_driver);
	debugfs_remove_recursive(gb_test_debugfs_root);
}
module_exit(gb_test_exit);

MODULE_DESCRIPTION("Greybus test protocol driver (test suite only)");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
