/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Greybus monitor's hooks in the core (monitor.c).  Each is a static
 * branch, patched in only while a monitor file is open: with no reader
 * the core pays nothing but a no-op at each call site.
 */
#ifndef __GREYBUS_CORE_MONITOR_H
#define __GREYBUS_CORE_MONITOR_H

#include <linux/jump_label.h>
#include <linux/types.h>

#include <uapi/greybus/monitor.h>

struct dentry;
struct gb_connection;
struct gb_host_device;

DECLARE_STATIC_KEY_FALSE(gb_mon_active);

void __gb_mon_message(struct gb_host_device *hd,
		      struct gb_connection *connection, u16 hd_cport_id,
		      const void *data, size_t length, u32 flags);
void __gb_mon_event(struct gb_connection *connection, u8 kind, u32 flags,
		    u8 type, u16 operation_id, int status);

/*
 * A message handed to the host driver (@flags 0) or received from it
 * (GB_MON_F_IN, possibly with GB_MON_F_MALFORMED; @connection NULL if
 * there is none).  @data is the message, header first, @length bytes.
 * Any context.
 */
static inline void gb_mon_message(struct gb_host_device *hd,
				  struct gb_connection *connection,
				  u16 hd_cport_id, const void *data,
				  size_t length, u32 flags)
{
	if (static_branch_unlikely(&gb_mon_active))
		__gb_mon_message(hd, connection, hd_cport_id, data, length,
				 flags);
}

/*
 * GB_MON_KIND_SEND_ERROR or GB_MON_KIND_CANCEL on @connection for the
 * operation of @type and @operation_id.  Any context.
 */
static inline void gb_mon_event(struct gb_connection *connection, u8 kind,
				u32 flags, u8 type, u16 operation_id,
				int status)
{
	if (static_branch_unlikely(&gb_mon_active))
		__gb_mon_event(connection, kind, flags, type, operation_id,
			       status);
}

void gb_mon_init(struct dentry *root);
void gb_mon_hd_add(struct gb_host_device *hd, struct dentry *dir);
void gb_mon_hd_del(struct gb_host_device *hd);

#endif /* __GREYBUS_CORE_MONITOR_H */
