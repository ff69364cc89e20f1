// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus operations: sending requests and matching their responses,
 * receiving requests and answering them, timeouts and cancellation.
 *
 * How an outgoing operation lives:
 *
 *  - gb_operation_request_send() gives it an id and a deadline, puts it
 *    on the connection's @operations list with @errno = -EINPROGRESS,
 *    makes sure the connection's time-out scan runs by the deadline and
 *    hands the request to the host driver.
 *  - Exactly one of "response received", "deadline passed", "cancelled",
 *    "host driver failed the request" (or, unidirectional, "host driver
 *    sent it") *claims* the operation: under connection->lock it takes it
 *    off the list and sets @errno.  The list is what the receive path
 *    searches, so a late or duplicate response finds nothing and is
 *    reported as unexpected.
 *  - The claimer queues @work, which runs the callback (or wakes the
 *    synchronous waiter) in process context, then completes
 *    @completion and lets connection teardown know it is done.  A
 *    response that claims an operation without a callback, or with one
 *    flagged GB_OPERATION_FLAG_CALLBACK_ATOMIC, completes it at once
 *    instead, from the receive path: no work item in between.
 *
 * References: the caller's (from create); one for the time the operation
 * is in flight (from send until it is completed); one while
 * the host driver holds one of its messages (dropped in
 * greybus_message_sent()).  The last put frees the operation and may come
 * from any context, so the release only frees memory.
 *
 * Memory: an operation is one allocation holding both its messages and,
 * when they fit in GB_OPERATION_INLINE_MAX bytes, their buffers; a larger
 * buffer is an allocation of its own (gb_message->separate).  Everything
 * lives exactly as long as the operation: no host driver keeps a buffer
 * past greybus_message_sent(), no caller past its last put.
 *
 * Incoming requests arrive in greybus_data_rcvd(), possibly in atomic
 * context: they are copied, queued on their connection (at most
 * GB_CONNECTION_INCOMING_MAX at a time) and handled one after the other
 * by the connection's rx work, which sends the response.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "monitor.h"
#include "greybus_trace.h"

/* A flood of requests must not grow a queue without bound */
#define GB_CONNECTION_INCOMING_MAX	64

/* Bits of operation->state */
enum {
	GB_OP_STATE_SENT,		/* request_send() got it going */
	GB_OP_STATE_REQUEST_IN_HD,	/* the host driver holds the request */
	GB_OP_STATE_RESPONSE_IN_HD,	/* ... or our response */
};

static struct workqueue_struct *gb_operation_completion_wq;
static struct workqueue_struct *gb_operation_rx_wq;

/**
 * gb_operation_status_to_errno() - map a Greybus result code to an errno
 * @status: the result byte of a response (GB_OP_*)
 *
 * Context: Any context.
 * Return: 0 for GB_OP_SUCCESS, the matching negative errno for the other
 * defined codes (e.g. -ETIMEDOUT for GB_OP_TIMEOUT), -EIO for any other
 * value.
 */
int gb_operation_status_to_errno(u8 status)
{
	switch (status) {
	case GB_OP_SUCCESS:
		return 0;
	case GB_OP_INTERRUPTED:
		return -EINTR;
	case GB_OP_TIMEOUT:
		return -ETIMEDOUT;
	case GB_OP_NO_MEMORY:
		return -ENOMEM;
	case GB_OP_PROTOCOL_BAD:
		return -EPROTONOSUPPORT;
	case GB_OP_OVERFLOW:
		return -EMSGSIZE;
	case GB_OP_INVALID:
		return -EINVAL;
	case GB_OP_RETRY:
		return -EAGAIN;
	case GB_OP_NONEXISTENT:
		return -ENODEV;
	case GB_OP_MALFUNCTION:
		return -EILSEQ;
	default:
		return -EIO;
	}
}
EXPORT_SYMBOL_NS_GPL(gb_operation_status_to_errno, GREYBUS);

/**
 * gb_operation_errno_to_status() - map an errno to a Greybus result code
 * @errno: 0 or a negative errno, as a request handler returns it
 *
 * The inverse of gb_operation_status_to_errno() for the errnos it
 * produces.
 *
 * Context: Any context.
 * Return: the GB_OP_* code, GB_OP_UNKNOWN_ERROR for an errno that has
 * none.
 */
u8 gb_operation_errno_to_status(int errno)
{
	switch (errno) {
	case 0:
		return GB_OP_SUCCESS;
	case -EINTR:
		return GB_OP_INTERRUPTED;
	case -ETIMEDOUT:
		return GB_OP_TIMEOUT;
	case -ENOMEM:
		return GB_OP_NO_MEMORY;
	case -EPROTONOSUPPORT:
		return GB_OP_PROTOCOL_BAD;
	case -EMSGSIZE:
		return GB_OP_OVERFLOW;
	case -EINVAL:
		return GB_OP_INVALID;
	case -EAGAIN:
		return GB_OP_RETRY;
	case -ENODEV:
		return GB_OP_NONEXISTENT;
	case -EILSEQ:
		return GB_OP_MALFUNCTION;
	default:
		return GB_OP_UNKNOWN_ERROR;
	}
}
EXPORT_SYMBOL_NS_GPL(gb_operation_errno_to_status, GREYBUS);

/**
 * gb_operation_get_payload_size_max() - largest payload of a connection
 * @connection: the connection
 *
 * Context: Any context.
 * Return: the largest request or response payload, in bytes, that the
 * connection's host device can carry (its largest message less the
 * header).
 */
size_t gb_operation_get_payload_size_max(struct gb_connection *connection)
{
	return connection->hd->buffer_size_max -
	       sizeof(struct gb_operation_msg_hdr);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_get_payload_size_max, GREYBUS);

/* Messages */

/*
 * Sets up @message, one of @operation's two, with a buffer for @type and
 * @payload_size bytes of payload: in @room (@room_size bytes of the
 * operation's own allocation) if it fits, else allocated apart.  False if
 * the message exceeds the host's largest or memory ran out.
 */
static bool gb_message_init(struct gb_operation *operation,
			    struct gb_message *message, u8 type,
			    size_t payload_size, void *room, size_t room_size,
			    gfp_t gfp)
{
	struct gb_host_device *hd = operation->connection->hd;
	size_t size = sizeof(struct gb_operation_msg_hdr) + payload_size;
	struct gb_operation_msg_hdr *header;

	if (size > hd->buffer_size_max)
		return false;

	/*
	 * A host driver may map the buffer for DMA towards the device only
	 * (received messages are copied in), so sharing cache lines with
	 * the operation is harmless.
	 */
	if (room && size <= room_size) {
		header = room;
		memset(header, 0, size);
		message->separate = false;
	} else {
		header = kzalloc(size, gfp);
		if (!header)
			return false;
		message->separate = true;
	}

	header->size = cpu_to_le16(size);
	header->type = type;
	message->header = header;
	message->payload = header + 1;
	message->payload_size = payload_size;
	message->operation = operation;

	return true;
}

static void gb_message_buffer_free(struct gb_message *message)
{
	if (message->separate)
		kfree(message->header);
	message->separate = false;
	message->header = NULL;
}

/* Allocation and references */

static void gb_operation_work(struct work_struct *work);

/*
 * One allocation: the operation, both its messages, and their buffers as
 * far as they fit in GB_OPERATION_INLINE_MAX bytes, the request first
 * (docs/architecture.md), then @priv_size bytes for the sender's own
 * record, zeroed, at @operation->private (none if 0).  @response_room is
 * the bytes (header included) to keep for the response, 0 for none.  The
 * request is set up for @request_size bytes of payload; the response is
 * left to the caller.
 */
static struct gb_operation *gb_operation_alloc(struct gb_connection *connection,
					       u8 type, unsigned long flags,
					       size_t request_size,
					       size_t response_room,
					       size_t priv_size, gfp_t gfp)
{
	size_t request_room = sizeof(struct gb_operation_msg_hdr) + request_size;
	struct gb_operation *operation;

	request_room = request_room <= GB_OPERATION_INLINE_MAX ?
		       ALIGN(request_room, 8) : 0;
	if (request_room + response_room > GB_OPERATION_INLINE_MAX)
		response_room = 0;

	operation = kzalloc(struct_size(operation, buf,
					request_room + response_room +
					ALIGN(priv_size, 8)), gfp);
	if (!operation)
		return NULL;
	if (priv_size)
		operation->private = operation->buf + request_room +
				     response_room;

	operation->connection = connection;
	operation->type = type;
	operation->flags = flags;
	operation->errno = -EBADR;
	kref_init(&operation->kref);
	INIT_LIST_HEAD(&operation->links);
	INIT_WORK(&operation->work, gb_operation_work);
	init_completion(&operation->completion);
	if (response_room) {
		operation->response_room = operation->buf + request_room;
		operation->response_room_size = response_room;
	}

	/* Keeps the connection's memory while we finish, not the connection */
	gb_connection_get(connection);

	if (!gb_message_init(operation, &operation->request_msg, type,
			     request_size, operation->buf, request_room, gfp)) {
		gb_operation_put(operation);
		return NULL;
	}
	operation->request = &operation->request_msg;

	return operation;
}

static void gb_operation_release(struct kref *kref)
{
	struct gb_operation *operation =
		container_of(kref, struct gb_operation, kref);
	struct gb_connection *connection = operation->connection;

	trace_gb_operation_destroy(operation);
	gb_message_buffer_free(&operation->request_msg);
	gb_message_buffer_free(&operation->response_msg);
	kfree(operation);

	gb_connection_put(connection);
}

/**
 * gb_operation_get() - take a reference to an operation
 * @operation: the operation
 *
 * Context: Any context.
 */
void gb_operation_get(struct gb_operation *operation)
{
	kref_get(&operation->kref);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_get, GREYBUS);

/**
 * gb_operation_put() - drop a reference to an operation
 * @operation: the operation, or NULL
 *
 * The last put frees the operation and its messages; a sender may drop
 * its reference while the operation is in flight, since the core holds
 * its own until the callback has returned.
 *
 * Context: Any context.
 */
void gb_operation_put(struct gb_operation *operation)
{
	if (operation)
		kref_put(&operation->kref, gb_operation_release);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_put, GREYBUS);

static struct gb_operation *
__gb_operation_create(struct gb_connection *connection, u8 type,
		      size_t request_size, size_t response_size,
		      unsigned long flags, size_t priv_size, gfp_t gfp)
{
	bool unidirectional = flags & GB_OPERATION_FLAG_UNIDIRECTIONAL;
	size_t response_room = 0;
	struct gb_operation *operation;

	if (!unidirectional)
		response_room = ALIGN(sizeof(struct gb_operation_msg_hdr) +
				      response_size, 8);
	operation = gb_operation_alloc(connection, type, flags, request_size,
				       response_room, priv_size, gfp);
	if (!operation)
		return NULL;

	if (!unidirectional) {
		if (!gb_message_init(operation, &operation->response_msg,
				     type | GB_MSG_TYPE_RESPONSE, response_size,
				     operation->response_room,
				     operation->response_room_size, gfp))
			goto err_put;
		operation->response = &operation->response_msg;
	}

	if (flags & GB_OPERATION_FLAG_CORE)
		trace_gb_operation_create_core(operation);
	else
		trace_gb_operation_create(operation);
	return operation;

err_put:
	gb_operation_put(operation);
	return NULL;
}

/* What a driver may ask of an outgoing operation (warns otherwise) */
static bool gb_operation_create_args_ok(u8 type, size_t response_size,
					unsigned long flags)
{
	if (WARN_ON_ONCE(type == GB_REQUEST_TYPE_INVALID ||
			 (type & GB_MSG_TYPE_RESPONSE)))
		return false;
	if (WARN_ON_ONCE(flags & ~GB_OPERATION_FLAG_USER_MASK))
		return false;
	if (WARN_ON_ONCE((flags & GB_OPERATION_FLAG_UNIDIRECTIONAL) &&
			 response_size))
		return false;

	return true;
}

/**
 * gb_operation_create_flags() - allocate an outgoing operation
 * @connection: the connection it will be sent on
 * @type: the request type, neither 0 nor with GB_MSG_TYPE_RESPONSE set
 * @request_size: bytes of request payload, may be 0
 * @response_size: bytes of response payload expected, may be 0; must be
 *	0 for a unidirectional operation
 * @flags: GB_OPERATION_FLAG_UNIDIRECTIONAL (no response),
 *	GB_OPERATION_FLAG_SHORT_RESPONSE (a shorter response is accepted)
 *	and GB_OPERATION_FLAG_CALLBACK_ATOMIC (the callback never sleeps, so
 *	the response may run it from the receive path, in any context)
 * @gfp: allocation flags
 *
 * The request's header is filled in; the caller fills the payload
 * (@operation->request->payload) and sends it with
 * gb_operation_request_send().  The caller owns the returned reference.
 *
 * Context: Any context if @gfp allows it.
 * Return: the operation, or NULL if a message does not fit the host's
 * largest message, memory ran out, or an argument is invalid (which
 * also warns).
 */
struct gb_operation *
gb_operation_create_flags(struct gb_connection *connection, u8 type,
			  size_t request_size, size_t response_size,
			  unsigned long flags, gfp_t gfp)
{
	if (!gb_operation_create_args_ok(type, response_size, flags))
		return NULL;

	return __gb_operation_create(connection, type, request_size,
				     response_size, flags, 0, gfp);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_create_flags, GREYBUS);

/**
 * gb_operation_create_priv() - allocate an outgoing operation with room
 *	for the sender's own record
 * @connection: the connection it will be sent on
 * @type: as for gb_operation_create_flags()
 * @request_size: as for gb_operation_create_flags()
 * @response_size: as for gb_operation_create_flags()
 * @flags: as for gb_operation_create_flags()
 * @priv_size: bytes of the record, 1 to GB_OPERATION_PRIV_MAX
 * @gfp: allocation flags
 *
 * gb_operation_create_flags(), plus @priv_size zeroed bytes, 8-byte
 * aligned, in the operation's own allocation, at @operation->private: a
 * sender that keeps a record per operation needs no allocation of its
 * own.  The record lives exactly as long as the operation, so a sender
 * must not touch it after its last gb_operation_put().
 *
 * Context: Any context if @gfp allows it.
 * Return: the operation, or NULL as for gb_operation_create_flags(), or
 * if @priv_size is out of range (which also warns).
 */
struct gb_operation *
gb_operation_create_priv(struct gb_connection *connection, u8 type,
			 size_t request_size, size_t response_size,
			 unsigned long flags, size_t priv_size, gfp_t gfp)
{
	if (WARN_ON_ONCE(!priv_size || priv_size > GB_OPERATION_PRIV_MAX))
		return NULL;
	if (!gb_operation_create_args_ok(type, response_size, flags))
		return NULL;

	return __gb_operation_create(connection, type, request_size,
				     response_size, flags, priv_size, gfp);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_create_priv, GREYBUS);

/**
 * gb_operation_response_alloc() - allocate the response to a request
 * @operation: an incoming operation, given to a request handler
 * @response_size: bytes of response payload
 * @gfp: allocation flags
 *
 * For a request handler that answers with a payload: allocates the
 * response (replacing one of another size) for the handler to fill in
 * @operation->response->payload; the core sends it when the handler
 * returns 0.  Without it the core sends a response without payload.
 *
 * Context: The request handler (process context); any context if @gfp
 * allows it.
 * Return: true, or false if memory ran out or the payload does not fit
 * the host's largest message.
 */
bool gb_operation_response_alloc(struct gb_operation *operation,
				 size_t response_size, gfp_t gfp)
{
	struct gb_connection *connection = operation->connection;
	struct gb_message *response = &operation->response_msg;

	if (operation->response) {
		if (operation->response->payload_size == response_size)
			return true;
		gb_message_buffer_free(operation->response);
		operation->response = NULL;
	}

	if (!gb_message_init(operation, response,
			     operation->type | GB_MSG_TYPE_RESPONSE,
			     response_size, operation->response_room,
			     operation->response_room_size, gfp)) {
		dev_err_ratelimited(&connection->hd->dev,
				    "%s: failed to allocate response of %zu bytes for type 0x%02x\n",
				    connection->name, response_size, operation->type);
		return false;
	}
	response->header->operation_id = cpu_to_le16(operation->id);
	operation->response = response;

	return true;
}
EXPORT_SYMBOL_NS_GPL(gb_operation_response_alloc, GREYBUS);

/* Handing messages to the host driver */

static int gb_message_send(struct gb_message *message, int in_hd_bit,
			   gfp_t gfp)
{
	struct gb_operation *operation = message->operation;
	struct gb_connection *connection = operation->connection;
	struct gb_host_device *hd = connection->hd;
	size_t size = le16_to_cpu(message->header->size);
	struct gb_operation_msg_hdr header;
	int ret;

	/*
	 * What hd.h promises every host driver, checked once here: a CPort
	 * of the host, a whole header, no more than the host takes.  Only
	 * a driver that rewrote the header's size could fail it.
	 */
	if (connection->hd_cport_id >= hd->num_cports ||
	    size < sizeof(*message->header) || size > hd->buffer_size_max) {
		dev_err_ratelimited(&hd->dev,
				    "%s: %zu-byte message of type 0x%02x refused on CPort %u\n",
				    connection->name, size, message->header->type,
				    connection->hd_cport_id);
		return -EMSGSIZE;
	}

	/*
	 * Set up first: the driver may complete before it returns.  Once it
	 * has taken the message, the operation (the message with it) may be
	 * finished and freed before the call returns (gb-vhd hands the
	 * message on and reports it sent, the answer may come and complete
	 * the operation meanwhile): after a success only the caller's
	 * @connection and the copy of the header may still be used.
	 */
	header = *message->header;
	gb_operation_get(operation);
	set_bit(in_hd_bit, &operation->state);

	trace_gb_message_send(connection, &header);
	trace_gb_hd_out(hd);
	gb_mon_message(hd, connection, connection->hd_cport_id,
		       message->header, size, 0);
	ret = hd->driver->message_send(hd, connection->hd_cport_id, message,
				       gfp);
	if (!ret) {
		trace_gb_message_submit(connection, &header);
		return 0;
	}

	/* Refused: the driver kept nothing, the reference is still ours */
	gb_mon_event(connection, GB_MON_KIND_SEND_ERROR, 0, header.type,
		     le16_to_cpu(header.operation_id), ret);
	clear_bit(in_hd_bit, &operation->state);
	gb_operation_put(operation);

	return ret;
}

/* Completion of outgoing operations */

/* Caller holds connection->lock.  True if this call completed it. */
static bool gb_operation_claim_locked(struct gb_operation *operation,
				      int errno)
{
	struct gb_connection *connection = operation->connection;

	if (operation->errno != -EINPROGRESS)
		return false;

	list_del_init(&operation->links);
	if (!gb_operation_is_incoming(operation) && operation->id)
		gb_operation_ids_clear(&connection->op_ids, operation->id,
				       connection->op_cycle);
	operation->errno = errno;
	if (errno)
		connection->stats.errors++;
	if (errno == -ETIMEDOUT)
		connection->stats.timeouts++;

	return true;
}

static bool gb_operation_claim(struct gb_operation *operation, int errno)
{
	struct gb_connection *connection = operation->connection;
	unsigned long flags;
	bool claimed;

	spin_lock_irqsave(&connection->lock, flags);
	claimed = gb_operation_claim_locked(operation, errno);
	spin_unlock_irqrestore(&connection->lock, flags);

	return claimed;
}

/* Passes the in-flight reference on to the work */
static void gb_operation_schedule_completion(struct gb_operation *operation)
{
	queue_work(gb_operation_completion_wq, &operation->work);
}

/*
 * The end of a claimed operation, after its callback: wakes the waiters,
 * lets connection teardown know, and drops the in-flight reference.  Any
 * context.
 */
static void gb_operation_finish(struct gb_operation *operation)
{
	struct gb_connection *connection = operation->connection;
	unsigned long flags;

	trace_gb_operation_put_active(operation);
	complete_all(&operation->completion);

	spin_lock_irqsave(&connection->lock, flags);
	connection->ops_pending--;
	spin_unlock_irqrestore(&connection->lock, flags);
	wake_up(&connection->ops_wait);

	gb_operation_put(operation);
}

static void gb_operation_work(struct work_struct *work)
{
	struct gb_operation *operation =
		container_of(work, struct gb_operation, work);
	struct gb_host_device *hd = operation->connection->hd;

	/*
	 * Completed without the host driver having sent the request
	 * (timeout, cancel): take it back, it must not go out any more.
	 */
	if (operation->errno &&
	    test_bit(GB_OP_STATE_REQUEST_IN_HD, &operation->state) &&
	    hd->driver->message_cancel)
		hd->driver->message_cancel(operation->request);

	if (operation->callback)
		operation->callback(operation);

	gb_operation_finish(operation);
}

/*
 * Completes an operation its response claimed.  Without a callback (a
 * synchronous sender waits on the completion) or with one that never
 * sleeps, and without a request to take back from the host driver,
 * nothing needs process context: the callback runs and the waiter is
 * woken from here, without the hop through the completion work.  There
 * is no timer of its own to stop: the claim took it off the list the
 * connection's time-out scan walks.
 */
static void gb_operation_complete_response(struct gb_operation *operation)
{
	if ((operation->callback &&
	     !(operation->flags & GB_OPERATION_FLAG_CALLBACK_ATOMIC)) ||
	    (operation->errno &&
	     test_bit(GB_OP_STATE_REQUEST_IN_HD, &operation->state))) {
		gb_operation_schedule_completion(operation);
		return;
	}

	if (operation->callback)
		operation->callback(operation);
	gb_operation_finish(operation);
}

/* Time-outs: one scan per connection */

/*
 * Why one timer per connection rather than one per operation: arming and
 * deleting a timer for every operation took the timer base's lock twice
 * and two references per operation, yet nearly every operation completes
 * long before its deadline.  Per connection rather than per host device:
 * the list the scan walks and the lock it needs are the connection's,
 * so the scan never takes another connection's lock, and teardown stops
 * it with the connection.
 *
 * The invariant, under connection->lock: while an operation is on
 * @operations, @op_timer is pending for no later than its @deadline, or
 * the scan is about to take the lock and see it.  A sender keeps it by
 * pulling the timer earlier if needed (timer_reduce(), which returns
 * without the timer base's lock when the timer is already due earlier);
 * the scan keeps it by re-arming for the earliest deadline it leaves on
 * the list.  Nothing else touches the timer: a completion leaves it
 * alone, so a scan may find nothing due and only re-arm (or, on an empty
 * list, stay idle, freeing the connection's id map: an idle connection
 * keeps none, and the next send makes it again).
 *
 * The scan claims what is due exactly as the per-operation timer did:
 * -ETIMEDOUT, in softirq context, and queues the completion work (which
 * takes the request back from the host driver and runs the callback).
 */
static void gb_connection_timeout_scan(struct timer_list *t)
{
	struct gb_connection *connection = from_timer(connection, t, op_timer);
	struct gb_operation *operation, *tmp;
	unsigned long now = jiffies;
	unsigned long next = 0;
	bool pending = false;
	unsigned long flags;

	spin_lock_irqsave(&connection->lock, flags);
	list_for_each_entry_safe(operation, tmp, &connection->operations,
				 links) {
		if (!time_after_eq(now, operation->deadline)) {
			if (!pending || time_before(operation->deadline, next))
				next = operation->deadline;
			pending = true;
			continue;
		}
		if (!gb_operation_claim_locked(operation, -ETIMEDOUT))
			continue;
		trace_gb_message_cancel_outgoing(connection,
						 operation->request->header);
		gb_mon_event(connection, GB_MON_KIND_CANCEL, 0, operation->type,
			     operation->id, -ETIMEDOUT);
		gb_operation_schedule_completion(operation);
	}
	if (pending)
		timer_reduce(&connection->op_timer, next);
	else if (list_empty(&connection->operations))
		/* Idle: the id map goes, the next send makes it again */
		gb_operation_ids_shrink(&connection->op_ids);
	spin_unlock_irqrestore(&connection->lock, flags);
}

/**
 * gb_connection_timeout_init() - set up a new connection's time-out scan
 * @connection: the connection, not yet enabled
 *
 * Context: Any context.
 */
void gb_connection_timeout_init(struct gb_connection *connection)
{
	timer_setup(&connection->op_timer, gb_connection_timeout_scan, 0);
}

/**
 * gb_connection_timeout_stop() - stop a connection's time-out scan for good
 * @connection: the connection, disabled
 *
 * A disabled connection has no operation in flight (gb_connection_disable()
 * waited for every one) and accepts none (the state check and the arming
 * in gb_operation_request_send() are under the same lock), and a scan
 * that finds the list empty does not re-arm: once this returns the timer
 * is neither pending nor running and nothing arms it again, so the
 * connection's memory may go with its last reference.
 *
 * Context: Process context; waits for a running scan.
 */
void gb_connection_timeout_stop(struct gb_connection *connection)
{
	del_timer_sync(&connection->op_timer);
}

/* Sending requests */

/*
 * The operation a response with @id belongs to, found in the map of ids in
 * flight (@connection->op_ids) in a fixed number of steps: a node that
 * answers many requests in any order costs no walk with interrupts off.
 *
 * The map's invariant, under @connection->lock (which serialises every
 * change and lookup):
 *  - an outgoing operation with an id is entered under that id when the
 *    id is allocated, in gb_operation_request_send(), before the request
 *    goes to the host driver and so before any response to it can come;
 *  - it is removed when it is claimed (gb_operation_claim_locked(): the
 *    response, time-out, cancel or send error that completes it) and only
 *    then may gb_operation_ids_pick() hand the id out again;
 *  - so the map gives either the one operation in flight under @id or
 *    NULL.  Id 0 (unidirectional requests) is never entered.  A response
 *    for an id not in flight (late after a time-out or cancel, a
 *    duplicate, an id never used, id 0) finds NULL and is dropped with a
 *    rate-limited message; it is never matched to another operation.
 *
 * Caller holds connection->lock.
 */
static struct gb_operation *
gb_operation_find_outgoing_locked(struct gb_connection *connection, u16 id)
{
	return gb_operation_ids_lookup(&connection->op_ids, id);
}

/*
 * The next id after the last one used, skipping 0 (unidirectional) and
 * ids of operations still in flight: those of @op_ids, entered here with
 * @operation and removed when the operation is claimed (taken off
 * @operations), so the cost does not grow with the operations in flight.
 * Caller holds connection->lock, hence the atomic allocation: an id
 * whose near slot is taken goes to the map, which needs a new leaf once
 * per GB_OPERATION_ID_LEAF_SLOTS such sends (operation_ids.h).
 */
static int gb_operation_id_alloc_locked(struct gb_operation *operation)
{
	struct gb_connection *connection = operation->connection;
	int id, ret;

	id = gb_operation_ids_pick(&connection->op_ids, connection->op_cycle);
	if (id < 0)
		return id;
	ret = gb_operation_ids_set(&connection->op_ids, id,
				   connection->op_cycle, operation, GFP_ATOMIC);
	if (ret)
		return ret;
	connection->op_cycle = id;

	return id;
}

/* Caller holds connection->lock */
static int gb_operation_send_allowed_locked(struct gb_operation *operation)
{
	struct gb_connection *connection = operation->connection;

	switch (connection->state) {
	case GB_CONNECTION_STATE_ENABLED:
	case GB_CONNECTION_STATE_ENABLED_TX:
		break;
	case GB_CONNECTION_STATE_DISCONNECTING:
		if (operation->flags & GB_OPERATION_FLAG_CORE)
			break;
		return -ENOTCONN;
	default:
		return -ENOTCONN;
	}

	/* Host going away or interface gone: nobody would answer */
	if (gb_connection_peer_gone(connection))
		return -ESHUTDOWN;

	return 0;
}

/**
 * gb_operation_request_send() - send an operation's request
 * @operation: an operation from gb_operation_create_flags(), not sent
 *	before
 * @callback: called once when the operation completes, or NULL
 * @timeout: milliseconds to wait for the response; 0 means
 *	GB_OPERATION_TIMEOUT_DEFAULT
 * @gfp: allocation flags for the host driver
 *
 * Assigns the operation id and hands the request to the host driver.
 * On success the operation completes exactly once: response received
 * (result 0, or the peer's result as an errno, -EPROTO for a response
 * of another type, -EMSGSIZE for one of the wrong size), @timeout
 * expired (-ETIMEDOUT), gb_operation_cancel(), or the connection torn
 * down (-ESHUTDOWN).  A unidirectional operation completes once the
 * host driver has sent it.  Then @callback runs, once, and
 * gb_operation_result() holds the result; the core holds a reference of
 * its own until then.
 *
 * Where @callback runs: in process context, on a workqueue; except for
 * an operation created with GB_OPERATION_FLAG_CALLBACK_ATOMIC that a
 * response completes (result 0 or the peer's), whose callback runs in the
 * host driver's receive path, in its context and under its locks: for
 * gb-hdlc under the link's receive spinlock with interrupts off (from
 * the tty's or serdev's receive callback), for gb-es2 in the URB's
 * completion (atomic), for gb-vhd in the write() of the process feeding
 * it, under the device file's mutex.  Such a callback must not sleep
 * and should be short: the host receives nothing else meanwhile.  A
 * timeout, a cancellation or a teardown still runs it on the workqueue.
 *
 * Context: Any context if @gfp allows it; takes @connection->lock.
 * Return: 0 if the request is on its way; otherwise a negative errno
 * and the operation was not sent and @callback will not run:
 * -ENOTCONN if the connection is not enabled, -ESHUTDOWN if the
 * interface or the host device is going away, -EBUSY if every
 * operation id is in use, -EINVAL if the operation was sent before, or
 * the host driver's error.
 */
int gb_operation_request_send(struct gb_operation *operation,
			      gb_operation_callback callback,
			      unsigned int timeout, gfp_t gfp)
{
	struct gb_connection *connection = operation->connection;
	unsigned long flags;
	int ret;

	if (WARN_ON_ONCE(gb_operation_is_incoming(operation) ||
			 operation->errno != -EBADR))
		return -EINVAL;

	if (!timeout)
		timeout = GB_OPERATION_TIMEOUT_DEFAULT;

	operation->callback = callback;

	spin_lock_irqsave(&connection->lock, flags);

	ret = gb_operation_send_allowed_locked(operation);
	if (ret)
		goto err_unlock;

	if (gb_operation_is_unidirectional(operation)) {
		operation->id = GB_OPERATION_ID_NONE;
	} else {
		ret = gb_operation_id_alloc_locked(operation);
		if (ret < 0)
			goto err_unlock;
		operation->id = ret;
	}
	operation->request->header->operation_id = cpu_to_le16(operation->id);

	operation->errno = -EINPROGRESS;
	list_add_tail(&operation->links, &connection->operations);
	connection->ops_pending++;
	connection->stats.requests_sent++;
	set_bit(GB_OP_STATE_SENT, &operation->state);

	gb_operation_get(operation);	/* in flight */
	trace_gb_operation_get_active(operation);
	operation->deadline = jiffies + msecs_to_jiffies(timeout);
	timer_reduce(&connection->op_timer, operation->deadline);

	spin_unlock_irqrestore(&connection->lock, flags);

	ret = gb_message_send(operation->request, GB_OP_STATE_REQUEST_IN_HD,
			      gfp);
	if (ret && gb_operation_claim(operation, ret)) {
		/* Never went out: undo it all, no callback */
		clear_bit(GB_OP_STATE_SENT, &operation->state);
		spin_lock_irqsave(&connection->lock, flags);
		connection->ops_pending--;
		spin_unlock_irqrestore(&connection->lock, flags);
		wake_up(&connection->ops_wait);
		gb_operation_put(operation);	/* in flight */
		dev_dbg(&connection->hd->dev,
			"%s: failed to send request of type 0x%02x: %d\n",
			connection->name, operation->type, ret);
		return ret;
	}
	/* A send error we did not claim: a cancel got there first and the
	 * callback reports that.
	 */

	return 0;

err_unlock:
	spin_unlock_irqrestore(&connection->lock, flags);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(gb_operation_request_send, GREYBUS);

/**
 * gb_operation_request_send_sync_timeout() - send a request and wait
 * @operation: an operation from gb_operation_create_flags(), not sent
 *	before
 * @timeout: milliseconds to wait for the response; 0 means
 *	GB_OPERATION_TIMEOUT_DEFAULT
 *
 * gb_operation_request_send() without callback, then waits for the
 * operation to complete.  A signal cancels the operation with -EINTR,
 * unless it was created with GB_OPERATION_FLAG_NO_INTR.
 * The caller still owns its reference and reads the response, if any,
 * from @operation->response.
 *
 * Context: Process context; sleeps.
 * Return: the operation's result: 0 or a negative errno, as for
 * gb_operation_request_send().
 */
int gb_operation_request_send_sync_timeout(struct gb_operation *operation,
					   unsigned int timeout)
{
	int ret;

	ret = gb_operation_request_send(operation, NULL, timeout, GFP_KERNEL);
	if (ret)
		return ret;

	/* Bounded: the connection's time-out scan completes it at the latest */
	if (operation->flags & GB_OPERATION_FLAG_NO_INTR) {
		wait_for_completion(&operation->completion);
		return gb_operation_result(operation);
	}
	ret = wait_for_completion_interruptible(&operation->completion);
	if (ret < 0)
		gb_operation_cancel(operation, -EINTR);

	return gb_operation_result(operation);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_request_send_sync_timeout, GREYBUS);

/**
 * gb_operation_cancel() - complete an outgoing operation early
 * @operation: an outgoing operation
 * @errno: the result it completes with, a negative errno
 *
 * Completes @operation with @errno unless it has completed already,
 * takes its request back from the host driver if it was not sent yet,
 * and waits until its callback has returned (warning once if that takes
 * more than 10 seconds).  Does nothing for an operation that was never sent.
 *
 * Context: Process context; sleeps.  Not from the operation's own
 * callback.
 */
void gb_operation_cancel(struct gb_operation *operation, int errno)
{
	struct gb_connection *connection = operation->connection;
	unsigned long timeout = msecs_to_jiffies(GB_OPERATION_CANCEL_WAIT_MS);

	if (WARN_ON_ONCE(gb_operation_is_incoming(operation)))
		return;
	if (!test_bit(GB_OP_STATE_SENT, &operation->state))
		return;

	if (gb_operation_claim(operation, errno)) {
		trace_gb_message_cancel_outgoing(connection,
						 operation->request->header);
		gb_mon_event(connection, GB_MON_KIND_CANCEL, 0, operation->type,
			     operation->id, errno);
		gb_operation_schedule_completion(operation);
	}

	if (wait_for_completion_timeout(&operation->completion, timeout))
		return;
	/* The caller frees what the callback uses once this returns */
	dev_warn(&connection->hd->dev,
		 "%s: operation id 0x%04x of type 0x%02x still not complete %u s after cancel, waiting for it\n",
		 connection->name, operation->id, operation->type,
		 GB_OPERATION_CANCEL_WAIT_MS / 1000);
	wait_for_completion(&operation->completion);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_cancel, GREYBUS);

/*
 * Completes every outgoing operation in flight with @errno; does not
 * wait.  Any context; the caller holds connection->lock (irqs off).
 */
void gb_connection_cancel_operations_locked(struct gb_connection *connection,
					    int errno)
{
	struct gb_operation *operation, *tmp;

	list_for_each_entry_safe(operation, tmp, &connection->operations,
				 links) {
		if (gb_operation_claim_locked(operation, errno)) {
			trace_gb_message_cancel_outgoing(connection,
							 operation->request->header);
			gb_mon_event(connection, GB_MON_KIND_CANCEL, 0,
				     operation->type, operation->id, errno);
			gb_operation_schedule_completion(operation);
		}
	}
}

void gb_connection_cancel_operations(struct gb_connection *connection,
				     int errno)
{
	unsigned long flags;

	spin_lock_irqsave(&connection->lock, flags);
	gb_connection_cancel_operations_locked(connection, errno);
	spin_unlock_irqrestore(&connection->lock, flags);
}

static int gb_operation_sync_flags(struct gb_connection *connection, u8 type,
				   void *request, size_t request_size,
				   void *response, size_t response_size,
				   unsigned long flags, unsigned int timeout)
{
	size_t max = gb_operation_get_payload_size_max(connection);
	struct gb_operation *operation;
	int ret;

	if (request_size > max || response_size > max)
		return -EMSGSIZE;

	operation = __gb_operation_create(connection, type, request_size,
					  response_size, flags, 0, GFP_KERNEL);
	if (!operation)
		return -ENOMEM;

	if (request_size)
		memcpy(operation->request->payload, request, request_size);

	ret = gb_operation_request_send_sync_timeout(operation, timeout);
	if (ret) {
		/* -ESHUTDOWN: torn down on purpose, nothing to report */
		if (ret != -ESHUTDOWN)
			dev_err_ratelimited(&connection->hd->dev,
					    "%s: synchronous operation id 0x%04x of type 0x%02x failed: %d\n",
					    connection->name, operation->id, type, ret);
	} else if (response_size) {
		memcpy(response, operation->response->payload, response_size);
	}

	gb_operation_put(operation);

	return ret;
}

/* The exported entry points' checks of what drivers pass */
static int gb_operation_sync_checked(struct gb_connection *connection,
				     int type, void *request, int request_size,
				     void *response, int response_size,
				     unsigned long flags, unsigned int timeout)
{
	if (request_size < 0 || response_size < 0 ||
	    (request_size && !request) || (response_size && !response))
		return -EINVAL;
	if (type < 0 || type >= GB_REQUEST_TYPE_INVALID)
		return -EINVAL;

	return gb_operation_sync_flags(connection, type, request, request_size,
				       response, response_size, flags, timeout);
}

/**
 * gb_operation_sync_timeout() - one whole operation, synchronously
 * @connection: an enabled connection
 * @type: the request type
 * @request: @request_size bytes of request payload (NULL if 0)
 * @request_size: bytes of request payload
 * @response: where the response payload goes (NULL if 0)
 * @response_size: the exact size of the response payload expected
 * @timeout: milliseconds to wait for the response; 0 means
 *	GB_OPERATION_TIMEOUT_DEFAULT
 *
 * Creates the operation, copies @request in, sends it, waits for the
 * response and copies its payload to @response.  Failures other than
 * -ESHUTDOWN are logged (rate limited).
 *
 * Context: Process context; sleeps.
 * Return: 0; -EINVAL for a bad argument; -EMSGSIZE if a payload does
 * not fit the host's largest message or the response has another
 * size; -ENOMEM; otherwise the errors of
 * gb_operation_request_send_sync_timeout().
 */
int gb_operation_sync_timeout(struct gb_connection *connection, int type,
			      void *request, int request_size,
			      void *response, int response_size,
			      unsigned int timeout)
{
	return gb_operation_sync_checked(connection, type, request,
					 request_size, response, response_size,
					 0, timeout);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_sync_timeout, GREYBUS);

/**
 * gb_operation_sync_no_intr() - one whole operation, whatever signals come
 * @connection: an enabled connection
 * @type: the request type
 * @request: @request_size bytes of request payload (NULL if 0)
 * @request_size: bytes of request payload
 * @response: where the response payload goes (NULL if 0)
 * @response_size: the exact size of the response payload expected
 *
 * gb_operation_sync(), but a signal neither cancels the operation nor
 * ends the wait, which the default timeout bounds: a process being killed
 * still gets its request to the module and its answer (a stream's stop,
 * sent as the process's files are released).
 *
 * Context: Process context; sleeps.
 * Return: as for gb_operation_sync_timeout().
 */
int gb_operation_sync_no_intr(struct gb_connection *connection, int type,
			      void *request, int request_size,
			      void *response, int response_size)
{
	return gb_operation_sync_checked(connection, type, request,
					 request_size, response, response_size,
					 GB_OPERATION_FLAG_NO_INTR,
					 GB_OPERATION_TIMEOUT_DEFAULT);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_sync_no_intr, GREYBUS);

/* Teardown operations, allowed while the connection is disconnecting */
int gb_operation_sync_core(struct gb_connection *connection, u8 type,
			   void *request, size_t request_size,
			   unsigned int timeout)
{
	return gb_operation_sync_flags(connection, type, request, request_size,
				       NULL, 0, GB_OPERATION_FLAG_CORE,
				       timeout);
}

/**
 * gb_operation_unidirectional_timeout() - send a request without response
 * @connection: an enabled connection
 * @type: the request type
 * @request: @request_size bytes of request payload (NULL if 0)
 * @request_size: bytes of request payload
 * @timeout: milliseconds to wait for the host driver to send it; 0 means
 *	GB_OPERATION_TIMEOUT_DEFAULT
 *
 * Sends a request with operation id 0, to which the peer does not
 * answer, and waits until the host driver has sent it.
 *
 * Context: Process context; sleeps.
 * Return: 0 once the request has gone out, or a negative errno as for
 * gb_operation_sync_timeout().
 */
int gb_operation_unidirectional_timeout(struct gb_connection *connection,
					int type, void *request,
					int request_size,
					unsigned int timeout)
{
	if (request_size < 0 || (request_size && !request))
		return -EINVAL;
	if (type < 0 || type >= GB_REQUEST_TYPE_INVALID)
		return -EINVAL;

	unsigned long flags = GB_OPERATION_FLAG_UNIDIRECTIONAL;

	return gb_operation_sync_flags(connection, type, request, request_size,
				       NULL, 0, flags, timeout);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_unidirectional_timeout, GREYBUS);

/* Host driver completions */

/**
 * greybus_message_sent() - a host driver is done with an outgoing message
 * @hd: the host device
 * @message: the message message_send() was given
 * @status: 0 if it went out, else a negative errno
 *
 * Called by host drivers exactly once for each message their
 * message_send() accepted, possibly before message_send() returned.
 * A failed request completes its operation with @status; a sent
 * unidirectional one completes with 0.  Drops the reference the core
 * gave the host driver with the message, which must not be touched
 * afterwards.
 *
 * Context: Any context.
 */
void greybus_message_sent(struct gb_host_device *hd,
			  struct gb_message *message, int status)
{
	struct gb_operation *operation = message->operation;
	struct gb_connection *connection = operation->connection;

	if (status)
		gb_mon_event(connection, GB_MON_KIND_SEND_ERROR, 0,
			     message->header->type,
			     le16_to_cpu(message->header->operation_id), status);

	if (message == operation->request) {
		clear_bit(GB_OP_STATE_REQUEST_IN_HD, &operation->state);
		/*
		 * A failed request completes now; a unidirectional one is
		 * complete once it is out.
		 */
		if ((status || gb_operation_is_unidirectional(operation)) &&
		    gb_operation_claim(operation, status))
			gb_operation_schedule_completion(operation);
	} else {
		clear_bit(GB_OP_STATE_RESPONSE_IN_HD, &operation->state);
		if (status)
			dev_err_ratelimited(&hd->dev,
					    "%s: failed to send response to request 0x%04x of type 0x%02x: %d\n",
					    connection->name, operation->id,
					    operation->type, status);
	}

	gb_operation_put(operation);
}
EXPORT_SYMBOL_NS_GPL(greybus_message_sent, GREYBUS);

/* Receiving */

static void
gb_connection_recv_response(struct gb_connection *connection,
			    const struct gb_operation_msg_hdr *header,
			    const void *data, size_t size)
{
	struct gb_host_device *hd = connection->hd;
	size_t payload_size = size - sizeof(*header);
	u16 id = le16_to_cpu(header->operation_id);
	struct gb_operation *operation;
	struct gb_message *response;
	unsigned long flags;
	size_t expected = 0;
	u8 type = 0;
	int errno;

	spin_lock_irqsave(&connection->lock, flags);

	operation = id ? gb_operation_find_outgoing_locked(connection, id) :
			 NULL;
	if (!operation) {
		connection->stats.dropped++;
		spin_unlock_irqrestore(&connection->lock, flags);
		dev_err_ratelimited(&hd->dev,
				    "%s: unexpected response id 0x%04x received\n",
				    connection->name, id);
		return;
	}
	connection->stats.responses_received++;

	response = operation->response;
	if (header->type != (operation->type | GB_MSG_TYPE_RESPONSE)) {
		type = operation->type;
		errno = -EPROTO;
	} else if (header->result) {
		errno = gb_operation_status_to_errno(header->result);
	} else if (payload_size > response->payload_size ||
		   (payload_size < response->payload_size &&
		    !gb_operation_short_response_allowed(operation))) {
		expected = response->payload_size;
		errno = -EMSGSIZE;
	} else {
		errno = 0;
	}

	/* Found in the map, so still in flight: this claim succeeds */
	gb_operation_claim_locked(operation, errno);

	spin_unlock_irqrestore(&connection->lock, flags);

	/*
	 * Claimed, so ours until the completion work runs, which we queue
	 * only once the payload is in place.  The buffer holds the header
	 * plus response->payload_size bytes; copy no more than fits.
	 */
	if (!errno) {
		memcpy(response->header, data, size);
		response->payload_size = payload_size;
	} else {
		memcpy(response->header, header, sizeof(*header));
		response->payload_size = 0;
	}

	if (errno == -EPROTO)
		dev_err_ratelimited(&hd->dev,
				    "%s: response id 0x%04x has type 0x%02x, request had 0x%02x\n",
				    connection->name, id, header->type, type);
	else if (errno == -EMSGSIZE && !header->result)
		dev_err_ratelimited(&hd->dev,
				    "%s: response id 0x%04x of type 0x%02x has wrong size (%zu bytes, expected %zu)\n",
				    connection->name, id, header->type,
				    payload_size, expected);

	gb_operation_complete_response(operation);
}

/*
 * Answers a request that will not be handled with @errno's result, from
 * the receive path (any context).  Nothing for a unidirectional one.
 */
static void gb_operation_refuse(struct gb_operation *operation, int errno)
{
	struct gb_connection *connection = operation->connection;
	int ret;

	if (gb_operation_is_unidirectional(operation))
		return;
	if (!gb_operation_response_alloc(operation, 0, GFP_ATOMIC))
		return;

	operation->response->header->result =
		gb_operation_errno_to_status(errno);

	ret = gb_message_send(operation->response, GB_OP_STATE_RESPONSE_IN_HD,
			      GFP_ATOMIC);
	if (ret)
		dev_err_ratelimited(&connection->hd->dev,
				    "%s: failed to refuse request 0x%04x of type 0x%02x: %d\n",
				    connection->name, operation->id,
				    operation->type, ret);
}

static void
gb_connection_recv_request(struct gb_connection *connection,
			   const struct gb_operation_msg_hdr *header,
			   const void *data, size_t size)
{
	struct gb_host_device *hd = connection->hd;
	struct gb_operation *operation;
	unsigned long flags = GB_OPERATION_FLAG_INCOMING;
	unsigned long irqflags;
	const char *why;

	if (header->operation_id == cpu_to_le16(GB_OPERATION_ID_NONE))
		flags |= GB_OPERATION_FLAG_UNIDIRECTIONAL;

	operation = gb_operation_alloc(connection, header->type, flags,
				       size - sizeof(*header),
				       GB_OPERATION_RESPONSE_ROOM, 0, GFP_ATOMIC);
	if (!operation)
		goto err_drop;

	operation->id = le16_to_cpu(header->operation_id);
	memcpy(operation->request->header, data, size);
	trace_gb_operation_create_incoming(operation);

	spin_lock_irqsave(&connection->lock, irqflags);
	if (connection->state != GB_CONNECTION_STATE_ENABLED) {
		why = "connection not enabled";
		goto err_unlock;
	}
	if (connection->incoming_count >= GB_CONNECTION_INCOMING_MAX) {
		connection->stats.dropped++;
		spin_unlock_irqrestore(&connection->lock, irqflags);
		dev_err_ratelimited(&hd->dev,
				    "%s: request 0x%04x of type 0x%02x refused: %u requests pending\n",
				    connection->name, operation->id,
				    operation->type, GB_CONNECTION_INCOMING_MAX);
		gb_operation_refuse(operation, -EAGAIN);
		gb_operation_put(operation);
		return;
	}
	list_add_tail(&operation->links, &connection->incoming);
	connection->incoming_count++;
	connection->stats.requests_received++;
	trace_gb_operation_get_active(operation);
	queue_work(gb_operation_rx_wq, &connection->rx_work);
	spin_unlock_irqrestore(&connection->lock, irqflags);

	return;

err_unlock:
	connection->stats.dropped++;
	spin_unlock_irqrestore(&connection->lock, irqflags);
	trace_gb_message_cancel_incoming(connection,
					 operation->request->header);
	gb_mon_event(connection, GB_MON_KIND_CANCEL, GB_MON_F_IN,
		     operation->type, operation->id, -ENOTCONN);
	gb_operation_put(operation);
	dev_err_ratelimited(&hd->dev,
			    "%s: request 0x%04x of type 0x%02x dropped: %s\n",
			    connection->name, le16_to_cpu(header->operation_id),
			    header->type, why);
	return;

err_drop:
	spin_lock_irqsave(&connection->lock, irqflags);
	connection->stats.dropped++;
	spin_unlock_irqrestore(&connection->lock, irqflags);
	dev_err_ratelimited(&hd->dev,
			    "%s: no memory for request of type 0x%02x, dropped\n",
			    connection->name, header->type);
}

/*
 * Whether @data is one whole Greybus message; if not, says so, naming the
 * connection of @cport_id when there is one.  Host drivers that know the
 * transfer length (gb-vhd does) may refuse bad framing before this.
 */
static bool gb_message_framing_ok(struct gb_host_device *hd,
				  struct gb_connection *connection,
				  u16 cport_id, const u8 *data, size_t length)
{
	const struct gb_operation_msg_hdr *header;
	char who[GB_HD_CPORT_NAME_MAX];

	if (connection)
		strscpy(who, connection->name, sizeof(who));
	else
		snprintf(who, sizeof(who), "cport %u", cport_id);

	header = (const struct gb_operation_msg_hdr *)data;
	switch (gb_message_framing_check(data, length, hd->buffer_size_max)) {
	case GB_MSG_FRAMING_OK:
		return true;
	case GB_MSG_FRAMING_SHORT:
		dev_err_ratelimited(&hd->dev,
				    "%s: short message received (%zu bytes)\n",
				    who, length);
		break;
	case GB_MSG_FRAMING_BAD_SIZE:
		dev_err_ratelimited(&hd->dev,
				    "%s: message of type 0x%02x has bad size %u (%zu bytes received)\n",
				    who, header->type,
				    le16_to_cpu(header->size), length);
		break;
	case GB_MSG_FRAMING_TOO_BIG:
		dev_err_ratelimited(&hd->dev,
				    "%s: message of type 0x%02x too big (%u > %zu bytes)\n",
				    who, header->type,
				    le16_to_cpu(header->size),
				    hd->buffer_size_max);
		break;
	}

	return false;
}

/**
 * greybus_data_rcvd() - a host driver received a message
 * @hd: the host device
 * @cport_id: the bridge CPort it arrived on
 * @data: the message, header first
 * @length: bytes at @data
 *
 * Checks the framing (gb_message_framing_check()) and hands a response
 * to the operation waiting for it or queues a request for the
 * connection's handler.  Messages that are malformed, for no
 * connection, unexpected or that arrive while the connection does not
 * accept them are dropped and logged (rate limited).  @data is copied
 * before this returns.
 *
 * Context: Any context.
 */
void greybus_data_rcvd(struct gb_host_device *hd, u16 cport_id,
		       u8 *data, size_t length)
{
	const struct gb_operation_msg_hdr *header;
	struct gb_connection *connection;
	size_t size;

	connection = gb_connection_hd_find(hd, cport_id);

	if (!gb_message_framing_ok(hd, connection, cport_id, data, length)) {
		gb_mon_message(hd, connection, cport_id, data, length,
			       GB_MON_F_IN | GB_MON_F_MALFORMED);
		goto out_put;
	}
	gb_mon_message(hd, connection, cport_id, data,
		       le16_to_cpu(((struct gb_operation_msg_hdr *)data)->size),
		       GB_MON_F_IN);

	header = (const struct gb_operation_msg_hdr *)data;
	/* Bytes after header->size are not part of the message */
	size = le16_to_cpu(header->size);

	if (!connection) {
		dev_err_ratelimited(&hd->dev,
				    "cport %u: message of type 0x%02x for no connection dropped\n",
				    cport_id, header->type);
		return;
	}

	trace_gb_hd_in(hd);
	if (header->type & GB_MSG_TYPE_RESPONSE) {
		trace_gb_message_recv_response(connection, header);
		gb_connection_recv_response(connection, header, data, size);
	} else {
		trace_gb_message_recv_request(connection, header);
		gb_connection_recv_request(connection, header, data, size);
	}

out_put:
	if (connection)
		gb_connection_put(connection);
}
EXPORT_SYMBOL_NS_GPL(greybus_data_rcvd, GREYBUS);

/* Handling incoming requests */

static void gb_operation_send_response(struct gb_operation *operation,
				       int errno)
{
	struct gb_connection *connection = operation->connection;
	struct gb_operation_msg_hdr *header;
	unsigned long flags;
	bool allowed;
	int ret;

	if (!operation->response &&
	    !gb_operation_response_alloc(operation, 0, GFP_KERNEL))
		return;

	header = operation->response->header;
	header->result = gb_operation_errno_to_status(errno);
	if (errno) {
		/* An error response carries no payload */
		header->size = cpu_to_le16(sizeof(*header));
		operation->response->payload_size = 0;
	}

	spin_lock_irqsave(&connection->lock, flags);
	allowed = connection->state != GB_CONNECTION_STATE_DISABLED &&
		  !gb_connection_peer_gone(connection);
	spin_unlock_irqrestore(&connection->lock, flags);
	if (!allowed)
		return;

	ret = gb_message_send(operation->response, GB_OP_STATE_RESPONSE_IN_HD,
			      GFP_KERNEL);
	if (ret)
		dev_err_ratelimited(&connection->hd->dev,
				    "%s: failed to send response to request 0x%04x of type 0x%02x: %d\n",
				    connection->name, operation->id,
				    operation->type, ret);
}

static void gb_operation_handle_request(struct gb_operation *operation)
{
	struct gb_connection *connection = operation->connection;
	struct gb_bundle *bundle = connection->bundle;
	int ret;

	/*
	 * A module that speaks wakes its bundle: the handler may answer
	 * with operations of its own.  The bundle is awake whenever its
	 * connection is being disabled (probe, remove), so this never
	 * waits on the teardown that flushes this work.
	 */
	if (bundle) {
		ret = gb_pm_runtime_get_sync(bundle);
		if (ret) {
			bundle = NULL;	/* no reference to give back */
			goto out;
		}
	}

	if (connection->handler) {
		ret = connection->handler(operation);
	} else {
		dev_err_ratelimited(&connection->hd->dev,
				    "%s: request of type 0x%02x on a connection without handler\n",
				    connection->name, operation->type);
		ret = -EPROTONOSUPPORT;
	}

out:
	if (!gb_operation_is_unidirectional(operation))
		gb_operation_send_response(operation, ret);

	if (bundle)
		gb_pm_runtime_put_autosuspend(bundle);
}

void gb_connection_rx_work(struct work_struct *work)
{
	struct gb_connection *connection =
		container_of(work, struct gb_connection, rx_work);
	struct list_head *incoming = &connection->incoming;
	struct gb_operation *operation;

	for (;;) {
		spin_lock_irq(&connection->lock);
		/* Once no longer enabled the rest is flushed, not handled */
		operation = NULL;
		if (connection->state == GB_CONNECTION_STATE_ENABLED &&
		    !list_empty(incoming))
			operation = list_first_entry(incoming,
						     struct gb_operation, links);
		if (operation) {
			list_del_init(&operation->links);
			connection->incoming_count--;
		}
		spin_unlock_irq(&connection->lock);

		if (!operation)
			break;

		gb_operation_handle_request(operation);
		trace_gb_operation_put_active(operation);
		gb_operation_put(operation);
	}
}

/*
 * Drops the requests still queued and waits for the one being handled.
 * The caller has moved the connection out of the enabled state, so no
 * new request is queued.
 */
void gb_connection_flush_incoming(struct gb_connection *connection)
{
	struct gb_operation *operation, *tmp;
	LIST_HEAD(list);

	cancel_work_sync(&connection->rx_work);

	spin_lock_irq(&connection->lock);
	list_splice_init(&connection->incoming, &list);
	connection->stats.dropped += connection->incoming_count;
	connection->incoming_count = 0;
	spin_unlock_irq(&connection->lock);

	list_for_each_entry_safe(operation, tmp, &list, links) {
		list_del(&operation->links);
		trace_gb_message_cancel_incoming(connection,
						 operation->request->header);
		gb_mon_event(connection, GB_MON_KIND_CANCEL, GB_MON_F_IN,
			     operation->type, operation->id, -ESHUTDOWN);
		gb_operation_put(operation);
	}
}

int gb_operation_init(void)
{
	gb_operation_completion_wq = alloc_workqueue("greybus_completion", 0,
						     0);
	if (!gb_operation_completion_wq)
		return -ENOMEM;

	gb_operation_rx_wq = alloc_workqueue("greybus_rx", 0, 0);
	if (!gb_operation_rx_wq)
		goto err_destroy_completion_wq;

	return 0;

err_destroy_completion_wq:
	destroy_workqueue(gb_operation_completion_wq);
	return -ENOMEM;
}

void gb_operation_exit(void)
{
	destroy_workqueue(gb_operation_rx_wq);
	destroy_workqueue(gb_operation_completion_wq);
}
