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
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <greybus/operation_ids.h>

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

/**
 * enum gb_connection_state - what may flow on a connection
 * @GB_CONNECTION_STATE_DISABLED: nothing flows
 * @GB_CONNECTION_STATE_ENABLED_TX: the AP may send requests; incoming
 *	requests are dropped
 * @GB_CONNECTION_STATE_ENABLED: requests flow both ways
 * @GB_CONNECTION_STATE_DISCONNECTING: being torn down; only the core's
 *	teardown operations may be sent
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

/**
 * struct gb_connection_stats - traffic counters of a connection
 * @requests_sent: requests handed to the host driver
 * @requests_received: requests queued for the handler
 * @responses_received: responses that matched an operation in flight
 * @errors: outgoing operations that completed with an error
 * @timeouts: outgoing operations that timed out
 * @dropped: incoming messages thrown away
 *
 * Shown in debugfs; updated under the connection's lock.
 */
struct gb_connection_stats {
	u64	requests_sent;
	u64	requests_received;
	u64	responses_received;
	u64	errors;
	u64	timeouts;
	u64	dropped;
};

/**
 * struct gb_connection - a path between a bridge CPort and an interface CPort
 * @hd: the host device
 * @intf: the interface; NULL for the SVC's connection
 * @bundle: the bundle; NULL for the control and SVC connections
 * @hd_cport_id: the bridge CPort
 * @intf_cport_id: the interface CPort
 * @protocol_id: the protocol from the manifest's CPort descriptor
 * @bus_id: @hd's bus id, a copy that stays valid after destroy (for
 *	tracepoints and the monitor, which may see a connection whose host
 *	device is gone)
 * @intf_id: @intf's id, or 0xff without one; a copy that stays valid
 *	after destroy, for the monitor's records
 * @bundle_id: @bundle's id, or 0xff without one; likewise
 * @flags: GB_CONNECTION_FLAG_* bits
 * @handler: the request handler, or NULL
 * @name: "hd_cport/intf:cport", for log lines
 * @private: the owner's data, see gb_connection_set_data()
 * @kref: keeps the memory alive for operations still finishing
 * @hd_links: the entry in @hd's list of connections, under @hd's lock
 * @bundle_links: the entry in @bundle's list of connections
 * @mutex: serialises enable and disable
 * @lock: protects @state and the members after it (placed beside @kref
 *	only so that the structure fits 512 bytes); taken in the receive
 *	path, so irq-safe; nests inside @hd's lock
 * @state: the connection's state
 * @operations: outgoing operations in flight
 * @op_timer: the time-out scan of @operations, armed (under @lock) for
 *	no later than the earliest deadline among them (operation.c)
 * @op_cycle: the last operation id used
 * @op_ids: the ids of @operations, each mapped to its operation
 * @incoming: requests queued for @rx_work
 * @incoming_count: the number of entries of @incoming
 * @ops_pending: operations sent whose callback has not run yet
 * @stats: traffic counters
 * @ops_wait: woken when @ops_pending drops to 0
 * @rx_work: hands the requests of @incoming to @handler, one at a time
 *
 * Owned by whoever created it (a bundle driver, the interface's control
 * device, the SVC), who must disable and destroy it.  The reference count
 * only keeps the memory alive for operations still finishing; it is not
 * a way to share a connection.  Drivers use the members up to @private;
 * the rest belongs to the core.
 */
struct gb_connection {
	struct gb_host_device	*hd;
	struct gb_interface	*intf;
	struct gb_bundle	*bundle;
	u16			hd_cport_id;
	u16			intf_cport_id;
	u8			protocol_id;
	int			bus_id;
	u8			intf_id;
	u8			bundle_id;
	unsigned long		flags;
	gb_request_handler_t	handler;
	char			name[16];
	void			*private;

	struct kref		kref;
	spinlock_t		lock;		/* @state and after */
	struct list_head	hd_links;
	struct list_head	bundle_links;

	struct mutex		mutex;		/* enable/disable */
	enum gb_connection_state state;
	u16			op_cycle;
	struct list_head	operations;
	struct timer_list	op_timer;	/* operation.c: time-out scan */
	struct gb_operation_ids	op_ids;
	struct list_head	incoming;
	unsigned int		incoming_count;
	unsigned int		ops_pending;
	struct gb_connection_stats stats;
	wait_queue_head_t	ops_wait;
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
