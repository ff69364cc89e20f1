// SPDX-License-Identifier: GPL-2.0
/*
 * gb-test-protocol's reverse burst: puts up to GB_TEST_BURST_MAX pings in
 * flight on one connection, then answers them newest-first, the order
 * that cost a walk of every operation in flight per answer when the core
 * looked responses up in a list.
 *
 * The module must not answer the pings itself (the case makes gbsim drop
 * them).  The answers are handed to the core through greybus_data_rcvd(),
 * the entry point every host driver uses for what arrives: the core cannot
 * tell them from a node's.  Counted are the callbacks, the ones that saw
 * their own echo, and the steps of the core's lookup (from the connection's
 * id map): a bound per answer that no walk meets.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>

#include <greybus/greybus.h>

#include "test_burst.h"

#define GB_TEST_TYPE_PING	0x02
#define GB_TEST_PING_SIZE	4

/*
 * The pings' timeout and how long a burst waits for its callbacks: bounds
 * for a broken core, not durations; the answers follow the sends at once.
 */
#define GB_TEST_BURST_TIMEOUT_MS	600000

static const u8 gb_test_burst_payload[GB_TEST_PING_SIZE] = "ping";

struct gb_test_burst {
	atomic_t		completed;
	atomic_t		ok;
	wait_queue_head_t	wq;
};

static void gb_test_burst_callback(struct gb_operation *operation)
{
	struct gb_test_burst *burst = operation->private;
	struct gb_message *response = operation->response;

	if (!gb_operation_result(operation) &&
	    response->payload_size == GB_TEST_PING_SIZE &&
	    !memcmp(response->payload, gb_test_burst_payload,
		    GB_TEST_PING_SIZE))
		atomic_inc(&burst->ok);
	atomic_inc(&burst->completed);
	wake_up(&burst->wq);
}

/*
 * Creates and sends one ping.  A full host queue (gb-vhd's holds
 * GB_VHD_QUEUE_EVENTS_MAX messages the bridge has not read yet) is
 * backpressure: wait for room, as long as the pings' own timeout, and
 * send a new operation (one whose send failed cannot be sent again).
 */
static struct gb_operation *gb_test_burst_send(struct gb_connection *connection,
					       struct gb_test_burst *burst,
					       unsigned long deadline,
					       int *error)
{
	struct gb_operation *operation;

	for (;;) {
		operation = gb_operation_create(connection, GB_TEST_TYPE_PING,
						GB_TEST_PING_SIZE,
						GB_TEST_PING_SIZE, GFP_KERNEL);
		if (!operation) {
			*error = -ENOMEM;
			return NULL;
		}
		memcpy(operation->request->payload, gb_test_burst_payload,
		       GB_TEST_PING_SIZE);
		operation->private = burst;
		*error = gb_operation_request_send(operation,
						   gb_test_burst_callback,
						   GB_TEST_BURST_TIMEOUT_MS,
						   GFP_KERNEL);
		if (!*error)
			return operation;
		gb_operation_put(operation);
		if (*error != -ENOSPC || time_after(jiffies, deadline))
			return NULL;
		usleep_range(200, 1000);
	}
}

/* Hands the core the answer a node would send to @operation */
static void gb_test_burst_answer(struct gb_operation *operation)
{
	struct gb_connection *connection = operation->connection;
	u8 msg[sizeof(struct gb_operation_msg_hdr) + GB_TEST_PING_SIZE];
	struct gb_operation_msg_hdr *header = (void *)msg;

	memset(header, 0, sizeof(*header));
	header->size = cpu_to_le16(sizeof(msg));
	header->operation_id = cpu_to_le16(operation->id);
	header->type = GB_TEST_TYPE_PING | GB_MSG_TYPE_RESPONSE;
	memcpy(header + 1, gb_test_burst_payload, GB_TEST_PING_SIZE);

	greybus_data_rcvd(connection->hd, connection->hd_cport_id, msg,
			  sizeof(msg));
}

static unsigned long gb_test_lookup_steps(struct gb_connection *connection)
{
	unsigned long steps;

	spin_lock_irq(&connection->lock);
	steps = connection->op_ids.lookup_steps;
	spin_unlock_irq(&connection->lock);

	return steps;
}

/**
 * gb_test_burst_run() - @n pings in flight, answered newest-first
 * @connection: an enabled connection to a module that does not answer
 * @n: 1..GB_TEST_BURST_MAX
 * @result: what the burst saw
 *
 * Context: Process context; sleeps.  The caller keeps the bundle awake.
 */
void gb_test_burst_run(struct gb_connection *connection, unsigned int n,
		       struct gb_test_burst_result *result)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(GB_TEST_BURST_TIMEOUT_MS);
	struct gb_operation **ops;
	struct gb_test_burst burst;
	unsigned long steps;
	unsigned int i;
	ktime_t start;

	memset(result, 0, sizeof(*result));
	atomic_set(&burst.completed, 0);
	atomic_set(&burst.ok, 0);
	init_waitqueue_head(&burst.wq);

	ops = kvcalloc(n, sizeof(*ops), GFP_KERNEL);
	if (!ops) {
		result->error = -ENOMEM;
		return;
	}

	for (i = 0; i < n; i++) {
		ops[i] = gb_test_burst_send(connection, &burst, deadline,
					    &result->error);
		if (!ops[i])
			break;
		result->sent++;
	}

	steps = gb_test_lookup_steps(connection);
	start = ktime_get();
	for (i = result->sent; i-- > 0; )
		gb_test_burst_answer(ops[i]);
	result->answer_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	result->lookup_steps = gb_test_lookup_steps(connection) - steps;

	wait_event_timeout(burst.wq,
			   atomic_read(&burst.completed) == result->sent,
			   msecs_to_jiffies(GB_TEST_BURST_TIMEOUT_MS));

	/* Whatever is left (a broken core) ends here, before @burst goes */
	for (i = 0; i < result->sent; i++) {
		gb_operation_cancel(ops[i], -ECANCELED);
		gb_operation_put(ops[i]);
	}
	result->completed = atomic_read(&burst.completed);
	result->ok = atomic_read(&burst.ok);
	kvfree(ops);
}
