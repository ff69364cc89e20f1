// SPDX-License-Identifier: GPL-2.0
/*
 * The AP's side of the SVC protocol, on CPort 0 of the host device.
 *
 * Requests from the SVC are accepted in protocol order only: version,
 * then hello (which makes "N-svc" visible), then the network events.
 * Events that need work (module inserted and removed, mailbox, oops) are
 * answered at once and processed afterwards on the SVC's ordered
 * workqueue, one at a time and in the order the SVC sent them; at most
 * GB_SVC_DEFERRED_MAX of them wait at any time.
 *
 * One exception to the order: a module-inserted event between version
 * and hello (BeaglePlay's CC1352 firmware sends its static nodes before
 * its hello) is answered and held, at most GB_SVC_EARLY_MAX of them, one
 * per module, then queued like any other event once hello has come; one
 * held longer than GB_SVC_EARLY_TIMEOUT_MS by then is dropped, and a
 * network reset or the host device's removal drops them all.
 *
 * The AP-initiated operations below are thin: fill the request, send it
 * synchronously, turn the SVC's result field into an errno.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <uapi/greybus/svc.h>

#include "internal.h"
#include "greybus_trace.h"

#define GB_SVC_DEFERRED_MAX			64
/* Module-inserted events held until hello, and for how long at most */
#define GB_SVC_EARLY_MAX			4
#define GB_SVC_EARLY_TIMEOUT_MS			10000

#define GB_SVC_INTF_ACTIVATE_TIMEOUT_MS		6000
#define GB_SVC_INTF_RESUME_TIMEOUT_MS		3000
#define GB_SVC_INTF_EJECT_TIMEOUT_MS		9000

/*
 * An SVC event copied out of its request, to be handled on svc->wq.  It
 * is on svc->deferred (under svc->lock) from the moment it is queued
 * until its work starts, so that a module-removed event can cancel a
 * module-inserted event of the same module that has not started yet.
 */
struct gb_svc_deferred_request {
	struct work_struct	work;
	struct list_head	links;		/* svc->deferred, svc->lock */
	struct gb_svc		*svc;
	u8			type;
	bool			cancelled;	/* svc->lock */
	unsigned long		held_since;	/* jiffies, on svc->early */
	union {
		struct gb_svc_module_inserted_request	module_inserted;
		struct gb_svc_module_removed_request	module_removed;
		struct gb_svc_intf_mailbox_event_request mailbox_event;
		struct gb_svc_intf_oops_request		intf_oops;
	} request;
};

static void gb_svc_release(struct device *dev)
{
	struct gb_svc *svc = to_gb_svc(dev);

	destroy_workqueue(svc->wq);
	ida_destroy(&svc->device_id_map);
	kfree(svc);
}

const struct device_type greybus_svc_type = {
	.name		= "greybus_svc",
	.release	= gb_svc_release,
};
EXPORT_SYMBOL_NS_GPL(greybus_svc_type, GREYBUS);

/* AP-initiated operations */

static int gb_svc_sync(struct gb_svc *svc, u8 type, void *request,
		       size_t request_size, void *response,
		       size_t response_size, unsigned int timeout)
{
	if (!svc->connection)
		return -ENODEV;

	return gb_operation_sync_timeout(svc->connection, type,
					 request, request_size,
					 response, response_size, timeout);
}

int gb_svc_intf_device_id(struct gb_svc *svc, u8 intf_id, u8 device_id)
{
	struct gb_svc_intf_device_id_request request = {
		.intf_id	= intf_id,
		.device_id	= device_id,
	};

	return gb_svc_sync(svc, GB_SVC_TYPE_INTF_DEVICE_ID,
			   &request, sizeof(request), NULL, 0, 0);
}

int gb_svc_connection_create(struct gb_svc *svc, u8 intf1_id, u16 cport1_id,
			     u8 intf2_id, u16 cport2_id, u8 cport_flags)
{
	struct gb_svc_conn_create_request request = {
		.intf1_id	= intf1_id,
		.cport1_id	= cpu_to_le16(cport1_id),
		.intf2_id	= intf2_id,
		.cport2_id	= cpu_to_le16(cport2_id),
		.tc		= 0,	/* traffic class 0 only */
		.flags		= cport_flags,
	};

	return gb_svc_sync(svc, GB_SVC_TYPE_CONN_CREATE,
			   &request, sizeof(request), NULL, 0, 0);
}

int gb_svc_connection_destroy(struct gb_svc *svc, u8 intf1_id, u16 cport1_id,
			      u8 intf2_id, u16 cport2_id)
{
	struct gb_svc_conn_destroy_request request = {
		.intf1_id	= intf1_id,
		.cport1_id	= cpu_to_le16(cport1_id),
		.intf2_id	= intf2_id,
		.cport2_id	= cpu_to_le16(cport2_id),
	};

	return gb_svc_sync(svc, GB_SVC_TYPE_CONN_DESTROY,
			   &request, sizeof(request), NULL, 0, 0);
}

int gb_svc_dme_peer_get(struct gb_svc *svc, u8 intf_id, u16 attr,
			u16 selector, u32 *value)
{
	struct gb_svc_dme_peer_get_request request = {
		.intf_id	= intf_id,
		.attr		= cpu_to_le16(attr),
		.selector	= cpu_to_le16(selector),
	};
	struct gb_svc_dme_peer_get_response response;
	u16 result;
	int ret;

	ret = gb_svc_sync(svc, GB_SVC_TYPE_DME_PEER_GET, &request,
			  sizeof(request), &response, sizeof(response), 0);
	if (ret)
		return ret;

	result = le16_to_cpu(response.result_code);
	if (result) {
		dev_err_ratelimited(&svc->dev,
				    "interface %u: dme peer get of 0x%04x/%u failed: result 0x%04x\n",
				    intf_id, attr, selector, result);
		return -EREMOTEIO;
	}

	*value = le32_to_cpu(response.attr_value);

	return 0;
}

int gb_svc_dme_peer_set(struct gb_svc *svc, u8 intf_id, u16 attr,
			u16 selector, u32 value)
{
	struct gb_svc_dme_peer_set_request request = {
		.intf_id	= intf_id,
		.attr		= cpu_to_le16(attr),
		.selector	= cpu_to_le16(selector),
		.value		= cpu_to_le32(value),
	};
	struct gb_svc_dme_peer_set_response response;
	u16 result;
	int ret;

	ret = gb_svc_sync(svc, GB_SVC_TYPE_DME_PEER_SET, &request,
			  sizeof(request), &response, sizeof(response), 0);
	if (ret)
		return ret;

	result = le16_to_cpu(response.result_code);
	if (result) {
		dev_err_ratelimited(&svc->dev,
				    "interface %u: dme peer set of 0x%04x/%u failed: result 0x%04x\n",
				    intf_id, attr, selector, result);
		return -EREMOTEIO;
	}

	return 0;
}

int gb_svc_route_create(struct gb_svc *svc, u8 intf1_id, u8 dev1_id,
			u8 intf2_id, u8 dev2_id)
{
	struct gb_svc_route_create_request request = {
		.intf1_id	= intf1_id,
		.dev1_id	= dev1_id,
		.intf2_id	= intf2_id,
		.dev2_id	= dev2_id,
	};

	return gb_svc_sync(svc, GB_SVC_TYPE_ROUTE_CREATE,
			   &request, sizeof(request), NULL, 0, 0);
}

int gb_svc_route_destroy(struct gb_svc *svc, u8 intf1_id, u8 intf2_id)
{
	struct gb_svc_route_destroy_request request = {
		.intf1_id	= intf1_id,
		.intf2_id	= intf2_id,
	};

	return gb_svc_sync(svc, GB_SVC_TYPE_ROUTE_DESTROY,
			   &request, sizeof(request), NULL, 0, 0);
}

/* vsys, refclk and UniPro: same request and response, result 0 = OK */
static int gb_svc_intf_switch(struct gb_svc *svc, u8 type, u8 intf_id,
			      const char *what)
{
	struct gb_svc_intf_request request = { .intf_id = intf_id };
	struct gb_svc_intf_result_response response;
	int ret;

	ret = gb_svc_sync(svc, type, &request, sizeof(request),
			  &response, sizeof(response), 0);
	if (ret)
		return ret;

	if (response.result_code) {
		dev_err_ratelimited(&svc->dev, "interface %u: %s failed: result 0x%02x\n",
				    intf_id, what, response.result_code);
		return -EREMOTEIO;
	}

	return 0;
}

int gb_svc_intf_vsys_set(struct gb_svc *svc, u8 intf_id, bool enable)
{
	if (enable)
		return gb_svc_intf_switch(svc, GB_SVC_TYPE_INTF_VSYS_ENABLE,
					  intf_id, "vsys enable");

	return gb_svc_intf_switch(svc, GB_SVC_TYPE_INTF_VSYS_DISABLE, intf_id,
				  "vsys disable");
}

int gb_svc_intf_refclk_set(struct gb_svc *svc, u8 intf_id, bool enable)
{
	if (enable)
		return gb_svc_intf_switch(svc, GB_SVC_TYPE_INTF_REFCLK_ENABLE,
					  intf_id, "refclk enable");

	return gb_svc_intf_switch(svc, GB_SVC_TYPE_INTF_REFCLK_DISABLE,
				  intf_id, "refclk disable");
}

int gb_svc_intf_unipro_set(struct gb_svc *svc, u8 intf_id, bool enable)
{
	if (enable)
		return gb_svc_intf_switch(svc, GB_SVC_TYPE_INTF_UNIPRO_ENABLE,
					  intf_id, "unipro enable");

	return gb_svc_intf_switch(svc, GB_SVC_TYPE_INTF_UNIPRO_DISABLE,
				  intf_id, "unipro disable");
}

int gb_svc_intf_activate(struct gb_svc *svc, u8 intf_id, u8 *intf_type)
{
	struct gb_svc_intf_request request = { .intf_id = intf_id };
	struct gb_svc_intf_activate_response response;
	int ret;

	ret = gb_svc_sync(svc, GB_SVC_TYPE_INTF_ACTIVATE, &request,
			  sizeof(request), &response, sizeof(response),
			  GB_SVC_INTF_ACTIVATE_TIMEOUT_MS);
	if (ret)
		return ret;

	if (response.status != GB_SVC_OP_SUCCESS) {
		dev_err_ratelimited(&svc->dev, "interface %u: activate failed: status 0x%02x\n",
				    intf_id, response.status);
		return -EREMOTEIO;
	}

	*intf_type = response.intf_type;

	return 0;
}

int gb_svc_intf_resume(struct gb_svc *svc, u8 intf_id)
{
	struct gb_svc_intf_request request = { .intf_id = intf_id };
	struct gb_svc_intf_resume_response response;
	int ret;

	ret = gb_svc_sync(svc, GB_SVC_TYPE_INTF_RESUME, &request,
			  sizeof(request), &response, sizeof(response),
			  GB_SVC_INTF_RESUME_TIMEOUT_MS);
	if (ret)
		return ret;

	if (response.status != GB_SVC_OP_SUCCESS) {
		dev_err_ratelimited(&svc->dev, "interface %u: resume failed: status 0x%02x\n",
				    intf_id, response.status);
		return -EREMOTEIO;
	}

	return 0;
}

/* The SVC measures the interface's power rail: this works while it sleeps */
int gb_svc_pwrmon_intf_sample_get(struct gb_svc *svc, u8 intf_id,
				  u8 measurement_type, u32 *value)
{
	struct gb_svc_pwrmon_intf_sample_get_request request = {
		.intf_id = intf_id,
		.measurement_type = measurement_type,
	};
	struct gb_svc_pwrmon_sample_get_response response;
	int ret;

	ret = gb_svc_sync(svc, GB_SVC_TYPE_PWRMON_INTF_SAMPLE_GET, &request,
			  sizeof(request), &response, sizeof(response), 0);
	if (ret)
		return ret;

	switch (response.result) {
	case GB_SVC_PWRMON_GET_SAMPLE_OK:
		*value = le32_to_cpu(response.measurement);
		return 0;
	case GB_SVC_PWRMON_GET_SAMPLE_INVAL:
		return -EINVAL;
	case GB_SVC_PWRMON_GET_SAMPLE_NOSUPP:
		return -ENOMSG;
	default:
		dev_err_ratelimited(&svc->dev, "interface %u: power sample type %u failed: result 0x%02x\n",
				    intf_id, measurement_type, response.result);
		return -EREMOTEIO;
	}
}

int gb_svc_intf_set_power_mode(struct gb_svc *svc, u8 intf_id, u8 hs_series,
			       u8 tx_mode, u8 tx_gear, u8 tx_nlanes,
			       u8 tx_amplitude, u8 tx_hs_equalizer,
			       u8 rx_mode, u8 rx_gear, u8 rx_nlanes,
			       u8 flags, u32 quirks)
{
	struct gb_svc_intf_set_pwrm_request request = {
		.intf_id		= intf_id,
		.hs_series		= hs_series,
		.tx_mode		= tx_mode,
		.tx_gear		= tx_gear,
		.tx_nlanes		= tx_nlanes,
		.tx_amplitude		= tx_amplitude,
		.tx_hs_equalizer	= tx_hs_equalizer,
		.rx_mode		= rx_mode,
		.rx_gear		= rx_gear,
		.rx_nlanes		= rx_nlanes,
		.flags			= flags,
		.quirks			= cpu_to_le32(quirks),
	};
	struct gb_svc_intf_set_pwrm_response response;
	int ret;

	ret = gb_svc_sync(svc, GB_SVC_TYPE_INTF_SET_PWRM, &request,
			  sizeof(request), &response, sizeof(response), 0);
	if (ret)
		return ret;

	/* A mode change is applied locally first: PWR_LOCAL means done */
	if (response.result_code != GB_SVC_SETPWRM_PWR_LOCAL) {
		dev_err_ratelimited(&svc->dev,
				    "interface %u: set power mode failed: result 0x%02x\n",
				    intf_id, response.result_code);
		return -EIO;
	}

	return 0;
}

int gb_svc_intf_set_power_mode_hibernate(struct gb_svc *svc, u8 intf_id)
{
	struct gb_svc_intf_set_pwrm_request request = {
		.intf_id	= intf_id,
		.hs_series	= GB_SVC_UNIPRO_HS_SERIES_A,
		.tx_mode	= GB_SVC_UNIPRO_HIBERNATE_MODE,
		.rx_mode	= GB_SVC_UNIPRO_HIBERNATE_MODE,
	};
	struct gb_svc_intf_set_pwrm_response response;
	int ret;

	ret = gb_svc_sync(svc, GB_SVC_TYPE_INTF_SET_PWRM, &request,
			  sizeof(request), &response, sizeof(response), 0);
	if (ret)
		return ret;

	if (response.result_code != GB_SVC_SETPWRM_PWR_OK) {
		dev_err_ratelimited(&svc->dev,
				    "interface %u: hibernate failed: result 0x%02x\n",
				    intf_id, response.result_code);
		return -EIO;
	}

	return 0;
}

int gb_svc_intf_eject(struct gb_svc *svc, u8 intf_id)
{
	struct gb_svc_intf_eject_request request = { .intf_id = intf_id };

	return gb_svc_sync(svc, GB_SVC_TYPE_INTF_EJECT, &request,
			   sizeof(request), NULL, 0,
			   GB_SVC_INTF_EJECT_TIMEOUT_MS);
}

int gb_svc_ping(struct gb_svc *svc)
{
	return gb_svc_sync(svc, GB_SVC_TYPE_PING, NULL, 0, NULL, 0,
			   GB_SVC_WATCHDOG_PING_TIMEOUT_MS);
}

int gb_svc_device_id_alloc(struct gb_svc *svc)
{
	return ida_alloc_range(&svc->device_id_map, GB_SVC_DEVICE_ID_MIN,
			       GB_SVC_DEVICE_ID_MAX, GFP_KERNEL);
}

void gb_svc_device_id_free(struct gb_svc *svc, u8 device_id)
{
	ida_free(&svc->device_id_map, device_id);
}

/* Looking things up; svc->lock held */

static struct gb_module *gb_svc_module_find_locked(struct gb_svc *svc,
						   u8 module_id)
{
	struct gb_module *module;

	list_for_each_entry(module, &svc->hd->modules, hd_node) {
		if (module->module_id == module_id)
			return module;
	}

	return NULL;
}

static struct gb_interface *gb_svc_interface_find_locked(struct gb_svc *svc,
							 u8 intf_id)
{
	struct gb_module *module;
	size_t i;

	list_for_each_entry(module, &svc->hd->modules, hd_node) {
		for (i = 0; i < module->num_interfaces; i++) {
			if (module->interfaces[i]->interface_id == intf_id)
				return module->interfaces[i];
		}
	}

	return NULL;
}

/* The SVC released @intf_id's module: it is gone, whatever the AP thinks */
void gb_svc_interface_ejected(struct gb_svc *svc, u8 intf_id)
{
	struct gb_interface *intf;

	mutex_lock(&svc->lock);
	intf = gb_svc_interface_find_locked(svc, intf_id);
	if (intf)
		gb_module_mark_disconnected(intf->module);
	mutex_unlock(&svc->lock);
}

/* Deferred events, on svc->wq */

/*
 * Checks a module-inserted event and creates the module, on
 * hd->modules; svc->lock held.  The module is listed before it is
 * enumerated, and in the same critical section that took the event off
 * svc->deferred, so a module-removed request finds it in one place or
 * the other, never in neither.  NULL if the event is refused.
 */
static struct gb_module *
gb_svc_module_insert_locked(struct gb_svc_deferred_request *dr)
{
	struct gb_svc *svc = dr->svc;
	u8 module_id = dr->request.module_inserted.primary_intf_id;
	u8 num_interfaces = dr->request.module_inserted.intf_count;
	u16 flags = le16_to_cpu(dr->request.module_inserted.flags);
	struct gb_module *module;
	unsigned int intf_id;

	dev_dbg(&svc->dev, "module %u inserted: %u interfaces, flags 0x%04x\n",
		module_id, num_interfaces, flags);

	if (flags & GB_SVC_MODULE_INSERTED_FLAG_NO_PRIMARY) {
		dev_warn_ratelimited(&svc->dev,
				     "module %u has no primary interface, ignored\n",
				     module_id);
		return NULL;
	}
	if (!num_interfaces || module_id + num_interfaces - 1 > U8_MAX) {
		dev_err_ratelimited(&svc->dev,
				    "module %u inserted with invalid interface count %u\n",
				    module_id, num_interfaces);
		return NULL;
	}

	for (intf_id = module_id; intf_id < module_id + num_interfaces;
	     intf_id++) {
		if (intf_id == svc->ap_intf_id ||
		    gb_svc_interface_find_locked(svc, intf_id)) {
			dev_err_ratelimited(&svc->dev,
					    "module %u inserted: interface %u is already in use\n",
					    module_id, intf_id);
			return NULL;
		}
	}

	module = gb_module_create(svc->hd, module_id, num_interfaces);
	if (IS_ERR(module)) {
		dev_err(&svc->dev, "failed to create module %u: %ld\n",
			module_id, PTR_ERR(module));
		return NULL;
	}
	list_add_tail(&module->hd_node, &svc->hd->modules);

	return module;
}

/* Registers and enumerates a module from gb_svc_module_insert_locked() */
static void gb_svc_module_enumerate(struct gb_svc *svc,
				    struct gb_module *module)
{
	int ret;

	ret = gb_module_add(module);
	if (ret) {
		dev_err(&svc->dev, "failed to add module %u: %d\n",
			module->module_id, ret);
		mutex_lock(&svc->lock);
		list_del(&module->hd_node);
		mutex_unlock(&svc->lock);
		gb_module_put(module);
	}
}

static void gb_svc_process_module_removed(struct gb_svc_deferred_request *dr)
{
	struct gb_svc *svc = dr->svc;
	u8 module_id = dr->request.module_removed.primary_intf_id;
	struct gb_module *module;

	mutex_lock(&svc->lock);
	module = gb_svc_module_find_locked(svc, module_id);
	if (module)
		list_del(&module->hd_node);
	mutex_unlock(&svc->lock);

	if (!module) {
		dev_warn_ratelimited(&svc->dev,
				     "unexpected module-removed event for module %u\n",
				     module_id);
		return;
	}

	dev_dbg(&svc->dev, "module %u removed\n", module_id);

	gb_module_mark_disconnected(module);
	gb_module_del(module);
	gb_module_put(module);
}

static void
gb_svc_process_intf_mailbox_event(struct gb_svc_deferred_request *dr)
{
	const struct gb_svc_intf_mailbox_event_request *request;
	struct gb_svc *svc = dr->svc;

	request = &dr->request.mailbox_event;
	dev_info_ratelimited(&svc->dev,
			     "interface %u mailbox event: result 0x%04x, mailbox 0x%08x\n",
			     request->intf_id, le16_to_cpu(request->result_code),
			     le32_to_cpu(request->mailbox));
}

static void gb_svc_process_intf_oops(struct gb_svc_deferred_request *dr)
{
	const struct gb_svc_intf_oops_request *request = &dr->request.intf_oops;
	struct gb_svc *svc = dr->svc;
	struct gb_interface *intf;

	mutex_lock(&svc->lock);
	intf = gb_svc_interface_find_locked(svc, request->intf_id);
	if (intf)
		get_device(&intf->dev);
	mutex_unlock(&svc->lock);

	if (!intf) {
		dev_warn_ratelimited(&svc->dev,
				     "unexpected interface-oops event for interface %u\n",
				     request->intf_id);
		return;
	}

	dev_err_ratelimited(&svc->dev, "interface %u oops, reason 0x%02x\n",
			    request->intf_id, request->reason);

	/* It crashed: nothing is said to it any more, but it is powered off */
	gb_interface_mark_disconnected(intf);
	mutex_lock(&intf->mutex);
	intf->failed = true;
	gb_interface_disable(intf);
	gb_interface_deactivate(intf);
	mutex_unlock(&intf->mutex);

	put_device(&intf->dev);
}

static void gb_svc_deferred_work(struct work_struct *work)
{
	struct gb_svc_deferred_request *dr =
		container_of(work, struct gb_svc_deferred_request, work);
	struct gb_svc *svc = dr->svc;
	struct gb_module *module = NULL;
	bool skip;

	/* Once removal started, the modules go anyway */
	mutex_lock(&svc->lock);
	list_del(&dr->links);
	skip = dr->cancelled || READ_ONCE(svc->removing);
	if (!skip && dr->type == GB_SVC_TYPE_MODULE_INSERTED)
		module = gb_svc_module_insert_locked(dr);
	mutex_unlock(&svc->lock);

	if (skip)
		goto out_free;

	switch (dr->type) {
	case GB_SVC_TYPE_MODULE_INSERTED:
		if (module)
			gb_svc_module_enumerate(svc, module);
		break;
	case GB_SVC_TYPE_MODULE_REMOVED:
		gb_svc_process_module_removed(dr);
		break;
	case GB_SVC_TYPE_INTF_MAILBOX_EVENT:
		gb_svc_process_intf_mailbox_event(dr);
		break;
	case GB_SVC_TYPE_INTF_OOPS:
		gb_svc_process_intf_oops(dr);
		break;
	}

out_free:
	kfree(dr);
	atomic_dec(&svc->deferred_count);
}

/* Request handler, in the connection's rx work */

static int gb_svc_check_size(struct gb_svc *svc, struct gb_operation *op,
			     size_t size)
{
	if (op->request->payload_size >= size)
		return 0;

	dev_warn_ratelimited(&svc->dev,
			     "short request of type 0x%02x received (%zu < %zu)\n",
			     op->type, op->request->payload_size, size);

	return -EINVAL;
}

static int gb_svc_queue_deferred(struct gb_svc *svc, struct gb_operation *op,
				 size_t size)
{
	struct gb_svc_deferred_request *dr;

	if (atomic_inc_return(&svc->deferred_count) > GB_SVC_DEFERRED_MAX) {
		atomic_dec(&svc->deferred_count);
		dev_err_ratelimited(&svc->dev,
				    "too many events pending, request of type 0x%02x refused\n",
				    op->type);
		return -EAGAIN;
	}

	dr = kzalloc(sizeof(*dr), GFP_KERNEL);
	if (!dr) {
		atomic_dec(&svc->deferred_count);
		return -ENOMEM;
	}

	dr->svc = svc;
	dr->type = op->type;
	memcpy(&dr->request, op->request->payload,
	       min(size, sizeof(dr->request)));
	INIT_WORK(&dr->work, gb_svc_deferred_work);

	mutex_lock(&svc->lock);
	list_add_tail(&dr->links, &svc->deferred);
	queue_work(svc->wq, &dr->work);
	mutex_unlock(&svc->lock);

	return 0;
}

/*
 * A module-inserted event before hello: checked as far as it can be
 * without the hello (the AP's interface id is not known yet), answered,
 * and kept on svc->early until gb_svc_early_release().
 */
static int gb_svc_early_hold(struct gb_svc *svc, struct gb_operation *op)
{
	struct gb_svc_module_inserted_request *request = op->request->payload;
	u8 module_id = request->primary_intf_id;
	struct gb_svc_deferred_request *dr, *held;
	int ret = 0;

	if (!request->intf_count ||
	    module_id + request->intf_count - 1 > U8_MAX) {
		dev_err_ratelimited(&svc->dev,
				    "module %u inserted with invalid interface count %u\n",
				    module_id, request->intf_count);
		return -EINVAL;
	}

	dr = kzalloc(sizeof(*dr), GFP_KERNEL);
	if (!dr)
		return -ENOMEM;
	dr->svc = svc;
	dr->type = op->type;
	dr->request.module_inserted = *request;
	dr->held_since = jiffies;
	INIT_WORK(&dr->work, gb_svc_deferred_work);

	mutex_lock(&svc->lock);
	list_for_each_entry(held, &svc->early, links) {
		if (held->request.module_inserted.primary_intf_id == module_id) {
			ret = -EINVAL;
			break;
		}
	}
	if (!ret && svc->early_count >= GB_SVC_EARLY_MAX)
		ret = -EAGAIN;
	if (!ret) {
		list_add_tail(&dr->links, &svc->early);
		svc->early_count++;
	}
	mutex_unlock(&svc->lock);

	if (ret == -EINVAL)
		dev_err_ratelimited(&svc->dev,
				    "module %u inserted twice before the SVC's hello: refused\n",
				    module_id);
	else if (ret)
		dev_err_ratelimited(&svc->dev,
				    "more than %d modules inserted before the SVC's hello: module %u refused\n",
				    GB_SVC_EARLY_MAX, module_id);
	if (ret) {
		kfree(dr);
		return ret;
	}
	dev_dbg(&svc->dev, "module %u inserted before hello: held\n",
		module_id);
	return 0;
}

/* The held events, off svc->early; each the caller's to free or queue */
static void gb_svc_early_take(struct gb_svc *svc, struct list_head *list)
{
	mutex_lock(&svc->lock);
	list_splice_init(&svc->early, list);
	svc->early_count = 0;
	mutex_unlock(&svc->lock);
}

static void gb_svc_early_drop(struct gb_svc *svc)
{
	struct gb_svc_deferred_request *dr, *next;
	LIST_HEAD(list);

	gb_svc_early_take(svc, &list);
	list_for_each_entry_safe(dr, next, &list, links) {
		list_del(&dr->links);
		kfree(dr);
	}
}

/* Hello came: the held events go to svc->wq, in the order they came */
static void gb_svc_early_release(struct gb_svc *svc)
{
	unsigned long timeout = msecs_to_jiffies(GB_SVC_EARLY_TIMEOUT_MS);
	struct gb_svc_deferred_request *dr, *next;
	LIST_HEAD(list);
	u8 module_id;

	gb_svc_early_take(svc, &list);
	list_for_each_entry_safe(dr, next, &list, links) {
		list_del(&dr->links);
		module_id = dr->request.module_inserted.primary_intf_id;
		if (time_after(jiffies, dr->held_since + timeout)) {
			dev_err_ratelimited(&svc->dev,
					    "module %u inserted over %d ms before the SVC's hello: dropped\n",
					    module_id, GB_SVC_EARLY_TIMEOUT_MS);
			kfree(dr);
			continue;
		}
		if (atomic_inc_return(&svc->deferred_count) >
		    GB_SVC_DEFERRED_MAX) {
			atomic_dec(&svc->deferred_count);
			dev_err_ratelimited(&svc->dev,
					    "too many events pending, module %u inserted before hello dropped\n",
					    module_id);
			kfree(dr);
			continue;
		}
		dev_dbg(&svc->dev, "module %u inserted before hello: queued\n",
			module_id);
		mutex_lock(&svc->lock);
		list_add_tail(&dr->links, &svc->deferred);
		queue_work(svc->wq, &dr->work);
		mutex_unlock(&svc->lock);
	}
}

static int gb_svc_version_request(struct gb_svc *svc, struct gb_operation *op)
{
	struct gb_protocol_version_request *request;
	struct gb_protocol_version_response *response;

	request = op->request->payload;

	if (!gb_operation_response_alloc(op, sizeof(*response), GFP_KERNEL))
		return -ENOMEM;
	response = op->response->payload;

	/* Answer the offered version, or ours if that is older */
	if (request->major > GB_SVC_VERSION_MAJOR ||
	    (request->major == GB_SVC_VERSION_MAJOR &&
	     request->minor > GB_SVC_VERSION_MINOR)) {
		svc->protocol_major = GB_SVC_VERSION_MAJOR;
		svc->protocol_minor = GB_SVC_VERSION_MINOR;
	} else {
		svc->protocol_major = request->major;
		svc->protocol_minor = request->minor;
	}
	response->major = svc->protocol_major;
	response->minor = svc->protocol_minor;

	dev_dbg(&svc->dev, "svc offered version %u.%u, using %u.%u\n",
		request->major, request->minor, svc->protocol_major,
		svc->protocol_minor);

	WRITE_ONCE(svc->state, GB_SVC_STATE_PROTOCOL_VERSION);

	return 0;
}

static int gb_svc_hello_request(struct gb_svc *svc, struct gb_operation *op)
{
	struct gb_svc_hello_request *request = op->request->payload;
	int ret;

	svc->endo_id = le16_to_cpu(request->endo_id);
	svc->ap_intf_id = request->interface_id;

	/* After a network reset the device is still there */
	if (!device_is_registered(&svc->dev)) {
		ret = device_add(&svc->dev);
		if (ret) {
			dev_err(&svc->dev, "failed to register svc device: %d\n",
				ret);
			return ret;
		}
		trace_gb_object_add(&svc->dev);
	}

	dev_dbg(&svc->dev, "hello: endo 0x%04x, ap interface %u\n",
		svc->endo_id, svc->ap_intf_id);

	WRITE_ONCE(svc->state, GB_SVC_STATE_SVC_HELLO);
	gb_svc_early_release(svc);
	gb_svc_watchdog_start(svc);

	return 0;
}

/*
 * A module-inserted event for @module_id that has not started yet, the
 * latest one if there are several; svc->lock held.
 */
static struct gb_svc_deferred_request *
gb_svc_pending_insert_find_locked(struct gb_svc *svc, u8 module_id)
{
	struct gb_svc_deferred_request *dr;

	list_for_each_entry_reverse(dr, &svc->deferred, links) {
		if (dr->type == GB_SVC_TYPE_MODULE_INSERTED && !dr->cancelled &&
		    dr->request.module_inserted.primary_intf_id == module_id)
			return dr;
	}

	return NULL;
}

/*
 * Acts on a module-removed request at once, before it is deferred.  If
 * the module's insertion has not started yet, both events cancel out and
 * nothing is queued (returns true).  If the module exists, it may be in
 * the middle of enumeration on svc->wq: it is marked gone now, so that
 * what runs there fails fast instead of waiting for answers from
 * hardware that has left; its removal proper is deferred as usual.
 */
static bool gb_svc_module_removed_early(struct gb_svc *svc,
					struct gb_operation *op)
{
	struct gb_svc_module_removed_request *request = op->request->payload;
	struct gb_svc_deferred_request *dr;
	struct gb_module *module;
	bool cancelled = false;

	mutex_lock(&svc->lock);
	dr = gb_svc_pending_insert_find_locked(svc, request->primary_intf_id);
	if (dr) {
		dr->cancelled = true;
		cancelled = true;
	} else {
		module = gb_svc_module_find_locked(svc,
						   request->primary_intf_id);
		if (module)
			gb_module_mark_disconnected(module);
	}
	mutex_unlock(&svc->lock);

	if (cancelled)
		dev_dbg(&svc->dev, "module %u removed before it was enumerated\n",
			request->primary_intf_id);

	return cancelled;
}

/* Likewise an interface that crashed stops being waited for at once */
static void gb_svc_intf_oops_early(struct gb_svc *svc, struct gb_operation *op)
{
	struct gb_svc_intf_oops_request *request = op->request->payload;
	struct gb_interface *intf;

	mutex_lock(&svc->lock);
	intf = gb_svc_interface_find_locked(svc, request->intf_id);
	if (intf)
		gb_interface_mark_disconnected(intf);
	mutex_unlock(&svc->lock);
}

static int gb_svc_request_handler(struct gb_operation *op)
{
	struct gb_svc *svc = gb_connection_get_data(op->connection);
	enum gb_svc_state expected = GB_SVC_STATE_SVC_HELLO;
	size_t size;
	int ret;

	switch (op->type) {
	case GB_SVC_TYPE_PROTOCOL_VERSION:
		expected = GB_SVC_STATE_RESET;
		size = sizeof(struct gb_protocol_version_request);
		break;
	case GB_SVC_TYPE_SVC_HELLO:
		expected = GB_SVC_STATE_PROTOCOL_VERSION;
		size = sizeof(struct gb_svc_hello_request);
		break;
	case GB_SVC_TYPE_INTF_RESET:
		size = sizeof(struct gb_svc_intf_reset_request);
		break;
	case GB_SVC_TYPE_MODULE_INSERTED:
		size = sizeof(struct gb_svc_module_inserted_request);
		break;
	case GB_SVC_TYPE_MODULE_REMOVED:
		size = sizeof(struct gb_svc_module_removed_request);
		break;
	case GB_SVC_TYPE_INTF_MAILBOX_EVENT:
		size = sizeof(struct gb_svc_intf_mailbox_event_request);
		break;
	case GB_SVC_TYPE_INTF_OOPS:
		size = sizeof(struct gb_svc_intf_oops_request);
		break;
	default:
		dev_warn_ratelimited(&svc->dev,
				     "unsupported request of type 0x%02x\n",
				     op->type);
		return -EINVAL;
	}

	/* Between version and hello: held until hello (see the top) */
	if (op->type == GB_SVC_TYPE_MODULE_INSERTED &&
	    READ_ONCE(svc->state) == GB_SVC_STATE_PROTOCOL_VERSION) {
		ret = gb_svc_check_size(svc, op, size);
		if (ret)
			return ret;
		return gb_svc_early_hold(svc, op);
	}

	if (READ_ONCE(svc->state) != expected) {
		dev_warn_ratelimited(&svc->dev,
				     "unexpected request of type 0x%02x in state %d\n",
				     op->type, svc->state);
		return -EINVAL;
	}

	ret = gb_svc_check_size(svc, op, size);
	if (ret)
		return ret;

	switch (op->type) {
	case GB_SVC_TYPE_PROTOCOL_VERSION:
		return gb_svc_version_request(svc, op);
	case GB_SVC_TYPE_SVC_HELLO:
		return gb_svc_hello_request(svc, op);
	case GB_SVC_TYPE_INTF_RESET:
		/* Nothing to do, the SVC resets the interface itself */
		return 0;
	case GB_SVC_TYPE_MODULE_REMOVED:
		if (gb_svc_module_removed_early(svc, op))
			return 0;
		return gb_svc_queue_deferred(svc, op, size);
	case GB_SVC_TYPE_INTF_OOPS:
		gb_svc_intf_oops_early(svc, op);
		fallthrough;
	default:
		return gb_svc_queue_deferred(svc, op, size);
	}
}

/* Lifecycle */

struct gb_svc *gb_svc_create(struct gb_host_device *hd)
{
	struct gb_svc *svc;
	int ret;

	svc = kzalloc(sizeof(*svc), GFP_KERNEL);
	if (!svc)
		return ERR_PTR(-ENOMEM);

	svc->wq = alloc_ordered_workqueue("%s:svc", 0, dev_name(&hd->dev));
	if (!svc->wq) {
		kfree(svc);
		return ERR_PTR(-ENOMEM);
	}

	svc->hd = hd;
	svc->state = GB_SVC_STATE_RESET;
	gb_svc_watchdog_init(svc);
	ida_init(&svc->device_id_map);
	mutex_init(&svc->lock);
	INIT_LIST_HEAD(&svc->deferred);
	INIT_LIST_HEAD(&svc->early);
	atomic_set(&svc->deferred_count, 0);

	svc->dev.parent = &hd->dev;
	svc->dev.bus = &greybus_bus_type;
	svc->dev.type = &greybus_svc_type;
	svc->dev.groups = gb_svc_groups;
	device_initialize(&svc->dev);
	/* From here on the release function undoes everything */

	ret = dev_set_name(&svc->dev, "%d-svc", hd->bus_id);
	if (ret) {
		put_device(&svc->dev);
		return ERR_PTR(ret);
	}

	return svc;
}

int gb_svc_add(struct gb_svc *svc)
{
	struct gb_connection *connection;
	int ret;

	connection = gb_connection_create_static(svc->hd, GB_SVC_CPORT_ID,
						 gb_svc_request_handler,
						 GREYBUS_PROTOCOL_SVC);
	if (IS_ERR(connection)) {
		dev_err(&svc->dev, "failed to create connection: %ld\n",
			PTR_ERR(connection));
		return PTR_ERR(connection);
	}
	gb_connection_set_data(connection, svc);
	svc->connection = connection;

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy_connection;

	return 0;

err_destroy_connection:
	svc->connection = NULL;
	gb_connection_destroy(connection);
	return ret;
}

static void gb_svc_remove_modules(struct gb_svc *svc)
{
	struct gb_module *module, *tmp;
	LIST_HEAD(modules);

	mutex_lock(&svc->lock);
	list_splice_init(&svc->hd->modules, &modules);
	mutex_unlock(&svc->lock);

	list_for_each_entry_safe(module, tmp, &modules, hd_node) {
		list_del(&module->hd_node);
		gb_module_mark_disconnected(module);
		gb_module_del(module);
		gb_module_put(module);
	}
}

/*
 * The first half of a network reset (svc_watchdog.c), on svc->wq: what the
 * SVC said before is stale, so its queued events are dropped and only
 * version, then hello, are accepted from now on; then every module goes.
 * The request handler may be running: a request it sees in between is
 * refused as out of order, which is what it is.
 */
void gb_svc_network_teardown(struct gb_svc *svc)
{
	struct gb_svc_deferred_request *dr;

	mutex_lock(&svc->lock);
	list_for_each_entry(dr, &svc->deferred, links)
		dr->cancelled = true;
	mutex_unlock(&svc->lock);

	WRITE_ONCE(svc->state, GB_SVC_STATE_RESET);
	gb_svc_early_drop(svc);

	gb_svc_remove_modules(svc);
}

/* Host device removal; every operation already fails (hd->removing) */
void gb_svc_del(struct gb_svc *svc)
{
	gb_svc_watchdog_stop(svc);

	if (!svc->connection)
		return;

	/* No new events, and the one being handled has finished */
	gb_connection_disable_rx(svc->connection);

	/* Events queued but not started are dropped; wait for the rest */
	WRITE_ONCE(svc->removing, true);
	flush_workqueue(svc->wq);
	gb_svc_early_drop(svc);

	gb_svc_remove_modules(svc);

	if (device_is_registered(&svc->dev)) {
		trace_gb_object_del(&svc->dev);
		device_del(&svc->dev);
	}

	gb_connection_destroy(svc->connection);
	svc->connection = NULL;
}

void gb_svc_put(struct gb_svc *svc)
{
	put_device(&svc->dev);
}
