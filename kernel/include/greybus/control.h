/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AP's side of the Control protocol: "N-M.I.ctrl", the management
 * link to one interface over its CPort 0.
 */
#ifndef __GREYBUS_CONTROL_H
#define __GREYBUS_CONTROL_H

#include <linux/device.h>
#include <linux/types.h>

struct gb_connection;
struct gb_interface;

/**
 * struct gb_control - the AP's end of an interface's Control protocol
 * @dev: "N-M.I.ctrl"
 * @intf: the interface
 * @connection: the control connection, to the interface's CPort 0
 * @protocol_major: the Control protocol version the interface speaks
 * @protocol_minor: its minor part
 * @vendor_string: the interface's vendor string from the manifest, or
 *	NULL
 * @product_string: its product string, or NULL
 *
 * Created when its interface is enabled and put when it is disabled; the
 * device is added once the manifest has been parsed (it carries the
 * manifest's strings).
 */
struct gb_control {
	struct device		dev;
	struct gb_interface	*intf;
	struct gb_connection	*connection;

	u8			protocol_major;
	u8			protocol_minor;

	char			*vendor_string;
	char			*product_string;
};

#define to_gb_control(d) container_of(d, struct gb_control, dev)

extern const struct device_type greybus_control_type;

static inline bool is_gb_control(const struct device *dev)
{
	return dev->type == &greybus_control_type;
}

struct gb_control *gb_control_create(struct gb_interface *intf);
int gb_control_enable(struct gb_control *control);
void gb_control_disable(struct gb_control *control);
int gb_control_add(struct gb_control *control);
void gb_control_del(struct gb_control *control);
void gb_control_put(struct gb_control *control);

/* Control operations; all sleep and return 0 or -errno */
int gb_control_get_manifest_size_operation(struct gb_interface *intf);
int gb_control_get_manifest_operation(struct gb_interface *intf,
				      void *manifest, size_t size);
int gb_control_connected_operation(struct gb_control *control, u16 cport_id);
int gb_control_disconnecting_operation(struct gb_control *control,
				       u16 cport_id);
int gb_control_disconnected_operation(struct gb_control *control,
				      u16 cport_id);
int gb_control_bundle_activate(struct gb_control *control, u8 bundle_id);
int gb_control_bundle_deactivate(struct gb_control *control, u8 bundle_id);
int gb_control_bundle_suspend(struct gb_control *control, u8 bundle_id);
int gb_control_bundle_resume(struct gb_control *control, u8 bundle_id);
int gb_control_intf_suspend_prepare(struct gb_control *control);
int gb_control_intf_hibernate_abort(struct gb_control *control);

/* control_sysfs.c */
extern const struct attribute_group *gb_control_groups[];

#endif /* __GREYBUS_CONTROL_H */
