/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus connections: a bidirectional path between a bridge CPort and an
 * interface CPort, over which operations travel.
 */
#ifndef __GREYBUS_CONNECTION_H
#define __GREYBUS_CONNECTION_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct gb_bundle;
struct gb_host_device;
struct gb_interface;
struct gb_operation;

/* Flags for gb_connection_create_flags(), also passed to cport_enable() */
#define GB_CONNECTION_FLAG_E2EFC	BIT(0)	/* end-to-end flow control */
#define GB_CONNECTION_FLAG_NO_FLOWCTRL	BIT(1)	/* no flow control at all */
#define GB_CONNECTION_FLAG_HIGH_PRIO	BIT(2)
/* Set by the core only */
#define GB_CONNECTION_FLAG_CONTROL	BIT(8)	/* an interface's CPort 0 */
#define GB_CONNECTION_FLAG_STATIC	BIT(9)	/* no SVC setup (the SVC's) */

#define GB_CONNECTION_FLAG_USER_MASK \
	(GB_CONNECTION_FLAG_E2EFC | GB_CONNECTION_FLAG_NO_FLOWCTRL | \
	 GB_CONNECTION_FLAG_HIGH_PRIO)

/*
 * DISABLED: nothing flows.  ENABLED_TX: the AP may send requests, incoming
 * requests are dropped.  ENABLED: both ways.  DISCONNECTING: being torn
 * down, only the core's teardown operations may be sent.
 */
enum gb_connection_state {
	GB_CONNECTION_STATE_DISABLED,
	GB_CONNECTION_STATE_ENABLED_TX,
	GB_CONNECTION_STATE_ENABLED,
	GB_CONNECTION_STATE_DISCONNECTING,
};

/*
 * Handles one incoming request in process context; the return value
 * (0 or -errno) becomes the response's result.  Requests on a connection
 * are handled one at a time, in arrival order.
 */
typedef int (*gb_request_handler_t)(struct gb_operation *operation);

/* Counters shown in debugfs; updated under connection->lock */
struct gb_connection_stats {
	u64	requests_sent;
	u64	requests_received;
	u64	responses_received;
	u64	errors;		/* operations that completed with an error */
	u64	timeouts;
	u64	dropped;	/* incoming messages thrown away */
};

/*
 * Owned by whoever created it (a bundle driver, the interface's control
 * device, the SVC), who must disable and destroy it.  The reference count
 * only keeps the memory alive for operations still finishing; it is not
 * a way to share a connection.
 */
struct gb_connection {
	struct gb_host_device	*hd;
	struct gb_interface	*intf;		/* NULL for the SVC's */
	struct gb_bundle	*bundle;	/* NULL for control and SVC */
	u16			hd_cport_id;
	u16			intf_cport_id;
	u8			protocol_id;
	unsigned long		flags;
	gb_request_handler_t	handler;
	char			name[16];	/* "hd_cport/intf:cport" */
	void			*private;

	/* Core-internal below */
	struct kref		kref;
	struct list_head	hd_links;	/* hd->connections, hd->lock */
	struct list_head	bundle_links;	/* bundle->connections */

	struct mutex		mutex;		/* serialises enable/disable */
	spinlock_t		lock;		/* irq-safe; everything below */
	enum gb_connection_state state;
	struct list_head	operations;	/* outgoing, in flight */
	u16			op_cycle;	/* last operation id used */
	unsigned long		*op_ids;	/* ids of @operations */
	struct list_head	incoming;	/* requests for rx_work */
	unsigned int		incoming_count;
	unsigned int		ops_pending;	/* sent, callback not yet run */
	struct gb_connection_stats stats;
	wait_queue_head_t	ops_wait;	/* for ops_pending == 0 */
	struct work_struct	rx_work;
};

struct gb_connection *
gb_connection_create_flags(struct gb_bundle *bundle, u16 cport_id,
			   gb_request_handler_t handler, unsigned long flags);

static inline struct gb_connection *
gb_connection_create(struct gb_bundle *bundle, u16 cport_id,
		     gb_request_handler_t handler)
{
	return gb_connection_create_flags(bundle, cport_id, handler, 0);
}

/* Disables the connection first if its owner has not */
void gb_connection_destroy(struct gb_connection *connection);

/*
 * enable: set up both ways; enable_tx: only outgoing requests (the usual
 * first step of a driver that must be ready before the module may send).
 * disable_rx: back from enabled to tx only.  disable: tear down; every
 * operation in flight completes with -ESHUTDOWN before it returns.
 * All sleep; none may be called from the connection's own request
 * handler or operation callbacks.
 */
int gb_connection_enable(struct gb_connection *connection);
int gb_connection_enable_tx(struct gb_connection *connection);
void gb_connection_disable_rx(struct gb_connection *connection);
void gb_connection_disable(struct gb_connection *connection);

/* Ask the host bridge for latency tags on the connection, if it can */
void gb_connection_latency_tag_enable(struct gb_connection *connection);
void gb_connection_latency_tag_disable(struct gb_connection *connection);

static inline void *gb_connection_get_data(struct gb_connection *connection)
{
	return connection->private;
}

static inline void gb_connection_set_data(struct gb_connection *connection,
					  void *data)
{
	connection->private = data;
}

static inline bool gb_connection_is_static(struct gb_connection *connection)
{
	return connection->flags & GB_CONNECTION_FLAG_STATIC;
}

static inline bool gb_connection_is_control(struct gb_connection *connection)
{
	return connection->flags & GB_CONNECTION_FLAG_CONTROL;
}

const char *gb_connection_state_name(enum gb_connection_state state);

#endif /* __GREYBUS_CONNECTION_H */
