/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus modules: "N-M", the pluggable piece of hardware, with one or
 * more interfaces (M is the id of its primary, lowest, interface).
 */
#ifndef __GREYBUS_MODULE_H
#define __GREYBUS_MODULE_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/types.h>

struct gb_host_device;
struct gb_interface;

/**
 * struct gb_module - a pluggable piece of hardware, "N-M"
 * @dev: the device
 * @hd: the host device
 * @hd_node: the entry in @hd's list of modules, under the SVC's lock
 * @module_id: M, the id of its primary (lowest) interface
 * @bus_id: @hd's bus id, a copy for tracepoints that may outlive @hd
 * @disconnected: physically gone
 * @num_interfaces: the number of interfaces it spans
 * @interfaces: its interfaces, by id from @module_id on
 *
 * Created and owned by the SVC code when the SVC reports the module
 * inserted, deleted and put when it reports it removed (or the host
 * device goes away).
 */
struct gb_module {
	struct device		dev;
	struct gb_host_device	*hd;
	struct list_head	hd_node;

	u8			module_id;
	int			bus_id;
	bool			disconnected;

	size_t			num_interfaces;
	struct gb_interface	*interfaces[];
};

#define to_gb_module(d) container_of(d, struct gb_module, dev)

extern const struct device_type greybus_module_type;

static inline bool is_gb_module(const struct device *dev)
{
	return dev->type == &greybus_module_type;
}

struct gb_module *gb_module_create(struct gb_host_device *hd, u8 module_id,
				   size_t num_interfaces);
int gb_module_add(struct gb_module *module);
void gb_module_del(struct gb_module *module);
void gb_module_put(struct gb_module *module);

/* Marks the module and its interfaces gone; any context that may sleep */
void gb_module_mark_disconnected(struct gb_module *module);

#endif /* __GREYBUS_MODULE_H */
