// SPDX-License-Identifier: GPL-2.0
/*
 * gb-loopback: the Loopback protocol (0x11), the way Greybus links are
 * measured.  The sysfs ABI is the one Linux's loopback driver has, so
 * that its tools/loopback_test runs unchanged; docs/loopback.md
 * describes every attribute.
 *
 * Each Loopback bundle gets a class device /sys/class/gb_loopback/
 * gb_loopbackN (a child of the bundle).  Writing 2 (ping), 3 (transfer)
 * or 4 (sink) to its "type" attribute starts a test of iteration_max
 * operations; writing 0 stops it.  The test runs on a work item that
 * sends the operations: one at a time (sync), or up to
 * outstanding_operations_max at once (async).  Every operation is sent
 * with a completion callback, which verifies the answer and accounts it;
 * when the last one is in, "type" reads 0 again and iteration_count gets
 * a sysfs notification (what loopback_test polls for).
 *
 * The latencies of the test's successful operations (microseconds) are
 * also kept in a FIFO that /sys/kernel/debug/gb_loopback/raw_latency_
 * <bundle> drains (with a raw_latency_gb_loopbackN link to it).
 *
 * Locking.  @mutex serialises the configuration and the start and stop
 * of a test (sysfs stores, disconnect); the test's work item never takes
 * it, so a store may wait for the work with @mutex held.  @lock (a
 * spinlock, taken in operation callbacks) protects the counters, the
 * statistics, the FIFO, the list of operations in flight and
 * @running / @stopping / @type.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kfifo.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <greybus/greybus.h>
#include <uapi/greybus/loopback.h>

/* Values of the "type" attribute */
#define GB_LOOPBACK_TEST_NONE		0

/* Bounds of the configuration attributes */
#define GB_LOOPBACK_US_WAIT_MAX		1000000		/* 1 s */
#define GB_LOOPBACK_TIMEOUT_MIN		1		/* jiffies */
#define GB_LOOPBACK_TIMEOUT_MAX		10000		/* jiffies */
#define GB_LOOPBACK_TIMEOUT_DEFAULT_US	1000000		/* the core's 1 s */

/* requests_per_second and throughput are sampled over windows this long */
#define GB_LOOPBACK_WINDOW_NS		NSEC_PER_SEC

static unsigned int kfifo_depth = 8192;
module_param(kfifo_depth, uint, 0444);
MODULE_PARM_DESC(kfifo_depth,
		 "Latencies kept per test for the raw_latency debugfs file");

/* min / max / average of one quantity over a test */
struct gb_loopback_stats {
	u64	min;
	u64	max;
	u64	sum;
	u64	count;
};

/* What one test runs with: the attributes when it started */
struct gb_loopback_config {
	int		type;
	u32		size;
	u32		iteration_max;
	u32		us_wait;
	u32		outstanding_max;	/* 0: no limit */
	bool		async;
	unsigned int	timeout_ms;
};

struct gb_loopback {
	struct gb_connection	*connection;
	struct device		*dev;		/* gb_loopbackN */
	int			id;
	u32			size_max;	/* transfer and sink payload */
	struct dentry		*raw_file;
	struct dentry		*raw_link;

	struct mutex		mutex;		/* see the top of the file */
	bool			dying;		/* disconnect has begun */
	/* configuration attributes (@mutex) */
	u32			size;
	u32			iteration_max;
	u32			us_wait;
	u32			outstanding_max;
	u32			timeout_us;
	bool			async;

	struct work_struct	work;		/* runs a test */
	struct gb_loopback_config cfg;		/* of the test that runs */
	wait_queue_head_t	wq;		/* @outstanding, @stopping */

	spinlock_t		lock;		/* everything below */
	bool			running;	/* the work owns a test */
	bool			stopping;	/* ... and must end it */
	int			type;		/* "type": 0 unless running */
	struct list_head	inflight;	/* struct gb_loopback_op */
	u32			outstanding;
	u32			wake_below;	/* wake the sender at this */

	u32			iteration_count;
	u32			error;
	u32			requests_completed;
	u32			requests_timedout;

	struct gb_loopback_stats latency;		/* us */
	struct gb_loopback_stats requests_per_second;
	struct gb_loopback_stats throughput;		/* bytes/s */
	struct gb_loopback_stats apbridge_unipro_latency; /* us */
	struct gb_loopback_stats gbphy_firmware_latency;  /* us */

	ktime_t			window_start;
	u64			window_requests;
	u64			window_bytes;

	DECLARE_KFIFO_PTR(raw, u32);		/* latencies, us */
	bool			raw_allocated;
};

/*
 * One operation of a test, from send to callback: the operation's own
 * record (gb_operation_create_priv()), so it goes with the operation.
 */
struct gb_loopback_op {
	struct gb_loopback	*gb;
	struct gb_operation	*operation;
	struct list_head	node;		/* gb->inflight */
	ktime_t			start;
};

/* It lives in the operation (gb_operation_create_priv()) */
static_assert(sizeof(struct gb_loopback_op) <= GB_OPERATION_PRIV_MAX);

static struct class gb_loopback_class = {
	.name	= "gb_loopback",
};

static DEFINE_IDA(gb_loopback_ida);
static struct dentry *gb_loopback_debugfs_root;
static struct workqueue_struct *gb_loopback_wq;

/* Statistics */

static void gb_loopback_stats_reset(struct gb_loopback_stats *stats)
{
	stats->min = U64_MAX;
	stats->max = 0;
	stats->sum = 0;
	stats->count = 0;
}

static void gb_loopback_stats_add(struct gb_loopback_stats *stats, u64 val)
{
	if (val < stats->min)
		stats->min = val;
	if (val > stats->max)
		stats->max = val;
	stats->sum += val;
	stats->count++;
}

/* Bytes one successful operation moves over the link, both ways */
static u64 gb_loopback_op_bytes(const struct gb_loopback_config *cfg)
{
	size_t hdr = sizeof(struct gb_operation_msg_hdr);
	size_t req = sizeof(struct gb_loopback_transfer) + cfg->size;

	switch (cfg->type) {
	case GB_LOOPBACK_TYPE_TRANSFER:
		return 2 * (hdr + req);
	case GB_LOOPBACK_TYPE_SINK:
		return hdr + req + hdr;
	default:
		return 2 * hdr;
	}
}

/* Caller holds gb->lock.  Closes the current rate window at @now. */
static void gb_loopback_window_close(struct gb_loopback *gb, ktime_t now)
{
	u64 elapsed_us = div_u64(ktime_to_ns(ktime_sub(now, gb->window_start)),
				 NSEC_PER_USEC);

	if (!elapsed_us)
		elapsed_us = 1;
	if (gb->window_requests) {
		gb_loopback_stats_add(&gb->requests_per_second,
				      div64_u64(gb->window_requests *
						USEC_PER_SEC, elapsed_us));
		gb_loopback_stats_add(&gb->throughput,
				      div64_u64(gb->window_bytes *
						USEC_PER_SEC, elapsed_us));
	}
	gb->window_start = now;
	gb->window_requests = 0;
	gb->window_bytes = 0;
}

/*
 * Caller holds gb->lock.  Accounts one finished iteration: @result is
 * its outcome, the rest is meaningful only when it succeeded.
 */
static void gb_loopback_account(struct gb_loopback *gb, int result,
				ktime_t start, ktime_t now,
				u32 apbridge_us, u32 firmware_us)
{
	u64 latency_us;

	gb->iteration_count++;

	if (result) {
		gb->error++;
		if (result == -ETIMEDOUT)
			gb->requests_timedout++;
	} else {
		latency_us = div_u64(ktime_to_ns(ktime_sub(now, start)),
				     NSEC_PER_USEC);
		gb->requests_completed++;
		gb_loopback_stats_add(&gb->latency, latency_us);
		if (gb->raw_allocated)
			kfifo_put(&gb->raw, (u32)min_t(u64, latency_us,
						       U32_MAX));
		if (gb->cfg.type == GB_LOOPBACK_TYPE_TRANSFER) {
			gb_loopback_stats_add(&gb->apbridge_unipro_latency,
					      apbridge_us);
			gb_loopback_stats_add(&gb->gbphy_firmware_latency,
					      firmware_us);
		}
		gb->window_requests++;
		gb->window_bytes += gb_loopback_op_bytes(&gb->cfg);
	}

	if (ktime_to_ns(ktime_sub(now, gb->window_start)) >=
	    GB_LOOPBACK_WINDOW_NS)
		gb_loopback_window_close(gb, now);
}

/* Operations */

/* The payload of a transfer: differs from one iteration to the next */
static void gb_loopback_fill(u8 *data, u32 size, u32 iteration)
{
	u32 i;

	for (i = 0; i < size; i++)
		data[i] = (u8)(iteration * 31 + i);
}

/*
 * A transfer succeeded as far as the core can tell (the response has
 * exactly the size asked for): check that it echoes the request.
 */
static int gb_loopback_check_echo(struct gb_loopback *gb,
				  struct gb_operation *operation,
				  u32 *apbridge_us, u32 *firmware_us)
{
	struct gb_loopback_transfer *request = operation->request->payload;
	struct gb_loopback_transfer *response = operation->response->payload;
	u32 len = le32_to_cpu(request->len);

	if (operation->response->payload_size != sizeof(*response) + len ||
	    le32_to_cpu(response->len) != len ||
	    memcmp(response->data, request->data, len)) {
		dev_err_ratelimited(gb->dev,
				    "transfer id 0x%04x: the response does not echo the request (%u bytes)\n",
				    operation->id, len);
		return -EREMOTEIO;
	}

	*apbridge_us = le32_to_cpu(response->reserved0);
	*firmware_us = le32_to_cpu(response->reserved1);

	return 0;
}

/*
 * The operations' callback, flagged GB_OPERATION_FLAG_CALLBACK_ATOMIC: it
 * may run in the host driver's receive path, in any context, so it only
 * takes spinlocks and never sleeps.
 */
static void gb_loopback_op_done(struct gb_operation *operation)
{
	struct gb_loopback_op *op = operation->private;
	struct gb_loopback *gb = op->gb;
	u32 apbridge_us = 0, firmware_us = 0;
	ktime_t now = ktime_get();
	unsigned long flags;
	bool wake;
	int result;

	result = gb_operation_result(operation);
	if (!result && operation->type == GB_LOOPBACK_TYPE_TRANSFER)
		result = gb_loopback_check_echo(gb, operation, &apbridge_us,
						&firmware_us);
	if (result && result != -ECANCELED && result != -ESHUTDOWN)
		dev_dbg(gb->dev, "operation id 0x%04x of type 0x%02x failed: %d\n",
			operation->id, operation->type, result);

	spin_lock_irqsave(&gb->lock, flags);
	list_del(&op->node);
	gb->outstanding--;
	/* Operations cut short by a stop are not part of the results */
	if (!gb->stopping)
		gb_loopback_account(gb, result, op->start, now, apbridge_us,
				    firmware_us);
	/*
	 * The sender refills the window in bursts: woken when half of it
	 * is free rather than at every completion, it sends several
	 * requests per wakeup, and gbsim then reads them in one go.
	 */
	wake = gb->outstanding <= gb->wake_below || gb->stopping;
	spin_unlock_irqrestore(&gb->lock, flags);

	if (wake)
		wake_up(&gb->wq);

	/* The last use of @op: it is freed with the operation */
	gb_operation_put(operation);
}

/*
 * Sends iteration @iteration of the running test.  On success the
 * callback accounts it; on error nothing was sent.
 */
static int gb_loopback_send(struct gb_loopback *gb, u32 iteration)
{
	const struct gb_loopback_config *cfg = &gb->cfg;
	struct gb_loopback_transfer *request;
	struct gb_operation *operation;
	size_t request_size = 0, response_size = 0;
	struct gb_loopback_op *op;
	unsigned long flags;
	int ret;

	if (cfg->type != GB_LOOPBACK_TYPE_PING) {
		request_size = sizeof(*request) + cfg->size;
		if (cfg->type == GB_LOOPBACK_TYPE_TRANSFER)
			response_size = request_size;
	}

	/* gb_loopback_op_done() only takes spinlocks: no work item hop */
	operation = gb_operation_create_priv(gb->connection, cfg->type,
					     request_size, response_size,
					     GB_OPERATION_FLAG_CALLBACK_ATOMIC,
					     sizeof(*op), GFP_KERNEL);
	if (!operation)
		return -ENOMEM;
	op = operation->private;

	if (request_size) {
		request = operation->request->payload;
		request->len = cpu_to_le32(cfg->size);
		gb_loopback_fill(request->data, cfg->size, iteration);
	}

	op->gb = gb;
	op->operation = operation;

	spin_lock_irqsave(&gb->lock, flags);
	list_add_tail(&op->node, &gb->inflight);
	gb->outstanding++;
	spin_unlock_irqrestore(&gb->lock, flags);

	op->start = ktime_get();
	ret = gb_operation_request_send(operation, gb_loopback_op_done,
					cfg->timeout_ms, GFP_KERNEL);
	if (ret) {
		spin_lock_irqsave(&gb->lock, flags);
		list_del(&op->node);
		gb->outstanding--;
		spin_unlock_irqrestore(&gb->lock, flags);
		gb_operation_put(operation);
	}

	return ret;
}

/* The test's work: no caller of it may wait for it with gb->lock held */
static bool gb_loopback_may_send(struct gb_loopback *gb, u32 limit)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&gb->lock, flags);
	ret = gb->stopping || gb->outstanding < limit;
	spin_unlock_irqrestore(&gb->lock, flags);

	return ret;
}

static bool gb_loopback_idle(struct gb_loopback *gb)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&gb->lock, flags);
	ret = !gb->outstanding;
	spin_unlock_irqrestore(&gb->lock, flags);

	return ret;
}

static bool gb_loopback_stopping(struct gb_loopback *gb)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&gb->lock, flags);
	ret = gb->stopping;
	spin_unlock_irqrestore(&gb->lock, flags);

	return ret;
}

/*
 * The host refused a request for want of room (its queue is full, no
 * operation id is free) while others are in flight: wait for one of
 * them to complete and send it again, rather than count an error.  This
 * is what bounds an async test without outstanding_operations_max.
 */
static bool gb_loopback_backpressure(struct gb_loopback *gb, int ret)
{
	unsigned long flags;
	u32 outstanding;

	if (ret != -ENOSPC && ret != -EAGAIN && ret != -EBUSY)
		return false;

	spin_lock_irqsave(&gb->lock, flags);
	outstanding = gb->outstanding;
	spin_unlock_irqrestore(&gb->lock, flags);
	if (!outstanding)
		return false;

	wait_event(gb->wq, gb_loopback_may_send(gb, outstanding));

	return true;
}

/*
 * Cancels the operations in flight, one by one: the callback takes each
 * off the list.  Only the work calls this, once it sends no more.
 */
static void gb_loopback_cancel_inflight(struct gb_loopback *gb)
{
	struct gb_operation *operation;
	struct gb_loopback_op *op;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&gb->lock, flags);
		op = list_first_entry_or_null(&gb->inflight,
					      struct gb_loopback_op, node);
		operation = op ? op->operation : NULL;
		if (operation)
			gb_operation_get(operation);
		spin_unlock_irqrestore(&gb->lock, flags);

		if (!operation)
			break;
		gb_operation_cancel(operation, -ECANCELED);
		gb_operation_put(operation);
	}
}

static void gb_loopback_work(struct work_struct *work)
{
	struct gb_loopback *gb = container_of(work, struct gb_loopback, work);
	const struct gb_loopback_config *cfg = &gb->cfg;
	struct gb_bundle *bundle = gb->connection->bundle;
	u32 limit, iteration;
	unsigned long flags;
	ktime_t now;
	int ret;

	if (cfg->async)
		limit = cfg->outstanding_max ? cfg->outstanding_max : U32_MAX;
	else
		limit = 1;
	spin_lock_irqsave(&gb->lock, flags);
	gb->wake_below = limit / 2;
	spin_unlock_irqrestore(&gb->lock, flags);

	iteration = 0;
	while (!cfg->iteration_max || iteration < cfg->iteration_max) {
		wait_event(gb->wq, gb_loopback_may_send(gb, limit));
		if (gb_loopback_stopping(gb))
			break;

		ret = gb_loopback_send(gb, iteration);
		if (gb_loopback_backpressure(gb, ret))
			continue;	/* the same iteration again */
		iteration++;
		if (ret) {
			dev_err_ratelimited(gb->dev,
					    "failed to send operation of type 0x%02x: %d\n",
					    cfg->type, ret);
			now = ktime_get();
			spin_lock_irqsave(&gb->lock, flags);
			gb_loopback_account(gb, ret, now, now, 0, 0);
			spin_unlock_irqrestore(&gb->lock, flags);
			/* Nobody at the other end any more: the test is over */
			if (ret == -ESHUTDOWN || ret == -ENOTCONN)
				break;
		}

		if (cfg->us_wait)
			fsleep(cfg->us_wait);
		cond_resched();
	}

	if (gb_loopback_stopping(gb))
		gb_loopback_cancel_inflight(gb);
	/* Bounded: every operation has its timeout */
	wait_event(gb->wq, gb_loopback_idle(gb));

	now = ktime_get();
	spin_lock_irqsave(&gb->lock, flags);
	if (!gb->stopping)
		gb_loopback_window_close(gb, now);
	gb->type = GB_LOOPBACK_TEST_NONE;
	gb->running = false;
	spin_unlock_irqrestore(&gb->lock, flags);

	gb_pm_runtime_put_autosuspend(bundle);

	sysfs_notify(&gb->dev->kobj, NULL, "iteration_count");
}

/* Starting and stopping tests; callers hold gb->mutex */

static bool gb_loopback_running(struct gb_loopback *gb)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&gb->lock, flags);
	ret = gb->running;
	spin_unlock_irqrestore(&gb->lock, flags);

	return ret;
}

static void gb_loopback_stop(struct gb_loopback *gb)
{
	unsigned long flags;

	lockdep_assert_held(&gb->mutex);

	spin_lock_irqsave(&gb->lock, flags);
	if (gb->running)
		gb->stopping = true;
	spin_unlock_irqrestore(&gb->lock, flags);
	wake_up(&gb->wq);

	flush_work(&gb->work);
}

static int gb_loopback_start(struct gb_loopback *gb, int type)
{
	struct gb_bundle *bundle = gb->connection->bundle;
	unsigned long flags;
	int ret;

	lockdep_assert_held(&gb->mutex);

	/* Kept from the first test on; an idle device costs nothing */
	if (!gb->raw_allocated && kfifo_depth) {
		ret = kfifo_alloc(&gb->raw, kfifo_depth, GFP_KERNEL);
		if (ret)
			return ret;
		gb->raw_allocated = true;
	}

	ret = gb_pm_runtime_get_sync(bundle);
	if (ret)
		return ret;

	gb->cfg = (struct gb_loopback_config){
		.type		= type,
		.size		= gb->size,
		.iteration_max	= gb->iteration_max,
		.us_wait	= gb->us_wait,
		.outstanding_max = gb->outstanding_max,
		.async		= gb->async,
		.timeout_ms	= DIV_ROUND_UP(gb->timeout_us, USEC_PER_MSEC),
	};

	spin_lock_irqsave(&gb->lock, flags);
	gb->iteration_count = 0;
	gb->error = 0;
	gb->requests_completed = 0;
	gb->requests_timedout = 0;
	gb_loopback_stats_reset(&gb->latency);
	gb_loopback_stats_reset(&gb->requests_per_second);
	gb_loopback_stats_reset(&gb->throughput);
	gb_loopback_stats_reset(&gb->apbridge_unipro_latency);
	gb_loopback_stats_reset(&gb->gbphy_firmware_latency);
	gb->window_start = ktime_get();
	gb->window_requests = 0;
	gb->window_bytes = 0;
	if (gb->raw_allocated)
		kfifo_reset(&gb->raw);
	gb->type = type;
	gb->stopping = false;
	gb->running = true;
	spin_unlock_irqrestore(&gb->lock, flags);

	queue_work(gb_loopback_wq, &gb->work);

	return 0;
}

/* sysfs: configuration */

static ssize_t type_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);
	unsigned long flags;
	int type;

	spin_lock_irqsave(&gb->lock, flags);
	type = gb->type;
	spin_unlock_irqrestore(&gb->lock, flags);

	return sysfs_emit(buf, "%d\n", type);
}

static ssize_t type_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);
	int type, ret;

	ret = kstrtoint(buf, 0, &type);
	if (ret)
		return ret;

	switch (type) {
	case GB_LOOPBACK_TEST_NONE:
	case GB_LOOPBACK_TYPE_PING:
	case GB_LOOPBACK_TYPE_TRANSFER:
	case GB_LOOPBACK_TYPE_SINK:
		break;
	default:
		return -EINVAL;
	}

	mutex_lock(&gb->mutex);
	if (gb->dying) {
		ret = -ENODEV;
		goto out_unlock;
	}
	/* A new test replaces the one running */
	gb_loopback_stop(gb);
	if (type != GB_LOOPBACK_TEST_NONE)
		ret = gb_loopback_start(gb, type);
out_unlock:
	mutex_unlock(&gb->mutex);

	return ret ? ret : len;
}
static DEVICE_ATTR_RW(type);

/*
 * A configuration attribute: a u32 in [@min, @max], refused with -EBUSY
 * while a test runs (the test keeps the values it started with).
 */
static ssize_t gb_loopback_config_store(struct device *dev, const char *buf,
					size_t len, u32 *field, u32 min,
					u32 max)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);
	u32 val;
	int ret;

	ret = kstrtou32(buf, 0, &val);
	if (ret)
		return ret;
	if (val < min || val > max)
		return -EINVAL;

	mutex_lock(&gb->mutex);
	if (gb->dying)
		ret = -ENODEV;
	else if (gb_loopback_running(gb))
		ret = -EBUSY;
	else
		*field = val;
	mutex_unlock(&gb->mutex);

	return ret ? ret : len;
}

static ssize_t gb_loopback_config_show(struct device *dev, char *buf,
				       const u32 *field)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);
	u32 val;

	mutex_lock(&gb->mutex);
	val = *field;
	mutex_unlock(&gb->mutex);

	return sysfs_emit(buf, "%u\n", val);
}

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_show(dev, buf, &gb->size);
}

static ssize_t size_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_store(dev, buf, len, &gb->size, 0,
					gb->size_max);
}
static DEVICE_ATTR_RW(size);

static ssize_t us_wait_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_show(dev, buf, &gb->us_wait);
}

static ssize_t us_wait_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t len)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_store(dev, buf, len, &gb->us_wait, 0,
					GB_LOOPBACK_US_WAIT_MAX);
}
static DEVICE_ATTR_RW(us_wait);

static ssize_t iteration_max_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_show(dev, buf, &gb->iteration_max);
}

static ssize_t iteration_max_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t len)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_store(dev, buf, len, &gb->iteration_max, 0,
					U32_MAX);
}
static DEVICE_ATTR_RW(iteration_max);

static ssize_t outstanding_operations_max_show(struct device *dev,
					       struct device_attribute *attr,
					       char *buf)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_show(dev, buf, &gb->outstanding_max);
}

static ssize_t outstanding_operations_max_store(struct device *dev,
						struct device_attribute *attr,
						const char *buf, size_t len)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_store(dev, buf, len, &gb->outstanding_max,
					0, U32_MAX);
}
static DEVICE_ATTR_RW(outstanding_operations_max);

static ssize_t timeout_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_show(dev, buf, &gb->timeout_us);
}

static ssize_t timeout_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t len)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);

	return gb_loopback_config_store(dev, buf, len, &gb->timeout_us,
					jiffies_to_usecs(GB_LOOPBACK_TIMEOUT_MIN),
					jiffies_to_usecs(GB_LOOPBACK_TIMEOUT_MAX));
}
static DEVICE_ATTR_RW(timeout);

static ssize_t async_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);
	bool async;

	mutex_lock(&gb->mutex);
	async = gb->async;
	mutex_unlock(&gb->mutex);

	return sysfs_emit(buf, "%d\n", async);
}

static ssize_t async_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct gb_loopback *gb = dev_get_drvdata(dev);
	u32 val;
	int ret;

	ret = kstrtou32(buf, 0, &val);
	if (ret)
		return ret;

	mutex_lock(&gb->mutex);
	if (gb->dying)
		ret = -ENODEV;
	else if (gb_loopback_running(gb))
		ret = -EBUSY;
	else
		gb->async = val;
	mutex_unlock(&gb->mutex);

	return ret ? ret : len;
}
static DEVICE_ATTR_RW(async);

static ssize_t timeout_min_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  jiffies_to_usecs(GB_LOOPBACK_TIMEOUT_MIN));
}
static DEVICE_ATTR_RO(timeout_min);

static ssize_t timeout_max_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  jiffies_to_usecs(GB_LOOPBACK_TIMEOUT_MAX));
}
static DEVICE_ATTR_RO(timeout_max);

/* sysfs: results */

enum gb_loopback_result {
	GB_LOOPBACK_COUNTER,		/* a u32 */
	GB_LOOPBACK_STAT_MIN,		/* of a struct gb_loopback_stats */
	GB_LOOPBACK_STAT_MAX,
	GB_LOOPBACK_STAT_AVG,
};

/* A read-only result attribute: where in struct gb_loopback, and what */
struct gb_loopback_result_attr {
	struct device_attribute	dev_attr;
	size_t			offset;
	enum gb_loopback_result	what;
};

/*
 * Counters print as integers, min and max too (0 without samples), avg
 * with 6 decimals.
 */
static ssize_t gb_loopback_result_show(struct device *dev,
				       struct device_attribute *attr,
				       char *buf)
{
	struct gb_loopback_result_attr *ra =
		container_of(attr, struct gb_loopback_result_attr, dev_attr);
	struct gb_loopback *gb = dev_get_drvdata(dev);
	const void *field = (const u8 *)gb + ra->offset;
	struct gb_loopback_stats s;
	unsigned long flags;
	u64 avg, rem;
	u32 counter;

	spin_lock_irqsave(&gb->lock, flags);
	if (ra->what == GB_LOOPBACK_COUNTER)
		counter = *(const u32 *)field;
	else
		s = *(const struct gb_loopback_stats *)field;
	spin_unlock_irqrestore(&gb->lock, flags);

	switch (ra->what) {
	case GB_LOOPBACK_COUNTER:
		return sysfs_emit(buf, "%u\n", counter);
	case GB_LOOPBACK_STAT_MIN:
		return sysfs_emit(buf, "%llu\n", s.count ? s.min : 0);
	case GB_LOOPBACK_STAT_MAX:
		return sysfs_emit(buf, "%llu\n", s.max);
	default:
		if (!s.count)
			return sysfs_emit(buf, "0.000000\n");
		avg = div64_u64_rem(s.sum, s.count, &rem);
		rem = div64_u64(rem * 1000000, s.count);
		return sysfs_emit(buf, "%llu.%06llu\n", avg, rem);
	}
}

#define GB_LOOPBACK_RESULT(_name, _field, _what)			\
	{								\
		.dev_attr = __ATTR(_name, 0444, gb_loopback_result_show, \
				   NULL),				\
		.offset = offsetof(struct gb_loopback, _field),		\
		.what = (_what),					\
	}

static struct gb_loopback_result_attr gb_loopback_results[] = {
	GB_LOOPBACK_RESULT(iteration_count, iteration_count,
			   GB_LOOPBACK_COUNTER),
	GB_LOOPBACK_RESULT(error, error, GB_LOOPBACK_COUNTER),
	GB_LOOPBACK_RESULT(requests_completed, requests_completed,
			   GB_LOOPBACK_COUNTER),
	GB_LOOPBACK_RESULT(requests_timedout, requests_timedout,
			   GB_LOOPBACK_COUNTER),
	GB_LOOPBACK_RESULT(latency_min, latency, GB_LOOPBACK_STAT_MIN),
	GB_LOOPBACK_RESULT(latency_max, latency, GB_LOOPBACK_STAT_MAX),
	GB_LOOPBACK_RESULT(latency_avg, latency, GB_LOOPBACK_STAT_AVG),
	GB_LOOPBACK_RESULT(requests_per_second_min, requests_per_second,
			   GB_LOOPBACK_STAT_MIN),
	GB_LOOPBACK_RESULT(requests_per_second_max, requests_per_second,
			   GB_LOOPBACK_STAT_MAX),
	GB_LOOPBACK_RESULT(requests_per_second_avg, requests_per_second,
			   GB_LOOPBACK_STAT_AVG),
	GB_LOOPBACK_RESULT(throughput_min, throughput, GB_LOOPBACK_STAT_MIN),
	GB_LOOPBACK_RESULT(throughput_max, throughput, GB_LOOPBACK_STAT_MAX),
	GB_LOOPBACK_RESULT(throughput_avg, throughput, GB_LOOPBACK_STAT_AVG),
	GB_LOOPBACK_RESULT(apbridge_unipro_latency_min,
			   apbridge_unipro_latency, GB_LOOPBACK_STAT_MIN),
	GB_LOOPBACK_RESULT(apbridge_unipro_latency_max,
			   apbridge_unipro_latency, GB_LOOPBACK_STAT_MAX),
	GB_LOOPBACK_RESULT(apbridge_unipro_latency_avg,
			   apbridge_unipro_latency, GB_LOOPBACK_STAT_AVG),
	GB_LOOPBACK_RESULT(gbphy_firmware_latency_min,
			   gbphy_firmware_latency, GB_LOOPBACK_STAT_MIN),
	GB_LOOPBACK_RESULT(gbphy_firmware_latency_max,
			   gbphy_firmware_latency, GB_LOOPBACK_STAT_MAX),
	GB_LOOPBACK_RESULT(gbphy_firmware_latency_avg,
			   gbphy_firmware_latency, GB_LOOPBACK_STAT_AVG),
};

/*
 * The configuration attributes, then the results: filled in at module
 * init, NULL-terminated by the last slot.
 */
#define GB_LOOPBACK_CONFIG_ATTRS	9

static struct attribute *gb_loopback_attrs[GB_LOOPBACK_CONFIG_ATTRS +
					   ARRAY_SIZE(gb_loopback_results) + 1] = {
	&dev_attr_type.attr,
	&dev_attr_size.attr,
	&dev_attr_us_wait.attr,
	&dev_attr_iteration_max.attr,
	&dev_attr_async.attr,
	&dev_attr_timeout.attr,
	&dev_attr_outstanding_operations_max.attr,
	&dev_attr_timeout_min.attr,
	&dev_attr_timeout_max.attr,
};
ATTRIBUTE_GROUPS(gb_loopback);

static void gb_loopback_attrs_init(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gb_loopback_results); i++)
		gb_loopback_attrs[GB_LOOPBACK_CONFIG_ATTRS + i] =
			&gb_loopback_results[i].dev_attr.attr;
}

/* debugfs: raw latencies */

/*
 * Each read() drains as many whole "%u\n" lines from the FIFO as fit.
 * A read at the start of the file with nothing buffered fails with
 * -EAGAIN (as Linux's file does); later ones then read as end of file.
 */
static ssize_t gb_loopback_raw_read(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct gb_loopback *gb = file->private_data;
	size_t done = 0, len, room;
	unsigned long flags;
	char line[16];
	char *kbuf;
	u32 val;
	int n;

	if (!count)
		return 0;

	kbuf = kmalloc(min_t(size_t, count, PAGE_SIZE), GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;

	while (done < count) {
		room = min_t(size_t, count - done, PAGE_SIZE);
		len = 0;
		spin_lock_irqsave(&gb->lock, flags);
		while (gb->raw_allocated && kfifo_peek(&gb->raw, &val)) {
			n = scnprintf(line, sizeof(line), "%u\n", val);
			if (len + n > room)
				break;
			memcpy(kbuf + len, line, n);
			len += n;
			kfifo_skip(&gb->raw);
		}
		spin_unlock_irqrestore(&gb->lock, flags);

		if (!len)
			break;
		if (copy_to_user(ubuf + done, kbuf, len)) {
			kfree(kbuf);
			return done ? done : -EFAULT;
		}
		done += len;
	}
	kfree(kbuf);

	if (!done && !*ppos)
		return -EAGAIN;
	*ppos += done;

	return done;
}

/* A stream of samples: no seeking */
static int gb_loopback_raw_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return nonseekable_open(inode, file);
}

static const struct file_operations gb_loopback_raw_fops = {
	.owner	= THIS_MODULE,
	.open	= gb_loopback_raw_open,
	.read	= gb_loopback_raw_read,
};

/* Requests from the module: answered the way the module answers ours */

static int gb_loopback_request_handler(struct gb_operation *operation)
{
	struct device *dev = &operation->connection->bundle->dev;
	struct gb_message *request = operation->request;
	struct gb_loopback_transfer *req, *rsp;
	u32 len;

	switch (operation->type) {
	case GB_LOOPBACK_TYPE_PING:
		return 0;
	case GB_LOOPBACK_TYPE_TRANSFER:
	case GB_LOOPBACK_TYPE_SINK:
		break;
	default:
		dev_err_ratelimited(dev,
				    "unknown request of type 0x%02x from the module\n",
				    operation->type);
		return -EINVAL;
	}

	req = request->payload;
	if (request->payload_size < sizeof(*req) ||
	    le32_to_cpu(req->len) != request->payload_size - sizeof(*req)) {
		dev_err_ratelimited(dev,
				    "request of type 0x%02x from the module has a bad size (%zu bytes)\n",
				    operation->type, request->payload_size);
		return -EINVAL;
	}
	if (operation->type == GB_LOOPBACK_TYPE_SINK)
		return 0;

	len = le32_to_cpu(req->len);
	if (!gb_operation_response_alloc(operation, sizeof(*rsp) + len,
					 GFP_KERNEL))
		return -ENOMEM;
	rsp = operation->response->payload;
	rsp->len = req->len;
	rsp->reserved0 = 0;
	rsp->reserved1 = 0;
	memcpy(rsp->data, req->data, len);

	return 0;
}

/* The bundle driver */

static void gb_loopback_dev_release(struct device *dev)
{
	kfree(dev);
}

/*
 * gb_loopbackN, as device_create_with_groups() would make it but without
 * a power/ group: the class device has no runtime PM of its own (its
 * bundle has), and the group would be ten of its 41 sysfs nodes.
 */
static struct device *gb_loopback_dev_create(struct gb_loopback *gb,
					     struct device *parent)
{
	struct device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);

	device_initialize(dev);
	dev->class = &gb_loopback_class;
	dev->parent = parent;
	dev->groups = gb_loopback_groups;
	dev->release = gb_loopback_dev_release;
	dev_set_drvdata(dev, gb);
	device_set_pm_not_required(dev);

	ret = dev_set_name(dev, "gb_loopback%d", gb->id);
	if (!ret)
		ret = device_add(dev);
	if (ret) {
		put_device(dev);
		return ERR_PTR(ret);
	}

	return dev;
}

static int gb_loopback_probe(struct gb_bundle *bundle,
			     const struct greybus_bundle_id *id)
{
	struct greybus_descriptor_cport *cport_desc;
	struct gb_connection *connection;
	size_t payload_max;
	struct gb_loopback *gb;
	struct device *dev;
	char name[48], link[48];
	int ret;

	if (bundle->num_cports != 1)
		return -ENODEV;
	cport_desc = &bundle->cport_desc[0];
	if (cport_desc->protocol_id != GREYBUS_PROTOCOL_LOOPBACK)
		return -ENODEV;

	gb = kzalloc(sizeof(*gb), GFP_KERNEL);
	if (!gb)
		return -ENOMEM;

	mutex_init(&gb->mutex);
	spin_lock_init(&gb->lock);
	init_waitqueue_head(&gb->wq);
	INIT_LIST_HEAD(&gb->inflight);
	INIT_WORK(&gb->work, gb_loopback_work);
	gb->timeout_us = GB_LOOPBACK_TIMEOUT_DEFAULT_US;
	gb_loopback_stats_reset(&gb->latency);
	gb_loopback_stats_reset(&gb->requests_per_second);
	gb_loopback_stats_reset(&gb->throughput);
	gb_loopback_stats_reset(&gb->apbridge_unipro_latency);
	gb_loopback_stats_reset(&gb->gbphy_firmware_latency);

	gb->id = ida_alloc(&gb_loopback_ida, GFP_KERNEL);
	if (gb->id < 0) {
		ret = gb->id;
		goto err_free;
	}

	connection = gb_connection_create(bundle, le16_to_cpu(cport_desc->id),
					  gb_loopback_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_ida_free;
	}
	gb->connection = connection;
	gb_connection_set_data(connection, gb);

	payload_max = gb_operation_get_payload_size_max(connection);
	if (payload_max < sizeof(struct gb_loopback_transfer)) {
		ret = -EMSGSIZE;
		goto err_connection_destroy;
	}
	gb->size_max = payload_max - sizeof(struct gb_loopback_transfer);

	greybus_set_drvdata(bundle, gb);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_connection_destroy;
	gb_connection_latency_tag_enable(connection);

	/*
	 * The attributes are live before gb_loopback_dev_create()
	 * returns: a test started at once (type_store takes gb->mutex)
	 * waits until gb->dev is set, since its worker uses it.
	 */
	mutex_lock(&gb->mutex);
	dev = gb_loopback_dev_create(gb, &bundle->dev);
	if (IS_ERR(dev)) {
		mutex_unlock(&gb->mutex);
		ret = PTR_ERR(dev);
		goto err_connection_disable;
	}
	gb->dev = dev;
	mutex_unlock(&gb->mutex);

	/* Linux's name, and a link with the name loopback_test looks for */
	snprintf(name, sizeof(name), "raw_latency_%s", dev_name(&bundle->dev));
	snprintf(link, sizeof(link), "raw_latency_%s", dev_name(gb->dev));
	gb->raw_file = debugfs_create_file(name, 0444, gb_loopback_debugfs_root,
					   gb, &gb_loopback_raw_fops);
	gb->raw_link = debugfs_create_symlink(link, gb_loopback_debugfs_root,
					      name);

	dev_dbg(&bundle->dev, "%s: transfers up to %u bytes\n",
		dev_name(gb->dev), gb->size_max);

	return 0;

err_connection_disable:
	gb_connection_latency_tag_disable(connection);
	gb_connection_disable(connection);
err_connection_destroy:
	gb_connection_destroy(connection);
err_ida_free:
	ida_free(&gb_loopback_ida, gb->id);
err_free:
	mutex_destroy(&gb->mutex);
	kfree(gb);
	return ret;
}

static void gb_loopback_disconnect(struct gb_bundle *bundle)
{
	struct gb_loopback *gb = greybus_get_drvdata(bundle);

	mutex_lock(&gb->mutex);
	gb->dying = true;
	gb_loopback_stop(gb);
	mutex_unlock(&gb->mutex);

	debugfs_remove(gb->raw_link);
	debugfs_remove(gb->raw_file);
	/* Waits for sysfs callbacks still running; none starts a test now */
	device_unregister(gb->dev);

	gb_connection_latency_tag_disable(gb->connection);
	gb_connection_disable(gb->connection);
	gb_connection_destroy(gb->connection);

	if (gb->raw_allocated)
		kfifo_free(&gb->raw);
	ida_free(&gb_loopback_ida, gb->id);
	mutex_destroy(&gb->mutex);
	kfree(gb);
}

static const struct greybus_bundle_id gb_loopback_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_LOOPBACK) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_loopback_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_LOOPBACK);

static struct greybus_driver gb_loopback_driver = {
	.name		= "gb-loopback",
	.probe		= gb_loopback_probe,
	.disconnect	= gb_loopback_disconnect,
	.id_table	= gb_loopback_id_table,
};

static int __init gb_loopback_init(void)
{
	int ret;

	gb_loopback_attrs_init();

	gb_loopback_wq = alloc_workqueue("gb_loopback", WQ_UNBOUND, 0);
	if (!gb_loopback_wq)
		return -ENOMEM;

	ret = class_register(&gb_loopback_class);
	if (ret)
		goto err_destroy_wq;

	gb_loopback_debugfs_root = debugfs_create_dir("gb_loopback", NULL);

	ret = greybus_register(&gb_loopback_driver);
	if (ret)
		goto err_debugfs_remove;

	return 0;

err_debugfs_remove:
	debugfs_remove_recursive(gb_loopback_debugfs_root);
	class_unregister(&gb_loopback_class);
err_destroy_wq:
	destroy_workqueue(gb_loopback_wq);
	return ret;
}
module_init(gb_loopback_init);

static void __exit gb_loopback_exit(void)
{
	greybus_deregister(&gb_loopback_driver);
	debugfs_remove_recursive(gb_loopback_debugfs_root);
	class_unregister(&gb_loopback_class);
	destroy_workqueue(gb_loopback_wq);
	ida_destroy(&gb_loopback_ida);
}
module_exit(gb_loopback_exit);

MODULE_DESCRIPTION("Greybus Loopback protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
