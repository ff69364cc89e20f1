/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus tracepoints (events/greybus/ in tracefs, "perf trace -e
 * greybus:*"): the messages the core exchanges with host drivers, the
 * life of operations and connections, and the objects of the bus.  The
 * set follows upstream's in kind and in the fields it carries;
 * docs/gbmon.md lists every event and when it fires.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM greybus

#if !defined(_GREYBUS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _GREYBUS_TRACE_H

#include <linux/device.h>
#include <linux/tracepoint.h>

#include <greybus/compat.h>
#include <greybus/greybus.h>

/* Messages: one operation header as it goes to or comes from the host */

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
		    TP_fast_assign(__entry->bus_id = connection->bus_id;
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

#define GB_MESSAGE_EVENT(name)						\
	DEFINE_EVENT(gb_message, name,					\
		     TP_PROTO(struct gb_connection *connection,		\
			      const struct gb_operation_msg_hdr *header), \
		     TP_ARGS(connection, header))

/* Just before the host driver's message_send() (request or response) */
GB_MESSAGE_EVENT(gb_message_send);
/* The host driver took it: message_send() returned 0 */
GB_MESSAGE_EVENT(gb_message_submit);
/* A well-framed request arrived for an existing connection */
GB_MESSAGE_EVENT(gb_message_recv_request);
/* A well-framed response arrived for an existing connection */
GB_MESSAGE_EVENT(gb_message_recv_response);
/* An outgoing request ended without response (time-out, cancel): its header */
GB_MESSAGE_EVENT(gb_message_cancel_outgoing);
/* A received request was dropped without being handled: its header */
GB_MESSAGE_EVENT(gb_message_cancel_incoming);

/* Operations */

DECLARE_EVENT_CLASS(gb_operation,
		    TP_PROTO(struct gb_operation *operation),
		    TP_ARGS(operation),
		    TP_STRUCT__entry(__field(int, bus_id)
				     __field(u16, cport_id)
				     __field(u16, id)
				     __field(u8, type)
				     __field(unsigned long, flags)
				     __field(unsigned long, state)
				     __field(int, errno)),
		    TP_fast_assign(__entry->bus_id =
					operation->connection->bus_id;
				   __entry->cport_id =
					operation->connection->hd_cport_id;
				   __entry->id = operation->id;
				   __entry->type = operation->type;
				   __entry->flags = operation->flags;
				   __entry->state = operation->state;
				   __entry->errno = operation->errno),
		    TP_printk("greybus%d cport %u: id=0x%04x type=0x%02x flags=0x%lx state=0x%lx errno=%d",
			      __entry->bus_id, __entry->cport_id, __entry->id,
			      __entry->type, __entry->flags, __entry->state,
			      __entry->errno));

#define GB_OPERATION_EVENT(name)					\
	DEFINE_EVENT(gb_operation, name,				\
		     TP_PROTO(struct gb_operation *operation),		\
		     TP_ARGS(operation))

/* An outgoing operation was created (a protocol driver's) */
GB_OPERATION_EVENT(gb_operation_create);
/* An outgoing operation of the core's own (CPort Shutdown, control) */
GB_OPERATION_EVENT(gb_operation_create_core);
/* A received request became an operation */
GB_OPERATION_EVENT(gb_operation_create_incoming);
/* The last reference is gone; it is freed next */
GB_OPERATION_EVENT(gb_operation_destroy);
/* In flight: sent, or a received request queued for its handler */
GB_OPERATION_EVENT(gb_operation_get_active);
/* No longer in flight: completed, or handled */
GB_OPERATION_EVENT(gb_operation_put_active);

/* Connections */

DECLARE_EVENT_CLASS(gb_connection,
		    TP_PROTO(struct gb_connection *connection),
		    TP_ARGS(connection),
		    TP_STRUCT__entry(__field(int, bus_id)
				     __field(u8, bundle_id)
				     __string(name, connection->name)
				     __field(u8, protocol_id)
				     __field(int, state)
				     __field(unsigned long, flags)),
		    TP_fast_assign(__entry->bus_id = connection->bus_id;
				   __entry->bundle_id = connection->bundle_id;
				   gb_assign_str(name, connection->name);
				   __entry->protocol_id =
					connection->protocol_id;
				   __entry->state = connection->state;
				   __entry->flags = connection->flags),
		    TP_printk("greybus%d %s protocol 0x%02x bundle_id=0x%02x state=%d flags=0x%lx",
			      __entry->bus_id, __get_str(name),
			      __entry->protocol_id, __entry->bundle_id,
			      __entry->state, __entry->flags));

#define GB_CONNECTION_EVENT(name)					\
	DEFINE_EVENT(gb_connection, name,				\
		     TP_PROTO(struct gb_connection *connection),	\
		     TP_ARGS(connection))

GB_CONNECTION_EVENT(gb_connection_create);
/* The owner destroyed it; operations may still hold its memory */
GB_CONNECTION_EVENT(gb_connection_destroy);
/* The last reference is gone; it is freed next */
GB_CONNECTION_EVENT(gb_connection_release);
/* A reference taken for a received message, and dropped */
GB_CONNECTION_EVENT(gb_connection_get);
GB_CONNECTION_EVENT(gb_connection_put);
/* Enabling starts (@state the one before), disabling starts */
GB_CONNECTION_EVENT(gb_connection_enable);
GB_CONNECTION_EVENT(gb_connection_disable);

/* Bundles */

DECLARE_EVENT_CLASS(gb_bundle,
		    TP_PROTO(struct gb_bundle *bundle),
		    TP_ARGS(bundle),
		    TP_STRUCT__entry(__field(u8, intf_id)
				     __field(u8, id)
				     __field(u8, class)
				     __field(size_t, num_cports)),
		    TP_fast_assign(__entry->intf_id = bundle->intf->interface_id;
				   __entry->id = bundle->id;
				   __entry->class = bundle->class;
				   __entry->num_cports = bundle->num_cports),
		    TP_printk("intf_id=%u id=%u class=0x%02x num_cports=%zu",
			      __entry->intf_id, __entry->id, __entry->class,
			      __entry->num_cports));

#define GB_BUNDLE_EVENT(name)						\
	DEFINE_EVENT(gb_bundle, name,					\
		     TP_PROTO(struct gb_bundle *bundle),		\
		     TP_ARGS(bundle))

GB_BUNDLE_EVENT(gb_bundle_create);
GB_BUNDLE_EVENT(gb_bundle_add);
GB_BUNDLE_EVENT(gb_bundle_destroy);

/* Interfaces */

DECLARE_EVENT_CLASS(gb_interface,
		    TP_PROTO(struct gb_interface *intf),
		    TP_ARGS(intf),
		    TP_STRUCT__entry(__field(u8, module_id)
				     __field(u8, id)
				     __field(u8, device_id)
				     __field(int, disconnected)
				     __field(int, ejected)
				     __field(int, active)
				     __field(int, enabled)),
		    TP_fast_assign(__entry->module_id = intf->module->module_id;
				   __entry->id = intf->interface_id;
				   __entry->device_id = intf->device_id;
				   __entry->disconnected = intf->disconnected;
				   __entry->ejected = intf->ejected;
				   __entry->active = intf->active;
				   __entry->enabled = intf->enabled),
		    TP_printk("intf_id=%u device_id=%u module_id=%u D=%d J=%d A=%d E=%d",
			      __entry->id, __entry->device_id,
			      __entry->module_id, __entry->disconnected,
			      __entry->ejected, __entry->active,
			      __entry->enabled));

#define GB_INTERFACE_EVENT(name)					\
	DEFINE_EVENT(gb_interface, name,				\
		     TP_PROTO(struct gb_interface *intf),		\
		     TP_ARGS(intf))

GB_INTERFACE_EVENT(gb_interface_create);
GB_INTERFACE_EVENT(gb_interface_add);
GB_INTERFACE_EVENT(gb_interface_del);
/* Activated (powered, ids read); deactivation starts */
GB_INTERFACE_EVENT(gb_interface_activate);
GB_INTERFACE_EVENT(gb_interface_deactivate);
/* Enabled (manifest read, bundles registered); disabling starts */
GB_INTERFACE_EVENT(gb_interface_enable);
GB_INTERFACE_EVENT(gb_interface_disable);

/* Modules */

DECLARE_EVENT_CLASS(gb_module,
		    TP_PROTO(struct gb_module *module),
		    TP_ARGS(module),
		    TP_STRUCT__entry(__field(int, bus_id)
				     __field(u8, module_id)
				     __field(size_t, num_interfaces)
				     __field(int, disconnected)),
		    TP_fast_assign(__entry->bus_id = module->bus_id;
				   __entry->module_id = module->module_id;
				   __entry->num_interfaces =
					module->num_interfaces;
				   __entry->disconnected = module->disconnected),
		    TP_printk("greybus%d module_id=%u num_interfaces=%zu disconnected=%d",
			      __entry->bus_id, __entry->module_id,
			      __entry->num_interfaces, __entry->disconnected));

#define GB_MODULE_EVENT(name)						\
	DEFINE_EVENT(gb_module, name,					\
		     TP_PROTO(struct gb_module *module),		\
		     TP_ARGS(module))

GB_MODULE_EVENT(gb_module_create);
GB_MODULE_EVENT(gb_module_release);
GB_MODULE_EVENT(gb_module_add);
GB_MODULE_EVENT(gb_module_del);

/* Host devices */

DECLARE_EVENT_CLASS(gb_host_device,
		    TP_PROTO(struct gb_host_device *hd),
		    TP_ARGS(hd),
		    TP_STRUCT__entry(__field(int, bus_id)
				     __field(size_t, num_cports)
				     __field(size_t, buffer_size_max)),
		    TP_fast_assign(__entry->bus_id = hd->bus_id;
				   __entry->num_cports = hd->num_cports;
				   __entry->buffer_size_max =
					hd->buffer_size_max),
		    TP_printk("greybus%d num_cports=%zu mtu=%zu",
			      __entry->bus_id, __entry->num_cports,
			      __entry->buffer_size_max));

#define GB_HD_EVENT(name)						\
	DEFINE_EVENT(gb_host_device, name,				\
		     TP_PROTO(struct gb_host_device *hd),		\
		     TP_ARGS(hd))

GB_HD_EVENT(gb_hd_create);
GB_HD_EVENT(gb_hd_release);
GB_HD_EVENT(gb_hd_add);
GB_HD_EVENT(gb_hd_del);
/* A message came in for a connection of the host; one goes out */
GB_HD_EVENT(gb_hd_in);
GB_HD_EVENT(gb_hd_out);

/* Every device of the bus, by type, as it is added and deleted */

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

#endif /* _GREYBUS_TRACE_H */

/* Out-of-tree: the header is found through -I$(src) (see Kbuild) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE greybus_trace

#include <trace/define_trace.h>
