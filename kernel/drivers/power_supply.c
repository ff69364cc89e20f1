// SPDX-License-Identifier: GPL-2.0
/*
 * gb-power-supply: the Power Supply protocol (0x08).  Every supply the
 * module describes becomes a power supply class device,
 * /sys/class/power_supply/gb-<bundle>-<id>, with the properties the
 * module lists (writable where it says so).
 *
 * Values are cached: reading sysfs never waits for the module.  The cache
 * is refreshed by a work item, queued when the module sends an EVENT
 * (UPDATE) for the supply and every update_interval_ms otherwise (0 turns
 * the polling off); when a value changed, power_supply_changed() sends
 * the class's uevent.  A write goes to the module at once (SET_PROPERTY)
 * and then refreshes the cache.
 *
 * Locking: each supply's @lock (a mutex) protects its cache and orders
 * its operations; the module's answers are checked before they reach
 * the cache.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/power_supply.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <greybus/greybus.h>
#include <uapi/greybus/power_supply.h>

#define GB_PSY_SUPPLIES_MAX	8
#define GB_PSY_STR_MAX		32

static unsigned int update_interval_ms = 30000;
module_param(update_interval_ms, uint, 0644);
MODULE_PARM_DESC(update_interval_ms,
		 "Poll the module's values this often (ms, 0: events only)");

/*
 * Greybus property ids (Linux's list as it was when the protocol was
 * defined) to the 6.1 kernel's enum, which has grown entries in between.
 * -1: no such property here.
 */
static const int gb_psy_prop_map[GB_POWER_SUPPLY_PROP_MAX + 1] = {
	[0x00] = POWER_SUPPLY_PROP_STATUS,
	[0x01] = POWER_SUPPLY_PROP_CHARGE_TYPE,
	[0x02] = POWER_SUPPLY_PROP_HEALTH,
	[0x03] = POWER_SUPPLY_PROP_PRESENT,
	[0x04] = POWER_SUPPLY_PROP_ONLINE,
	[0x05] = POWER_SUPPLY_PROP_AUTHENTIC,
	[0x06] = POWER_SUPPLY_PROP_TECHNOLOGY,
	[0x07] = POWER_SUPPLY_PROP_CYCLE_COUNT,
	[0x08] = POWER_SUPPLY_PROP_VOLTAGE_MAX,
	[0x09] = POWER_SUPPLY_PROP_VOLTAGE_MIN,
	[0x0a] = POWER_SUPPLY_PROP_VOLTAGE_MAX_DESIGN,
	[0x0b] = POWER_SUPPLY_PROP_VOLTAGE_MIN_DESIGN,
	[0x0c] = POWER_SUPPLY_PROP_VOLTAGE_NOW,
	[0x0d] = POWER_SUPPLY_PROP_VOLTAGE_AVG,
	[0x0e] = POWER_SUPPLY_PROP_VOLTAGE_OCV,
	[0x0f] = POWER_SUPPLY_PROP_VOLTAGE_BOOT,
	[0x10] = POWER_SUPPLY_PROP_CURRENT_MAX,
	[0x11] = POWER_SUPPLY_PROP_CURRENT_NOW,
	[0x12] = POWER_SUPPLY_PROP_CURRENT_AVG,
	[0x13] = POWER_SUPPLY_PROP_CURRENT_BOOT,
	[0x14] = POWER_SUPPLY_PROP_POWER_NOW,
	[0x15] = POWER_SUPPLY_PROP_POWER_AVG,
	[0x16] = POWER_SUPPLY_PROP_CHARGE_FULL_DESIGN,
	[0x17] = POWER_SUPPLY_PROP_CHARGE_EMPTY_DESIGN,
	[0x18] = POWER_SUPPLY_PROP_CHARGE_FULL,
	[0x19] = POWER_SUPPLY_PROP_CHARGE_EMPTY,
	[0x1a] = POWER_SUPPLY_PROP_CHARGE_NOW,
	[0x1b] = POWER_SUPPLY_PROP_CHARGE_AVG,
	[0x1c] = POWER_SUPPLY_PROP_CHARGE_COUNTER,
	[0x1d] = POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT,
	[0x1e] = POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT_MAX,
	[0x1f] = POWER_SUPPLY_PROP_CONSTANT_CHARGE_VOLTAGE,
	[0x20] = POWER_SUPPLY_PROP_CONSTANT_CHARGE_VOLTAGE_MAX,
	[0x21] = POWER_SUPPLY_PROP_CHARGE_CONTROL_LIMIT,
	[0x22] = POWER_SUPPLY_PROP_CHARGE_CONTROL_LIMIT_MAX,
	[0x23] = POWER_SUPPLY_PROP_INPUT_CURRENT_LIMIT,
	[0x24] = POWER_SUPPLY_PROP_ENERGY_FULL_DESIGN,
	[0x25] = POWER_SUPPLY_PROP_ENERGY_EMPTY_DESIGN,
	[0x26] = POWER_SUPPLY_PROP_ENERGY_FULL,
	[0x27] = POWER_SUPPLY_PROP_ENERGY_EMPTY,
	[0x28] = POWER_SUPPLY_PROP_ENERGY_NOW,
	[0x29] = POWER_SUPPLY_PROP_ENERGY_AVG,
	[0x2a] = POWER_SUPPLY_PROP_CAPACITY,
	[0x2b] = POWER_SUPPLY_PROP_CAPACITY_ALERT_MIN,
	[0x2c] = POWER_SUPPLY_PROP_CAPACITY_ALERT_MAX,
	[0x2d] = POWER_SUPPLY_PROP_CAPACITY_LEVEL,
	[0x2e] = POWER_SUPPLY_PROP_TEMP,
	[0x2f] = POWER_SUPPLY_PROP_TEMP_MAX,
	[0x30] = POWER_SUPPLY_PROP_TEMP_MIN,
	[0x31] = POWER_SUPPLY_PROP_TEMP_ALERT_MIN,
	[0x32] = POWER_SUPPLY_PROP_TEMP_ALERT_MAX,
	[0x33] = POWER_SUPPLY_PROP_TEMP_AMBIENT,
	[0x34] = POWER_SUPPLY_PROP_TEMP_AMBIENT_ALERT_MIN,
	[0x35] = POWER_SUPPLY_PROP_TEMP_AMBIENT_ALERT_MAX,
	[0x36] = POWER_SUPPLY_PROP_TIME_TO_EMPTY_NOW,
	[0x37] = POWER_SUPPLY_PROP_TIME_TO_EMPTY_AVG,
	[0x38] = POWER_SUPPLY_PROP_TIME_TO_FULL_NOW,
	[0x39] = POWER_SUPPLY_PROP_TIME_TO_FULL_AVG,
	/* 0x3a TYPE is the supply's description type: not a property */
	[0x3a] = -1,
	[0x3b] = POWER_SUPPLY_PROP_SCOPE,
	[0x3c] = POWER_SUPPLY_PROP_CHARGE_TERM_CURRENT,
	[0x3d] = POWER_SUPPLY_PROP_CALIBRATE,
};

struct gb_psy_prop {
	u8			gb_prop;
	bool			writable;
	int			val;
};

struct gb_psy {
	struct gb_psy_bundle	*pb;
	u8			id;
	char			name[48];
	char			model[GB_PSY_STR_MAX + 1];
	char			manufacturer[GB_PSY_STR_MAX + 1];
	char			serial[GB_PSY_STR_MAX + 1];
	struct power_supply_desc desc;
	struct power_supply	*psy;

	struct mutex		lock;		/* @props values, operations */
	unsigned int		nprops;
	struct gb_psy_prop	*props;
	enum power_supply_property *linux_props;	/* desc.properties */
	struct delayed_work	work;		/* refresh */
};

struct gb_psy_bundle {
	struct gb_bundle	*bundle;
	struct gb_connection	*connection;
	unsigned int		count;
	struct gb_psy		*supplies;
	bool			events;		/* supplies registered */
};

static int gb_psy_linux_prop(u8 gb_prop)
{
	if (gb_prop > GB_POWER_SUPPLY_PROP_MAX)
		return -1;
	/* Entry 0 is STATUS, so a zero elsewhere means "not in the table" */
	if (gb_prop && !gb_psy_prop_map[gb_prop])
		return -1;
	return gb_psy_prop_map[gb_prop];
}

static struct gb_psy_prop *gb_psy_find(struct gb_psy *s,
				       enum power_supply_property psp)
{
	unsigned int i;

	for (i = 0; i < s->nprops; i++)
		if (s->linux_props[i] == psp)
			return &s->props[i];
	return NULL;
}

/* Caller holds s->lock and a PM reference */
static int gb_psy_get_one(struct gb_psy *s, struct gb_psy_prop *p, int *val)
{
	struct gb_power_supply_get_property_request request;
	struct gb_power_supply_get_property_response response;
	int ret;

	request.psy_id = s->id;
	request.property = p->gb_prop;
	ret = gb_operation_sync(s->pb->connection,
				GB_POWER_SUPPLY_TYPE_GET_PROPERTY,
				&request, sizeof(request),
				&response, sizeof(response));
	if (ret) {
		dev_err_ratelimited(&s->pb->bundle->dev,
				    "%s: property 0x%02x: %d\n", s->name,
				    p->gb_prop, ret);
		return ret;
	}
	*val = (s32)le32_to_cpu(response.prop_val);

	return 0;
}

/* Reads every property; true when one changed.  Caller holds s->lock. */
static bool gb_psy_refresh(struct gb_psy *s)
{
	struct gb_bundle *bundle = s->pb->bundle;
	bool changed = false;
	unsigned int i;
	int val;

	if (gb_pm_runtime_get_sync(bundle))
		return false;
	for (i = 0; i < s->nprops; i++) {
		if (gb_psy_get_one(s, &s->props[i], &val))
			continue;
		if (val != s->props[i].val)
			changed = true;
		s->props[i].val = val;
	}
	gb_pm_runtime_put_autosuspend(bundle);

	return changed;
}

static void gb_psy_work(struct work_struct *work)
{
	struct gb_psy *s = container_of(to_delayed_work(work), struct gb_psy,
					work);
	unsigned int interval = READ_ONCE(update_interval_ms);
	bool changed;

	mutex_lock(&s->lock);
	changed = gb_psy_refresh(s);
	mutex_unlock(&s->lock);

	if (changed)
		power_supply_changed(s->psy);
	if (interval)
		schedule_delayed_work(&s->work, msecs_to_jiffies(interval));
}

static int gb_psy_get_property(struct power_supply *psy,
			       enum power_supply_property psp,
			       union power_supply_propval *val)
{
	struct gb_psy *s = power_supply_get_drvdata(psy);
	struct gb_psy_prop *p;

	switch (psp) {
	case POWER_SUPPLY_PROP_MODEL_NAME:
		val->strval = s->model;
		return 0;
	case POWER_SUPPLY_PROP_MANUFACTURER:
		val->strval = s->manufacturer;
		return 0;
	case POWER_SUPPLY_PROP_SERIAL_NUMBER:
		val->strval = s->serial;
		return 0;
	default:
		break;
	}

	p = gb_psy_find(s, psp);
	if (!p)
		return -EINVAL;
	mutex_lock(&s->lock);
	val->intval = p->val;
	mutex_unlock(&s->lock);

	return 0;
}

static int gb_psy_set_property(struct power_supply *psy,
			       enum power_supply_property psp,
			       const union power_supply_propval *val)
{
	struct gb_psy *s = power_supply_get_drvdata(psy);
	struct gb_power_supply_set_property_request request;
	struct gb_bundle *bundle = s->pb->bundle;
	struct gb_psy_prop *p;
	int ret;

	p = gb_psy_find(s, psp);
	if (!p || !p->writable)
		return -EPERM;

	request.psy_id = s->id;
	request.property = p->gb_prop;
	request.prop_val = cpu_to_le32((u32)val->intval);

	ret = gb_pm_runtime_get_sync(bundle);
	if (ret)
		return ret;
	mutex_lock(&s->lock);
	ret = gb_operation_sync(s->pb->connection,
				GB_POWER_SUPPLY_TYPE_SET_PROPERTY,
				&request, sizeof(request), NULL, 0);
	if (!ret)
		p->val = val->intval;
	mutex_unlock(&s->lock);
	gb_pm_runtime_put_autosuspend(bundle);

	if (ret)
		dev_err_ratelimited(&bundle->dev, "%s: set property 0x%02x: %d\n",
				    s->name, p->gb_prop, ret);
	else
		power_supply_changed(s->psy);

	return ret;
}

static int gb_psy_property_is_writeable(struct power_supply *psy,
					enum power_supply_property psp)
{
	struct gb_psy *s = power_supply_get_drvdata(psy);
	struct gb_psy_prop *p = gb_psy_find(s, psp);

	return p && p->writable;
}

static void gb_psy_copy_str(char *dst, const u8 *src)
{
	size_t i;

	for (i = 0; i < GB_PSY_STR_MAX && src[i]; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
	dst[i] = '\0';
}

static enum power_supply_type gb_psy_type(u16 type)
{
	switch (type) {
	case GB_POWER_SUPPLY_BATTERY_TYPE:
		return POWER_SUPPLY_TYPE_BATTERY;
	case GB_POWER_SUPPLY_UPS_TYPE:
		return POWER_SUPPLY_TYPE_UPS;
	case GB_POWER_SUPPLY_MAINS_TYPE:
		return POWER_SUPPLY_TYPE_MAINS;
	case GB_POWER_SUPPLY_USB_TYPE:
		return POWER_SUPPLY_TYPE_USB;
	case GB_POWER_SUPPLY_USB_DCP_TYPE:
		return POWER_SUPPLY_TYPE_USB_DCP;
	case GB_POWER_SUPPLY_USB_CDP_TYPE:
		return POWER_SUPPLY_TYPE_USB_CDP;
	case GB_POWER_SUPPLY_USB_ACA_TYPE:
		return POWER_SUPPLY_TYPE_USB_ACA;
	default:
		return POWER_SUPPLY_TYPE_UNKNOWN;
	}
}

/* Description and property list of one supply; nothing registered yet */
static int gb_psy_describe(struct gb_psy *s)
{
	struct gb_power_supply_get_description_request dreq = { s->id };
	struct gb_power_supply_get_description_response dresp;
	struct gb_power_supply_get_property_descriptors_request preq = { s->id };
	struct gb_power_supply_get_property_descriptors_response *presp;
	struct gb_connection *connection = s->pb->connection;
	struct device *dev = &s->pb->bundle->dev;
	unsigned int i, n, count;
	size_t size;
	int ret, lp;

	ret = gb_operation_sync(connection, GB_POWER_SUPPLY_TYPE_GET_DESCRIPTION,
				&dreq, sizeof(dreq), &dresp, sizeof(dresp));
	if (ret) {
		dev_err_ratelimited(dev, "supply %u: no description: %d\n",
				    s->id, ret);
		return ret;
	}
	gb_psy_copy_str(s->manufacturer, dresp.manufacturer);
	gb_psy_copy_str(s->model, dresp.model);
	gb_psy_copy_str(s->serial, dresp.serial_number);
	s->desc.type = gb_psy_type(le16_to_cpu(dresp.type));
	count = dresp.properties_count;
	if (!count)
		return 0;

	size = struct_size(presp, props, count);
	presp = kzalloc(size, GFP_KERNEL);
	if (!presp)
		return -ENOMEM;
	ret = gb_operation_sync(connection,
				GB_POWER_SUPPLY_TYPE_GET_PROP_DESCRIPTORS,
				&preq, sizeof(preq), presp, size);
	if (ret) {
		dev_err_ratelimited(dev, "supply %u: no property list: %d\n",
				    s->id, ret);
		goto out;
	}
	if (presp->properties_count != count) {
		dev_err_ratelimited(dev, "supply %u: description announces %u properties, property list says %u\n",
				    s->id, count, presp->properties_count);
		ret = -EPROTO;
		goto out;
	}

	s->props = kcalloc(count, sizeof(*s->props), GFP_KERNEL);
	s->linux_props = kcalloc(count + 3, sizeof(*s->linux_props),
				 GFP_KERNEL);
	if (!s->props || !s->linux_props) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0, n = 0; i < count; i++) {
		lp = gb_psy_linux_prop(presp->props[i].property);
		if (lp < 0 || gb_psy_find(s, lp)) {
			dev_warn_ratelimited(dev, "supply %u: property 0x%02x ignored\n",
					     s->id, presp->props[i].property);
			continue;
		}
		s->props[n].gb_prop = presp->props[i].property;
		s->props[n].writable = presp->props[i].is_writeable;
		s->linux_props[n] = lp;
		s->nprops = ++n;
	}
	s->linux_props[n++] = POWER_SUPPLY_PROP_MODEL_NAME;
	s->linux_props[n++] = POWER_SUPPLY_PROP_MANUFACTURER;
	s->linux_props[n++] = POWER_SUPPLY_PROP_SERIAL_NUMBER;
	s->desc.properties = s->linux_props;
	s->desc.num_properties = n;
	ret = 0;
out:
	kfree(presp);
	return ret;
}

static int gb_psy_register(struct gb_psy *s)
{
	struct power_supply_config cfg = { .drv_data = s };
	int ret;

	snprintf(s->name, sizeof(s->name), "gb-%s-%u",
		 dev_name(&s->pb->bundle->dev), s->id);
	s->desc.name = s->name;
	s->desc.get_property = gb_psy_get_property;
	s->desc.set_property = gb_psy_set_property;
	s->desc.property_is_writeable = gb_psy_property_is_writeable;
	if (!s->desc.properties) {
		s->linux_props = kcalloc(3, sizeof(*s->linux_props),
					 GFP_KERNEL);
		if (!s->linux_props)
			return -ENOMEM;
		s->linux_props[0] = POWER_SUPPLY_PROP_MODEL_NAME;
		s->linux_props[1] = POWER_SUPPLY_PROP_MANUFACTURER;
		s->linux_props[2] = POWER_SUPPLY_PROP_SERIAL_NUMBER;
		s->desc.properties = s->linux_props;
		s->desc.num_properties = 3;
	}

	/* The first values, before userspace can see the supply */
	mutex_lock(&s->lock);
	gb_psy_refresh(s);
	mutex_unlock(&s->lock);

	s->psy = power_supply_register(&s->pb->bundle->dev, &s->desc, &cfg);
	if (IS_ERR(s->psy)) {
		ret = PTR_ERR(s->psy);
		s->psy = NULL;
		return ret;
	}

	return 0;
}

static void gb_psy_free(struct gb_psy_bundle *pb)
{
	unsigned int i;

	for (i = 0; i < pb->count; i++) {
		kfree(pb->supplies[i].props);
		kfree(pb->supplies[i].linux_props);
	}
	kfree(pb->supplies);
}

/* Stops the refresh and unregisters every supply registered so far */
static void gb_psy_unregister_all(struct gb_psy_bundle *pb)
{
	unsigned int i;

	for (i = 0; i < pb->count; i++) {
		struct gb_psy *s = &pb->supplies[i];

		if (!s->psy)
			continue;
		cancel_delayed_work_sync(&s->work);
		power_supply_unregister(s->psy);
		s->psy = NULL;
	}
}

static int gb_psy_request_handler(struct gb_operation *operation)
{
	struct gb_psy_bundle *pb = gb_connection_get_data(operation->connection);
	struct gb_power_supply_event_request *request;
	struct device *dev = &pb->bundle->dev;

	if (operation->type != GB_POWER_SUPPLY_TYPE_EVENT) {
		dev_err_ratelimited(dev, "unknown request type 0x%02x\n",
				    operation->type);
		return -EINVAL;
	}
	if (operation->request->payload_size != sizeof(*request)) {
		dev_err_ratelimited(dev, "event of %zu bytes\n",
				    operation->request->payload_size);
		return -EINVAL;
	}
	request = operation->request->payload;
	if (request->psy_id >= pb->count || !READ_ONCE(pb->events)) {
		dev_err_ratelimited(dev, "event for unknown supply %u\n",
				    request->psy_id);
		return -EINVAL;
	}
	if (request->event & GB_POWER_SUPPLY_UPDATE)
		mod_delayed_work(system_wq, &pb->supplies[request->psy_id].work,
				 0);

	return 0;
}

static int gb_psy_probe(struct gb_bundle *bundle,
			const struct greybus_bundle_id *id)
{
	struct gb_power_supply_get_supplies_response sresp;
	struct greybus_descriptor_cport *desc;
	struct gb_connection *connection;
	struct gb_psy_bundle *pb;
	unsigned int i, interval;
	int ret;

	if (bundle->num_cports != 1)
		return -ENODEV;
	desc = &bundle->cport_desc[0];
	if (desc->protocol_id != GREYBUS_PROTOCOL_POWER_SUPPLY)
		return -ENODEV;

	pb = kzalloc(sizeof(*pb), GFP_KERNEL);
	if (!pb)
		return -ENOMEM;
	pb->bundle = bundle;

	connection = gb_connection_create(bundle, le16_to_cpu(desc->id),
					  gb_psy_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_free;
	}
	gb_connection_set_data(connection, pb);
	pb->connection = connection;
	greybus_set_drvdata(bundle, pb);

	/* Events may come only once the supplies exist */
	ret = gb_connection_enable_tx(connection);
	if (ret)
		goto err_destroy;

	ret = gb_operation_sync(connection, GB_POWER_SUPPLY_TYPE_GET_SUPPLIES,
				NULL, 0, &sresp, sizeof(sresp));
	if (ret) {
		dev_err_ratelimited(&bundle->dev, "cannot get supplies: %d\n",
				    ret);
		goto err_disable;
	}
	if (!sresp.supplies_count || sresp.supplies_count > GB_PSY_SUPPLIES_MAX) {
		dev_err_ratelimited(&bundle->dev, "module has %u supplies (1..%u supported)\n",
				    sresp.supplies_count, GB_PSY_SUPPLIES_MAX);
		ret = -EPROTO;
		goto err_disable;
	}

	pb->supplies = kcalloc(sresp.supplies_count, sizeof(*pb->supplies),
			       GFP_KERNEL);
	if (!pb->supplies) {
		ret = -ENOMEM;
		goto err_disable;
	}
	pb->count = sresp.supplies_count;
	for (i = 0; i < pb->count; i++) {
		struct gb_psy *s = &pb->supplies[i];

		s->pb = pb;
		s->id = i;
		mutex_init(&s->lock);
		INIT_DELAYED_WORK(&s->work, gb_psy_work);
	}

	for (i = 0; i < pb->count; i++) {
		ret = gb_psy_describe(&pb->supplies[i]);
		if (ret)
			goto err_unregister;
		ret = gb_psy_register(&pb->supplies[i]);
		if (ret)
			goto err_unregister;
	}

	WRITE_ONCE(pb->events, true);
	ret = gb_connection_enable(connection);
	if (ret)
		goto err_unregister;

	interval = READ_ONCE(update_interval_ms);
	for (i = 0; interval && i < pb->count; i++)
		schedule_delayed_work(&pb->supplies[i].work,
				      msecs_to_jiffies(interval));

	return 0;

err_unregister:
	gb_connection_disable(connection);
	gb_psy_unregister_all(pb);
	gb_psy_free(pb);
	gb_connection_destroy(connection);
	kfree(pb);
	return ret;
err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
err_free:
	kfree(pb);
	return ret;
}

static void gb_psy_disconnect(struct gb_bundle *bundle)
{
	struct gb_psy_bundle *pb = greybus_get_drvdata(bundle);

	/* No more events, then no more refreshes, then no more supplies */
	gb_connection_disable_rx(pb->connection);
	gb_psy_unregister_all(pb);
	gb_connection_disable(pb->connection);
	gb_connection_destroy(pb->connection);
	gb_psy_free(pb);
	kfree(pb);
}

static const struct greybus_bundle_id gb_psy_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_POWER_SUPPLY) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_psy_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_POWER_SUPPLY);

static struct greybus_driver gb_psy_driver = {
	.name		= "gb-power-supply",
	.probe		= gb_psy_probe,
	.disconnect	= gb_psy_disconnect,
	.id_table	= gb_psy_id_table,
};
module_greybus_driver(gb_psy_driver);

MODULE_DESCRIPTION("Greybus Power Supply protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
