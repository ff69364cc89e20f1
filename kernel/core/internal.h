/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared between the files of greybus.ko only; nothing here
 * is exported to host or protocol drivers.
 */
#ifndef __GREYBUS_CORE_INTERNAL_H
#define __GREYBUS_CORE_INTERNAL_H

#include <linux/types.h>

#include <greybus/greybus.h>

/* Longest we wait for operations to finish once they were cancelled */
#define GB_OPERATION_CANCEL_WAIT_MS	10000

/* hd.c */
int gb_hd_cport_allocate(struct gb_host_device *hd, int cport_id,
			 unsigned long flags);
void gb_hd_cport_release(struct gb_host_device *hd, u16 cport_id);
void gb_hd_exit(void);

/* operation.c */
int gb_operation_init(void);
void gb_operation_exit(void);
void gb_connection_rx_work(struct work_struct *work);
int gb_operation_sync_core(struct gb_connection *connection, u8 type,
			   void *request, size_t request_size,
			   unsigned int timeout);
void gb_connection_cancel_operations_locked(struct gb_connection *connection,
					    int errno);
void gb_connection_cancel_operations(struct gb_connection *connection,
				     int errno);
void gb_connection_flush_incoming(struct gb_connection *connection);
void gb_connection_timeout_init(struct gb_connection *connection);
void gb_connection_timeout_stop(struct gb_connection *connection);

/* connection.c */
struct gb_connection *
gb_connection_create_static(struct gb_host_device *hd, u16 hd_cport_id,
			    gb_request_handler_t handler, u8 protocol_id);
struct gb_connection *gb_connection_create_control(struct gb_interface *intf);
struct gb_connection *gb_connection_hd_find(struct gb_host_device *hd,
					    u16 hd_cport_id);
void gb_connection_get(struct gb_connection *connection);
void gb_connection_put(struct gb_connection *connection);
bool gb_connection_peer_gone(struct gb_connection *connection);
void gb_hd_cancel_operations(struct gb_host_device *hd, int errno);
void gb_interface_cancel_operations(struct gb_interface *intf, int errno);
void gb_bundle_disable_connections(struct gb_bundle *bundle);

/* svc.c */
void gb_svc_interface_ejected(struct gb_svc *svc, u8 intf_id);
void gb_svc_network_teardown(struct gb_svc *svc);

/* timesync.c */
int gb_timesync_hd_add(struct gb_host_device *hd);
void gb_timesync_hd_stop(struct gb_host_device *hd);
void gb_timesync_hd_del(struct gb_host_device *hd);
int gb_timesync_interface_add(struct gb_interface *intf);
void gb_timesync_interface_remove(struct gb_interface *intf);

/* debugfs.c */
/* pm.c */
#define GB_BUNDLE_AUTOSUSPEND_MS	2000
#define GB_INTERFACE_AUTOSUSPEND_MS	3000
extern const struct dev_pm_ops gb_bundle_pm_ops;
extern const struct dev_pm_ops gb_interface_pm_ops;
void gb_pm_follow_children(struct device *dev);
void gb_pm_stop(struct device *dev);
void gb_interface_pm_start(struct gb_interface *intf);
void gb_interface_pm_stop(struct gb_interface *intf);
void gb_interface_pm_finish(struct gb_interface *intf);
void gb_interface_pm_put(struct gb_interface *intf);
int gb_pm_init(void);
void gb_pm_exit(void);

/* bundle.c */
int gb_bundle_auth_init(void);
void gb_bundle_auth_exit(void);

void gb_debugfs_init(void);
void gb_debugfs_cleanup(void);
void gb_debugfs_hd_add(struct gb_host_device *hd);
void gb_debugfs_hd_del(struct gb_host_device *hd);

#endif /* __GREYBUS_CORE_INTERNAL_H */
