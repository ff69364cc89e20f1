// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware Management (0x18) and its character device /dev/gb-fw-mgmt-N
 * (class gb_fw_mgmt), whose ioctls (include/uapi/greybus/fw_mgmt.h) are
 * those of Linux's firmware tool.  The two long operations, loading the
 * interface firmware and updating a backend's, are answered at once by
 * the module and finished later by its LOADED_FW / BACKEND_FW_UPDATED
 * request carrying the same request id; the ioctl waits for it for the
 * device's timeout (FW_MGMT_IOC_SET_TIMEOUT_MS, default 1000 ms).
 *
 * Lifetime as in gb-raw: struct gb_fw_mgmt embeds the class device and
 * the cdev (cdev_device_add), so an open file keeps the memory; destroy
 * marks it gone, which fails later ioctls with -ENODEV and wakes a waiter.
 *
 * Locking: @mutex serialises ioctls with each other and with destroy (it
 * protects @connection); @lock (a spinlock) protects the pending request
 * ids, their results and @gone, which the request handler sets while an
 * ioctl sleeps holding @mutex.
 */
#include <linux/cdev.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <uapi/greybus/firmware.h>
#include <uapi/greybus/fw_mgmt.h>

#include "firmware.h"

#define GB_FW_MGMT_MINORS		256
#define GB_FW_MGMT_TIMEOUT_MS		1000

struct gb_fw_mgmt {
	struct device		dev;
	struct cdev		cdev;
	struct gb_connection	*connection;
	struct gb_bundle	*bundle;
	int			minor;
	unsigned int		timeout_ms;

	struct mutex		mutex;		/* see the top of the file */
	spinlock_t		lock;
	bool			gone;
	struct completion	done;		/* the awaited event came */
	u8			last_id;	/* request ids cycle 1..255 */
	u8			intf_request_id;	/* 0: none awaited */
	u8			intf_status;
	u16			intf_major, intf_minor;
	u8			backend_request_id;	/* 0: none awaited */
	u8			backend_status;
};

static struct class gb_fw_mgmt_class = {
	.name	= "gb_fw_mgmt",
};

static dev_t gb_fw_mgmt_devt;
static DEFINE_IDA(gb_fw_mgmt_minors);

static int gb_fw_mgmt_loaded_fw(struct gb_fw_mgmt *fw_mgmt,
				struct gb_operation *op)
{
	struct gb_fw_mgmt_loaded_fw_request *request = op->request->payload;
	int ret = 0;

	if (op->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(&fw_mgmt->dev, "loaded firmware request of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}
	if (request->status > GB_FW_LOAD_STATUS_VALIDATION_FAILED) {
		dev_err_ratelimited(&fw_mgmt->dev, "loaded firmware with unknown status %u\n",
				    request->status);
		return -EINVAL;
	}

	spin_lock_irq(&fw_mgmt->lock);
	if (!request->request_id ||
	    request->request_id != fw_mgmt->intf_request_id) {
		ret = -ENOENT;
	} else {
		fw_mgmt->intf_request_id = 0;
		fw_mgmt->intf_status = request->status;
		fw_mgmt->intf_major = le16_to_cpu(request->major);
		fw_mgmt->intf_minor = le16_to_cpu(request->minor);
		complete(&fw_mgmt->done);
	}
	spin_unlock_irq(&fw_mgmt->lock);

	if (ret)
		dev_err_ratelimited(&fw_mgmt->dev, "loaded firmware event for request %u, which nobody awaits\n",
				    request->request_id);
	return ret;
}

static int gb_fw_mgmt_backend_updated(struct gb_fw_mgmt *fw_mgmt,
				      struct gb_operation *op)
{
	struct gb_fw_mgmt_backend_fw_updated_request *request =
		op->request->payload;
	int ret = 0;

	if (op->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(&fw_mgmt->dev, "backend updated request of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}
	if (request->status < GB_FW_BACKEND_FW_STATUS_SUCCESS ||
	    request->status > GB_FW_BACKEND_FW_STATUS_NOT_SUPPORTED) {
		dev_err_ratelimited(&fw_mgmt->dev, "backend updated with unknown status %u\n",
				    request->status);
		return -EINVAL;
	}

	spin_lock_irq(&fw_mgmt->lock);
	if (!request->request_id ||
	    request->request_id != fw_mgmt->backend_request_id) {
		ret = -ENOENT;
	} else {
		fw_mgmt->backend_request_id = 0;
		fw_mgmt->backend_status = request->status;
		complete(&fw_mgmt->done);
	}
	spin_unlock_irq(&fw_mgmt->lock);

	if (ret)
		dev_err_ratelimited(&fw_mgmt->dev, "backend updated event for request %u, which nobody awaits\n",
				    request->request_id);
	return ret;
}

int gb_fw_mgmt_request_handler(struct gb_operation *op)
{
	struct gb_fw_mgmt *fw_mgmt = gb_connection_get_data(op->connection);

	switch (op->type) {
	case GB_FW_MGMT_TYPE_LOADED_FW:
		return gb_fw_mgmt_loaded_fw(fw_mgmt, op);
	case GB_FW_MGMT_TYPE_BACKEND_FW_UPDATED:
		return gb_fw_mgmt_backend_updated(fw_mgmt, op);
	default:
		dev_err_ratelimited(&fw_mgmt->dev, "unknown request type 0x%02x\n",
				    op->type);
		return -EINVAL;
	}
}

/* A tag from userspace must be a NUL-terminated, non-empty string */
static int gb_fw_mgmt_check_tag(struct gb_fw_mgmt *fw_mgmt, const u8 *tag)
{
	size_t len = strnlen(tag, GB_FIRMWARE_TAG_MAX_SIZE);

	if (!len || len == GB_FIRMWARE_TAG_MAX_SIZE) {
		dev_dbg(&fw_mgmt->dev, "firmware tag empty or not NUL-terminated\n");
		return -EINVAL;
	}
	return 0;
}

/* Called with @mutex held; ends up in *status of the awaited event */
static int gb_fw_mgmt_wait(struct gb_fw_mgmt *fw_mgmt, u8 *pending,
			   const char *what)
{
	long left;
	int ret = 0;

	left = wait_for_completion_interruptible_timeout(&fw_mgmt->done,
							 msecs_to_jiffies(fw_mgmt->timeout_ms));
	spin_lock_irq(&fw_mgmt->lock);
	if (fw_mgmt->gone)
		ret = -ENODEV;
	else if (*pending && left < 0)
		ret = left;
	else if (*pending)
		ret = -ETIMEDOUT;
	/* A late event finds nobody waiting and is refused */
	*pending = 0;
	spin_unlock_irq(&fw_mgmt->lock);

	if (ret == -ETIMEDOUT)
		dev_err(&fw_mgmt->dev, "timed out after %u ms waiting for %s\n",
			fw_mgmt->timeout_ms, what);
	return ret;
}

static int gb_fw_mgmt_get_intf_fw(struct gb_fw_mgmt *fw_mgmt,
				  struct fw_mgmt_ioc_get_intf_version *info)
{
	struct gb_fw_mgmt_interface_fw_version_response response;
	int ret;

	ret = gb_operation_sync(fw_mgmt->connection,
				GB_FW_MGMT_TYPE_INTERFACE_FW_VERSION,
				NULL, 0, &response, sizeof(response));
	if (ret)
		return ret;
	if (gb_fw_mgmt_check_tag(fw_mgmt, response.firmware_tag)) {
		dev_err_ratelimited(&fw_mgmt->dev, "interface firmware tag from the module is not a string\n");
		return -EIO;
	}
	memcpy(info->firmware_tag, response.firmware_tag,
	       sizeof(info->firmware_tag));
	info->major = le16_to_cpu(response.major);
	info->minor = le16_to_cpu(response.minor);

	return 0;
}

static int gb_fw_mgmt_get_backend_fw(struct gb_fw_mgmt *fw_mgmt,
				     struct fw_mgmt_ioc_get_backend_version *info)
{
	struct gb_fw_mgmt_backend_fw_version_request request;
	struct gb_fw_mgmt_backend_fw_version_response response;
	int ret;

	ret = gb_fw_mgmt_check_tag(fw_mgmt, info->firmware_tag);
	if (ret)
		return ret;
	memcpy(request.firmware_tag, info->firmware_tag,
	       sizeof(request.firmware_tag));
	ret = gb_operation_sync(fw_mgmt->connection,
				GB_FW_MGMT_TYPE_BACKEND_FW_VERSION,
				&request, sizeof(request),
				&response, sizeof(response));
	if (ret)
		return ret;
	if (response.status < GB_FW_BACKEND_VERSION_STATUS_SUCCESS ||
	    response.status > GB_FW_BACKEND_VERSION_STATUS_FAIL_INT) {
		dev_err_ratelimited(&fw_mgmt->dev, "backend version with unknown status %u\n",
				    response.status);
		return -EIO;
	}
	info->status = response.status;
	info->major = le16_to_cpu(response.major);
	info->minor = le16_to_cpu(response.minor);

	return 0;
}

/* Called with @mutex held: the id of a request about to be awaited */
static int gb_fw_mgmt_new_id(struct gb_fw_mgmt *fw_mgmt, u8 *pending)
{
	u8 id;

	/* Ids cycle so that a late event of an old request is refused */
	id = ++fw_mgmt->last_id;
	if (!id)
		id = ++fw_mgmt->last_id;

	/* Not after destroy's complete_all(): that wake-up must stay */
	spin_lock_irq(&fw_mgmt->lock);
	if (fw_mgmt->gone) {
		spin_unlock_irq(&fw_mgmt->lock);
		return -ENODEV;
	}
	*pending = id;
	reinit_completion(&fw_mgmt->done);
	spin_unlock_irq(&fw_mgmt->lock);

	return id;
}

static void gb_fw_mgmt_forget(struct gb_fw_mgmt *fw_mgmt, u8 *pending)
{
	spin_lock_irq(&fw_mgmt->lock);
	*pending = 0;
	spin_unlock_irq(&fw_mgmt->lock);
}

static int gb_fw_mgmt_load(struct gb_fw_mgmt *fw_mgmt,
			   struct fw_mgmt_ioc_intf_load_and_validate *load)
{
	struct gb_fw_mgmt_load_and_validate_fw_request request;
	int ret, id;

	if (load->load_method != GB_FW_U_LOAD_METHOD_UNIPRO &&
	    load->load_method != GB_FW_U_LOAD_METHOD_INTERNAL)
		return -EINVAL;
	ret = gb_fw_mgmt_check_tag(fw_mgmt, load->firmware_tag);
	if (ret)
		return ret;

	id = gb_fw_mgmt_new_id(fw_mgmt, &fw_mgmt->intf_request_id);
	if (id < 0)
		return id;
	request.request_id = id;
	request.load_method = load->load_method;
	memcpy(request.firmware_tag, load->firmware_tag,
	       sizeof(request.firmware_tag));
	ret = gb_operation_sync(fw_mgmt->connection,
				GB_FW_MGMT_TYPE_LOAD_AND_VALIDATE_FW,
				&request, sizeof(request), NULL, 0);
	if (ret) {
		gb_fw_mgmt_forget(fw_mgmt, &fw_mgmt->intf_request_id);
		return ret;
	}
	ret = gb_fw_mgmt_wait(fw_mgmt, &fw_mgmt->intf_request_id,
			      "the interface firmware to load");
	if (ret)
		return ret;

	spin_lock_irq(&fw_mgmt->lock);
	load->status = fw_mgmt->intf_status;
	load->major = fw_mgmt->intf_major;
	load->minor = fw_mgmt->intf_minor;
	spin_unlock_irq(&fw_mgmt->lock);
	if (load->status == GB_FW_U_LOAD_STATUS_FAILED ||
	    load->status == GB_FW_U_LOAD_STATUS_VALIDATION_FAILED)
		dev_err(&fw_mgmt->dev, "interface firmware '%s' %s\n",
			load->firmware_tag,
			load->status == GB_FW_U_LOAD_STATUS_FAILED ?
			"failed to load" : "failed to validate");
	else
		dev_info(&fw_mgmt->dev, "interface firmware '%s' %u.%u loaded (%s)\n",
			 load->firmware_tag, load->major, load->minor,
			 load->status == GB_FW_U_LOAD_STATUS_VALIDATED ?
			 "validated" : "not validated");

	return 0;
}

static int gb_fw_mgmt_update(struct gb_fw_mgmt *fw_mgmt,
			     struct fw_mgmt_ioc_backend_fw_update *update)
{
	struct gb_fw_mgmt_backend_fw_update_request request;
	int ret, id;

	ret = gb_fw_mgmt_check_tag(fw_mgmt, update->firmware_tag);
	if (ret)
		return ret;

	id = gb_fw_mgmt_new_id(fw_mgmt, &fw_mgmt->backend_request_id);
	if (id < 0)
		return id;
	request.request_id = id;
	memcpy(request.firmware_tag, update->firmware_tag,
	       sizeof(request.firmware_tag));
	ret = gb_operation_sync(fw_mgmt->connection,
				GB_FW_MGMT_TYPE_BACKEND_FW_UPDATE,
				&request, sizeof(request), NULL, 0);
	if (ret) {
		gb_fw_mgmt_forget(fw_mgmt, &fw_mgmt->backend_request_id);
		return ret;
	}
	ret = gb_fw_mgmt_wait(fw_mgmt, &fw_mgmt->backend_request_id,
			      "the backend firmware update");
	if (ret)
		return ret;

	spin_lock_irq(&fw_mgmt->lock);
	update->status = fw_mgmt->backend_status;
	spin_unlock_irq(&fw_mgmt->lock);
	if (update->status == GB_FW_U_BACKEND_FW_STATUS_SUCCESS)
		dev_info(&fw_mgmt->dev, "backend firmware '%s' updated\n",
			 update->firmware_tag);
	else
		dev_err(&fw_mgmt->dev, "backend firmware '%s' update failed: status %u\n",
			update->firmware_tag, update->status);

	return 0;
}

/* Called with @mutex held and the connection there */
static long gb_fw_mgmt_do_ioctl(struct gb_fw_mgmt *fw_mgmt, unsigned int cmd,
				void __user *buf)
{
	struct fw_mgmt_ioc_get_intf_version intf_info = {};
	struct fw_mgmt_ioc_get_backend_version backend_info;
	struct fw_mgmt_ioc_intf_load_and_validate load;
	struct fw_mgmt_ioc_backend_fw_update update;
	unsigned int timeout;
	int ret;

	switch (cmd) {
	case FW_MGMT_IOC_GET_INTF_FW:
		ret = gb_fw_mgmt_get_intf_fw(fw_mgmt, &intf_info);
		if (!ret && copy_to_user(buf, &intf_info, sizeof(intf_info)))
			ret = -EFAULT;
		return ret;
	case FW_MGMT_IOC_GET_BACKEND_FW:
		if (copy_from_user(&backend_info, buf, sizeof(backend_info)))
			return -EFAULT;
		ret = gb_fw_mgmt_get_backend_fw(fw_mgmt, &backend_info);
		if (!ret && copy_to_user(buf, &backend_info,
					 sizeof(backend_info)))
			ret = -EFAULT;
		return ret;
	case FW_MGMT_IOC_INTF_LOAD_AND_VALIDATE:
		if (copy_from_user(&load, buf, sizeof(load)))
			return -EFAULT;
		ret = gb_fw_mgmt_load(fw_mgmt, &load);
		if (!ret && copy_to_user(buf, &load, sizeof(load)))
			ret = -EFAULT;
		return ret;
	case FW_MGMT_IOC_INTF_BACKEND_FW_UPDATE:
		if (copy_from_user(&update, buf, sizeof(update)))
			return -EFAULT;
		ret = gb_fw_mgmt_update(fw_mgmt, &update);
		if (!ret && copy_to_user(buf, &update, sizeof(update)))
			ret = -EFAULT;
		return ret;
	case FW_MGMT_IOC_SET_TIMEOUT_MS:
		if (get_user(timeout, (unsigned int __user *)buf))
			return -EFAULT;
		if (!timeout)
			return -EINVAL;
		fw_mgmt->timeout_ms = timeout;
		return 0;
	case FW_MGMT_IOC_MODE_SWITCH:
		/* The core has no Control mode switch (yet) */
		return -EOPNOTSUPP;
	default:
		return -ENOTTY;
	}
}

static long gb_fw_mgmt_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct gb_fw_mgmt *fw_mgmt = file->private_data;
	long ret;

	ret = mutex_lock_interruptible(&fw_mgmt->mutex);
	if (ret)
		return ret;
	if (!fw_mgmt->connection) {
		ret = -ENODEV;
		goto out_unlock;
	}
	/* Awake until the module's event came: it may answer much later */
	ret = gb_pm_runtime_get_sync(fw_mgmt->bundle);
	if (ret)
		goto out_unlock;
	ret = gb_fw_mgmt_do_ioctl(fw_mgmt, cmd, (void __user *)arg);
	gb_pm_runtime_put_autosuspend(fw_mgmt->bundle);

out_unlock:
	mutex_unlock(&fw_mgmt->mutex);
	return ret;
}

static int gb_fw_mgmt_open(struct inode *inode, struct file *file)
{
	struct gb_fw_mgmt *fw_mgmt = container_of(inode->i_cdev,
						  struct gb_fw_mgmt, cdev);

	/* Dropped in release: the file may outlive the bundle */
	get_device(&fw_mgmt->dev);
	file->private_data = fw_mgmt;

	return nonseekable_open(inode, file);
}

static int gb_fw_mgmt_release(struct inode *inode, struct file *file)
{
	struct gb_fw_mgmt *fw_mgmt = file->private_data;

	put_device(&fw_mgmt->dev);

	return 0;
}

static const struct file_operations gb_fw_mgmt_fops = {
	.owner		= THIS_MODULE,
	.open		= gb_fw_mgmt_open,
	.release	= gb_fw_mgmt_release,
	.unlocked_ioctl	= gb_fw_mgmt_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static void gb_fw_mgmt_dev_release(struct device *dev)
{
	struct gb_fw_mgmt *fw_mgmt = container_of(dev, struct gb_fw_mgmt, dev);

	ida_free(&gb_fw_mgmt_minors, fw_mgmt->minor);
	kfree(fw_mgmt);
}

struct gb_fw_mgmt *gb_fw_mgmt_create(struct gb_connection *connection)
{
	struct gb_fw_mgmt *fw_mgmt;
	int ret, minor;

	minor = ida_alloc_max(&gb_fw_mgmt_minors, GB_FW_MGMT_MINORS - 1,
			      GFP_KERNEL);
	if (minor < 0)
		return ERR_PTR(minor);
	fw_mgmt = kzalloc(sizeof(*fw_mgmt), GFP_KERNEL);
	if (!fw_mgmt) {
		ida_free(&gb_fw_mgmt_minors, minor);
		return ERR_PTR(-ENOMEM);
	}
	fw_mgmt->connection = connection;
	fw_mgmt->bundle = connection->bundle;
	fw_mgmt->minor = minor;
	fw_mgmt->timeout_ms = GB_FW_MGMT_TIMEOUT_MS;
	mutex_init(&fw_mgmt->mutex);
	spin_lock_init(&fw_mgmt->lock);
	init_completion(&fw_mgmt->done);

	/* From here on the device's release frees it and the minor */
	device_initialize(&fw_mgmt->dev);
	fw_mgmt->dev.class = &gb_fw_mgmt_class;
	fw_mgmt->dev.parent = &connection->bundle->dev;
	fw_mgmt->dev.devt = MKDEV(MAJOR(gb_fw_mgmt_devt), minor);
	fw_mgmt->dev.release = gb_fw_mgmt_dev_release;
	ret = dev_set_name(&fw_mgmt->dev, "gb-fw-mgmt-%d", minor);
	if (ret)
		goto err_put;
	cdev_init(&fw_mgmt->cdev, &gb_fw_mgmt_fops);
	fw_mgmt->cdev.owner = THIS_MODULE;
	gb_connection_set_data(connection, fw_mgmt);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_put;
	ret = cdev_device_add(&fw_mgmt->cdev, &fw_mgmt->dev);
	if (ret)
		goto err_disable;

	return fw_mgmt;

err_disable:
	gb_connection_disable(connection);
err_put:
	put_device(&fw_mgmt->dev);
	return ERR_PTR(ret);
}

void gb_fw_mgmt_destroy(struct gb_fw_mgmt *fw_mgmt)
{
	struct gb_connection *connection = fw_mgmt->connection;

	cdev_device_del(&fw_mgmt->cdev, &fw_mgmt->dev);

	spin_lock_irq(&fw_mgmt->lock);
	fw_mgmt->gone = true;
	complete_all(&fw_mgmt->done);
	spin_unlock_irq(&fw_mgmt->lock);

	/* Fails an operation in flight, so the mutex is not held long */
	gb_connection_disable(connection);
	mutex_lock(&fw_mgmt->mutex);
	fw_mgmt->connection = NULL;
	mutex_unlock(&fw_mgmt->mutex);

	put_device(&fw_mgmt->dev);
}

int gb_fw_mgmt_init(void)
{
	int ret;

	ret = class_register(&gb_fw_mgmt_class);
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&gb_fw_mgmt_devt, 0, GB_FW_MGMT_MINORS,
				  "gb_fw_mgmt");
	if (ret)
		class_unregister(&gb_fw_mgmt_class);
	return ret;
}

void gb_fw_mgmt_exit(void)
{
	unregister_chrdev_region(gb_fw_mgmt_devt, GB_FW_MGMT_MINORS);
	class_unregister(&gb_fw_mgmt_class);
	ida_destroy(&gb_fw_mgmt_minors);
}
