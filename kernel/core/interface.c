// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus interfaces ("N-M.I"): activation over the SVC, enable over the
 * interface's control connection, and the reverse of both.
 *
 * Activate: vsys enable -> refclk enable -> UniPro enable -> activate
 * (status 0, type greybus) -> DME DDBL1 manufacturer and product id ->
 * DME Ara vendor, product, serial low, serial high -> device id -> route.
 * Enable: DME init status (non-zero) -> clear it -> control connection
 * (SVC connection create, Control version) -> manifest size -> manifest
 * -> parse into bundles -> add the control device -> add the bundles.
 * Each step undoes exactly the earlier ones when it fails; disable and
 * deactivate undo everything in reverse.
 *
 * All four run with intf->mutex held.
 */
#include <linux/slab.h>
#include <uapi/greybus/svc.h>

#include "internal.h"
#include "greybus_trace.h"

/* UniPro DME attribute selector used for every attribute we read */
#define GB_INTERFACE_DME_SELECTOR	0

static void gb_interface_release(struct device *dev)
{
	struct gb_interface *intf = to_gb_interface(dev);

	kfree(intf);
}

const struct device_type greybus_interface_type = {
	.name		= "greybus_interface",
	.release	= gb_interface_release,
	.pm		= &gb_interface_pm_ops,
};
EXPORT_SYMBOL_NS_GPL(greybus_interface_type, GREYBUS);

struct gb_interface *gb_interface_create(struct gb_module *module,
					 u8 interface_id)
{
	struct gb_host_device *hd = module->hd;
	struct gb_interface *intf;
	int ret;

	intf = kzalloc(sizeof(*intf), GFP_KERNEL);
	if (!intf)
		return ERR_PTR(-ENOMEM);

	intf->hd = hd;
	intf->module = module;
	intf->interface_id = interface_id;
	intf->type = GB_INTERFACE_TYPE_INVALID;
	INIT_LIST_HEAD(&intf->bundles);
	INIT_LIST_HEAD(&intf->manifest_descs);
	mutex_init(&intf->mutex);

	intf->dev.parent = &module->dev;
	intf->dev.bus = &greybus_bus_type;
	intf->dev.type = &greybus_interface_type;
	intf->dev.groups = gb_interface_groups;
	device_initialize(&intf->dev);
	/* From here on the release function frees the interface */

	ret = dev_set_name(&intf->dev, "%s.%u", dev_name(&module->dev),
			   interface_id);
	if (ret) {
		put_device(&intf->dev);
		return ERR_PTR(ret);
	}

	trace_gb_interface_create(intf);
	return intf;
}

int gb_interface_add(struct gb_interface *intf)
{
	int ret;

	ret = device_add(&intf->dev);
	if (ret) {
		dev_err(&intf->dev, "failed to register interface: %d\n", ret);
		return ret;
	}
	trace_gb_object_add(&intf->dev);
	trace_gb_interface_add(intf);

	dev_info(&intf->dev, "interface added: type %s, vendor 0x%08x, product 0x%08x\n",
		 gb_interface_type_string(intf->type), intf->vendor_id,
		 intf->product_id);

	return 0;
}

void gb_interface_del(struct gb_interface *intf)
{
	if (!device_is_registered(&intf->dev))
		return;

	trace_gb_interface_del(intf);
	trace_gb_object_del(&intf->dev);
	device_del(&intf->dev);
	dev_info(&intf->dev, "interface removed\n");
}

void gb_interface_put(struct gb_interface *intf)
{
	put_device(&intf->dev);
}

/*
 * Nothing more is sent to the interface and whatever waits for it fails
 * now.  Any context that may take a spinlock.
 */
void gb_interface_mark_disconnected(struct gb_interface *intf)
{
	WRITE_ONCE(intf->disconnected, true);
	gb_interface_cancel_operations(intf, -ESHUTDOWN);
}

/* Activation */

static struct gb_svc *gb_interface_svc(struct gb_interface *intf)
{
	return intf->hd->svc;
}

/*
 * Between the steps: a module removed or ejected meanwhile ends the
 * enumeration.
 */
static int gb_interface_check_present(struct gb_interface *intf)
{
	if (READ_ONCE(intf->disconnected) || READ_ONCE(intf->ejected) ||
	    READ_ONCE(intf->hd->removing))
		return -ENODEV;

	return 0;
}

static enum gb_interface_type gb_interface_type_from_svc(u8 type)
{
	switch (type) {
	case GB_SVC_INTF_TYPE_DUMMY:
		return GB_INTERFACE_TYPE_DUMMY;
	case GB_SVC_INTF_TYPE_UNIPRO:
		return GB_INTERFACE_TYPE_UNIPRO;
	case GB_SVC_INTF_TYPE_GREYBUS:
		return GB_INTERFACE_TYPE_GREYBUS;
	default:
		return GB_INTERFACE_TYPE_UNKNOWN;
	}
}

static int gb_interface_dme_get(struct gb_interface *intf, u16 attr,
				u32 *value)
{
	int ret;

	ret = gb_interface_check_present(intf);
	if (ret)
		return ret;

	return gb_svc_dme_peer_get(gb_interface_svc(intf), intf->interface_id,
				   attr, GB_INTERFACE_DME_SELECTOR, value);
}

static int gb_interface_read_ids(struct gb_interface *intf)
{
	u32 sn0, sn1;
	int ret;

	ret = gb_interface_dme_get(intf, GB_DME_DDBL1_MANUFACTURERID,
				   &intf->ddbl1_manufacturer_id);
	if (ret)
		return ret;

	ret = gb_interface_dme_get(intf, GB_DME_DDBL1_PRODUCTID,
				   &intf->ddbl1_product_id);
	if (ret)
		return ret;

	/* Any manufacturer will do; only the ES2 bridge needs quirks */
	dev_dbg(&intf->dev, "ddbl1 manufacturer 0x%08x, product 0x%08x\n",
		intf->ddbl1_manufacturer_id, intf->ddbl1_product_id);
	if (intf->ddbl1_manufacturer_id == GB_DDBL1_MFR_TOSHIBA &&
	    intf->ddbl1_product_id == GB_DDBL1_PROD_ES2_BRIDGE)
		intf->quirks |= GB_INTERFACE_QUIRK_NO_GMP_IDS |
				GB_INTERFACE_QUIRK_NO_INIT_STATUS;

	if (intf->quirks & GB_INTERFACE_QUIRK_NO_GMP_IDS)
		return 0;

	ret = gb_interface_dme_get(intf, GB_DME_ARA_VID, &intf->vendor_id);
	if (ret)
		return ret;

	ret = gb_interface_dme_get(intf, GB_DME_ARA_PID, &intf->product_id);
	if (ret)
		return ret;

	ret = gb_interface_dme_get(intf, GB_DME_ARA_SN0, &sn0);
	if (ret)
		return ret;

	ret = gb_interface_dme_get(intf, GB_DME_ARA_SN1, &sn1);
	if (ret)
		return ret;

	intf->serial_number = (u64)sn1 << 32 | sn0;

	return 0;
}

static int gb_interface_route_create(struct gb_interface *intf)
{
	struct gb_svc *svc = gb_interface_svc(intf);
	int ret;

	ret = gb_interface_check_present(intf);
	if (ret)
		return ret;

	ret = gb_svc_device_id_alloc(svc);
	if (ret < 0) {
		dev_err_ratelimited(&intf->dev, "failed to allocate device id: %d\n", ret);
		return ret;
	}
	intf->device_id = ret;

	ret = gb_svc_intf_device_id(svc, intf->interface_id, intf->device_id);
	if (ret)
		goto err_free_device_id;

	ret = gb_svc_route_create(svc, svc->ap_intf_id, GB_SVC_DEVICE_ID_AP,
				  intf->interface_id, intf->device_id);
	if (ret)
		goto err_free_device_id;

	return 0;

err_free_device_id:
	gb_svc_device_id_free(svc, intf->device_id);
	intf->device_id = 0;
	return ret;
}

static void gb_interface_route_destroy(struct gb_interface *intf)
{
	struct gb_svc *svc = gb_interface_svc(intf);

	if (!READ_ONCE(intf->hd->removing))
		gb_svc_route_destroy(svc, svc->ap_intf_id, intf->interface_id);

	gb_svc_device_id_free(svc, intf->device_id);
	intf->device_id = 0;
}

/*
 * Powering down.  An interface that crashed is still in its slot and is
 * switched off; once its module has left (removed, or released by an
 * eject) the slot is empty and there is nothing to switch off; once the
 * host device goes away there is nobody left to ask.
 */
static bool gb_interface_slot_empty(struct gb_interface *intf)
{
	return READ_ONCE(intf->module->disconnected) ||
	       READ_ONCE(intf->hd->removing);
}

static void gb_interface_unipro_disable(struct gb_interface *intf)
{
	if (!gb_interface_slot_empty(intf))
		gb_svc_intf_unipro_set(gb_interface_svc(intf),
				       intf->interface_id, false);
}

static void gb_interface_refclk_disable(struct gb_interface *intf)
{
	if (!gb_interface_slot_empty(intf))
		gb_svc_intf_refclk_set(gb_interface_svc(intf),
				       intf->interface_id, false);
}

static void gb_interface_vsys_disable(struct gb_interface *intf)
{
	if (!gb_interface_slot_empty(intf))
		gb_svc_intf_vsys_set(gb_interface_svc(intf),
				     intf->interface_id, false);
}

int gb_interface_activate(struct gb_interface *intf)
{
	struct gb_svc *svc = gb_interface_svc(intf);
	u8 id = intf->interface_id;
	u8 type;
	int ret;

	if (intf->active)
		return 0;

	ret = gb_interface_check_present(intf);
	if (ret)
		return ret;

	ret = gb_svc_intf_vsys_set(svc, id, true);
	if (ret)
		return ret;

	ret = gb_interface_check_present(intf);
	if (!ret)
		ret = gb_svc_intf_refclk_set(svc, id, true);
	if (ret)
		goto err_vsys_disable;

	ret = gb_interface_check_present(intf);
	if (!ret)
		ret = gb_svc_intf_unipro_set(svc, id, true);
	if (ret)
		goto err_refclk_disable;

	ret = gb_interface_check_present(intf);
	if (!ret)
		ret = gb_svc_intf_activate(svc, id, &type);
	if (ret)
		goto err_unipro_disable;

	intf->type = gb_interface_type_from_svc(type);
	if (intf->type != GB_INTERFACE_TYPE_GREYBUS) {
		dev_info_ratelimited(&intf->dev, "interface of type %s (0x%02x) not supported\n",
				     gb_interface_type_string(intf->type), type);
		ret = -ENODEV;
		goto err_unipro_disable;
	}

	ret = gb_interface_read_ids(intf);
	if (ret)
		goto err_unipro_disable;

	ret = gb_interface_route_create(intf);
	if (ret)
		goto err_unipro_disable;

	intf->active = true;
	trace_gb_interface_activate(intf);

	return 0;

err_unipro_disable:
	gb_interface_unipro_disable(intf);
err_refclk_disable:
	gb_interface_refclk_disable(intf);
err_vsys_disable:
	gb_interface_vsys_disable(intf);
	return ret;
}

void gb_interface_deactivate(struct gb_interface *intf)
{
	if (!intf->active)
		return;

	trace_gb_interface_deactivate(intf);
	gb_interface_route_destroy(intf);
	gb_interface_unipro_disable(intf);
	gb_interface_refclk_disable(intf);
	gb_interface_vsys_disable(intf);

	intf->active = false;
}

/* Enable */

static int gb_interface_read_and_clear_init_status(struct gb_interface *intf)
{
	struct gb_svc *svc = gb_interface_svc(intf);
	u16 attr = GB_DME_ARA_INIT_STATUS;
	u32 value;
	int ret;

	/* The ES2 bridge keeps it elsewhere, in the low byte */
	if (intf->quirks & GB_INTERFACE_QUIRK_NO_INIT_STATUS)
		attr = GB_DME_T_TSTSRCINCREMENT;

	ret = gb_interface_dme_get(intf, attr, &value);
	if (ret)
		return ret;

	if (!value) {
		dev_err_ratelimited(&intf->dev, "invalid init status\n");
		return -ENODEV;
	}

	if (intf->quirks & GB_INTERFACE_QUIRK_NO_INIT_STATUS)
		intf->init_status = value & 0xff;
	else
		intf->init_status = value >> 24;
	dev_dbg(&intf->dev, "init status 0x%02x\n", intf->init_status);

	ret = gb_interface_check_present(intf);
	if (ret)
		return ret;

	/* Cleared so that a reboot of the interface can be told apart */
	return gb_svc_dme_peer_set(svc, intf->interface_id, attr,
				   GB_INTERFACE_DME_SELECTOR, 0);
}

static int gb_interface_read_manifest(struct gb_interface *intf)
{
	void *manifest;
	int size;
	int ret;

	size = gb_control_get_manifest_size_operation(intf);
	if (size < 0)
		return size;

	manifest = kmalloc(size, GFP_KERNEL);
	if (!manifest)
		return -ENOMEM;

	ret = gb_control_get_manifest_operation(intf, manifest, size);
	if (!ret)
		ret = gb_manifest_parse(intf, manifest, size);

	kfree(manifest);

	return ret;
}

static void gb_interface_destroy_bundles(struct gb_interface *intf)
{
	struct gb_bundle *bundle, *tmp;

	list_for_each_entry_safe(bundle, tmp, &intf->bundles, links)
		gb_bundle_destroy(bundle);
}

int gb_interface_enable(struct gb_interface *intf)
{
	struct gb_control *control;
	struct gb_bundle *bundle;
	int ret;

	if (intf->enabled)
		return 0;

	ret = gb_interface_read_and_clear_init_status(intf);
	if (ret)
		return ret;

	control = gb_control_create(intf);
	if (IS_ERR(control))
		return PTR_ERR(control);
	intf->control = control;

	ret = gb_control_enable(control);
	if (ret)
		goto err_put_control;

	ret = gb_interface_read_manifest(intf);
	if (ret)
		goto err_disable_control;

	ret = gb_control_add(control);
	if (ret)
		goto err_destroy_bundles;

	/* After the control device, so that its failure unwinding covers it */
	ret = gb_timesync_interface_add(intf);
	if (ret) {
		dev_err(&intf->dev, "failed to add to timesync: %d\n", ret);
		goto err_del_control;
	}

	gb_interface_pm_start(intf);

	/*
	 * A bundle that cannot be registered is left out; the others and
	 * the interface stay usable.
	 */
	list_for_each_entry(bundle, &intf->bundles, links) {
		ret = gb_bundle_add(bundle);
		if (ret)
			dev_err(&intf->dev, "failed to register bundle %u: %d\n",
				bundle->id, ret);
	}

	WRITE_ONCE(intf->enabled, true);
	trace_gb_interface_enable(intf);
	gb_interface_pm_put(intf);

	return 0;

err_del_control:
	gb_control_del(control);
err_destroy_bundles:
	gb_interface_destroy_bundles(intf);
err_disable_control:
	gb_control_disable(control);
err_put_control:
	intf->control = NULL;
	gb_control_put(control);
	return ret;
}

void gb_interface_disable(struct gb_interface *intf)
{
	if (!intf->enabled)
		return;

	trace_gb_interface_disable(intf);
	gb_interface_pm_stop(intf);
	gb_timesync_interface_remove(intf);

	/* Bundles first: their drivers still talk over the control link */
	gb_interface_destroy_bundles(intf);

	gb_control_del(intf->control);
	gb_control_disable(intf->control);
	gb_control_put(intf->control);
	intf->control = NULL;

	WRITE_ONCE(intf->enabled, false);
	gb_interface_pm_finish(intf);
}
