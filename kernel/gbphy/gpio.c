// SPDX-License-Identifier: GPL-2.0
/*
 * gb-gpio: the GPIO protocol (0x02) as a gpio_chip with an irq chip, so a
 * module's lines are /dev/gpiochipN for libgpiod and any kernel consumer.
 *
 * Every operation sleeps, so the chip is can_sleep and the irq chip uses
 * the bus lock: mask, unmask and set_type only record what the irq core
 * wants, and irq_bus_sync_unlock sends it.  The module's IRQ_EVENT
 * requests arrive in process context and run the line's handler with
 * interrupts off, as a real interrupt would.
 *
 * The irq domain is our own, not gpiolib's: gpiolib disposes of its
 * mappings in gpiochip_remove() even while a consumer still holds the
 * interrupt (a running gpiomon when the module is unplugged), which
 * frees an irq that is later freed again.  Ours lives until the last
 * claimed interrupt is released; each claim holds a reference on the
 * driver data, and the last reference frees domain and data from a work
 * item (never from inside the irq core's free path).
 *
 * Runtime PM: a requested line holds a reference on the gbphy device
 * until it is freed; every other operation brackets itself.
 */
#include <linux/gpio/driver.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pinctrl/pinconf-generic.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <greybus/compat.h>
#include <greybus/greybus.h>
#include <greybus/gbphy.h>
#include <uapi/greybus/gpio.h>

/* "which" is a u8 */
#define GB_GPIO_LINES_MAX	256

struct gb_gpio_line {
	bool	requested;	/* holds a runtime-PM reference */
	bool	irq_claimed;	/* between irq request and release */
	/* what the module was told, and what the irq core wants */
	bool	masked, want_masked;
	u8	type, want_type;	/* GB_GPIO_IRQ_TYPE_* */
};

struct gb_gpio {
	struct gpio_chip	chip;
	struct gbphy_device	*gbphy_dev;
	struct gb_connection	*connection;
	struct irq_domain	*domain;
	struct fwnode_handle	*fwnode;

	/*
	 * Set in remove, under conn_sem held for writing: from then on the
	 * connection and the gbphy device are not ours to use.  Every
	 * operation holds conn_sem for reading.
	 */
	struct rw_semaphore	conn_sem;
	bool			gone;

	struct mutex		irq_lock;	/* the irq bus lock */
	unsigned int		irq_puts;	/* references to drop at unlock */

	struct kref		kref;	/* remove's, and one per claimed irq */
	struct work_struct	free_work;
	struct gb_gpio_line	lines[GB_GPIO_LINES_MAX];
};

/* Not gpiochip_get_data(): gpiolib clears that in gpiochip_remove() */
#define to_gb_gpio(c)	container_of(c, struct gb_gpio, chip)

static struct workqueue_struct *gb_gpio_wq;

static void gb_gpio_release(struct kref *kref)
{
	struct gb_gpio *ggc = container_of(kref, struct gb_gpio, kref);

	queue_work(gb_gpio_wq, &ggc->free_work);
}

static void gb_gpio_free_work(struct work_struct *work)
{
	struct gb_gpio *ggc = container_of(work, struct gb_gpio, free_work);
	unsigned int hwirq, virq;

	for (hwirq = 0; hwirq < GB_GPIO_LINES_MAX; hwirq++) {
		virq = irq_find_mapping(ggc->domain, hwirq);
		if (virq)
			irq_dispose_mapping(virq);
	}
	irq_domain_remove(ggc->domain);
	irq_domain_free_fwnode(ggc->fwnode);
	mutex_destroy(&ggc->irq_lock);
	kfree(ggc);
}

/* One operation, runtime-PM reference held around it */
static int gb_gpio_op(struct gb_gpio *ggc, u8 type, void *req, size_t req_len,
		      void *rsp, size_t rsp_len)
{
	int ret;

	down_read(&ggc->conn_sem);
	if (ggc->gone) {
		ret = -ENODEV;
		goto out_unlock;
	}
	ret = gbphy_runtime_get_sync(ggc->gbphy_dev);
	if (ret)
		goto out_unlock;
	ret = gb_operation_sync(ggc->connection, type, req, req_len,
				rsp, rsp_len);
	gbphy_runtime_put_autosuspend(ggc->gbphy_dev);
	if (ret)
		dev_err_ratelimited(&ggc->gbphy_dev->dev,
				    "gpio operation 0x%02x failed: %d\n",
				    type, ret);
out_unlock:
	up_read(&ggc->conn_sem);
	return ret;
}

static int gb_gpio_which_op(struct gb_gpio *ggc, u8 type, unsigned int which)
{
	struct gb_gpio_which_request req = { .which = which };

	return gb_gpio_op(ggc, type, &req, sizeof(req), NULL, 0);
}

/* An answer byte that must be 0 or 1 */
static int gb_gpio_bool_op(struct gb_gpio *ggc, u8 type, unsigned int which)
{
	struct gb_gpio_which_request req = { .which = which };
	u8 rsp;
	int ret;

	ret = gb_gpio_op(ggc, type, &req, sizeof(req), &rsp, sizeof(rsp));
	if (ret)
		return ret;
	if (rsp > 1) {
		dev_err_ratelimited(&ggc->gbphy_dev->dev,
				    "line %u: operation 0x%02x answered %u\n",
				    which, type, rsp);
		return -EPROTO;
	}
	return rsp;
}

static int gb_gpio_request(struct gpio_chip *chip, unsigned int offset)
{
	struct gb_gpio *ggc = to_gb_gpio(chip);
	int ret;

	ret = gbphy_runtime_get_sync(ggc->gbphy_dev);
	if (ret)
		return ret;
	ret = gb_gpio_which_op(ggc, GB_GPIO_TYPE_ACTIVATE, offset);
	if (ret) {
		gbphy_runtime_put_autosuspend(ggc->gbphy_dev);
		return ret;
	}
	ggc->lines[offset].requested = true;
	return 0;
}

static void gb_gpio_free(struct gpio_chip *chip, unsigned int offset)
{
	struct gb_gpio *ggc = to_gb_gpio(chip);

	gb_gpio_which_op(ggc, GB_GPIO_TYPE_DEACTIVATE, offset);
	ggc->lines[offset].requested = false;
	gbphy_runtime_put_autosuspend(ggc->gbphy_dev);
}

static int gb_gpio_get_direction(struct gpio_chip *chip, unsigned int offset)
{
	int ret = gb_gpio_bool_op(to_gb_gpio(chip),
				  GB_GPIO_TYPE_GET_DIRECTION, offset);

	if (ret < 0)
		return ret;
	return ret == GB_GPIO_DIRECTION_IN ? GPIO_LINE_DIRECTION_IN :
					     GPIO_LINE_DIRECTION_OUT;
}

static int gb_gpio_direction_input(struct gpio_chip *chip, unsigned int offset)
{
	return gb_gpio_which_op(to_gb_gpio(chip),
				GB_GPIO_TYPE_DIRECTION_IN, offset);
}

static int gb_gpio_direction_output(struct gpio_chip *chip,
				    unsigned int offset, int value)
{
	struct gb_gpio_direction_out_request req = {
		.which = offset,
		.value = !!value,
	};

	return gb_gpio_op(to_gb_gpio(chip), GB_GPIO_TYPE_DIRECTION_OUT,
			  &req, sizeof(req), NULL, 0);
}

static int gb_gpio_get(struct gpio_chip *chip, unsigned int offset)
{
	return gb_gpio_bool_op(to_gb_gpio(chip),
			       GB_GPIO_TYPE_GET_VALUE, offset);
}

/* gpiolib gives set() no way to fail: gb_gpio_op has logged it */
static void gb_gpio_set(struct gpio_chip *chip, unsigned int offset,
			int value)
{
	struct gb_gpio_set_value_request req = {
		.which = offset,
		.value = !!value,
	};

	gb_gpio_op(to_gb_gpio(chip), GB_GPIO_TYPE_SET_VALUE,
		   &req, sizeof(req), NULL, 0);
}

static int gb_gpio_set_config(struct gpio_chip *chip, unsigned int offset,
			      unsigned long config)
{
	struct gb_gpio_set_debounce_request req;
	u32 usec;

	if (pinconf_to_config_param(config) != PIN_CONFIG_INPUT_DEBOUNCE)
		return -ENOTSUPP;
	usec = pinconf_to_config_argument(config);
	if (usec > U16_MAX) {
		dev_err_ratelimited(chip->parent,
				    "line %u: debounce of %u us is beyond the protocol's %u us\n",
				    offset, usec, U16_MAX);
		return -EINVAL;
	}
	req.which = offset;
	req.usec = cpu_to_le16(usec);
	return gb_gpio_op(to_gb_gpio(chip), GB_GPIO_TYPE_SET_DEBOUNCE,
			  &req, sizeof(req), NULL, 0);
}

static int gb_gpio_to_irq(struct gpio_chip *chip, unsigned int offset)
{
	struct gb_gpio *ggc = to_gb_gpio(chip);
	unsigned int virq;

	virq = irq_create_mapping(ggc->domain, offset);
	return virq ? virq : -ENXIO;
}

/* The irq chip: state changes only, sent at bus unlock */

static void gb_gpio_irq_mask(struct irq_data *d)
{
	struct gb_gpio *ggc = irq_data_get_irq_chip_data(d);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);

	ggc->lines[hwirq].want_masked = true;
	gpiochip_disable_irq(&ggc->chip, hwirq);
}

static void gb_gpio_irq_unmask(struct irq_data *d)
{
	struct gb_gpio *ggc = irq_data_get_irq_chip_data(d);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);

	gpiochip_enable_irq(&ggc->chip, hwirq);
	ggc->lines[hwirq].want_masked = false;
}

/* The event is a message: nothing to acknowledge on the module */
static void gb_gpio_irq_ack(struct irq_data *d)
{
}

static int gb_gpio_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct gb_gpio *ggc = irq_data_get_irq_chip_data(d);
	u8 gb_type;

	switch (type & IRQ_TYPE_SENSE_MASK) {
	case IRQ_TYPE_NONE:
		gb_type = GB_GPIO_IRQ_TYPE_NONE;
		break;
	case IRQ_TYPE_EDGE_RISING:
		gb_type = GB_GPIO_IRQ_TYPE_EDGE_RISING;
		break;
	case IRQ_TYPE_EDGE_FALLING:
		gb_type = GB_GPIO_IRQ_TYPE_EDGE_FALLING;
		break;
	case IRQ_TYPE_EDGE_BOTH:
		gb_type = GB_GPIO_IRQ_TYPE_EDGE_BOTH;
		break;
	case IRQ_TYPE_LEVEL_HIGH:
		gb_type = GB_GPIO_IRQ_TYPE_LEVEL_HIGH;
		break;
	case IRQ_TYPE_LEVEL_LOW:
		gb_type = GB_GPIO_IRQ_TYPE_LEVEL_LOW;
		break;
	default:
		return -EINVAL;
	}
	ggc->lines[irqd_to_hwirq(d)].want_type = gb_type;
	return 0;
}

/* Both run under the bus lock (the irq core takes it around them) */
static int gb_gpio_irq_reqres(struct irq_data *d)
{
	struct gb_gpio *ggc = irq_data_get_irq_chip_data(d);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);
	int ret;

	ret = gpiochip_reqres_irq(&ggc->chip, hwirq);
	if (ret)
		return ret;
	ggc->lines[hwirq].irq_claimed = true;
	kref_get(&ggc->kref);
	return 0;
}

static void gb_gpio_irq_relres(struct irq_data *d)
{
	struct gb_gpio *ggc = irq_data_get_irq_chip_data(d);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);

	gpiochip_relres_irq(&ggc->chip, hwirq);
	ggc->lines[hwirq].irq_claimed = false;
	/* the bus unlock that follows still uses ggc */
	ggc->irq_puts++;
}

static void gb_gpio_irq_bus_lock(struct irq_data *d)
{
	struct gb_gpio *ggc = irq_data_get_irq_chip_data(d);

	mutex_lock(&ggc->irq_lock);
}

/* Tells the module one line's new mask and type; a failure is retried */
static void gb_gpio_irq_sync_line(struct gb_gpio *ggc, unsigned int which)
{
	struct gb_gpio_line *line = &ggc->lines[which];
	struct gb_gpio_irq_type_request req = { .which = which };

	if (line->want_masked && !line->masked &&
	    !gb_gpio_which_op(ggc, GB_GPIO_TYPE_IRQ_MASK, which))
		line->masked = true;
	if (line->want_type != line->type) {
		req.type = line->want_type;
		if (!gb_gpio_op(ggc, GB_GPIO_TYPE_IRQ_TYPE, &req, sizeof(req),
				NULL, 0))
			line->type = line->want_type;
	}
	if (!line->want_masked && line->masked &&
	    !gb_gpio_which_op(ggc, GB_GPIO_TYPE_IRQ_UNMASK, which))
		line->masked = false;
}

static void gb_gpio_irq_bus_sync_unlock(struct irq_data *d)
{
	struct gb_gpio *ggc = irq_data_get_irq_chip_data(d);
	unsigned int i, puts;

	for (i = 0; i < ggc->chip.ngpio; i++) {
		struct gb_gpio_line *line = &ggc->lines[i];

		if (line->want_masked != line->masked ||
		    line->want_type != line->type)
			gb_gpio_irq_sync_line(ggc, i);
	}
	puts = ggc->irq_puts;
	ggc->irq_puts = 0;
	mutex_unlock(&ggc->irq_lock);

	while (puts--)
		kref_put(&ggc->kref, gb_gpio_release);
}

static const struct irq_chip gb_gpio_irq_chip = {
	.name			= "greybus-gpio",
	.irq_ack		= gb_gpio_irq_ack,
	.irq_mask		= gb_gpio_irq_mask,
	.irq_unmask		= gb_gpio_irq_unmask,
	.irq_set_type		= gb_gpio_irq_set_type,
	.irq_request_resources	= gb_gpio_irq_reqres,
	.irq_release_resources	= gb_gpio_irq_relres,
	.irq_bus_lock		= gb_gpio_irq_bus_lock,
	.irq_bus_sync_unlock	= gb_gpio_irq_bus_sync_unlock,
	.flags			= IRQCHIP_IMMUTABLE | IRQCHIP_SKIP_SET_WAKE,
};

static int gb_gpio_irq_map(struct irq_domain *domain, unsigned int virq,
			   irq_hw_number_t hwirq)
{
	irq_set_chip_data(virq, domain->host_data);
	irq_set_chip_and_handler(virq, &gb_gpio_irq_chip, handle_simple_irq);
	irq_set_noprobe(virq);
	return 0;
}

static void gb_gpio_irq_unmap(struct irq_domain *domain, unsigned int virq)
{
	irq_set_chip_and_handler(virq, NULL, NULL);
	irq_set_chip_data(virq, NULL);
}

static const struct irq_domain_ops gb_gpio_domain_ops = {
	.map	= gb_gpio_irq_map,
	.unmap	= gb_gpio_irq_unmap,
	.xlate	= irq_domain_xlate_twocell,
};

/* The module's IRQ_EVENT */
static int gb_gpio_request_handler(struct gb_operation *operation)
{
	struct gb_gpio *ggc = gb_connection_get_data(operation->connection);
	struct device *dev = &ggc->gbphy_dev->dev;
	size_t size = operation->request->payload_size;
	struct gb_gpio_which_request *req;
	unsigned int virq;

	if (operation->type != GB_GPIO_TYPE_IRQ_EVENT) {
		dev_err_ratelimited(dev, "unknown request type 0x%02x\n",
				    operation->type);
		return -EINVAL;
	}
	if (size != sizeof(*req)) {
		dev_err_ratelimited(dev, "irq event of %zu bytes\n", size);
		return -EINVAL;
	}
	req = operation->request->payload;
	/* ngpio is 0 until the chip is set up */
	if (req->which >= READ_ONCE(ggc->chip.ngpio)) {
		dev_err_ratelimited(dev, "irq event for line %u of %u\n",
				    req->which, ggc->chip.ngpio);
		return -EINVAL;
	}
	virq = irq_find_mapping(ggc->domain, req->which);
	if (!virq) {
		dev_err_ratelimited(dev, "irq event for line %u, no irq there\n",
				    req->which);
		return -EINVAL;
	}
	generic_handle_irq_safe(virq);
	return 0;
}

static void gb_gpio_chip_init(struct gb_gpio *ggc, unsigned int ngpio)
{
	struct gpio_chip *chip = &ggc->chip;

	chip->label = dev_name(&ggc->gbphy_dev->dev);
	chip->parent = &ggc->gbphy_dev->dev;
	chip->owner = THIS_MODULE;
	chip->base = -1;
	chip->can_sleep = true;
	chip->request = gb_gpio_request;
	chip->free = gb_gpio_free;
	chip->get_direction = gb_gpio_get_direction;
	chip->direction_input = gb_gpio_direction_input;
	chip->direction_output = gb_gpio_direction_output;
	chip->get = gb_gpio_get;
	chip->set = gb_gpio_set;
	chip->set_config = gb_gpio_set_config;
	chip->to_irq = gb_gpio_to_irq;
	WRITE_ONCE(chip->ngpio, ngpio);
}

static int gb_gpio_probe(struct gbphy_device *gbphy_dev,
			 const struct gbphy_device_id *id)
{
	struct gb_gpio_line_count_response rsp;
	struct gb_connection *connection;
	struct gb_gpio *ggc;
	unsigned int i;
	int ret;

	ggc = kzalloc(sizeof(*ggc), GFP_KERNEL);
	if (!ggc)
		return -ENOMEM;
	ggc->gbphy_dev = gbphy_dev;
	init_rwsem(&ggc->conn_sem);
	mutex_init(&ggc->irq_lock);
	kref_init(&ggc->kref);
	INIT_WORK(&ggc->free_work, gb_gpio_free_work);
	/* the module starts with every interrupt masked, of no type */
	for (i = 0; i < GB_GPIO_LINES_MAX; i++) {
		ggc->lines[i].masked = true;
		ggc->lines[i].want_masked = true;
	}

	ggc->fwnode = irq_domain_alloc_named_fwnode(dev_name(&gbphy_dev->dev));
	if (!ggc->fwnode) {
		ret = -ENOMEM;
		goto err_free;
	}
	ggc->domain = irq_domain_create_linear(ggc->fwnode, GB_GPIO_LINES_MAX,
					       &gb_gpio_domain_ops, ggc);
	if (!ggc->domain) {
		ret = -ENOMEM;
		goto err_free_fwnode;
	}

	connection = gb_connection_create(gbphy_dev->bundle,
					  gbphy_cport_id(gbphy_dev),
					  gb_gpio_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_remove_domain;
	}
	ggc->connection = connection;
	gb_connection_set_data(connection, ggc);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy;

	ret = gb_gpio_op(ggc, GB_GPIO_TYPE_LINE_COUNT, NULL, 0,
			 &rsp, sizeof(rsp));
	if (ret)
		goto err_disable;

	gb_gpio_chip_init(ggc, rsp.count + 1);	/* the wire says count - 1 */
	ret = gpiochip_add_data(&ggc->chip, ggc);
	if (ret) {
		dev_err(&gbphy_dev->dev, "failed to add gpio chip: %d\n", ret);
		goto err_disable;
	}

	gb_gbphy_set_data(gbphy_dev, ggc);
	return 0;

err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
err_remove_domain:
	irq_domain_remove(ggc->domain);
err_free_fwnode:
	irq_domain_free_fwnode(ggc->fwnode);
err_free:
	mutex_destroy(&ggc->irq_lock);
	kfree(ggc);
	return ret;
}

/*
 * gpiolib of this kernel leaves a process waiting for events of a
 * removed chip asleep until an event comes.  One last interrupt on each
 * claimed line wakes it; the chip being gone, it then gets an error.
 */
static void gb_gpio_wake_waiters(struct gb_gpio *ggc)
{
	unsigned int i, virq;

	mutex_lock(&ggc->irq_lock);
	for (i = 0; i < ggc->chip.ngpio; i++) {
		if (!ggc->lines[i].irq_claimed)
			continue;
		virq = irq_find_mapping(ggc->domain, i);
		if (virq)
			generic_handle_irq_safe(virq);
	}
	mutex_unlock(&ggc->irq_lock);
}

/* The gpio_device, not the sysfs class device of the same name */
static int gb_gpio_is_gpiochip(struct device *dev, void *data)
{
	return dev->bus && !strcmp(dev->bus->name, "gpio");
}

/*
 * gpiod_free() of Linux 6.1 puts the module and gpio_device references
 * that gpiod_request() took only while the chip is still there: for a
 * line that userspace holds across the module's unplug they would leak,
 * pinning gb-gpio for good.  Put them for gpiolib.  (Claimed interrupts
 * hold their own module reference until they are freed.)  Later kernels
 * put them in gpiod_free() whatever became of the chip.
 *
 * A line gpiolib holds is one our .request accepted and .free did not
 * see yet: lines[].requested says which.
 */
static void gb_gpio_put_orphans(struct gb_gpio *ggc, struct device *gdev)
{
	unsigned int i;

	if (!GB_GPIOD_FREE_LEAKS_ORPHANS)
		return;

	for (i = 0; i < ggc->chip.ngpio; i++) {
		if (!ggc->lines[i].requested)
			continue;
		module_put(THIS_MODULE);
		if (gdev)
			put_device(gdev);
	}
}

/*
 * Where gpiochip_remove() frees the interrupts still requested on its
 * lines, an edge-detecting line request of the GPIO character device
 * frees its own again when userspace closes it after the removal woke it
 * up.  With our irq descriptors still there (they go when the last
 * reference to ggc does) that second free_irq() warns.  So free them the
 * way gpiolib would, and dispose of the mappings, before gpiochip_remove()
 * tells userspace: the late free_irq() then finds no descriptor.
 */
static void gb_gpio_free_irqs_early(struct gb_gpio *ggc)
{
	unsigned int hwirq, virq;
	struct irq_desc *desc;
	void *cookie;

	if (!GB_GPIOCHIP_REMOVE_FREES_IRQS)
		return;

	for (hwirq = 0; hwirq < ggc->chip.ngpio; hwirq++) {
		virq = irq_find_mapping(ggc->domain, hwirq);
		if (!virq)
			continue;
		desc = irq_data_to_desc(irq_get_irq_data(virq));
		for (;;) {
			mutex_lock(&desc->request_mutex);
			cookie = irq_desc_has_action(desc) ?
				 desc->action->dev_id : NULL;
			mutex_unlock(&desc->request_mutex);
			if (!cookie)
				break;
			free_irq(virq, cookie);
		}
		irq_dispose_mapping(virq);
	}
}

static void gb_gpio_remove(struct gbphy_device *gbphy_dev)
{
	struct gb_gpio *ggc = gb_gbphy_get_data(gbphy_dev);
	struct device *gdev;
	unsigned int i;

	/* gpiochip_remove() unlinks it from its parent */
	gdev = device_find_child(&gbphy_dev->dev, NULL, gb_gpio_is_gpiochip);
	gb_gpio_free_irqs_early(ggc);
	gpiochip_remove(&ggc->chip);
	gb_gpio_put_orphans(ggc, gdev);
	put_device(gdev);
	/* no more events (this waits for the handler) and no operations */
	gb_connection_disable(ggc->connection);
	down_write(&ggc->conn_sem);
	ggc->gone = true;
	up_write(&ggc->conn_sem);
	gb_connection_destroy(ggc->connection);

	/* lines still requested are never freed through us now */
	for (i = 0; i < ggc->chip.ngpio; i++) {
		if (ggc->lines[i].requested)
			gbphy_runtime_put_noidle(gbphy_dev);
	}

	gb_gpio_wake_waiters(ggc);
	kref_put(&ggc->kref, gb_gpio_release);
}

static const struct gbphy_device_id gb_gpio_id_table[] = {
	{ GBPHY_PROTOCOL(GREYBUS_PROTOCOL_GPIO) },
	{ },
};
MODULE_DEVICE_TABLE(gbphy, gb_gpio_id_table);
GBPHY_MODULE_ALIAS(GREYBUS_PROTOCOL_GPIO);

static struct gbphy_driver gb_gpio_driver = {
	.name		= "gb-gpio",
	.probe		= gb_gpio_probe,
	.remove		= gb_gpio_remove,
	.id_table	= gb_gpio_id_table,
};

static int __init gb_gpio_init(void)
{
	int ret;

	gb_gpio_wq = alloc_workqueue("gb_gpio", 0, 0);
	if (!gb_gpio_wq)
		return -ENOMEM;
	ret = gb_gbphy_register(&gb_gpio_driver);
	if (ret)
		destroy_workqueue(gb_gpio_wq);
	return ret;
}
module_init(gb_gpio_init);

/* Claimed irqs pin the module, so every free is queued by now */
static void __exit gb_gpio_exit(void)
{
	gb_gbphy_deregister(&gb_gpio_driver);
	destroy_workqueue(gb_gpio_wq);
}
module_exit(gb_gpio_exit);

MODULE_DESCRIPTION("Greybus GPIO protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
