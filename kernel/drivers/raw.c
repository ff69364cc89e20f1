// SPDX-License-Identifier: GPL-2.0
/*
 * gb-raw: the Raw protocol (0xfe).  Each Raw bundle gets a character
 * device, class gb_raw, named "gb!raw<N>" as in Linux: devtmpfs makes
 * it /dev/gb/raw<N>.  One write() is one SEND request to the module (at
 * most GB_RAW_PACKET_MAX bytes, less if the host's messages are
 * smaller); each SEND from the module is queued
 * whole and one read() returns one of them.  The queue holds at most
 * GB_RAW_QUEUE_MAX bytes: a module that sends more than the reader takes
 * gets its SEND refused until there is room again.
 *
 * Lifetime.  struct gb_raw embeds the class device and the cdev; the
 * cdev's parent is that device (cdev_device_add), so the memory lives as
 * long as an open file or the bundle needs it and goes with the device's
 * last reference.  disconnect() marks the device gone, which wakes every
 * reader and fails later reads and writes with -ENODEV, then tears the
 * connection down.
 *
 * Locking: @write_lock serialises writers with disconnect (it protects
 * @connection); @lock (a spinlock) protects the queue and @gone.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <greybus/greybus.h>
#include <uapi/greybus/raw.h>

#define GB_RAW_MINORS		256
#define GB_RAW_PACKET_MAX	8192
#define GB_RAW_QUEUE_MAX	(8 * GB_RAW_PACKET_MAX)

struct gb_raw_packet {
	struct list_head	node;
	size_t			len;
	u8			data[];
};

struct gb_raw {
	struct device		dev;
	struct cdev		cdev;
	struct gb_bundle	*bundle;
	struct gb_connection	*connection;
	int			minor;
	size_t			packet_max;	/* of a write */

	struct mutex		write_lock;	/* see the top of the file */
	spinlock_t		lock;
	bool			gone;
	struct list_head	queue;		/* struct gb_raw_packet */
	size_t			queued;		/* bytes in @queue */
	wait_queue_head_t	wq;		/* readers */
};

static struct class gb_raw_class = {
	.name	= "gb_raw",
};

static dev_t gb_raw_devt;
static DEFINE_IDA(gb_raw_ida);

static int gb_raw_request_handler(struct gb_operation *operation)
{
	struct gb_raw *raw = gb_connection_get_data(operation->connection);
	struct gb_raw_send_request *request = operation->request->payload;
	size_t size = operation->request->payload_size;
	struct gb_raw_packet *packet;
	unsigned long flags;
	size_t len;
	int ret = 0;

	if (operation->type != GB_RAW_TYPE_SEND) {
		dev_err_ratelimited(&raw->dev, "unknown request type 0x%02x\n",
				    operation->type);
		return -EINVAL;
	}
	if (size < sizeof(*request)) {
		dev_err_ratelimited(&raw->dev, "send request too short (%zu bytes)\n",
				    size);
		return -EINVAL;
	}
	len = le32_to_cpu(request->len);
	if (len != size - sizeof(*request) || !len ||
	    len > GB_RAW_PACKET_MAX) {
		dev_err_ratelimited(&raw->dev, "send request of %zu bytes says %zu\n",
				    size - sizeof(*request), len);
		return -EINVAL;
	}

	packet = kmalloc(struct_size(packet, data, len), GFP_KERNEL);
	if (!packet)
		return -ENOMEM;
	packet->len = len;
	memcpy(packet->data, request->data, len);

	spin_lock_irqsave(&raw->lock, flags);
	if (raw->gone) {
		ret = -ESHUTDOWN;
	} else if (raw->queued + len > GB_RAW_QUEUE_MAX) {
		ret = -ENOSPC;
	} else {
		list_add_tail(&packet->node, &raw->queue);
		raw->queued += len;
	}
	spin_unlock_irqrestore(&raw->lock, flags);

	if (ret) {
		if (ret == -ENOSPC)
			dev_err_ratelimited(&raw->dev, "receive queue full, %zu bytes dropped\n",
					    len);
		kfree(packet);
		return ret;
	}

	wake_up_interruptible(&raw->wq);

	return 0;
}

static int gb_raw_open(struct inode *inode, struct file *file)
{
	struct gb_raw *raw = container_of(inode->i_cdev, struct gb_raw, cdev);

	/* Dropped in release: the file may outlive the bundle */
	get_device(&raw->dev);
	file->private_data = raw;

	return nonseekable_open(inode, file);
}

static int gb_raw_release(struct inode *inode, struct file *file)
{
	struct gb_raw *raw = file->private_data;

	put_device(&raw->dev);

	return 0;
}

static ssize_t gb_raw_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	struct gb_raw *raw = file->private_data;
	struct gb_raw_send_request *request;
	size_t size;
	int ret;

	if (!count)
		return 0;
	if (count > READ_ONCE(raw->packet_max))
		return -E2BIG;

	size = struct_size(request, data, count);
	request = kmalloc(size, GFP_KERNEL);
	if (!request)
		return -ENOMEM;
	request->len = cpu_to_le32(count);
	if (copy_from_user(request->data, buf, count)) {
		ret = -EFAULT;
		goto out_free;
	}

	ret = mutex_lock_interruptible(&raw->write_lock);
	if (ret)
		goto out_free;
	if (!raw->connection) {
		ret = -ENODEV;
		goto out_unlock;
	}
	ret = gb_pm_runtime_get_sync(raw->bundle);
	if (ret)
		goto out_unlock;
	ret = gb_operation_sync(raw->connection, GB_RAW_TYPE_SEND,
				request, size, NULL, 0);
	gb_pm_runtime_put_autosuspend(raw->bundle);
	if (ret)
		dev_err_ratelimited(&raw->dev, "send of %zu bytes failed: %d\n",
				    count, ret);

out_unlock:
	mutex_unlock(&raw->write_lock);
out_free:
	kfree(request);

	return ret ? ret : count;
}

/* The first packet, unlinked, or NULL; *err says why there is none */
static struct gb_raw_packet *gb_raw_dequeue(struct gb_raw *raw,
					    size_t count, int *err)
{
	struct gb_raw_packet *packet = NULL;

	spin_lock_irq(&raw->lock);
	if (raw->gone) {
		*err = -ENODEV;
	} else if (list_empty(&raw->queue)) {
		*err = -EAGAIN;
	} else {
		packet = list_first_entry(&raw->queue, struct gb_raw_packet,
					  node);
		if (packet->len > count) {
			/* It stays queued for a read with room enough */
			*err = -EMSGSIZE;
			packet = NULL;
		} else {
			list_del(&packet->node);
			raw->queued -= packet->len;
		}
	}
	spin_unlock_irq(&raw->lock);

	return packet;
}

static bool gb_raw_readable(struct gb_raw *raw)
{
	bool ret;

	spin_lock_irq(&raw->lock);
	ret = raw->gone || !list_empty(&raw->queue);
	spin_unlock_irq(&raw->lock);

	return ret;
}

static ssize_t gb_raw_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	struct gb_raw *raw = file->private_data;
	struct gb_raw_packet *packet;
	ssize_t ret;
	int err;

	for (;;) {
		packet = gb_raw_dequeue(raw, count, &err);
		if (packet)
			break;
		if (err != -EAGAIN || (file->f_flags & O_NONBLOCK))
			return err;
		ret = wait_event_interruptible(raw->wq, gb_raw_readable(raw));
		if (ret)
			return ret;
	}

	ret = packet->len;
	if (copy_to_user(buf, packet->data, packet->len))
		ret = -EFAULT;
	kfree(packet);

	return ret;
}

static __poll_t gb_raw_poll(struct file *file, poll_table *wait)
{
	struct gb_raw *raw = file->private_data;
	__poll_t mask;

	poll_wait(file, &raw->wq, wait);

	spin_lock_irq(&raw->lock);
	if (raw->gone)
		mask = EPOLLERR | EPOLLHUP;
	else
		mask = EPOLLOUT | EPOLLWRNORM;
	if (!list_empty(&raw->queue) && !raw->gone)
		mask |= EPOLLIN | EPOLLRDNORM;
	spin_unlock_irq(&raw->lock);

	return mask;
}

static const struct file_operations gb_raw_fops = {
	.owner		= THIS_MODULE,
	.open		= gb_raw_open,
	.release	= gb_raw_release,
	.read		= gb_raw_read,
	.write		= gb_raw_write,
	.poll		= gb_raw_poll,
};

static void gb_raw_queue_free(struct gb_raw *raw)
{
	struct gb_raw_packet *packet, *next;

	list_for_each_entry_safe(packet, next, &raw->queue, node)
		kfree(packet);
	INIT_LIST_HEAD(&raw->queue);
	raw->queued = 0;
}

static void gb_raw_dev_release(struct device *dev)
{
	struct gb_raw *raw = container_of(dev, struct gb_raw, dev);

	gb_raw_queue_free(raw);
	ida_free(&gb_raw_ida, raw->minor);
	kfree(raw);
}

static int gb_raw_probe(struct gb_bundle *bundle,
			const struct greybus_bundle_id *id)
{
	struct greybus_descriptor_cport *desc;
	struct gb_connection *connection;
	struct gb_raw *raw;
	int ret, minor;

	if (bundle->num_cports != 1)
		return -ENODEV;
	desc = &bundle->cport_desc[0];
	if (desc->protocol_id != GREYBUS_PROTOCOL_RAW)
		return -ENODEV;

	minor = ida_alloc_max(&gb_raw_ida, GB_RAW_MINORS - 1, GFP_KERNEL);
	if (minor < 0)
		return minor;

	raw = kzalloc(sizeof(*raw), GFP_KERNEL);
	if (!raw) {
		ida_free(&gb_raw_ida, minor);
		return -ENOMEM;
	}
	raw->bundle = bundle;
	raw->minor = minor;
	mutex_init(&raw->write_lock);
	spin_lock_init(&raw->lock);
	INIT_LIST_HEAD(&raw->queue);
	init_waitqueue_head(&raw->wq);

	/* From here on the device's release frees raw and the minor */
	device_initialize(&raw->dev);
	raw->dev.class = &gb_raw_class;
	raw->dev.parent = &bundle->dev;
	raw->dev.devt = MKDEV(MAJOR(gb_raw_devt), minor);
	raw->dev.release = gb_raw_dev_release;
	ret = dev_set_name(&raw->dev, "gb!raw%d", minor);
	if (ret)
		goto err_put;
	cdev_init(&raw->cdev, &gb_raw_fops);
	raw->cdev.owner = THIS_MODULE;

	connection = gb_connection_create(bundle, le16_to_cpu(desc->id),
					  gb_raw_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_put;
	}
	gb_connection_set_data(connection, raw);
	raw->connection = connection;
	greybus_set_drvdata(bundle, raw);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy;
	/* The link may carry less than the protocol allows */
	raw->packet_max = min_t(size_t, GB_RAW_PACKET_MAX,
				gb_operation_get_payload_size_max(connection) -
				sizeof(struct gb_raw_send_request));

	ret = cdev_device_add(&raw->cdev, &raw->dev);
	if (ret)
		goto err_disable;

	return 0;

err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
err_put:
	put_device(&raw->dev);
	return ret;
}

static void gb_raw_disconnect(struct gb_bundle *bundle)
{
	struct gb_raw *raw = greybus_get_drvdata(bundle);
	struct gb_connection *connection = raw->connection;

	cdev_device_del(&raw->cdev, &raw->dev);

	spin_lock_irq(&raw->lock);
	raw->gone = true;
	spin_unlock_irq(&raw->lock);
	wake_up_interruptible_all(&raw->wq);

	/* Disabling fails a write in flight, so this does not wait long */
	gb_connection_disable(connection);
	mutex_lock(&raw->write_lock);
	raw->connection = NULL;
	mutex_unlock(&raw->write_lock);
	gb_connection_destroy(connection);

	spin_lock_irq(&raw->lock);
	gb_raw_queue_free(raw);
	spin_unlock_irq(&raw->lock);

	put_device(&raw->dev);
}

static const struct greybus_bundle_id gb_raw_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_RAW) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_raw_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_RAW);

static struct greybus_driver gb_raw_driver = {
	.name		= "gb-raw",
	.probe		= gb_raw_probe,
	.disconnect	= gb_raw_disconnect,
	.id_table	= gb_raw_id_table,
};

static int __init gb_raw_init(void)
{
	int ret;

	ret = class_register(&gb_raw_class);
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&gb_raw_devt, 0, GB_RAW_MINORS, "gb_raw");
	if (ret)
		goto err_class;
	ret = greybus_register(&gb_raw_driver);
	if (ret)
		goto err_chrdev;

	return 0;

err_chrdev:
	unregister_chrdev_region(gb_raw_devt, GB_RAW_MINORS);
err_class:
	class_unregister(&gb_raw_class);
	return ret;
}
module_init(gb_raw_init);

static void __exit gb_raw_exit(void)
{
	greybus_deregister(&gb_raw_driver);
	unregister_chrdev_region(gb_raw_devt, GB_RAW_MINORS);
	class_unregister(&gb_raw_class);
	ida_destroy(&gb_raw_ida);
}
module_exit(gb_raw_exit);

MODULE_DESCRIPTION("Greybus Raw protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
