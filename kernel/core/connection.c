// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus connections: creation on a bridge CPort, and the enable and
 * disable sequences that involve the host driver, the SVC and the
 * interface's control connection.
 *
 * Enable (not the SVC's own static connection):
 *	hd cport_enable -> SVC conn_create -> hd cport_connected
 *	-> Control CONNECTED(cport)		(not for the control connection)
 * Disable:
 *	state DISCONNECTING, cancel operations (-ESHUTDOWN)
 *	-> hd cport_flush -> Control DISCONNECTING(cport)
 *	-> CPort Shutdown phase 1 -> hd cport_quiesce -> CPort Shutdown
 *	phase 2 -> Control DISCONNECTED(cport)	(not for the control conn.)
 *	-> SVC conn_destroy -> hd cport_clear -> hd cport_disable
 * Messages to an interface that is gone (module removed, oops) are
 * skipped, and so is everything but the host driver calls once the host
 * device is being removed.  Teardown steps never fail the teardown.
 *
 * Locking: hd->lock protects hd->connections and bundle->connections and
 * nests outside connection->lock (see operation.c).  connection->mutex
 * serialises enable and disable of one connection.
 */
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <uapi/greybus/monitor.h>
#include <uapi/greybus/svc.h>

#include "internal.h"
#include "greybus_trace.h"

/* What the peer needs to have room for during quiesce: one shutdown */
#define GB_CONNECTION_QUIESCE_PEER_SPACE \
	(sizeof(struct gb_operation_msg_hdr) + \
	 sizeof(struct gb_cport_shutdown_request))
#define GB_CONNECTION_CPORT_TIMEOUT_MS	1000

static void gb_connection_release(struct kref *kref)
{
	struct gb_connection *connection =
		container_of(kref, struct gb_connection, kref);

	/* May run in atomic context (last operation put): memory only */
	trace_gb_connection_release(connection);
	gb_operation_ids_destroy(&connection->op_ids);
	kfree(connection);
}

void gb_connection_get(struct gb_connection *connection)
{
	kref_get(&connection->kref);
	trace_gb_connection_get(connection);
}

void gb_connection_put(struct gb_connection *connection)
{
	trace_gb_connection_put(connection);
	kref_put(&connection->kref, gb_connection_release);
}

/**
 * gb_connection_state_name() - name a connection state
 * @state: the state
 *
 * Context: Any context.
 * Return: a static string: "disabled", "enabled_tx", "enabled",
 * "disconnecting", or "unknown" for a value out of range.
 */
const char *gb_connection_state_name(enum gb_connection_state state)
{
	switch (state) {
	case GB_CONNECTION_STATE_DISABLED:
		return "disabled";
	case GB_CONNECTION_STATE_ENABLED_TX:
		return "enabled_tx";
	case GB_CONNECTION_STATE_ENABLED:
		return "enabled";
	case GB_CONNECTION_STATE_DISCONNECTING:
		return "disconnecting";
	}

	return "unknown";
}
EXPORT_SYMBOL_NS_GPL(gb_connection_state_name, GREYBUS);

/* True once nobody is left to talk to; read locklessly, see operation.c */
bool gb_connection_peer_gone(struct gb_connection *connection)
{
	if (READ_ONCE(connection->hd->removing))
		return true;

	return connection->intf && READ_ONCE(connection->intf->disconnected);
}

struct gb_connection *gb_connection_hd_find(struct gb_host_device *hd,
					    u16 hd_cport_id)
{
	struct gb_connection *connection;
	unsigned long flags;

	spin_lock_irqsave(&hd->lock, flags);
	list_for_each_entry(connection, &hd->connections, hd_links) {
		if (connection->hd_cport_id == hd_cport_id) {
			gb_connection_get(connection);
			spin_unlock_irqrestore(&hd->lock, flags);
			return connection;
		}
	}
	spin_unlock_irqrestore(&hd->lock, flags);

	return NULL;
}

/**
 * gb_hd_cport_name() - name a bridge CPort for a log line
 * @hd: the host device
 * @cport_id: the bridge CPort
 * @buf: where the name goes, NUL-terminated
 * @size: the size of @buf; GB_HD_CPORT_NAME_MAX holds every name
 *
 * Writes the name of the connection on @cport_id ("hd_cport/intf:cport"),
 * or "cport N" when there is none.  Takes @hd->lock.
 *
 * Context: Any context.
 */
void gb_hd_cport_name(struct gb_host_device *hd, u16 cport_id, char *buf,
		      size_t size)
{
	struct gb_connection *connection;
	unsigned long flags;

	spin_lock_irqsave(&hd->lock, flags);
	list_for_each_entry(connection, &hd->connections, hd_links) {
		if (connection->hd_cport_id == cport_id) {
			strscpy(buf, connection->name, size);
			spin_unlock_irqrestore(&hd->lock, flags);
			return;
		}
	}
	spin_unlock_irqrestore(&hd->lock, flags);

	snprintf(buf, size, "cport %u", cport_id);
}
EXPORT_SYMBOL_NS_GPL(gb_hd_cport_name, GREYBUS);

static struct gb_connection *
_gb_connection_create(struct gb_host_device *hd, int hd_cport_id,
		      struct gb_interface *intf, struct gb_bundle *bundle,
		      u16 cport_id, gb_request_handler_t handler,
		      unsigned long flags, u8 protocol_id)
{
	struct gb_connection *connection;
	unsigned long irqflags;
	int ret;

	if (cport_id > GB_CPORT_ID_MAX)
		return ERR_PTR(-EINVAL);

	connection = kzalloc(sizeof(*connection), GFP_KERNEL);
	if (!connection)
		return ERR_PTR(-ENOMEM);

	ret = gb_hd_cport_allocate(hd, hd_cport_id, flags);
	if (ret < 0) {
		dev_err(&hd->dev, "failed to allocate cport: %d\n", ret);
		goto err_free_connection;
	}

	connection->hd_cport_id = ret;
	connection->hd = hd;
	connection->intf = intf;
	connection->bundle = bundle;
	connection->intf_cport_id = cport_id;
	connection->protocol_id = protocol_id;
	connection->bus_id = hd->bus_id;
	connection->intf_id = intf ? intf->interface_id : GB_MON_ID_NONE;
	connection->bundle_id = bundle ? bundle->id : GB_MON_ID_NONE;
	connection->flags = flags;
	connection->handler = handler;
	connection->state = GB_CONNECTION_STATE_DISABLED;
	snprintf(connection->name, sizeof(connection->name), "%u/%u:%u",
		 connection->hd_cport_id, intf ? intf->interface_id : 0,
		 cport_id);

	kref_init(&connection->kref);
	mutex_init(&connection->mutex);
	spin_lock_init(&connection->lock);
	INIT_LIST_HEAD(&connection->operations);
	gb_connection_timeout_init(connection);
	INIT_LIST_HEAD(&connection->incoming);
	INIT_LIST_HEAD(&connection->bundle_links);
	init_waitqueue_head(&connection->ops_wait);
	INIT_WORK(&connection->rx_work, gb_connection_rx_work);

	/* Dropped in destroy: keeps a buggy owner from freeing what we use */
	get_device(&hd->dev);
	if (bundle)
		get_device(&bundle->dev);
	else if (intf)
		get_device(&intf->dev);

	spin_lock_irqsave(&hd->lock, irqflags);
	list_add_tail(&connection->hd_links, &hd->connections);
	if (bundle)
		list_add_tail(&connection->bundle_links, &bundle->connections);
	spin_unlock_irqrestore(&hd->lock, irqflags);

	trace_gb_connection_create(connection);
	dev_dbg(&hd->dev, "%s: created, protocol 0x%02x\n", connection->name,
		protocol_id);

	return connection;

err_free_connection:
	kfree(connection);
	return ERR_PTR(ret);
}

struct gb_connection *
gb_connection_create_static(struct gb_host_device *hd, u16 hd_cport_id,
			    gb_request_handler_t handler, u8 protocol_id)
{
	return _gb_connection_create(hd, hd_cport_id, NULL, NULL, 0, handler,
				     GB_CONNECTION_FLAG_STATIC, protocol_id);
}

struct gb_connection *gb_connection_create_control(struct gb_interface *intf)
{
	return _gb_connection_create(intf->hd, -1, intf, NULL,
				     GREYBUS_CONTROL_CPORT_ID, NULL,
				     GB_CONNECTION_FLAG_CONTROL,
				     GREYBUS_PROTOCOL_CONTROL);
}

/**
 * gb_connection_create_flags() - create a connection to a CPort of a bundle
 * @bundle: the bundle the calling driver is bound to
 * @cport_id: the interface CPort, one of @bundle's
 * @handler: called for each incoming request, in process context, one
 *	request at a time; NULL if the protocol has none (requests are then
 *	answered with GB_OP_PROTOCOL_BAD)
 * @flags: GB_CONNECTION_FLAG_E2EFC, _NO_FLOWCTRL and _HIGH_PRIO; other
 *	bits warn and are ignored
 *
 * Allocates a bridge CPort and the connection, disabled: nothing is set
 * up on the network until gb_connection_enable() or
 * gb_connection_enable_tx().  The caller owns the connection and must
 * destroy it with gb_connection_destroy(), at the latest in its
 * disconnect() or remove(); drivers create and destroy connections only
 * from their probe, disconnect or remove, which the bus serialises.
 *
 * Context: Process context; sleeps.
 * Return: the connection, or an ERR_PTR(): -EINVAL if @cport_id is not
 * one of @bundle's, -ENOMEM, or the error of the bridge CPort allocation
 * (-ENOSPC when every CPort is taken).
 */
struct gb_connection *
gb_connection_create_flags(struct gb_bundle *bundle, u16 cport_id,
			   gb_request_handler_t handler, unsigned long flags)
{
	struct greybus_descriptor_cport *desc = NULL;
	size_t i;

	if (WARN_ON_ONCE(flags & ~GB_CONNECTION_FLAG_USER_MASK))
		flags &= GB_CONNECTION_FLAG_USER_MASK;

	for (i = 0; i < bundle->num_cports; i++) {
		if (le16_to_cpu(bundle->cport_desc[i].id) == cport_id) {
			desc = &bundle->cport_desc[i];
			break;
		}
	}
	if (!desc) {
		dev_err(&bundle->dev, "cport %u is not part of this bundle\n",
			cport_id);
		return ERR_PTR(-EINVAL);
	}

	return _gb_connection_create(bundle->intf->hd, -1, bundle->intf,
				     bundle, cport_id, handler, flags,
				     desc->protocol_id);
}
EXPORT_SYMBOL_NS_GPL(gb_connection_create_flags, GREYBUS);

/**
 * gb_connection_destroy() - destroy a connection
 * @connection: a connection from gb_connection_create_flags(), or NULL
 *
 * Disables the connection if its owner has not (see
 * gb_connection_disable()), releases its bridge CPort and the references
 * it held on the host device and the bundle.  The memory goes once the
 * last operation on it has been put; the caller must not use
 * @connection any more.
 *
 * Context: Process context; sleeps.  Not from the connection's own
 * request handler or operation callbacks.
 */
void gb_connection_destroy(struct gb_connection *connection)
{
	struct gb_host_device *hd;
	unsigned long flags;

	if (!connection)
		return;

	hd = connection->hd;

	gb_connection_disable(connection);
	/* Disabled: nothing in flight, nothing can arm the scan again */
	gb_connection_timeout_stop(connection);

	spin_lock_irqsave(&hd->lock, flags);
	list_del(&connection->hd_links);
	if (connection->bundle)
		list_del(&connection->bundle_links);
	spin_unlock_irqrestore(&hd->lock, flags);

	gb_hd_cport_release(hd, connection->hd_cport_id);

	trace_gb_connection_destroy(connection);
	dev_dbg(&hd->dev, "%s: destroyed\n", connection->name);

	if (connection->bundle)
		put_device(&connection->bundle->dev);
	else if (connection->intf)
		put_device(&connection->intf->dev);
	put_device(&hd->dev);

	gb_connection_put(connection);
}
EXPORT_SYMBOL_NS_GPL(gb_connection_destroy, GREYBUS);

static void gb_connection_set_state(struct gb_connection *connection,
				    enum gb_connection_state state)
{
	spin_lock_irq(&connection->lock);
	connection->state = state;
	spin_unlock_irq(&connection->lock);
}

/* Host driver steps */

static int gb_connection_hd_cport_enable(struct gb_connection *connection)
{
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (!hd->driver->cport_enable)
		return 0;

	ret = hd->driver->cport_enable(hd, connection->hd_cport_id,
				       connection->flags);
	if (ret)
		dev_err(&hd->dev, "%s: failed to enable host cport: %d\n",
			connection->name, ret);

	return ret;
}

static void gb_connection_hd_cport_disable(struct gb_connection *connection)
{
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (!hd->driver->cport_disable)
		return;

	ret = hd->driver->cport_disable(hd, connection->hd_cport_id);
	if (ret)
		dev_dbg(&hd->dev, "%s: failed to disable host cport: %d\n",
			connection->name, ret);
}

static int gb_connection_hd_cport_connected(struct gb_connection *connection)
{
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (!hd->driver->cport_connected)
		return 0;

	ret = hd->driver->cport_connected(hd, connection->hd_cport_id);
	if (ret)
		dev_err(&hd->dev, "%s: failed to set connected state: %d\n",
			connection->name, ret);

	return ret;
}

static void gb_connection_hd_cport_flush(struct gb_connection *connection)
{
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (!hd->driver->cport_flush)
		return;

	ret = hd->driver->cport_flush(hd, connection->hd_cport_id);
	if (ret)
		dev_dbg(&hd->dev, "%s: failed to flush host cport: %d\n",
			connection->name, ret);
}

static void gb_connection_hd_cport_quiesce(struct gb_connection *connection)
{
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (!hd->driver->cport_quiesce)
		return;

	ret = hd->driver->cport_quiesce(hd, connection->hd_cport_id,
					GB_CONNECTION_QUIESCE_PEER_SPACE,
					GB_CONNECTION_CPORT_TIMEOUT_MS);
	if (ret)
		dev_dbg(&hd->dev, "%s: failed to quiesce host cport: %d\n",
			connection->name, ret);
}

static void gb_connection_hd_cport_clear(struct gb_connection *connection)
{
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (!hd->driver->cport_clear)
		return;

	ret = hd->driver->cport_clear(hd, connection->hd_cport_id);
	if (ret)
		dev_dbg(&hd->dev, "%s: failed to clear host cport: %d\n",
			connection->name, ret);
}

/* SVC steps */

static u8 gb_connection_svc_flags(struct gb_connection *connection)
{
	u8 flags = GB_SVC_CONN_CSV_N;

	if (connection->flags & GB_CONNECTION_FLAG_E2EFC)
		flags |= GB_SVC_CONN_E2EFC | GB_SVC_CONN_CSD_N;
	else if (connection->flags & GB_CONNECTION_FLAG_NO_FLOWCTRL)
		flags |= GB_SVC_CONN_CSD_N;

	return flags;
}

static int gb_connection_svc_connection_create(struct gb_connection *connection)
{
	struct gb_svc *svc = connection->hd->svc;
	int ret;

	ret = gb_svc_connection_create(svc, svc->ap_intf_id,
				       connection->hd_cport_id,
				       connection->intf->interface_id,
				       connection->intf_cport_id,
				       gb_connection_svc_flags(connection));
	if (ret && ret != -ESHUTDOWN)
		dev_err_ratelimited(&connection->hd->dev,
				    "%s: failed to create svc connection: %d\n",
				    connection->name, ret);

	return ret;
}

static void
gb_connection_svc_connection_destroy(struct gb_connection *connection)
{
	struct gb_svc *svc = connection->hd->svc;

	/* With the host device going away the SVC is unreachable too */
	if (READ_ONCE(connection->hd->removing))
		return;

	gb_svc_connection_destroy(svc, svc->ap_intf_id,
				  connection->hd_cport_id,
				  connection->intf->interface_id,
				  connection->intf_cport_id);
}

/* Control and CPort Shutdown steps, skipped when the peer is gone */

static int gb_connection_control_connected(struct gb_connection *connection)
{
	struct gb_control *control = connection->intf->control;

	if (!control)
		return -ENODEV;

	return gb_control_connected_operation(control,
					      connection->intf_cport_id);
}

static void
gb_connection_control_disconnecting(struct gb_connection *connection)
{
	struct gb_control *control = connection->intf->control;

	if (control && !gb_connection_peer_gone(connection))
		gb_control_disconnecting_operation(control,
						   connection->intf_cport_id);
}

static void gb_connection_control_disconnected(struct gb_connection *connection)
{
	struct gb_control *control = connection->intf->control;

	if (control && !gb_connection_peer_gone(connection))
		gb_control_disconnected_operation(control,
						  connection->intf_cport_id);
}

static void gb_connection_shutdown(struct gb_connection *connection, u8 phase)
{
	struct gb_cport_shutdown_request request = { .phase = phase };
	unsigned int timeout = GB_CONNECTION_CPORT_TIMEOUT_MS;
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (gb_connection_peer_gone(connection))
		return;

	if (hd->driver->cport_shutdown)
		ret = hd->driver->cport_shutdown(hd, connection->hd_cport_id,
						 phase, timeout);
	else
		ret = gb_operation_sync_core(connection,
					     GB_REQUEST_TYPE_CPORT_SHUTDOWN,
					     &request, sizeof(request),
					     timeout);
	if (ret)
		dev_dbg(&hd->dev, "%s: cport shutdown phase %u failed: %d\n",
			connection->name, phase, ret);
}

/*
 * Waits until every cancelled operation's callback has returned.  Drivers
 * free the data their callbacks use once the connection is disabled, so
 * going on earlier would let a late callback reach freed memory: a
 * callback still running after GB_OPERATION_CANCEL_WAIT_MS is reported
 * once, and waited for all the same.
 */
static void gb_connection_wait_operations(struct gb_connection *connection)
{
	unsigned long timeout = msecs_to_jiffies(GB_OPERATION_CANCEL_WAIT_MS);

	if (wait_event_timeout(connection->ops_wait,
			       !READ_ONCE(connection->ops_pending), timeout))
		return;
	dev_warn(&connection->hd->dev,
		 "%s: operations still pending %u s after teardown, waiting for them\n",
		 connection->name, GB_OPERATION_CANCEL_WAIT_MS / 1000);
	wait_event(connection->ops_wait, !READ_ONCE(connection->ops_pending));
}

/* From enabled (either way) to disconnecting, nothing left in flight */
static void gb_connection_quiesce_local(struct gb_connection *connection)
{
	gb_connection_set_state(connection,
				GB_CONNECTION_STATE_DISCONNECTING);
	gb_connection_cancel_operations(connection, -ESHUTDOWN);
	gb_connection_flush_incoming(connection);
	gb_connection_wait_operations(connection);
}

static int _gb_connection_enable(struct gb_connection *connection, bool rx)
{
	enum gb_connection_state state = rx ? GB_CONNECTION_STATE_ENABLED :
					      GB_CONNECTION_STATE_ENABLED_TX;
	int ret;

	trace_gb_connection_enable(connection);

	switch (connection->state) {
	case GB_CONNECTION_STATE_ENABLED:
		return 0;
	case GB_CONNECTION_STATE_ENABLED_TX:
		if (rx)
			gb_connection_set_state(connection, state);
		return 0;
	default:
		break;
	}

	if (gb_connection_peer_gone(connection))
		return -ESHUTDOWN;

	if (gb_connection_is_static(connection)) {
		/*
		 * The peer of a static connection (the SVC) may speak as
		 * soon as the bridge enables the CPort, before this returns:
		 * accept its messages first.
		 */
		gb_connection_set_state(connection, state);
		ret = gb_connection_hd_cport_enable(connection);
		if (ret) {
			gb_connection_quiesce_local(connection);
			gb_connection_set_state(connection,
						GB_CONNECTION_STATE_DISABLED);
		}
		return ret;
	}

	ret = gb_connection_hd_cport_enable(connection);
	if (ret)
		return ret;

	ret = gb_connection_svc_connection_create(connection);
	if (ret)
		goto err_hd_cport_disable;

	ret = gb_connection_hd_cport_connected(connection);
	if (ret)
		goto err_svc_connection_destroy;

	gb_connection_set_state(connection, state);

	if (!gb_connection_is_control(connection)) {
		ret = gb_connection_control_connected(connection);
		if (ret)
			goto err_quiesce_local;
	}

	dev_dbg(&connection->hd->dev, "%s: enabled%s\n", connection->name,
		rx ? "" : " (tx only)");

	return 0;

err_quiesce_local:
	gb_connection_quiesce_local(connection);
	gb_connection_set_state(connection, GB_CONNECTION_STATE_DISABLED);
err_svc_connection_destroy:
	gb_connection_svc_connection_destroy(connection);
err_hd_cport_disable:
	gb_connection_hd_cport_disable(connection);

	return ret;
}

/**
 * gb_connection_enable() - set a connection up for traffic both ways
 * @connection: the connection
 *
 * From disabled: enables the bridge CPort, has the SVC create the
 * connection between the bridge and the interface, and tells the
 * interface (Control connected) before returning; requests may be sent
 * and incoming requests reach the handler.  From enabled_tx it only
 * starts delivering incoming requests.  Enabling an enabled connection
 * does nothing.  Serialised with the other enable and disable calls by
 * @connection->mutex.
 *
 * Context: Process context; sleeps (operations to the SVC and the
 * interface).  Not from the connection's own request handler or
 * operation callbacks.
 * Return: 0; -ESHUTDOWN if the interface or the host device is going
 * away; otherwise the error of the step that failed, with the steps
 * before it undone.
 */
int gb_connection_enable(struct gb_connection *connection)
{
	int ret;

	mutex_lock(&connection->mutex);
	ret = _gb_connection_enable(connection, true);
	mutex_unlock(&connection->mutex);

	return ret;
}
EXPORT_SYMBOL_NS_GPL(gb_connection_enable, GREYBUS);

/**
 * gb_connection_enable_tx() - set a connection up for outgoing requests only
 * @connection: the connection
 *
 * As gb_connection_enable(), but incoming requests are dropped until
 * gb_connection_enable() is called: the usual first step of a driver
 * that must be set up before the module may send to it.  Does nothing
 * on a connection already enabled either way.
 *
 * Context: Process context; sleeps.  Not from the connection's own
 * request handler or operation callbacks.
 * Return: as gb_connection_enable().
 */
int gb_connection_enable_tx(struct gb_connection *connection)
{
	int ret;

	mutex_lock(&connection->mutex);
	ret = _gb_connection_enable(connection, false);
	mutex_unlock(&connection->mutex);

	return ret;
}
EXPORT_SYMBOL_NS_GPL(gb_connection_enable_tx, GREYBUS);

/**
 * gb_connection_disable_rx() - stop delivering incoming requests
 * @connection: the connection
 *
 * From enabled back to enabled_tx: waits for the request handler if it
 * is running and drops the requests still queued; outgoing operations
 * carry on.  Does nothing in any other state.
 *
 * Context: Process context; sleeps.  Not from the connection's own
 * request handler or operation callbacks.
 */
void gb_connection_disable_rx(struct gb_connection *connection)
{
	mutex_lock(&connection->mutex);
	trace_gb_connection_disable(connection);
	if (connection->state == GB_CONNECTION_STATE_ENABLED) {
		gb_connection_set_state(connection,
					GB_CONNECTION_STATE_ENABLED_TX);
		gb_connection_flush_incoming(connection);
	}
	mutex_unlock(&connection->mutex);
}
EXPORT_SYMBOL_NS_GPL(gb_connection_disable_rx, GREYBUS);

/**
 * gb_connection_disable() - tear a connection down
 * @connection: the connection
 *
 * Completes every operation in flight with -ESHUTDOWN and waits for
 * their callbacks, drops queued incoming requests, then (unless the
 * interface or the host device is already gone) runs the teardown with
 * the interface (Control disconnecting, CPort shutdown, Control
 * disconnected), has the SVC destroy the connection and disables the
 * bridge CPort.  The connection may be enabled again afterwards.  Does
 * nothing on a disabled connection.
 *
 * Context: Process context; sleeps.  Not from the connection's own
 * request handler or operation callbacks.
 */
void gb_connection_disable(struct gb_connection *connection)
{
	mutex_lock(&connection->mutex);
	trace_gb_connection_disable(connection);

	if (connection->state == GB_CONNECTION_STATE_DISABLED)
		goto out_unlock;

	gb_connection_quiesce_local(connection);
	gb_connection_hd_cport_flush(connection);

	if (!gb_connection_is_static(connection)) {
		gb_connection_control_disconnecting(connection);
		gb_connection_shutdown(connection, 1);
		gb_connection_hd_cport_quiesce(connection);
		gb_connection_shutdown(connection, 2);
		if (!gb_connection_is_control(connection))
			gb_connection_control_disconnected(connection);
		gb_connection_svc_connection_destroy(connection);
		gb_connection_hd_cport_clear(connection);
	}

	gb_connection_set_state(connection, GB_CONNECTION_STATE_DISABLED);
	gb_connection_hd_cport_disable(connection);

	dev_dbg(&connection->hd->dev, "%s: disabled\n", connection->name);

out_unlock:
	mutex_unlock(&connection->mutex);
}
EXPORT_SYMBOL_NS_GPL(gb_connection_disable, GREYBUS);

/*
 * The sweeps: complete everything in flight on every connection of @hd
 * (or only @intf's), after the caller made new sends fail by setting
 * hd->removing or intf->disconnected.  Setting the flag before taking
 * each connection->lock means a sender either sees the flag or put its
 * operation on the list before we look.  Do not wait; any context.
 */
static void gb_connections_cancel(struct gb_host_device *hd,
				  struct gb_interface *intf, int errno)
{
	struct gb_connection *connection;
	unsigned long flags;

	spin_lock_irqsave(&hd->lock, flags);
	list_for_each_entry(connection, &hd->connections, hd_links) {
		if (intf && connection->intf != intf)
			continue;
		spin_lock(&connection->lock);
		gb_connection_cancel_operations_locked(connection, errno);
		spin_unlock(&connection->lock);
	}
	spin_unlock_irqrestore(&hd->lock, flags);
}

void gb_hd_cancel_operations(struct gb_host_device *hd, int errno)
{
	unsigned long flags;

	spin_lock_irqsave(&hd->lock, flags);
	WRITE_ONCE(hd->removing, true);
	spin_unlock_irqrestore(&hd->lock, flags);

	gb_connections_cancel(hd, NULL, errno);
}

void gb_interface_cancel_operations(struct gb_interface *intf, int errno)
{
	gb_connections_cancel(intf->hd, intf, errno);
}

/*
 * The interface is gone: shut the bundle's connections down before the
 * driver's disconnect() so it never waits for an answer that cannot
 * come.  The driver's own disable and destroy then find them disabled.
 */
void gb_bundle_disable_connections(struct gb_bundle *bundle)
{
	struct gb_connection *connection;

	/*
	 * The list only changes in the driver's probe and disconnect, which
	 * the driver core serialises with us (we run in its remove).
	 */
	list_for_each_entry(connection, &bundle->connections, bundle_links)
		gb_connection_disable(connection);
}

/**
 * gb_connection_latency_tag_enable() - have the bridge tag latencies
 * @connection: the connection
 *
 * Asks the host driver to stamp its latency into the responses on
 * @connection (the reserved fields of gb-loopback's messages).  Best
 * effort: without the callback nothing happens, and a bridge without
 * latency tags leaves the fields zero, which gb-loopback reports as a
 * latency of 0; a failure is logged.
 *
 * Context: Process context; may sleep.
 */
void gb_connection_latency_tag_enable(struct gb_connection *connection)
{
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (!hd->driver->latency_tag_enable)
		return;

	ret = hd->driver->latency_tag_enable(hd, connection->hd_cport_id);
	if (ret)
		dev_err(&hd->dev, "%s: failed to enable latency tag: %d\n",
			connection->name, ret);
}
EXPORT_SYMBOL_NS_GPL(gb_connection_latency_tag_enable, GREYBUS);

/**
 * gb_connection_latency_tag_disable() - stop the bridge's latency tags
 * @connection: the connection
 *
 * Undoes gb_connection_latency_tag_enable(); best effort as well.
 *
 * Context: Process context; may sleep.
 */
void gb_connection_latency_tag_disable(struct gb_connection *connection)
{
	struct gb_host_device *hd = connection->hd;
	int ret;

	if (!hd->driver->latency_tag_disable)
		return;

	ret = hd->driver->latency_tag_disable(hd, connection->hd_cport_id);
	if (ret)
		dev_err(&hd->dev, "%s: failed to disable latency tag: %d\n",
			connection->name, ret);
}
EXPORT_SYMBOL_NS_GPL(gb_connection_latency_tag_disable, GREYBUS);
