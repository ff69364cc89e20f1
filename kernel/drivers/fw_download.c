// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware Download (0x17): the module asks for a file by tag, fetches it
 * in chunks and releases it.  Each file found gets an id (1..255) and is
 * held, through request_firmware(), until the module releases it or has
 * not asked for it for download_timeout_ms.
 *
 * File names: gmp_<ddbl1 mfr>_<ddbl1 prod>_<vendor>_<product>_<tag>.tftf.
 *
 * Ownership: a request is on @requests while it is live; whoever takes
 * it off (RELEASE, its timer, teardown) frees it, after making sure its
 * timer no longer runs.  @mutex protects the list and the timers' arming:
 * a timer is armed only under @mutex and only for a request on the list,
 * so the timer's own work, which cannot wait for itself, takes the
 * request off only when it finds the timer unarmed under @mutex.
 */
#include <linux/ctype.h>
#include <linux/firmware.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <uapi/greybus/firmware.h>

#include "firmware.h"

static unsigned int download_timeout_ms = GB_FW_DOWNLOAD_TIMEOUT_MS;
module_param(download_timeout_ms, uint, 0644);
MODULE_PARM_DESC(download_timeout_ms, "how long a file stays held without a request for it (ms)");

struct gb_fw_request {
	struct list_head	node;		/* fw_download->requests */
	struct gb_fw_download	*fw_download;
	u8			id;
	bool			live;		/* on the list */
	char			name[64];
	const struct firmware	*fw;
	struct delayed_work	timeout;
};

struct gb_fw_download {
	struct gb_connection	*connection;
	struct device		*dev;		/* the bundle's */
	struct mutex		mutex;		/* see the top of the file */
	struct list_head	requests;
	struct ida		ids;
};

static void gb_fw_request_free(struct gb_fw_request *req)
{
	release_firmware(req->fw);
	ida_free(&req->fw_download->ids, req->id);
	kfree(req);
}

/* Called with @mutex held; the caller frees it once the timer is done */
static void gb_fw_request_unlink(struct gb_fw_request *req)
{
	list_del(&req->node);
	req->live = false;
}

static void gb_fw_request_timeout(struct work_struct *work)
{
	struct gb_fw_request *req = container_of(to_delayed_work(work),
						 struct gb_fw_request, timeout);
	struct gb_fw_download *fw_download = req->fw_download;
	bool mine;

	mutex_lock(&fw_download->mutex);
	/*
	 * A FETCH that held @mutex while we waited for it has armed the
	 * timer again: the module is still at it, and the timer's next run
	 * decides.  Only an unarmed timer may go with the request.
	 */
	mine = req->live && !delayed_work_pending(&req->timeout);
	if (mine)
		gb_fw_request_unlink(req);
	mutex_unlock(&fw_download->mutex);

	/* Otherwise a releaser waits for us and frees it */
	if (mine) {
		dev_err(fw_download->dev,
			"firmware '%s' (id %u) not asked for in %u ms, released\n",
			req->name, req->id, download_timeout_ms);
		gb_fw_request_free(req);
	}
}

/* Called with @mutex held */
static struct gb_fw_request *gb_fw_request_find(struct gb_fw_download *fwd,
						u8 id)
{
	struct gb_fw_request *req;

	list_for_each_entry(req, &fwd->requests, node)
		if (req->id == id)
			return req;
	return NULL;
}

static void gb_fw_request_arm(struct gb_fw_request *req)
{
	mod_delayed_work(system_wq, &req->timeout,
			 msecs_to_jiffies(download_timeout_ms));
}

/*
 * The tag comes from the module and becomes part of a file name that
 * request_firmware() looks up under /lib/firmware: nothing but letters,
 * digits, '_' and '-', so that no tag can climb out of that directory or
 * name anything but a Greybus firmware file.
 */
static bool gb_fw_tag_is_safe(const char *tag, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isalnum(tag[i]) && tag[i] != '_' && tag[i] != '-')
			return false;
	return true;
}

static int gb_fw_download_find(struct gb_fw_download *fwd,
			       struct gb_operation *op)
{
	struct gb_fw_download_find_firmware_request *request =
		op->request->payload;
	struct gb_fw_download_find_firmware_response *response;
	struct gb_interface *intf = fwd->connection->bundle->intf;
	struct gb_fw_request *req;
	size_t len;
	int ret;

	if (op->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(fwd->dev, "find firmware request of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}
	len = strnlen(request->firmware_tag, GB_FIRMWARE_TAG_MAX_SIZE);
	if (!len || len == GB_FIRMWARE_TAG_MAX_SIZE) {
		dev_err_ratelimited(fwd->dev, "firmware tag empty or not NUL-terminated\n");
		return -EINVAL;
	}
	if (!gb_fw_tag_is_safe(request->firmware_tag, len)) {
		dev_err_ratelimited(fwd->dev, "firmware tag '%*pE' refused: only letters, digits, '_' and '-' may name a file\n",
				    (int)len, request->firmware_tag);
		return -EINVAL;
	}

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = ida_alloc_range(&fwd->ids, 1, 255, GFP_KERNEL);
	if (ret < 0) {
		dev_err_ratelimited(fwd->dev, "too many firmware files held\n");
		kfree(req);
		return ret;
	}
	req->id = ret;
	req->fw_download = fwd;
	INIT_DELAYED_WORK(&req->timeout, gb_fw_request_timeout);
	snprintf(req->name, sizeof(req->name),
		 "gmp_%08x_%08x_%08x_%08x_%s.tftf",
		 intf->ddbl1_manufacturer_id, intf->ddbl1_product_id,
		 intf->vendor_id, intf->product_id, request->firmware_tag);

	ret = request_firmware_direct(&req->fw, req->name, fwd->dev);
	if (ret) {
		req->fw = NULL;
		dev_err(fwd->dev, "firmware '%s' not available: %d\n",
			req->name, ret);
		goto err_free;
	}
	if (!gb_operation_response_alloc(op, sizeof(*response), GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_free;
	}
	response = op->response->payload;
	response->firmware_id = req->id;
	response->size = cpu_to_le32(req->fw->size);

	mutex_lock(&fwd->mutex);
	list_add_tail(&req->node, &fwd->requests);
	req->live = true;
	gb_fw_request_arm(req);
	mutex_unlock(&fwd->mutex);
	dev_info(fwd->dev, "firmware '%s' found: id %u, %zu bytes\n",
		 req->name, req->id, req->fw->size);

	return 0;

err_free:
	gb_fw_request_free(req);
	return ret;
}

static int gb_fw_download_fetch(struct gb_fw_download *fwd,
				struct gb_operation *op)
{
	struct gb_fw_download_fetch_firmware_request *request =
		op->request->payload;
	size_t max = gb_operation_get_payload_size_max(fwd->connection);
	struct gb_fw_request *req;
	u32 offset, size;
	int ret = 0;

	if (op->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(fwd->dev, "fetch firmware request of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}
	offset = le32_to_cpu(request->offset);
	size = le32_to_cpu(request->size);

	mutex_lock(&fwd->mutex);
	req = gb_fw_request_find(fwd, request->firmware_id);
	if (!req) {
		dev_err_ratelimited(fwd->dev, "fetch of unknown firmware id %u\n",
				    request->firmware_id);
		ret = -EINVAL;
		goto out_unlock;
	}
	/* Even a bad fetch shows the module is still at it */
	gb_fw_request_arm(req);
	if (!size || size > max) {
		dev_err_ratelimited(fwd->dev, "firmware chunk of %u bytes refused (at most %zu)\n",
				    size, max);
		ret = -EINVAL;
		goto out_unlock;
	}
	if (offset > req->fw->size || size > req->fw->size - offset) {
		dev_err_ratelimited(fwd->dev, "firmware chunk of %u bytes at %u is beyond the end of '%s' (%zu bytes)\n",
				    size, offset, req->name, req->fw->size);
		ret = -EINVAL;
		goto out_unlock;
	}
	if (!gb_operation_response_alloc(op, size, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	memcpy(op->response->payload, req->fw->data + offset, size);

out_unlock:
	mutex_unlock(&fwd->mutex);

	return ret;
}

static int gb_fw_download_release(struct gb_fw_download *fwd,
				  struct gb_operation *op)
{
	struct gb_fw_download_release_firmware_request *request =
		op->request->payload;
	struct gb_fw_request *req;

	if (op->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(fwd->dev, "release firmware request of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}

	mutex_lock(&fwd->mutex);
	req = gb_fw_request_find(fwd, request->firmware_id);
	if (req)
		gb_fw_request_unlink(req);
	mutex_unlock(&fwd->mutex);
	if (!req) {
		dev_err_ratelimited(fwd->dev, "release of unknown firmware id %u\n",
				    request->firmware_id);
		return -EINVAL;
	}

	cancel_delayed_work_sync(&req->timeout);
	dev_info(fwd->dev, "firmware '%s' (id %u) released\n", req->name,
		 req->id);
	gb_fw_request_free(req);

	return 0;
}

int gb_fw_download_request_handler(struct gb_operation *op)
{
	struct gb_fw_download *fwd = gb_connection_get_data(op->connection);

	switch (op->type) {
	case GB_FW_DOWNLOAD_TYPE_FIND_FIRMWARE:
		return gb_fw_download_find(fwd, op);
	case GB_FW_DOWNLOAD_TYPE_FETCH_FIRMWARE:
		return gb_fw_download_fetch(fwd, op);
	case GB_FW_DOWNLOAD_TYPE_RELEASE_FIRMWARE:
		return gb_fw_download_release(fwd, op);
	default:
		dev_err_ratelimited(fwd->dev, "unknown download request type 0x%02x\n",
				    op->type);
		return -EINVAL;
	}
}

struct gb_fw_download *gb_fw_download_create(struct gb_connection *connection)
{
	struct gb_fw_download *fwd;

	fwd = kzalloc(sizeof(*fwd), GFP_KERNEL);
	if (!fwd)
		return NULL;
	fwd->connection = connection;
	fwd->dev = &connection->bundle->dev;
	mutex_init(&fwd->mutex);
	INIT_LIST_HEAD(&fwd->requests);
	ida_init(&fwd->ids);
	gb_connection_set_data(connection, fwd);

	return fwd;
}

void gb_fw_download_destroy(struct gb_fw_download *fwd)
{
	struct gb_fw_request *req, *next;
	LIST_HEAD(held);

	mutex_lock(&fwd->mutex);
	list_for_each_entry_safe(req, next, &fwd->requests, node) {
		gb_fw_request_unlink(req);
		list_add_tail(&req->node, &held);
	}
	mutex_unlock(&fwd->mutex);

	list_for_each_entry_safe(req, next, &held, node) {
		cancel_delayed_work_sync(&req->timeout);
		dev_info(fwd->dev, "firmware '%s' (id %u) still held at removal, released\n",
			 req->name, req->id);
		list_del(&req->node);
		gb_fw_request_free(req);
	}
	ida_destroy(&fwd->ids);
	kfree(fwd);
}
