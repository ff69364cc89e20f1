/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus tracepoints (events/greybus/ in tracefs): every message the
 * core hands to a host driver or receives from one, and every object
 * that becomes visible or goes away.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM greybus

#if !defined(_GREYBUS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _GREYBUS_TRACE_H

#include <linux/device.h>
#include <linux/tracepoint.h>

#include <greybus/compat.h>
#include <greybus/greybus.h>

DECLARE_EVENT_CLASS(gb_message,
		    TP_PROTO(struct gb_connection *connection,
			     const struct gb_operation_msg_hdr *header),
		    TP_ARGS(connection, header),
		    TP_STRUCT__entry(__field(int, bus_id)
				     __field(u16, hd_cport_id)
				     __field(u16, size)
				     __field(u16, operation_id)
				     __field(u8, type)
				     __field(u8, result)),
		    TP_fast_assign(__entry->bus_id = connection->hd->bus_id;
				   __entry->hd_cport_id = connection->hd_cport_id;
				   __entry->size = le16_to_cpu(header->size);
				   __entry->operation_id =
					le16_to_cpu(header->operation_id);
				   __entry->type = header->type;
				   __entry->result = header->result),
		    TP_printk("greybus%d cport %u: id=0x%04x type=0x%02x result=0x%02x size=%u",
			      __entry->bus_id, __entry->hd_cport_id,
			      __entry->operation_id, __entry->type,
			      __entry->result, __entry->size));

/* Handed to the host driver (request or response) */
DEFINE_EVENT(gb_message, gb_message_send,
	     TP_PROTO(struct gb_connection *connection,
		      const struct gb_operation_msg_hdr *header),
	     TP_ARGS(connection, header));

/* Received, valid, for an existing connection */
DEFINE_EVENT(gb_message, gb_message_recv,
	     TP_PROTO(struct gb_connection *connection,
		      const struct gb_operation_msg_hdr *header),
	     TP_ARGS(connection, header));

DECLARE_EVENT_CLASS(gb_object,
		    TP_PROTO(struct device *dev),
		    TP_ARGS(dev),
		    TP_STRUCT__entry(__string(type, dev->type->name)
				     __string(name, dev_name(dev))),
		    TP_fast_assign(gb_assign_str(type, dev->type->name);
				   gb_assign_str(name, dev_name(dev))),
		    TP_printk("%s %s", __get_str(type), __get_str(name)));

/* A host device, SVC, module, interface, control or bundle device */
DEFINE_EVENT(gb_object, gb_object_add,
	     TP_PROTO(struct device *dev),
	     TP_ARGS(dev));

DEFINE_EVENT(gb_object, gb_object_del,
	     TP_PROTO(struct device *dev),
	     TP_ARGS(dev));

DECLARE_EVENT_CLASS(gb_connection,
		    TP_PROTO(struct gb_connection *connection),
		    TP_ARGS(connection),
		    TP_STRUCT__entry(__field(int, bus_id)
				     __string(name, connection->name)
				     __field(u8, protocol_id)),
		    TP_fast_assign(__entry->bus_id = connection->hd->bus_id;
				   gb_assign_str(name, connection->name);
				   __entry->protocol_id =
					connection->protocol_id),
		    TP_printk("greybus%d %s protocol 0x%02x", __entry->bus_id,
			      __get_str(name), __entry->protocol_id));

DEFINE_EVENT(gb_connection, gb_connection_create,
	     TP_PROTO(struct gb_connection *connection),
	     TP_ARGS(connection));

DEFINE_EVENT(gb_connection, gb_connection_destroy,
	     TP_PROTO(struct gb_connection *connection),
	     TP_ARGS(connection));

#endif /* _GREYBUS_TRACE_H */

/* Out-of-tree: the header is found through -I$(src) (see Kbuild) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE greybus_trace

#include <trace/define_trace.h>
