// SPDX-License-Identifier: GPL-2.0
/*
 * The AP's side of the Control protocol ("N-M.I.ctrl"), on CPort 0 of
 * each interface.  Only the AP sends requests; the control connection
 * therefore has no request handler.
 */
#include <linux/slab.h>
#include <uapi/greybus/control.h>

#include "internal.h"
#include "greybus_trace.h"

static void gb_control_release(struct device *dev)
{
	struct gb_control *control = to_gb_control(dev);

	gb_connection_destroy(control->connection);
	kfree(control->vendor_string);
	kfree(control->product_string);
	kfree(control);
}

const struct device_type greybus_control_type = {
	.name		= "greybus_control",
	.release	= gb_control_release,
};
EXPORT_SYMBOL_NS_GPL(greybus_control_type, GREYBUS);

/* Operations */

static struct gb_connection *gb_control_connection(struct gb_interface *intf)
{
	return intf->control ? intf->control->connection : NULL;
}

int gb_control_get_manifest_size_operation(struct gb_interface *intf)
{
	struct gb_control_get_manifest_size_response response;
	struct gb_connection *connection = gb_control_connection(intf);
	u16 size;
	int ret;

	if (!connection)
		return -ENODEV;

	ret = gb_operation_sync(connection, GB_CONTROL_TYPE_GET_MANIFEST_SIZE,
				NULL, 0, &response, sizeof(response));
	if (ret) {
		if (ret != -ESHUTDOWN)
			dev_err_ratelimited(&intf->dev, "failed to get manifest size: %d\n",
					    ret);
		return ret;
	}

	size = le16_to_cpu(response.size);
	if (size < sizeof(struct greybus_manifest_header)) {
		dev_err_ratelimited(&intf->dev, "invalid manifest size %u\n",
				    size);
		return -EINVAL;
	}

	return size;
}

int gb_control_get_manifest_operation(struct gb_interface *intf,
				      void *manifest, size_t size)
{
	struct gb_connection *connection = gb_control_connection(intf);
	int ret;

	if (!connection)
		return -ENODEV;

	if (size > gb_operation_get_payload_size_max(connection)) {
		dev_err_ratelimited(&intf->dev,
				    "manifest of %zu bytes does not fit a message\n",
				    size);
		return -EMSGSIZE;
	}

	ret = gb_operation_sync(connection, GB_CONTROL_TYPE_GET_MANIFEST,
				NULL, 0, manifest, size);
	if (ret && ret != -ESHUTDOWN)
		dev_err_ratelimited(&intf->dev, "failed to get manifest: %d\n", ret);

	return ret;
}

static int gb_control_cport_operation(struct gb_control *control, u8 type,
				      u16 cport_id, bool core)
{
	struct gb_control_cport_request request = {
		.cport_id = cpu_to_le16(cport_id),
	};

	if (core)
		return gb_operation_sync_core(control->connection, type,
					      &request, sizeof(request),
					      GB_OPERATION_TIMEOUT_DEFAULT);

	return gb_operation_sync(control->connection, type, &request,
				 sizeof(request), NULL, 0);
}

int gb_control_connected_operation(struct gb_control *control, u16 cport_id)
{
	int ret;

	ret = gb_control_cport_operation(control, GB_CONTROL_TYPE_CONNECTED,
					 cport_id, false);
	if (ret && ret != -ESHUTDOWN)
		dev_err_ratelimited(&control->dev, "failed to connect cport %u: %d\n",
				    cport_id, ret);

	return ret;
}

/* Teardown: allowed while the control connection itself disconnects */
int gb_control_disconnecting_operation(struct gb_control *control,
				       u16 cport_id)
{
	int ret;

	ret = gb_control_cport_operation(control,
					 GB_CONTROL_TYPE_DISCONNECTING,
					 cport_id, true);
	if (ret && ret != -ESHUTDOWN)
		dev_dbg(&control->dev, "disconnecting cport %u failed: %d\n",
			cport_id, ret);

	return ret;
}

int gb_control_disconnected_operation(struct gb_control *control,
				      u16 cport_id)
{
	int ret;

	ret = gb_control_cport_operation(control,
					 GB_CONTROL_TYPE_DISCONNECTED,
					 cport_id, false);
	if (ret && ret != -ESHUTDOWN)
		dev_dbg(&control->dev, "disconnected cport %u failed: %d\n",
			cport_id, ret);

	return ret;
}

static int gb_control_bundle_pm_status_to_errno(u8 status)
{
	switch (status) {
	case GB_CONTROL_BUNDLE_PM_OK:
		return 0;
	case GB_CONTROL_BUNDLE_PM_INVAL:
		return -EINVAL;
	case GB_CONTROL_BUNDLE_PM_BUSY:
		return -EBUSY;
	case GB_CONTROL_BUNDLE_PM_NA:
		return -ENOMSG;
	case GB_CONTROL_BUNDLE_PM_FAIL:
	default:
		return -EREMOTEIO;
	}
}

static int gb_control_bundle_pm_operation(struct gb_control *control, u8 type,
					  u8 bundle_id, const char *what)
{
	struct gb_control_bundle_pm_request request = {
		.bundle_id = bundle_id,
	};
	struct gb_control_bundle_pm_response response;
	int ret;

	ret = gb_operation_sync(control->connection, type, &request,
				sizeof(request), &response, sizeof(response));
	if (ret) {
		if (ret != -ESHUTDOWN)
			dev_err_ratelimited(&control->dev, "failed to send bundle %u %s: %d\n",
					    bundle_id, what, ret);
		return ret;
	}

	ret = gb_control_bundle_pm_status_to_errno(response.status);
	if (ret)
		dev_err_ratelimited(&control->dev, "bundle %u %s failed: status 0x%02x\n",
				    bundle_id, what, response.status);

	return ret;
}

int gb_control_bundle_activate(struct gb_control *control, u8 bundle_id)
{
	return gb_control_bundle_pm_operation(control,
					      GB_CONTROL_TYPE_BUNDLE_ACTIVATE,
					      bundle_id, "activate");
}

int gb_control_bundle_deactivate(struct gb_control *control, u8 bundle_id)
{
	return gb_control_bundle_pm_operation(control,
					      GB_CONTROL_TYPE_BUNDLE_DEACTIVATE,
					      bundle_id, "deactivate");
}

int gb_control_bundle_suspend(struct gb_control *control, u8 bundle_id)
{
	return gb_control_bundle_pm_operation(control,
					      GB_CONTROL_TYPE_BUNDLE_SUSPEND,
					      bundle_id, "suspend");
}

int gb_control_bundle_resume(struct gb_control *control, u8 bundle_id)
{
	return gb_control_bundle_pm_operation(control,
					      GB_CONTROL_TYPE_BUNDLE_RESUME,
					      bundle_id, "resume");
}

static int gb_control_intf_pm_operation(struct gb_control *control, u8 type,
					const char *what)
{
	struct gb_control_intf_pm_response response;
	int ret;

	ret = gb_operation_sync(control->connection, type, NULL, 0,
				&response, sizeof(response));
	if (ret) {
		if (ret != -ESHUTDOWN)
			dev_err_ratelimited(&control->dev, "failed to send %s: %d\n",
					    what, ret);
		return ret;
	}

	switch (response.status) {
	case GB_CONTROL_INTF_PM_OK:
		return 0;
	case GB_CONTROL_INTF_PM_BUSY:
		ret = -EBUSY;
		break;
	case GB_CONTROL_INTF_PM_NA:
		ret = -ENOMSG;
		break;
	default:
		ret = -EREMOTEIO;
		break;
	}
	dev_err_ratelimited(&control->dev, "%s failed: status 0x%02x\n", what,
			    response.status);

	return ret;
}

int gb_control_intf_suspend_prepare(struct gb_control *control)
{
	return gb_control_intf_pm_operation(control,
					    GB_CONTROL_TYPE_INTF_SUSPEND_PREPARE,
					    "interface suspend prepare");
}

int gb_control_intf_hibernate_abort(struct gb_control *control)
{
	return gb_control_intf_pm_operation(control,
					    GB_CONTROL_TYPE_INTF_HIBERNATE_ABORT,
					    "interface hibernate abort");
}

static int gb_control_version(struct gb_control *control)
{
	struct gb_protocol_version_request request = {
		.major = GB_CONTROL_VERSION_MAJOR,
		.minor = GB_CONTROL_VERSION_MINOR,
	};
	struct gb_protocol_version_response response;
	int ret;

	ret = gb_operation_sync(control->connection,
				GB_REQUEST_TYPE_PROTOCOL_VERSION,
				&request, sizeof(request),
				&response, sizeof(response));
	if (ret) {
		if (ret != -ESHUTDOWN)
			dev_err_ratelimited(&control->intf->dev,
					    "failed to get control protocol version: %d\n",
					    ret);
		return ret;
	}

	/* The module may answer an older version, never a newer one */
	if (response.major > request.major) {
		dev_err_ratelimited(&control->intf->dev,
				    "unsupported control protocol version %u.%u\n",
				    response.major, response.minor);
		return -EPROTONOSUPPORT;
	}

	control->protocol_major = response.major;
	control->protocol_minor = response.minor;

	dev_dbg(&control->intf->dev, "control protocol version %u.%u\n",
		response.major, response.minor);

	return 0;
}

/* Lifecycle */

struct gb_control *gb_control_create(struct gb_interface *intf)
{
	struct gb_connection *connection;
	struct gb_control *control;
	int ret;

	control = kzalloc(sizeof(*control), GFP_KERNEL);
	if (!control)
		return ERR_PTR(-ENOMEM);

	control->intf = intf;

	connection = gb_connection_create_control(intf);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		dev_err(&intf->dev, "failed to create control connection: %d\n",
			ret);
		kfree(control);
		return ERR_PTR(ret);
	}
	gb_connection_set_data(connection, control);
	control->connection = connection;

	control->dev.parent = &intf->dev;
	control->dev.bus = &greybus_bus_type;
	control->dev.type = &greybus_control_type;
	control->dev.groups = gb_control_groups;
	device_initialize(&control->dev);
	/*
	 * Nothing suspends or resumes the control device (its interface
	 * does): without a power/ group it costs ten sysfs nodes less.
	 */
	device_set_pm_not_required(&control->dev);
	/* From here on the release function undoes everything */

	ret = dev_set_name(&control->dev, "%s.ctrl", dev_name(&intf->dev));
	if (ret) {
		put_device(&control->dev);
		return ERR_PTR(ret);
	}

	return control;
}

int gb_control_enable(struct gb_control *control)
{
	int ret;

	/* Fully enabled, so that a stray request gets a "bad protocol" */
	ret = gb_connection_enable(control->connection);
	if (ret) {
		dev_err_ratelimited(&control->intf->dev,
				    "failed to enable control connection: %d\n", ret);
		return ret;
	}

	ret = gb_control_version(control);
	if (ret)
		goto err_disable_connection;

	return 0;

err_disable_connection:
	gb_connection_disable(control->connection);
	return ret;
}

void gb_control_disable(struct gb_control *control)
{
	gb_connection_disable(control->connection);
}

int gb_control_add(struct gb_control *control)
{
	int ret;

	ret = device_add(&control->dev);
	if (ret) {
		dev_err(&control->dev, "failed to register control device: %d\n",
			ret);
		return ret;
	}
	trace_gb_object_add(&control->dev);

	return 0;
}

void gb_control_del(struct gb_control *control)
{
	if (device_is_registered(&control->dev)) {
		trace_gb_object_del(&control->dev);
		device_del(&control->dev);
	}
}

void gb_control_put(struct gb_control *control)
{
	put_device(&control->dev);
}
