// SPDX-License-Identifier: GPL-2.0
/*
 * gb-bootrom: the Bootrom protocol (0x15).  A module that has only its
 * boot ROM pulls its next boot stage from the AP: once told the AP is
 * ready it asks for the size of the file, fetches it in chunks, and
 * says it is about to boot it; it then goes away and comes back (a new
 * module_inserted) as what the firmware made of it.
 *
 * The file comes from request_firmware(), under the name the protocol
 * derives from the interface's ids:
 * gmp_<ddbl1 mfr>_<ddbl1 prod>_<vendor>_<product>_s2l.tftf.
 *
 * Everything the module asks is checked: the stage, a fetch before the
 * size was asked, a chunk larger than GB_BOOTROM_FETCH_MAX or reaching
 * beyond the file.  A module that stops talking is noticed by a timer
 * that frees the file (next_request_ms between requests, mode_switch_ms
 * for the reboot after READY_TO_BOOT).
 *
 * Locking: @mutex protects @fw, @state and the timer's arming; the
 * request handler (one at a time, per connection) and the timer's work
 * both take it.
 */
#include <linux/firmware.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <greybus/greybus.h>
#include <uapi/greybus/bootrom.h>

static unsigned int next_request_ms = GB_BOOTROM_NEXT_REQ_TIMEOUT_MS;
module_param(next_request_ms, uint, 0644);
MODULE_PARM_DESC(next_request_ms, "how long to wait for the module's next request (ms)");

static unsigned int mode_switch_ms = GB_BOOTROM_MODE_SWITCH_TIMEOUT_MS;
module_param(mode_switch_ms, uint, 0644);
MODULE_PARM_DESC(mode_switch_ms, "how long the module may take to come back after READY_TO_BOOT (ms)");

/* What the module is expected to do next */
enum gb_bootrom_state {
	GB_BOOTROM_IDLE,		/* nothing: no timer */
	GB_BOOTROM_WAIT_SIZE,		/* FIRMWARE_SIZE, after AP_READY */
	GB_BOOTROM_WAIT_FETCH,		/* GET_FIRMWARE or READY_TO_BOOT */
	GB_BOOTROM_WAIT_REBOOT,		/* go away, after READY_TO_BOOT */
};

struct gb_bootrom {
	struct gb_connection	*connection;
	struct gb_bundle	*bundle;
	struct mutex		mutex;		/* see the top of the file */
	const struct firmware	*fw;
	char			name[64];	/* of @fw */
	size_t			served;		/* bytes of @fw sent so far */
	enum gb_bootrom_state	state;
	bool			pm_held;	/* while a download runs */
	struct delayed_work	timeout;
};

static const char *gb_bootrom_waiting_for(enum gb_bootrom_state state)
{
	switch (state) {
	case GB_BOOTROM_WAIT_SIZE:
		return "firmware size request";
	case GB_BOOTROM_WAIT_FETCH:
		return "next firmware request";
	default:
		return "nothing";
	}
}

static void gb_bootrom_release_fw(struct gb_bootrom *bootrom)
{
	release_firmware(bootrom->fw);
	bootrom->fw = NULL;
	bootrom->served = 0;
}

/* The download ended (well or not): no more keeping the bundle awake */
static void gb_bootrom_pm_put(struct gb_bootrom *bootrom)
{
	if (bootrom->pm_held) {
		bootrom->pm_held = false;
		gb_pm_runtime_put_autosuspend(bootrom->bundle);
	}
}

/* Called with @mutex held; the state and its timer change together */
static void gb_bootrom_expect(struct gb_bootrom *bootrom,
			      enum gb_bootrom_state state)
{
	unsigned int ms;

	bootrom->state = state;
	if (state == GB_BOOTROM_IDLE) {
		cancel_delayed_work(&bootrom->timeout);
		return;
	}
	ms = state == GB_BOOTROM_WAIT_REBOOT ? mode_switch_ms : next_request_ms;
	mod_delayed_work(system_wq, &bootrom->timeout, msecs_to_jiffies(ms));
}

static void gb_bootrom_timeout(struct work_struct *work)
{
	struct gb_bootrom *bootrom = container_of(to_delayed_work(work),
						  struct gb_bootrom, timeout);

	mutex_lock(&bootrom->mutex);
	if (bootrom->state == GB_BOOTROM_WAIT_REBOOT) {
		dev_err(&bootrom->bundle->dev,
			"module did not reboot within %u ms of READY_TO_BOOT\n",
			mode_switch_ms);
		bootrom->state = GB_BOOTROM_IDLE;
	} else if (bootrom->state != GB_BOOTROM_IDLE) {
		dev_err(&bootrom->bundle->dev,
			"timed out waiting for %s, firmware released\n",
			gb_bootrom_waiting_for(bootrom->state));
		gb_bootrom_release_fw(bootrom);
		bootrom->state = GB_BOOTROM_IDLE;
		gb_bootrom_pm_put(bootrom);
	}
	mutex_unlock(&bootrom->mutex);
}

static int gb_bootrom_firmware_size(struct gb_bootrom *bootrom,
				    struct gb_operation *op)
{
	struct gb_bootrom_firmware_size_request *request = op->request->payload;
	struct gb_bootrom_firmware_size_response *response;
	struct gb_interface *intf = bootrom->bundle->intf;
	struct device *dev = &bootrom->bundle->dev;
	int ret;

	if (op->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(dev, "firmware size request of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}
	/* A new request starts over, whatever came before */
	gb_bootrom_release_fw(bootrom);
	if (request->stage != GB_BOOTROM_BOOT_STAGE_TWO) {
		dev_err_ratelimited(dev, "firmware for boot stage %u requested, only stage 2 is served\n",
				    request->stage);
		return -EINVAL;
	}

	snprintf(bootrom->name, sizeof(bootrom->name),
		 "gmp_%08x_%08x_%08x_%08x_s2l.tftf",
		 intf->ddbl1_manufacturer_id, intf->ddbl1_product_id,
		 intf->vendor_id, intf->product_id);
	ret = request_firmware_direct(&bootrom->fw, bootrom->name, dev);
	if (ret) {
		bootrom->fw = NULL;
		dev_err(dev, "firmware '%s' not available: %d\n", bootrom->name,
			ret);
		return ret;
	}

	if (!gb_operation_response_alloc(op, sizeof(*response), GFP_KERNEL)) {
		gb_bootrom_release_fw(bootrom);
		return -ENOMEM;
	}
	response = op->response->payload;
	response->size = cpu_to_le32(bootrom->fw->size);
	dev_info(dev, "firmware '%s' requested: %zu bytes\n", bootrom->name,
		 bootrom->fw->size);

	return 0;
}

static int gb_bootrom_get_firmware(struct gb_bootrom *bootrom,
				   struct gb_operation *op)
{
	struct gb_bootrom_get_firmware_request *request = op->request->payload;
	struct device *dev = &bootrom->bundle->dev;
	size_t max = gb_operation_get_payload_size_max(bootrom->connection);
	u32 offset, size;

	if (op->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(dev, "get firmware request of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}
	if (!bootrom->fw) {
		dev_err_ratelimited(dev, "firmware fetched before its size was asked\n");
		return -EINVAL;
	}
	offset = le32_to_cpu(request->offset);
	size = le32_to_cpu(request->size);
	if (!size || size > GB_BOOTROM_FETCH_MAX || size > max) {
		dev_err_ratelimited(dev, "firmware chunk of %u bytes refused (at most %zu)\n",
				    size, min_t(size_t, GB_BOOTROM_FETCH_MAX, max));
		return -EINVAL;
	}
	if (offset > bootrom->fw->size || size > bootrom->fw->size - offset) {
		dev_err_ratelimited(dev, "firmware chunk of %u bytes at %u is beyond the end (%zu bytes)\n",
				    size, offset, bootrom->fw->size);
		return -EINVAL;
	}

	if (!gb_operation_response_alloc(op, size, GFP_KERNEL))
		return -ENOMEM;
	memcpy(op->response->payload, bootrom->fw->data + offset, size);
	bootrom->served += size;

	return 0;
}

static int gb_bootrom_ready_to_boot(struct gb_bootrom *bootrom,
				    struct gb_operation *op)
{
	struct gb_bootrom_ready_to_boot_request *request = op->request->payload;
	struct device *dev = &bootrom->bundle->dev;
	const char *how;

	if (op->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(dev, "ready to boot request of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}
	if (!bootrom->fw) {
		dev_err_ratelimited(dev, "ready to boot without a firmware download\n");
		return -EINVAL;
	}

	switch (request->status) {
	case GB_BOOTROM_BOOT_STATUS_INSECURE:
		how = "insecure";
		break;
	case GB_BOOTROM_BOOT_STATUS_SECURE:
		how = "secure";
		break;
	case GB_BOOTROM_BOOT_STATUS_INVALID:
		dev_err(dev, "module could not validate firmware '%s'\n",
			bootrom->name);
		gb_bootrom_release_fw(bootrom);
		return -EINVAL;
	default:
		dev_err_ratelimited(dev, "ready to boot with unknown status %u\n",
				    request->status);
		return -EINVAL;
	}

	dev_info(dev, "firmware '%s' downloaded (%zu bytes sent), module boots it (%s)\n",
		 bootrom->name, bootrom->served, how);
	gb_bootrom_release_fw(bootrom);

	return 0;
}

static int gb_bootrom_request_handler(struct gb_operation *op)
{
	struct gb_bootrom *bootrom = gb_connection_get_data(op->connection);
	enum gb_bootrom_state next = GB_BOOTROM_IDLE;
	int ret;

	mutex_lock(&bootrom->mutex);
	switch (op->type) {
	case GB_BOOTROM_TYPE_FIRMWARE_SIZE:
		ret = gb_bootrom_firmware_size(bootrom, op);
		next = GB_BOOTROM_WAIT_FETCH;
		break;
	case GB_BOOTROM_TYPE_GET_FIRMWARE:
		ret = gb_bootrom_get_firmware(bootrom, op);
		next = GB_BOOTROM_WAIT_FETCH;
		break;
	case GB_BOOTROM_TYPE_READY_TO_BOOT:
		ret = gb_bootrom_ready_to_boot(bootrom, op);
		next = GB_BOOTROM_WAIT_REBOOT;
		break;
	default:
		/* Changes nothing: the module's state is what it was */
		mutex_unlock(&bootrom->mutex);
		dev_err_ratelimited(&bootrom->bundle->dev,
				    "unknown request type 0x%02x\n", op->type);
		return -EINVAL;
	}

	/*
	 * A refused request leaves the module to try again while the file
	 * is held; the timer frees it if it does not.
	 */
	if (ret)
		next = bootrom->fw ? GB_BOOTROM_WAIT_FETCH : GB_BOOTROM_IDLE;
	gb_bootrom_expect(bootrom, next);
	if (next == GB_BOOTROM_IDLE || next == GB_BOOTROM_WAIT_REBOOT)
		gb_bootrom_pm_put(bootrom);
	mutex_unlock(&bootrom->mutex);

	return ret;
}

static int gb_bootrom_version(struct gb_bootrom *bootrom)
{
	struct gb_protocol_version_request request = {
		.major	= GB_BOOTROM_VERSION_MAJOR,
		.minor	= GB_BOOTROM_VERSION_MINOR,
	};
	struct gb_protocol_version_response response;
	int ret;

	ret = gb_operation_sync(bootrom->connection, GB_BOOTROM_TYPE_VERSION,
				&request, sizeof(request),
				&response, sizeof(response));
	if (ret)
		return ret;
	if (response.major > request.major) {
		dev_err(&bootrom->bundle->dev,
			"bootrom protocol %u.%u is newer than ours (%u.%u)\n",
			response.major, response.minor, request.major,
			request.minor);
		return -ENOTSUPP;
	}

	return 0;
}

static int gb_bootrom_probe(struct gb_bundle *bundle,
			    const struct greybus_bundle_id *id)
{
	struct greybus_descriptor_cport *desc;
	struct gb_connection *connection;
	struct gb_bootrom *bootrom;
	int ret;

	if (bundle->num_cports != 1)
		return -ENODEV;
	desc = &bundle->cport_desc[0];
	if (desc->protocol_id != GREYBUS_PROTOCOL_BOOTROM)
		return -ENODEV;

	bootrom = kzalloc(sizeof(*bootrom), GFP_KERNEL);
	if (!bootrom)
		return -ENOMEM;
	bootrom->bundle = bundle;
	mutex_init(&bootrom->mutex);
	INIT_DELAYED_WORK(&bootrom->timeout, gb_bootrom_timeout);

	connection = gb_connection_create(bundle, le16_to_cpu(desc->id),
					  gb_bootrom_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_free;
	}
	gb_connection_set_data(connection, bootrom);
	bootrom->connection = connection;
	greybus_set_drvdata(bundle, bootrom);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy;
	ret = gb_bootrom_version(bootrom);
	if (ret)
		goto err_disable;

	/* Awake for the whole download; the handler gives it back */
	ret = gb_pm_runtime_get_sync(bundle);
	if (ret)
		goto err_disable;

	/* Armed first: the module may answer AP_READY with its request */
	mutex_lock(&bootrom->mutex);
	bootrom->pm_held = true;
	gb_bootrom_expect(bootrom, GB_BOOTROM_WAIT_SIZE);
	mutex_unlock(&bootrom->mutex);

	ret = gb_operation_sync(connection, GB_BOOTROM_TYPE_AP_READY,
				NULL, 0, NULL, 0);
	if (ret)
		goto err_idle;

	return 0;

err_idle:
	mutex_lock(&bootrom->mutex);
	gb_bootrom_expect(bootrom, GB_BOOTROM_IDLE);
	gb_bootrom_pm_put(bootrom);
	mutex_unlock(&bootrom->mutex);
err_disable:
	gb_connection_disable(connection);
	cancel_delayed_work_sync(&bootrom->timeout);
err_destroy:
	gb_connection_destroy(connection);
err_free:
	gb_bootrom_release_fw(bootrom);
	kfree(bootrom);
	return ret;
}

static void gb_bootrom_disconnect(struct gb_bundle *bundle)
{
	struct gb_bootrom *bootrom = greybus_get_drvdata(bundle);

	/* No handler runs after this, so nothing re-arms the timer */
	gb_connection_disable(bootrom->connection);
	cancel_delayed_work_sync(&bootrom->timeout);

	mutex_lock(&bootrom->mutex);
	if (bootrom->fw)
		dev_info(&bundle->dev, "download of '%s' stopped: bundle unbound\n",
			 bootrom->name);
	gb_bootrom_release_fw(bootrom);
	bootrom->state = GB_BOOTROM_IDLE;
	gb_bootrom_pm_put(bootrom);
	mutex_unlock(&bootrom->mutex);

	gb_connection_destroy(bootrom->connection);
	kfree(bootrom);
}

static const struct greybus_bundle_id gb_bootrom_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_BOOTROM) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_bootrom_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_BOOTROM);

static struct greybus_driver gb_bootrom_driver = {
	.name		= "gb-bootrom",
	.probe		= gb_bootrom_probe,
	.disconnect	= gb_bootrom_disconnect,
	.id_table	= gb_bootrom_id_table,
};
module_greybus_driver(gb_bootrom_driver);

MODULE_DESCRIPTION("Greybus Bootrom protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
