/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus operations: a request and (unless unidirectional) its response,
 * exchanged over one connection.
 */
#ifndef __GREYBUS_OPERATION_H
#define __GREYBUS_OPERATION_H

#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/kref.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <asm/byteorder.h>
#include <uapi/greybus/greybus.h>

struct gb_connection;
struct gb_operation;

/* Milliseconds; also what a timeout of 0 means */
#define GB_OPERATION_TIMEOUT_DEFAULT	1000

/**
 * struct gb_message - a request or a response
 * @operation: the operation it belongs to
 * @header: a buffer of sizeof(*header) + @payload_size bytes, which the
 *	host driver sends or which the core filled from the network
 * @payload: just after the header
 * @payload_size: bytes of payload
 * @hcpriv: the host driver's, while the message is in its hands
 * @separate: the core's: @header is an allocation of its own, not part
 *	of the operation's (docs/architecture.md, "One allocation per
 *	operation")
 *
 * Both messages of an operation are members of it; their buffers, up to
 * GB_OPERATION_INLINE_MAX bytes together, too.
 */
struct gb_message {
	struct gb_operation		*operation;
	struct gb_operation_msg_hdr	*header;
	void				*payload;
	size_t				payload_size;

	void				*hcpriv;
	bool				separate;
};

/*
 * Bytes of message buffers (headers included) an operation carries in
 * its own allocation; a buffer that does not fit is allocated apart.
 * An incoming operation keeps room for a response of up to
 * GB_OPERATION_RESPONSE_ROOM bytes (header included) after its request.
 */
#define GB_OPERATION_INLINE_MAX		512
#define GB_OPERATION_RESPONSE_ROOM	64
/* The largest sender's record gb_operation_create_priv() keeps */
#define GB_OPERATION_PRIV_MAX		64

/* Flags a caller may pass to gb_operation_create_flags() */
#define GB_OPERATION_FLAG_UNIDIRECTIONAL	BIT(0)	/* no response */
#define GB_OPERATION_FLAG_SHORT_RESPONSE	BIT(1)	/* shorter is fine */
/* The callback never sleeps: it may run in the receive path, any context */
#define GB_OPERATION_FLAG_CALLBACK_ATOMIC	BIT(2)
/*
 * A synchronous sender waits for the response or the operation's timeout
 * whatever signals it gets: for messages that must reach the module even
 * from a process being killed (stopping a stream as its file is released)
 */
#define GB_OPERATION_FLAG_NO_INTR		BIT(3)
/* Core-internal flags */
#define GB_OPERATION_FLAG_INCOMING		BIT(8)
#define GB_OPERATION_FLAG_CORE			BIT(9)	/* teardown traffic */

#define GB_OPERATION_FLAG_USER_MASK \
	(GB_OPERATION_FLAG_UNIDIRECTIONAL | GB_OPERATION_FLAG_SHORT_RESPONSE | \
	 GB_OPERATION_FLAG_CALLBACK_ATOMIC | GB_OPERATION_FLAG_NO_INTR)

typedef void (*gb_operation_callback)(struct gb_operation *operation);

/**
 * struct gb_operation - a request and, unless unidirectional, its response
 * @connection: the connection it travels on
 * @request: the request
 * @response: the response; NULL for a unidirectional operation, and for
 *	an incoming one until gb_operation_response_alloc()
 * @flags: GB_OPERATION_FLAG_* bits
 * @type: the request type
 * @id: the operation id; 0 for a unidirectional request
 * @errno: -EBADR before the request is sent, -EINPROGRESS while it is in
 *	flight, the result (0 or a negative errno) once the operation
 *	completed; read it with gb_operation_result()
 * @callback: the sender's callback, see gb_operation_request_send()
 * @private: the sender's data; set by gb_operation_create_priv() to the
 *	record it keeps in the operation
 * @kref: the reference count
 * @links: the entry in the connection's list of outgoing operations in
 *	flight or of incoming requests, under the connection's lock
 * @state: GB_OP_STATE_* bits
 * @deadline: while in flight, the jiffies at which the connection's
 *	time-out scan completes it with -ETIMEDOUT
 * @work: runs the completion: callback, then @completion
 * @completion: done once the callback has returned
 * @request_msg: what @request points at
 * @response_msg: what @response points at, once there is a response
 * @response_room: where in @buf a response's buffer fits, or NULL
 * @response_room_size: its bytes
 * @buf: the buffers that fit in the operation's allocation
 *
 * An operation is reference counted; gb_operation_create() returns the
 * caller's reference, dropped with gb_operation_put().  While it is in
 * flight the core and the host driver hold their own references, so a
 * caller may put its reference at any time, even from its callback.  For
 * a successful outgoing operation, @response->payload holds exactly
 * @response->payload_size bytes from the peer.  Drivers use the members
 * up to @private; the rest belongs to the core.
 */
struct gb_operation {
	struct gb_connection	*connection;
	struct gb_message	*request;
	struct gb_message	*response;

	unsigned long		flags;
	u8			type;
	u16			id;
	int			errno;

	gb_operation_callback	callback;
	void			*private;

	struct kref		kref;
	struct list_head	links;
	unsigned long		state;
	unsigned long		deadline;	/* jiffies; connection->lock */
	struct work_struct	work;
	struct completion	completion;

	struct gb_message	request_msg;
	struct gb_message	response_msg;
	void			*response_room;
	size_t			response_room_size;
	u8			buf[] __aligned(8);
};

static inline bool
gb_operation_is_incoming(const struct gb_operation *operation)
{
	return operation->flags & GB_OPERATION_FLAG_INCOMING;
}

static inline bool
gb_operation_is_unidirectional(const struct gb_operation *operation)
{
	return operation->flags & GB_OPERATION_FLAG_UNIDIRECTIONAL;
}

static inline bool
gb_operation_short_response_allowed(const struct gb_operation *operation)
{
	return operation->flags & GB_OPERATION_FLAG_SHORT_RESPONSE;
}

/*
 * The outgoing operation id after @id: 1, 2, ... U16_MAX, then 1 again.
 * Never GB_OPERATION_ID_NONE, which marks a unidirectional request.
 */
static inline u16 gb_operation_id_next(u16 id)
{
	return id == U16_MAX ? 1 : id + 1;
}

/**
 * enum gb_message_framing - what gb_message_framing_check() finds
 * @GB_MSG_FRAMING_OK: one whole message
 * @GB_MSG_FRAMING_SHORT: shorter than a message header
 * @GB_MSG_FRAMING_BAD_SIZE: the header's size is smaller than a header
 *	or larger than what was received
 * @GB_MSG_FRAMING_TOO_BIG: the header's size exceeds the host's largest
 *	message
 */
enum gb_message_framing {
	GB_MSG_FRAMING_OK,
	GB_MSG_FRAMING_SHORT,
	GB_MSG_FRAMING_BAD_SIZE,
	GB_MSG_FRAMING_TOO_BIG,
};

/*
 * Whether the @length bytes at @data start with one whole message of at
 * most @size_max bytes (the host's buffer_size_max).  Bytes after the
 * header's size are not part of the message and do not count.  Pure, so
 * that host drivers and tests can apply the core's rule themselves.
 */
static inline enum gb_message_framing
gb_message_framing_check(const void *data, size_t length, size_t size_max)
{
	const struct gb_operation_msg_hdr *header = data;
	size_t size;

	if (length < sizeof(*header))
		return GB_MSG_FRAMING_SHORT;

	size = le16_to_cpu(header->size);
	if (size < sizeof(*header) || size > length)
		return GB_MSG_FRAMING_BAD_SIZE;
	if (size > size_max)
		return GB_MSG_FRAMING_TOO_BIG;

	return GB_MSG_FRAMING_OK;
}

/*
 * Allocates an outgoing operation with room for @request_size bytes of
 * request payload and @response_size bytes of response payload (both may
 * be 0).  Fails with NULL if either does not fit the host's maximum
 * message size.  Does not sleep unless @gfp allows it.
 */
struct gb_operation *
gb_operation_create_flags(struct gb_connection *connection, u8 type,
			  size_t request_size, size_t response_size,
			  unsigned long flags, gfp_t gfp);

struct gb_operation *
gb_operation_create_priv(struct gb_connection *connection, u8 type,
			 size_t request_size, size_t response_size,
			 unsigned long flags, size_t priv_size, gfp_t gfp);

static inline struct gb_operation *
gb_operation_create(struct gb_connection *connection, u8 type,
		    size_t request_size, size_t response_size, gfp_t gfp)
{
	return gb_operation_create_flags(connection, type, request_size,
					 response_size, 0, gfp);
}

void gb_operation_get(struct gb_operation *operation);
void gb_operation_put(struct gb_operation *operation);

/* The largest request or response payload @connection can carry */
size_t gb_operation_get_payload_size_max(struct gb_connection *connection);

/*
 * Sends the request.  On 0, @callback (may be NULL) runs exactly once, in
 * process context, when the operation completes: response received,
 * @timeout ms passed (-ETIMEDOUT), cancelled, or the connection went away
 * (-ESHUTDOWN).  On error the operation was not sent and @callback never
 * runs.
 */
int gb_operation_request_send(struct gb_operation *operation,
			      gb_operation_callback callback,
			      unsigned int timeout, gfp_t gfp);

/* Sends the request and waits for it to complete; returns the result */
int gb_operation_request_send_sync_timeout(struct gb_operation *operation,
					   unsigned int timeout);

static inline int
gb_operation_request_send_sync(struct gb_operation *operation)
{
	unsigned int timeout = GB_OPERATION_TIMEOUT_DEFAULT;

	return gb_operation_request_send_sync_timeout(operation, timeout);
}

/*
 * Completes an in-flight operation with @errno (if it has not completed
 * yet) and waits until its callback has returned.  Process context; not
 * from the operation's own callback.
 */
void gb_operation_cancel(struct gb_operation *operation, int errno);

static inline int gb_operation_result(struct gb_operation *operation)
{
	return operation->errno;
}

/*
 * For request handlers: allocates the response with @response_size bytes
 * of payload for the handler to fill.  Without it the core sends an empty
 * response.
 */
bool gb_operation_response_alloc(struct gb_operation *operation,
				 size_t response_size, gfp_t gfp);

/*
 * One whole operation: copies @request in, waits up to @timeout ms and
 * copies exactly @response_size bytes of response out.  Returns 0 or a
 * negative errno (the peer's result mapped to an errno, -ETIMEDOUT,
 * -EMSGSIZE for a response of the wrong size, ...).
 */
int gb_operation_sync_timeout(struct gb_connection *connection, int type,
			      void *request, int request_size,
			      void *response, int response_size,
			      unsigned int timeout);

static inline int
gb_operation_sync(struct gb_connection *connection, int type,
		  void *request, int request_size,
		  void *response, int response_size)
{
	return gb_operation_sync_timeout(connection, type,
					 request, request_size,
					 response, response_size,
					 GB_OPERATION_TIMEOUT_DEFAULT);
}

/*
 * gb_operation_sync() whose wait no signal ends early (bounded by the
 * default timeout): GB_OPERATION_FLAG_NO_INTR
 */
int gb_operation_sync_no_intr(struct gb_connection *connection, int type,
			      void *request, int request_size,
			      void *response, int response_size);

/* A request without response; returns once the host has sent it */
int gb_operation_unidirectional_timeout(struct gb_connection *connection,
					int type, void *request,
					int request_size,
					unsigned int timeout);

static inline int
gb_operation_unidirectional(struct gb_connection *connection, int type,
			    void *request, int request_size)
{
	unsigned int timeout = GB_OPERATION_TIMEOUT_DEFAULT;

	return gb_operation_unidirectional_timeout(connection, type, request,
						   request_size, timeout);
}

/* Result code <-> errno, as protocol-reference section 1.2 maps them */
int gb_operation_status_to_errno(u8 status);
u8 gb_operation_errno_to_status(int errno);

#endif /* __GREYBUS_OPERATION_H */
