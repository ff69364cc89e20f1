// SPDX-License-Identifier: GPL-2.0
/*
 * gb-hid: the HID protocol (0x05).  Each HID bundle becomes a hid_device
 * whose transport (hid_ll_driver) is the bundle's connection, so the HID
 * core's own drivers (hid-generic) bind to it and give it an input
 * device and a hidraw node.
 *
 * Probe reads the HID descriptor (GET_DESC); the HID core asks for the
 * report descriptor (parse, GET_REPORT_DESC) while the device is added.
 * Bad answers from the module fail the probe with one rate-limited line
 * and leave the bundle unbound.
 *
 * The module sends its input reports as IRQ_EVENT requests; they reach
 * hid_input_report() while a HID driver has started the device.
 * Reports the AP sends (an LED change, a hidraw write) and reads go out
 * as SET_REPORT and GET_REPORT.  While the device is open the module is
 * powered on (PWR_ON) and the bundle held awake, since a keyboard must
 * be able to send at any time; close powers it off and lets the bundle
 * suspend.
 *
 * Removal: no request handler runs any more (rx is disabled first), then
 * hid_destroy_device() unbinds hid-generic, which ends evdev and hidraw
 * readers, and only then does the connection go.
 */
#include <linux/hid.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <greybus/greybus.h>
#include <uapi/greybus/hid.h>

#define GB_HID_STARTED		0	/* between ll start and stop */

struct gb_hid {
	struct gb_bundle		*bundle;
	struct gb_connection		*connection;
	struct hid_device		*hid;
	struct gb_hid_desc_response	desc;
	unsigned long			flags;
};

static struct device *gb_hid_dev(struct gb_hid *ghid)
{
	return &ghid->bundle->dev;
}

/* One synchronous operation with the bundle awake for it */
static int gb_hid_op(struct gb_hid *ghid, u8 type, void *request,
		     size_t request_size, void *response, size_t response_size)
{
	int ret;

	ret = gb_pm_runtime_get_sync(ghid->bundle);
	if (ret)
		return ret;
	ret = gb_operation_sync(ghid->connection, type, request, request_size,
				response, response_size);
	gb_pm_runtime_put_autosuspend(ghid->bundle);

	return ret;
}

static int gb_hid_get_desc(struct gb_hid *ghid)
{
	struct gb_hid_desc_response *desc = &ghid->desc;
	size_t max = gb_operation_get_payload_size_max(ghid->connection);
	unsigned int len;
	int ret;

	ret = gb_operation_sync(ghid->connection, GB_HID_TYPE_GET_DESC,
				NULL, 0, desc, sizeof(*desc));
	/* -ESHUTDOWN: the module left meanwhile, nothing to report */
	if (ret == -ESHUTDOWN)
		return ret;
	if (ret) {
		dev_err_ratelimited(gb_hid_dev(ghid), "failed to get HID descriptor: %d\n",
				    ret);
		return ret;
	}

	if (desc->bLength != sizeof(*desc)) {
		dev_err_ratelimited(gb_hid_dev(ghid), "HID descriptor says it has %u bytes, not %zu\n",
				    desc->bLength, sizeof(*desc));
		return -EPROTO;
	}
	len = le16_to_cpu(desc->wReportDescLength);
	if (!len || len > HID_MAX_DESCRIPTOR_SIZE || len > max) {
		dev_err_ratelimited(gb_hid_dev(ghid), "report descriptor of %u bytes refused (1..%zu)\n",
				    len, min_t(size_t, HID_MAX_DESCRIPTOR_SIZE, max));
		return -EPROTO;
	}

	return 0;
}

/* hid_ll_driver.parse: fetch the report descriptor, hand it to the core */
static int gb_hid_parse(struct hid_device *hid)
{
	struct gb_hid *ghid = hid->driver_data;
	unsigned int len = le16_to_cpu(ghid->desc.wReportDescLength);
	u8 *rdesc;
	int ret;

	rdesc = kzalloc(len, GFP_KERNEL);
	if (!rdesc)
		return -ENOMEM;

	ret = gb_hid_op(ghid, GB_HID_TYPE_GET_REPORT_DESC, NULL, 0, rdesc, len);
	if (ret == -ESHUTDOWN)
		goto out_free;
	if (ret) {
		dev_err_ratelimited(gb_hid_dev(ghid), "failed to get report descriptor: %d\n",
				    ret);
		goto out_free;
	}

	ret = hid_parse_report(hid, rdesc, len);
	if (ret)
		dev_err_ratelimited(gb_hid_dev(ghid), "report descriptor refused: %d\n",
				    ret);

out_free:
	kfree(rdesc);
	return ret;
}

static int gb_hid_start(struct hid_device *hid)
{
	struct gb_hid *ghid = hid->driver_data;

	set_bit(GB_HID_STARTED, &ghid->flags);

	return 0;
}

static void gb_hid_stop(struct hid_device *hid)
{
	struct gb_hid *ghid = hid->driver_data;

	clear_bit(GB_HID_STARTED, &ghid->flags);
}

/* First opener (the HID core counts them): power on, stay awake */
static int gb_hid_open(struct hid_device *hid)
{
	struct gb_hid *ghid = hid->driver_data;
	int ret;

	ret = gb_pm_runtime_get_sync(ghid->bundle);
	if (ret)
		return ret;

	ret = gb_operation_sync(ghid->connection, GB_HID_TYPE_PWR_ON,
				NULL, 0, NULL, 0);
	if (ret) {
		dev_err_ratelimited(gb_hid_dev(ghid), "failed to power on: %d\n",
				    ret);
		gb_pm_runtime_put_autosuspend(ghid->bundle);
		return ret;
	}

	return 0;
}

/* Last closer; also during removal, when the module may be gone */
static void gb_hid_close(struct hid_device *hid)
{
	struct gb_hid *ghid = hid->driver_data;
	int ret;

	ret = gb_operation_sync(ghid->connection, GB_HID_TYPE_PWR_OFF,
				NULL, 0, NULL, 0);
	/* Either means the module or its connection is gone already */
	if (ret && ret != -ESHUTDOWN && ret != -ENOTCONN)
		dev_err_ratelimited(gb_hid_dev(ghid), "failed to power off: %d\n",
				    ret);

	gb_pm_runtime_put_autosuspend(ghid->bundle);
}

/*
 * GET_REPORT into @buf (at most @len bytes); returns the bytes the
 * module sent.
 */
static int gb_hid_get_report(struct gb_hid *ghid, u8 type, u8 id, u8 *buf,
			     size_t len)
{
	struct gb_hid_get_report_request *request;
	struct gb_operation *operation;
	size_t size;
	int ret;

	/* A short answer is fine: ask for no more than one message holds */
	len = min(len, gb_operation_get_payload_size_max(ghid->connection));
	operation = gb_operation_create_flags(ghid->connection,
					      GB_HID_TYPE_GET_REPORT,
					      sizeof(*request), len,
					      GB_OPERATION_FLAG_SHORT_RESPONSE,
					      GFP_KERNEL);
	if (!operation)
		return -EMSGSIZE;
	request = operation->request->payload;
	request->report_type = type;
	request->report_id = id;

	ret = gb_pm_runtime_get_sync(ghid->bundle);
	if (ret)
		goto out_put;
	ret = gb_operation_request_send_sync(operation);
	gb_pm_runtime_put_autosuspend(ghid->bundle);
	if (ret) {
		dev_err_ratelimited(gb_hid_dev(ghid), "get report %u of type %u failed: %d\n",
				    id, type, ret);
		goto out_put;
	}

	size = operation->response->payload_size;
	memcpy(buf, operation->response->payload, size);
	ret = size;

out_put:
	gb_operation_put(operation);
	return ret;
}

/* SET_REPORT of @len bytes; returns @len */
static int gb_hid_set_report(struct gb_hid *ghid, u8 type, u8 id,
			     const u8 *buf, size_t len)
{
	struct gb_hid_set_report_request *request;
	size_t size = struct_size(request, report, len);
	int ret;

	if (size > gb_operation_get_payload_size_max(ghid->connection))
		return -EMSGSIZE;

	request = kmalloc(size, GFP_KERNEL);
	if (!request)
		return -ENOMEM;
	request->report_type = type;
	request->report_id = id;
	memcpy(request->report, buf, len);

	ret = gb_hid_op(ghid, GB_HID_TYPE_SET_REPORT, request, size, NULL, 0);
	kfree(request);
	if (ret) {
		dev_err_ratelimited(gb_hid_dev(ghid), "set report %u of type %u failed: %d\n",
				    id, type, ret);
		return ret;
	}

	return len;
}

static u8 gb_hid_report_type(unsigned char rtype)
{
	switch (rtype) {
	case HID_INPUT_REPORT:
		return GB_HID_INPUT_REPORT;
	case HID_OUTPUT_REPORT:
		return GB_HID_OUTPUT_REPORT;
	default:
		return GB_HID_FEATURE_REPORT;
	}
}

/*
 * hidraw and the HID core pass @buf with the report number in buf[0];
 * an unnumbered report (number 0) goes on the wire without that byte,
 * and the count returned still includes it.
 */
static int gb_hid_raw_request(struct hid_device *hid, unsigned char reportnum,
			      u8 *buf, size_t len, unsigned char rtype,
			      int reqtype)
{
	struct gb_hid *ghid = hid->driver_data;
	u8 type = gb_hid_report_type(rtype);
	size_t skip = reportnum ? 0 : 1;
	int ret;

	if (len < 1 || len - skip < 1)
		return -EINVAL;

	switch (reqtype) {
	case HID_REQ_GET_REPORT:
		/*
		 * Byte 0 is the report number even when it is not on the
		 * wire: hidraw hands back an uninitialised buffer
		 */
		buf[0] = reportnum;
		ret = gb_hid_get_report(ghid, type, reportnum, buf + skip,
					len - skip);
		break;
	case HID_REQ_SET_REPORT:
		ret = gb_hid_set_report(ghid, type, reportnum, buf + skip,
					len - skip);
		break;
	default:
		return -EIO;
	}

	return ret < 0 ? ret : ret + skip;
}

/* There is no interrupt-out channel: an output report is a SET_REPORT */
static int gb_hid_output_report(struct hid_device *hid, u8 *buf, size_t len)
{
	if (len < 1)
		return -EINVAL;

	return gb_hid_raw_request(hid, buf[0], buf, len, HID_OUTPUT_REPORT,
				  HID_REQ_SET_REPORT);
}

/*
 * hid_hw_request() (hid-input's LED worker, some HID drivers): the report
 * as the HID core holds it, which starts with its id only when numbered.
 * Synchronous; callers are in process context.
 */
static void gb_hid_request(struct hid_device *hid, struct hid_report *report,
			   int reqtype)
{
	struct gb_hid *ghid = hid->driver_data;
	u8 type = gb_hid_report_type(report->type);
	u32 len = hid_report_len(report);
	u8 *buf;
	int ret;

	buf = hid_alloc_report_buf(report, GFP_KERNEL);
	if (!buf)
		return;

	switch (reqtype) {
	case HID_REQ_SET_REPORT:
		hid_output_report(report, buf);
		gb_hid_set_report(ghid, type, report->id, buf, len);
		break;
	case HID_REQ_GET_REPORT:
		ret = gb_hid_get_report(ghid, type, report->id, buf, len);
		if (ret > 0)
			hid_input_report(hid, report->type, buf, ret, 0);
		break;
	default:
		break;
	}

	kfree(buf);
}

static struct hid_ll_driver gb_hid_ll_driver = {
	.parse		= gb_hid_parse,
	.start		= gb_hid_start,
	.stop		= gb_hid_stop,
	.open		= gb_hid_open,
	.close		= gb_hid_close,
	.raw_request	= gb_hid_raw_request,
	.output_report	= gb_hid_output_report,
	.request	= gb_hid_request,
};

static int gb_hid_request_handler(struct gb_operation *operation)
{
	struct gb_hid *ghid = gb_connection_get_data(operation->connection);
	size_t size = operation->request->payload_size;

	if (operation->type != GB_HID_TYPE_IRQ_EVENT) {
		dev_err_ratelimited(gb_hid_dev(ghid), "unknown request type 0x%02x\n",
				    operation->type);
		return -EINVAL;
	}
	if (!size || size > HID_MAX_BUFFER_SIZE) {
		dev_err_ratelimited(gb_hid_dev(ghid), "input report of %zu bytes refused\n",
				    size);
		return -EINVAL;
	}

	/* Nobody to take it yet (or any more): not the module's fault */
	if (!test_bit(GB_HID_STARTED, &ghid->flags))
		return 0;

	hid_input_report(ghid->hid, HID_INPUT_REPORT,
			 operation->request->payload, size, 1);

	return 0;
}

static int gb_hid_init_device(struct gb_hid *ghid)
{
	struct gb_hid_desc_response *desc = &ghid->desc;
	struct hid_device *hid;

	hid = hid_allocate_device();
	if (IS_ERR(hid))
		return PTR_ERR(hid);

	hid->driver_data = ghid;
	hid->ll_driver = &gb_hid_ll_driver;
	hid->dev.parent = &ghid->bundle->dev;
	hid->bus = BUS_VIRTUAL;
	hid->version = le16_to_cpu(desc->bcdHID);
	hid->vendor = le16_to_cpu(desc->wVendorID);
	hid->product = le16_to_cpu(desc->wProductID);
	hid->country = desc->bCountryCode;
	snprintf(hid->name, sizeof(hid->name), "Greybus HID %04X:%04X",
		 hid->vendor, hid->product);
	strscpy(hid->phys, dev_name(&ghid->bundle->dev), sizeof(hid->phys));

	ghid->hid = hid;

	return 0;
}

static int gb_hid_probe(struct gb_bundle *bundle,
			const struct greybus_bundle_id *id)
{
	struct greybus_descriptor_cport *desc;
	struct gb_connection *connection;
	struct gb_hid *ghid;
	int ret;

	if (bundle->num_cports != 1)
		return -ENODEV;
	desc = &bundle->cport_desc[0];
	if (desc->protocol_id != GREYBUS_PROTOCOL_HID)
		return -ENODEV;

	ghid = kzalloc(sizeof(*ghid), GFP_KERNEL);
	if (!ghid)
		return -ENOMEM;
	ghid->bundle = bundle;

	connection = gb_connection_create(bundle, le16_to_cpu(desc->id),
					  gb_hid_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_free;
	}
	gb_connection_set_data(connection, ghid);
	ghid->connection = connection;
	greybus_set_drvdata(bundle, ghid);

	/* No input report before there is a device to give it to */
	ret = gb_connection_enable_tx(connection);
	if (ret)
		goto err_destroy;

	ret = gb_hid_get_desc(ghid);
	if (ret)
		goto err_disable;

	ret = gb_hid_init_device(ghid);
	if (ret)
		goto err_disable;

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy_hid;

	ret = hid_add_device(ghid->hid);
	if (ret) {
		if (ret != -ESHUTDOWN)
			dev_err_ratelimited(&bundle->dev, "failed to add HID device: %d\n",
					    ret);
		goto err_disable_rx;
	}

	return 0;

err_disable_rx:
	gb_connection_disable_rx(connection);
err_destroy_hid:
	hid_destroy_device(ghid->hid);
err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
err_free:
	kfree(ghid);
	return ret;
}

static void gb_hid_disconnect(struct gb_bundle *bundle)
{
	struct gb_hid *ghid = greybus_get_drvdata(bundle);

	/* Waits for a running handler: none touches the device after this */
	gb_connection_disable_rx(ghid->connection);
	/* Closes it too, which still sends PWR_OFF when the module is there */
	hid_destroy_device(ghid->hid);
	gb_connection_disable(ghid->connection);
	gb_connection_destroy(ghid->connection);
	kfree(ghid);
}

static const struct greybus_bundle_id gb_hid_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_HID) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_hid_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_HID);

static struct greybus_driver gb_hid_driver = {
	.name		= "gb-hid",
	.probe		= gb_hid_probe,
	.disconnect	= gb_hid_disconnect,
	.id_table	= gb_hid_id_table,
};
module_greybus_driver(gb_hid_driver);

MODULE_DESCRIPTION("Greybus HID protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
