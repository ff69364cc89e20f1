// SPDX-License-Identifier: GPL-2.0
/*
 * gb-light: the Lights protocol (0x0f).  Every channel of every light
 * the module describes becomes an LED class device,
 * /sys/class/leds/<light>:<color>:<mode> (names as the module gives
 * them, made safe for sysfs).  brightness goes to the module
 * (SET_BRIGHTNESS); blinking, through the LED core's blink_set (the
 * "timer" trigger), goes to it as SET_BLINK when the channel says it
 * blinks by itself, and is left to the LED core's software blink
 * otherwise; a multicolour channel has a "color" attribute (0xRRGGBB,
 * SET_COLOR).
 *
 * Flash channels need the LED flash class, which the Debian 6.1 kernel
 * is built without (CONFIG_LEDS_CLASS_FLASH unset): they are skipped
 * with a note.  An EVENT (LIGHT_CONFIG) from the module re-reads the
 * configuration of that light's channels: max_brightness and colour
 * follow what it says now.
 *
 * Locking: @lock of the bundle serialises operations and the channels'
 * cached configuration.
 */
#include <linux/kernel.h>
#include <linux/leds.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <greybus/greybus.h>
#include <uapi/greybus/lights.h>

#define GB_LIGHTS_MAX		8
#define GB_CHANNELS_MAX		8
#define GB_LED_NAME_MAX		(3 * GB_LIGHTS_NAME_MAX + 3)

struct gb_lights;

struct gb_channel {
	struct gb_lights	*gl;
	u8			light_id;
	u8			id;
	u32			flags;
	u32			mode;
	u32			color;
	bool			registered;
	char			name[GB_LED_NAME_MAX];
	struct led_classdev	cdev;
};

struct gb_light {
	char			name[GB_LIGHTS_NAME_MAX + 1];
	unsigned int		count;
	struct gb_channel	*channels;
};

struct gb_lights {
	struct gb_bundle	*bundle;
	struct gb_connection	*connection;
	struct mutex		lock;		/* operations, channel config */
	bool			dying;		/* disconnect has begun */
	unsigned int		count;
	struct gb_light		*lights;
	unsigned long		pending;	/* lights with a config event */
	struct work_struct	work;
};

static struct gb_channel *to_gb_channel(struct led_classdev *cdev)
{
	return container_of(cdev, struct gb_channel, cdev);
}

/* Sends one operation with a PM reference held, unless going away */
static int gb_lights_op(struct gb_lights *gl, u8 type, void *req, int size)
{
	int ret;

	mutex_lock(&gl->lock);
	if (gl->dying) {
		ret = 0;
		goto out;
	}
	ret = gb_pm_runtime_get_sync(gl->bundle);
	if (ret)
		goto out;
	ret = gb_operation_sync(gl->connection, type, req, size, NULL, 0);
	gb_pm_runtime_put_autosuspend(gl->bundle);
	if (ret)
		dev_err_ratelimited(&gl->bundle->dev,
				    "operation 0x%02x failed: %d\n", type, ret);
out:
	mutex_unlock(&gl->lock);
	return ret;
}

static int gb_channel_brightness_set(struct led_classdev *cdev,
				     enum led_brightness value)
{
	struct gb_channel *c = to_gb_channel(cdev);
	struct gb_lights_set_brightness_request req = {
		.light_id	= c->light_id,
		.channel_id	= c->id,
		.brightness	= min_t(unsigned int, value, U8_MAX),
	};

	return gb_lights_op(c->gl, GB_LIGHTS_TYPE_SET_BRIGHTNESS, &req,
			    sizeof(req));
}

static int gb_channel_blink_set(struct led_classdev *cdev,
				unsigned long *delay_on,
				unsigned long *delay_off)
{
	struct gb_channel *c = to_gb_channel(cdev);
	struct gb_lights_set_blink_request req = {
		.light_id	= c->light_id,
		.channel_id	= c->id,
	};

	/* -EINVAL makes the LED core blink it in software */
	if (!(c->flags & GB_LIGHT_CHANNEL_BLINK))
		return -EINVAL;
	if (!*delay_on && !*delay_off) {
		*delay_on = 500;
		*delay_off = 500;
	}
	*delay_on = min_t(unsigned long, *delay_on, U16_MAX);
	*delay_off = min_t(unsigned long, *delay_off, U16_MAX);
	req.time_on_ms = cpu_to_le16(*delay_on);
	req.time_off_ms = cpu_to_le16(*delay_off);

	return gb_lights_op(c->gl, GB_LIGHTS_TYPE_SET_BLINK, &req, sizeof(req));
}

static ssize_t color_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct gb_channel *c = to_gb_channel(dev_get_drvdata(dev));
	u32 color;

	mutex_lock(&c->gl->lock);
	color = c->color;
	mutex_unlock(&c->gl->lock);

	return sysfs_emit(buf, "0x%06x\n", color);
}

static ssize_t color_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct gb_channel *c = to_gb_channel(dev_get_drvdata(dev));
	struct gb_lights_set_color_request req = {
		.light_id	= c->light_id,
		.channel_id	= c->id,
	};
	u32 color;
	int ret;

	if (!(c->flags & GB_LIGHT_CHANNEL_MULTICOLOR))
		return -EOPNOTSUPP;
	ret = kstrtou32(buf, 0, &color);
	if (ret)
		return ret;
	if (color > 0xffffff)
		return -EINVAL;
	req.color = cpu_to_le32(color);
	ret = gb_lights_op(c->gl, GB_LIGHTS_TYPE_SET_COLOR, &req, sizeof(req));
	if (ret)
		return ret;

	mutex_lock(&c->gl->lock);
	c->color = color;
	mutex_unlock(&c->gl->lock);

	return len;
}
static DEVICE_ATTR_RW(color);

static struct attribute *gb_channel_attrs[] = {
	&dev_attr_color.attr,
	NULL
};
ATTRIBUTE_GROUPS(gb_channel);

/* Module text to a name part: printable, no '/' or ':' */
static void gb_lights_copy_name(char *dst, const u8 *src, const char *dflt)
{
	size_t i;

	for (i = 0; i < GB_LIGHTS_NAME_MAX && src[i]; i++) {
		u8 ch = src[i];

		if (ch <= 0x20 || ch >= 0x7f || ch == '/' || ch == ':')
			ch = '_';
		dst[i] = ch;
	}
	dst[i] = '\0';
	if (!i)
		strscpy(dst, dflt, GB_LIGHTS_NAME_MAX + 1);
}

/* Reads a channel's configuration; @init: also its name.  Holds no lock. */
static int gb_channel_config(struct gb_lights *gl, struct gb_light *light,
			     struct gb_channel *c, bool init)
{
	struct gb_lights_get_channel_config_request req = {
		.light_id	= c->light_id,
		.channel_id	= c->id,
	};
	struct gb_lights_get_channel_config_response rsp;
	char color[GB_LIGHTS_NAME_MAX + 1], mode[GB_LIGHTS_NAME_MAX + 1];
	int ret;

	ret = gb_operation_sync(gl->connection,
				GB_LIGHTS_TYPE_GET_CHANNEL_CONFIG,
				&req, sizeof(req), &rsp, sizeof(rsp));
	if (ret) {
		dev_err_ratelimited(&gl->bundle->dev,
				    "light %u channel %u: no config: %d\n",
				    c->light_id, c->id, ret);
		return ret;
	}

	mutex_lock(&gl->lock);
	c->flags = le32_to_cpu(rsp.flags);
	c->color = le32_to_cpu(rsp.color) & 0xffffff;
	c->mode = le32_to_cpu(rsp.mode);
	/* The LED core reads it without our lock */
	WRITE_ONCE(c->cdev.max_brightness,
		   rsp.max_brightness ? rsp.max_brightness : 1);
	mutex_unlock(&gl->lock);

	if (init) {
		gb_lights_copy_name(color, rsp.color_name, "white");
		gb_lights_copy_name(mode, rsp.mode_name, "indicator");
		snprintf(c->name, sizeof(c->name), "%s:%s:%s", light->name,
			 color, mode);
	}

	return 0;
}

static int gb_light_setup(struct gb_lights *gl, u8 id)
{
	struct gb_lights_get_light_config_request req = { .id = id };
	struct gb_lights_get_light_config_response rsp;
	struct gb_light *light = &gl->lights[id];
	char dflt[16];
	unsigned int i;
	int ret;

	ret = gb_operation_sync(gl->connection, GB_LIGHTS_TYPE_GET_LIGHT_CONFIG,
				&req, sizeof(req), &rsp, sizeof(rsp));
	if (ret) {
		dev_err_ratelimited(&gl->bundle->dev, "light %u: no config: %d\n",
				    id, ret);
		return ret;
	}
	if (!rsp.channel_count || rsp.channel_count > GB_CHANNELS_MAX) {
		dev_err_ratelimited(&gl->bundle->dev, "light %u: %u channels (1..%u supported)\n",
				    id, rsp.channel_count, GB_CHANNELS_MAX);
		return -EPROTO;
	}
	snprintf(dflt, sizeof(dflt), "gblight%u", id);
	gb_lights_copy_name(light->name, rsp.name, dflt);

	light->channels = kcalloc(rsp.channel_count, sizeof(*light->channels),
				  GFP_KERNEL);
	if (!light->channels)
		return -ENOMEM;
	light->count = rsp.channel_count;

	for (i = 0; i < light->count; i++) {
		struct gb_channel *c = &light->channels[i];

		c->gl = gl;
		c->light_id = id;
		c->id = i;
		ret = gb_channel_config(gl, light, c, true);
		if (ret)
			return ret;
	}

	return 0;
}

static int gb_channel_register(struct gb_lights *gl, struct gb_channel *c)
{
	int ret;

	if (c->mode & GB_CHANNEL_MODE_FLASH) {
		dev_info(&gl->bundle->dev,
			 "%s: flash channel skipped (kernel without the LED flash class)\n",
			 c->name);
		return 0;
	}

	c->cdev.name = c->name;
	c->cdev.brightness_set_blocking = gb_channel_brightness_set;
	c->cdev.blink_set = gb_channel_blink_set;
	if (c->flags & GB_LIGHT_CHANNEL_MULTICOLOR)
		c->cdev.groups = gb_channel_groups;

	ret = led_classdev_register(&gl->bundle->dev, &c->cdev);
	if (ret) {
		dev_err_ratelimited(&gl->bundle->dev, "%s: cannot register: %d\n",
				    c->name, ret);
		return ret;
	}
	c->registered = true;

	return 0;
}

static void gb_lights_unregister_all(struct gb_lights *gl)
{
	unsigned int i, j;

	for (i = 0; i < gl->count; i++) {
		struct gb_light *light = &gl->lights[i];

		for (j = 0; j < light->count; j++) {
			if (!light->channels[j].registered)
				continue;
			led_classdev_unregister(&light->channels[j].cdev);
			light->channels[j].registered = false;
		}
	}
}

static void gb_lights_free(struct gb_lights *gl)
{
	unsigned int i;

	for (i = 0; i < gl->count; i++)
		kfree(gl->lights[i].channels);
	kfree(gl->lights);
	kfree(gl);
}

/*
 * A channel whose max brightness went below its brightness is set to the
 * new maximum (the LED core clamps, and tells the module).  Runs before
 * disconnect unregisters the channels (it cancels this work first).
 */
static void gb_channel_clamp(struct gb_channel *c)
{
	if (!c->registered || c->cdev.brightness <= c->cdev.max_brightness)
		return;
	led_set_brightness(&c->cdev, c->cdev.max_brightness);
}

static void gb_lights_work(struct work_struct *work)
{
	struct gb_lights *gl = container_of(work, struct gb_lights, work);
	unsigned int i, j;

	if (gb_pm_runtime_get_sync(gl->bundle))
		return;
	for (i = 0; i < gl->count; i++) {
		struct gb_light *light = &gl->lights[i];

		if (!test_and_clear_bit(i, &gl->pending))
			continue;
		for (j = 0; j < light->count; j++) {
			if (gb_channel_config(gl, light, &light->channels[j],
					      false))
				continue;
			gb_channel_clamp(&light->channels[j]);
		}
		dev_dbg(&gl->bundle->dev, "light %u: configuration re-read\n",
			i);
	}
	gb_pm_runtime_put_autosuspend(gl->bundle);
}

static int gb_lights_request_handler(struct gb_operation *operation)
{
	struct gb_lights *gl = gb_connection_get_data(operation->connection);
	struct gb_lights_event_request *req = operation->request->payload;
	struct device *dev = &gl->bundle->dev;

	if (operation->type != GB_LIGHTS_TYPE_EVENT) {
		dev_err_ratelimited(dev, "unknown request type 0x%02x\n",
				    operation->type);
		return -EINVAL;
	}
	if (operation->request->payload_size != sizeof(*req)) {
		dev_err_ratelimited(dev, "event of %zu bytes\n",
				    operation->request->payload_size);
		return -EINVAL;
	}
	if (req->light_id >= gl->count) {
		dev_err_ratelimited(dev, "event for unknown light %u\n",
				    req->light_id);
		return -EINVAL;
	}
	if (req->event & GB_LIGHTS_LIGHT_CONFIG) {
		set_bit(req->light_id, &gl->pending);
		schedule_work(&gl->work);
	}

	return 0;
}

static int gb_lights_probe(struct gb_bundle *bundle,
			   const struct greybus_bundle_id *id)
{
	struct gb_lights_get_lights_response rsp;
	struct greybus_descriptor_cport *desc;
	struct gb_connection *connection;
	struct gb_lights *gl;
	unsigned int i, j;
	int ret;

	if (bundle->num_cports != 1)
		return -ENODEV;
	desc = &bundle->cport_desc[0];
	if (desc->protocol_id != GREYBUS_PROTOCOL_LIGHTS)
		return -ENODEV;

	gl = kzalloc(sizeof(*gl), GFP_KERNEL);
	if (!gl)
		return -ENOMEM;
	gl->bundle = bundle;
	mutex_init(&gl->lock);
	INIT_WORK(&gl->work, gb_lights_work);

	connection = gb_connection_create(bundle, le16_to_cpu(desc->id),
					  gb_lights_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		kfree(gl);
		return ret;
	}
	gb_connection_set_data(connection, gl);
	gl->connection = connection;
	greybus_set_drvdata(bundle, gl);

	/* Events only once every light is known */
	ret = gb_connection_enable_tx(connection);
	if (ret)
		goto err_destroy;

	ret = gb_operation_sync(connection, GB_LIGHTS_TYPE_GET_LIGHTS, NULL, 0,
				&rsp, sizeof(rsp));
	if (ret) {
		dev_err_ratelimited(&bundle->dev, "cannot get lights: %d\n",
				    ret);
		goto err_disable;
	}
	if (!rsp.lights_count || rsp.lights_count > GB_LIGHTS_MAX) {
		dev_err_ratelimited(&bundle->dev, "module has %u lights (1..%u supported)\n",
				    rsp.lights_count, GB_LIGHTS_MAX);
		ret = -EPROTO;
		goto err_disable;
	}
	gl->lights = kcalloc(rsp.lights_count, sizeof(*gl->lights), GFP_KERNEL);
	if (!gl->lights) {
		ret = -ENOMEM;
		goto err_disable;
	}
	gl->count = rsp.lights_count;

	for (i = 0; i < gl->count; i++) {
		ret = gb_light_setup(gl, i);
		if (ret)
			goto err_disable;
	}
	for (i = 0; i < gl->count; i++) {
		for (j = 0; j < gl->lights[i].count; j++) {
			ret = gb_channel_register(gl,
						  &gl->lights[i].channels[j]);
			if (ret)
				goto err_unregister;
		}
	}

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_unregister;

	return 0;

err_unregister:
	gb_lights_unregister_all(gl);
err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
	gb_lights_free(gl);
	return ret;
}

static void gb_lights_disconnect(struct gb_bundle *bundle)
{
	struct gb_lights *gl = greybus_get_drvdata(bundle);

	gb_connection_disable_rx(gl->connection);
	cancel_work_sync(&gl->work);

	/* The LED core turns LEDs off on unregister: not worth an operation */
	mutex_lock(&gl->lock);
	gl->dying = true;
	mutex_unlock(&gl->lock);
	gb_lights_unregister_all(gl);

	gb_connection_disable(gl->connection);
	gb_connection_destroy(gl->connection);
	gb_lights_free(gl);
}

static const struct greybus_bundle_id gb_lights_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_LIGHTS) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_lights_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_LIGHTS);

static struct greybus_driver gb_lights_driver = {
	.name		= "gb-light",
	.probe		= gb_lights_probe,
	.disconnect	= gb_lights_disconnect,
	.id_table	= gb_lights_id_table,
};
module_greybus_driver(gb_lights_driver);

MODULE_DESCRIPTION("Greybus Lights protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
