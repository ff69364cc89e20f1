// SPDX-License-Identifier: GPL-2.0
/*
 * Component Authentication (0x19) and its character device
 * /dev/gb-authenticate-N (class gb_authenticate), with the ioctls of
 * Linux's interface (include/uapi/greybus/cap.h): the endpoint's UID, an
 * IMS certificate, and a challenge signed by the module.  Every ioctl is
 * one synchronous operation; the certificate and the signature are the
 * variable tails of their responses, bounded by the ioctl's buffers.
 *
 * Lifetime and locking as in fw_management.c: the struct embeds the class
 * device and the cdev; @mutex serialises ioctls with destroy, which
 * clears @connection.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <uapi/greybus/cap.h>
#include <uapi/greybus/firmware.h>

#include "firmware.h"

#define GB_CAP_MINORS		256

struct gb_cap {
	struct device		dev;
	struct cdev		cdev;
	struct gb_connection	*connection;
	struct gb_bundle	*bundle;
	int			minor;
	struct mutex		mutex;		/* see the top of the file */
};

static struct class gb_cap_class = {
	.name	= "gb_authenticate",
};

static dev_t gb_cap_devt;
static DEFINE_IDA(gb_cap_minors);

int gb_cap_request_handler(struct gb_operation *op)
{
	dev_err_ratelimited(&op->connection->bundle->dev,
			    "unexpected authentication request type 0x%02x\n",
			    op->type);
	return -EINVAL;
}

/*
 * A request whose response is a fixed head and a tail of at most
 * tail_max bytes; on success *op_out holds the operation (put it).
 */
static int gb_cap_send(struct gb_cap *cap, u8 type, const void *request,
		       size_t request_size, size_t head, size_t tail_max,
		       struct gb_operation **op_out)
{
	size_t max = gb_operation_get_payload_size_max(cap->connection);
	struct gb_operation *op;
	int ret;

	if (head + tail_max > max)
		tail_max = max - head;
	op = gb_operation_create_flags(cap->connection, type, request_size,
				       head + tail_max,
				       GB_OPERATION_FLAG_SHORT_RESPONSE,
				       GFP_KERNEL);
	if (!op)
		return -ENOMEM;
	memcpy(op->request->payload, request, request_size);
	ret = gb_operation_request_send_sync(op);
	if (!ret && op->response->payload_size < head) {
		dev_err_ratelimited(&cap->dev, "response to 0x%02x of %zu bytes, at least %zu expected\n",
				    type, op->response->payload_size, head);
		ret = -EIO;
	}
	if (ret) {
		gb_operation_put(op);
		return ret;
	}
	*op_out = op;

	return 0;
}

static int gb_cap_get_uid(struct gb_cap *cap, struct cap_ioc_get_endpoint_uid *uid)
{
	struct gb_cap_get_endpoint_uid_response response;
	int ret;

	ret = gb_operation_sync(cap->connection, GB_CAP_TYPE_GET_ENDPOINT_UID,
				NULL, 0, &response, sizeof(response));
	if (ret)
		return ret;
	memcpy(uid->uid, response.uid, sizeof(uid->uid));

	return 0;
}

static int gb_cap_get_certificate(struct gb_cap *cap,
				  struct cap_ioc_get_ims_certificate *cert)
{
	struct gb_cap_get_ims_certificate_request request;
	struct gb_cap_get_ims_certificate_response *response;
	struct gb_operation *op;
	int ret;

	request.certificate_class = cpu_to_le32(cert->certificate_class);
	request.certificate_id = cpu_to_le32(cert->certificate_id);
	ret = gb_cap_send(cap, GB_CAP_TYPE_GET_IMS_CERTIFICATE, &request,
			  sizeof(request), sizeof(*response),
			  CAP_CERTIFICATE_MAX_SIZE, &op);
	if (ret)
		return ret;
	response = op->response->payload;
	cert->result_code = response->result_code;
	cert->cert_size = op->response->payload_size - sizeof(*response);
	memcpy(cert->certificate, response->certificate, cert->cert_size);
	gb_operation_put(op);

	return 0;
}

static int gb_cap_authenticate(struct gb_cap *cap,
			       struct cap_ioc_authenticate *auth)
{
	struct gb_cap_authenticate_request request;
	struct gb_cap_authenticate_response *response;
	struct gb_operation *op;
	int ret;

	request.auth_type = cpu_to_le32(auth->auth_type);
	memcpy(request.uid, auth->uid, sizeof(request.uid));
	memcpy(request.challenge, auth->challenge, sizeof(request.challenge));
	ret = gb_cap_send(cap, GB_CAP_TYPE_AUTHENTICATE, &request,
			  sizeof(request), sizeof(*response),
			  CAP_SIGNATURE_MAX_SIZE, &op);
	if (ret)
		return ret;
	response = op->response->payload;
	auth->result_code = response->result_code;
	memcpy(auth->response, response->response, sizeof(auth->response));
	auth->signature_size = op->response->payload_size - sizeof(*response);
	memcpy(auth->signature, response->signature, auth->signature_size);
	gb_operation_put(op);

	return 0;
}

/* Called with @mutex held and the connection there */
static long gb_cap_do_ioctl(struct gb_cap *cap, unsigned int cmd,
			    void __user *buf)
{
	struct cap_ioc_get_endpoint_uid uid = {};
	struct cap_ioc_get_ims_certificate *cert;
	struct cap_ioc_authenticate *auth;
	int ret;

	switch (cmd) {
	case CAP_IOC_GET_ENDPOINT_UID:
		ret = gb_cap_get_uid(cap, &uid);
		if (!ret && copy_to_user(buf, &uid, sizeof(uid)))
			ret = -EFAULT;
		return ret;
	case CAP_IOC_GET_IMS_CERTIFICATE:
		cert = memdup_user(buf, sizeof(*cert));
		if (IS_ERR(cert))
			return PTR_ERR(cert);
		ret = gb_cap_get_certificate(cap, cert);
		if (!ret && copy_to_user(buf, cert, sizeof(*cert)))
			ret = -EFAULT;
		kfree(cert);
		return ret;
	case CAP_IOC_AUTHENTICATE:
		auth = memdup_user(buf, sizeof(*auth));
		if (IS_ERR(auth))
			return PTR_ERR(auth);
		ret = gb_cap_authenticate(cap, auth);
		if (!ret && copy_to_user(buf, auth, sizeof(*auth)))
			ret = -EFAULT;
		kfree(auth);
		return ret;
	default:
		return -ENOTTY;
	}
}

static long gb_cap_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct gb_cap *cap = file->private_data;
	long ret;

	ret = mutex_lock_interruptible(&cap->mutex);
	if (ret)
		return ret;
	if (!cap->connection) {
		ret = -ENODEV;
		goto out_unlock;
	}
	ret = gb_pm_runtime_get_sync(cap->bundle);
	if (ret)
		goto out_unlock;
	ret = gb_cap_do_ioctl(cap, cmd, (void __user *)arg);
	gb_pm_runtime_put_autosuspend(cap->bundle);

out_unlock:
	mutex_unlock(&cap->mutex);
	return ret;
}

static int gb_cap_open(struct inode *inode, struct file *file)
{
	struct gb_cap *cap = container_of(inode->i_cdev, struct gb_cap, cdev);

	/* Dropped in release: the file may outlive the bundle */
	get_device(&cap->dev);
	file->private_data = cap;

	return nonseekable_open(inode, file);
}

static int gb_cap_release(struct inode *inode, struct file *file)
{
	struct gb_cap *cap = file->private_data;

	put_device(&cap->dev);

	return 0;
}

static const struct file_operations gb_cap_fops = {
	.owner		= THIS_MODULE,
	.open		= gb_cap_open,
	.release	= gb_cap_release,
	.unlocked_ioctl	= gb_cap_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static void gb_cap_dev_release(struct device *dev)
{
	struct gb_cap *cap = container_of(dev, struct gb_cap, dev);

	ida_free(&gb_cap_minors, cap->minor);
	kfree(cap);
}

struct gb_cap *gb_cap_create(struct gb_connection *connection)
{
	struct gb_cap *cap;
	int ret, minor;

	minor = ida_alloc_max(&gb_cap_minors, GB_CAP_MINORS - 1, GFP_KERNEL);
	if (minor < 0)
		return ERR_PTR(minor);
	cap = kzalloc(sizeof(*cap), GFP_KERNEL);
	if (!cap) {
		ida_free(&gb_cap_minors, minor);
		return ERR_PTR(-ENOMEM);
	}
	cap->connection = connection;
	cap->bundle = connection->bundle;
	cap->minor = minor;
	mutex_init(&cap->mutex);

	/* From here on the device's release frees it and the minor */
	device_initialize(&cap->dev);
	cap->dev.class = &gb_cap_class;
	cap->dev.parent = &connection->bundle->dev;
	cap->dev.devt = MKDEV(MAJOR(gb_cap_devt), minor);
	cap->dev.release = gb_cap_dev_release;
	ret = dev_set_name(&cap->dev, "gb-authenticate-%d", minor);
	if (ret)
		goto err_put;
	cdev_init(&cap->cdev, &gb_cap_fops);
	cap->cdev.owner = THIS_MODULE;
	gb_connection_set_data(connection, cap);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_put;
	ret = cdev_device_add(&cap->cdev, &cap->dev);
	if (ret)
		goto err_disable;

	return cap;

err_disable:
	gb_connection_disable(connection);
err_put:
	put_device(&cap->dev);
	return ERR_PTR(ret);
}

void gb_cap_destroy(struct gb_cap *cap)
{
	cdev_device_del(&cap->cdev, &cap->dev);

	/* Fails an operation in flight, so the mutex is not held long */
	gb_connection_disable(cap->connection);
	mutex_lock(&cap->mutex);
	cap->connection = NULL;
	mutex_unlock(&cap->mutex);

	put_device(&cap->dev);
}

int gb_cap_init(void)
{
	int ret;

	ret = class_register(&gb_cap_class);
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&gb_cap_devt, 0, GB_CAP_MINORS,
				  "gb_authenticate");
	if (ret)
		class_unregister(&gb_cap_class);
	return ret;
}

void gb_cap_exit(void)
{
	unregister_chrdev_region(gb_cap_devt, GB_CAP_MINORS);
	class_unregister(&gb_cap_class);
	ida_destroy(&gb_cap_minors);
}
