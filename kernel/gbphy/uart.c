// SPDX-License-Identifier: GPL-2.0
/*
 * gb-uart: the UART protocol (0x04) as a tty driver, /dev/ttyGB<N>, so
 * stty, terminal programs and line disciplines work on a module's port.
 *
 * Data to the module is paced by credits: at most GB_UART_CREDITS_MAX
 * bytes may be sent and not yet handed back by the module with
 * RECEIVE_CREDITS.  write() only queues into a FIFO; a work item sends
 * what the credits allow, one SEND_DATA at a time, so chars_in_buffer()
 * (the FIFO plus what the module holds) is what a close waits for.
 *
 * Lifetime: struct gb_tty lives as long as its tty_port.  The bound gbphy
 * device holds one reference and every tty installed on the port another,
 * so a process may keep the tty open after the module left: removal hangs
 * the tty up and the last close frees what is left.
 */
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/kfifo.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/serial.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/tty.h>
#include <linux/tty_driver.h>
#include <linux/tty_flip.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <greybus/compat.h>
#include <greybus/gbphy.h>
#include <uapi/greybus/uart.h>

#define GB_UART_MINORS		16
#define GB_UART_FIFO_SIZE	8192	/* a power of two */
#define GB_UART_CLOSE_WAIT	(10 * HZ)	/* for the module's credits */

struct gb_tty {
	struct tty_port		port;
	struct gbphy_device	*gbphy_dev;
	struct gb_connection	*connection;
	int			minor;		/* -1 until allocated */
	size_t			send_max;	/* data bytes per SEND_DATA */
	struct gb_uart_send_data_request *send_buf;	/* tx_work's */
	struct work_struct	tx_work;

	/* irq-safe: write() may come from atomic context */
	spinlock_t		lock;
	struct kfifo		fifo;		/* written, not yet sent */
	unsigned int		credits;
	bool			flush_pending;	/* FLUSH_FIFOS to send */
	u8			ctrlin;		/* DCD, DSR, RI from the module */
	struct async_icount	icount;

	struct mutex		mutex;		/* everything below */
	bool			disconnected;	/* no new opens, no waits */
	u8			ctrlout;	/* DTR, RTS as last sent */
	struct gb_uart_set_line_coding_request line_coding;	/* last sent */
};

static struct tty_driver *gb_tty_driver;
static DEFINE_IDR(gb_tty_minors);
static DEFINE_MUTEX(gb_tty_minors_lock);

/*
 * An operation without response payload.  Once removal started nothing
 * is sent: the hangup's shutdown would only fail against a module that
 * is gone.  Callers hold gb_tty->mutex, so that the connection cannot go
 * between the check and the send; only tx_work does not, and the removal
 * cancels it before destroying the connection.  Logged unless the module
 * left or a signal interrupted the wait (the close of a killed process).
 */
static int gb_tty_op(struct gb_tty *gb_tty, u8 type, void *req, size_t size)
{
	int ret;

	if (READ_ONCE(gb_tty->disconnected))
		return -ENODEV;

	ret = gb_operation_sync(gb_tty->connection, type, req, size, NULL, 0);
	switch (ret) {
	case 0:
	case -ESHUTDOWN:
	case -ENOTCONN:
	case -EINTR:
		break;
	default:
		dev_err_ratelimited(&gb_tty->gbphy_dev->dev,
				    "uart operation 0x%02x failed: %d\n",
				    type, ret);
	}
	return ret;
}

static void gb_tty_async_done(struct gb_operation *operation)
{
	struct gb_tty *gb_tty = operation->private;
	int ret = gb_operation_result(operation);

	if (ret && ret != -ESHUTDOWN && ret != -ENOTCONN)
		dev_err_ratelimited(&gb_tty->gbphy_dev->dev,
				    "uart operation 0x%02x failed: %d\n",
				    operation->type, ret);
	gb_operation_put(operation);
}

/*
 * The same without waiting, for the close of a killed process (whose
 * pending signal would cut a synchronous wait short).  Sent in order
 * with the others; the connection's disable completes it before the
 * gb_tty can go.
 */
static int gb_tty_op_async(struct gb_tty *gb_tty, u8 type, void *req,
			   size_t size)
{
	struct gb_operation *operation;
	int ret;

	if (READ_ONCE(gb_tty->disconnected))
		return -ENODEV;

	operation = gb_operation_create(gb_tty->connection, type, size, 0,
					GFP_KERNEL);
	if (!operation)
		return -ENOMEM;
	memcpy(operation->request->payload, req, size);
	operation->private = gb_tty;

	ret = gb_operation_request_send(operation, gb_tty_async_done,
					GB_OPERATION_TIMEOUT_DEFAULT,
					GFP_KERNEL);
	if (ret)
		gb_operation_put(operation);
	return ret;
}

static void gb_tty_tx_work(struct work_struct *work)
{
	struct gb_tty *gb_tty = container_of(work, struct gb_tty, tx_work);
	struct gb_uart_send_data_request *req = gb_tty->send_buf;
	struct gb_uart_serial_flush_request flush_req;
	unsigned long flags;
	unsigned int len;
	bool flush;
	int ret;

	for (;;) {
		spin_lock_irqsave(&gb_tty->lock, flags);
		flush = gb_tty->flush_pending;
		gb_tty->flush_pending = false;
		len = 0;
		if (!flush) {
			len = min_t(unsigned int, kfifo_len(&gb_tty->fifo),
				    gb_tty->credits);
			len = min_t(size_t, len, gb_tty->send_max);
			len = kfifo_out(&gb_tty->fifo, req->data, len);
			gb_tty->credits -= len;
		}
		spin_unlock_irqrestore(&gb_tty->lock, flags);

		if (flush) {
			flush_req.flags = GB_SERIAL_FLAG_FLUSH_TRANSMITTER;
			gb_tty_op(gb_tty, GB_UART_TYPE_FLUSH_FIFOS, &flush_req,
				  sizeof(flush_req));
			continue;
		}
		if (!len)
			break;

		req->size = cpu_to_le16(len);
		ret = gb_tty_op(gb_tty, GB_UART_TYPE_SEND_DATA, req,
				sizeof(*req) + len);
		if (ret) {
			/*
			 * The module will not return credits for data it
			 * refused (one that answered too late may have, so
			 * never beyond the maximum); what is still queued
			 * would only fail the same way, so it goes too.
			 */
			spin_lock_irqsave(&gb_tty->lock, flags);
			gb_tty->credits = min_t(unsigned int,
						gb_tty->credits + len,
						GB_UART_CREDITS_MAX);
			kfifo_reset(&gb_tty->fifo);
			spin_unlock_irqrestore(&gb_tty->lock, flags);
		}
		tty_port_tty_wakeup(&gb_tty->port);
	}
}

static int gb_tty_receive_data(struct gb_tty *gb_tty, struct gb_message *msg)
{
	struct gb_uart_recv_data_request *req = msg->payload;
	struct tty_port *port = &gb_tty->port;
	char flag = TTY_NORMAL;
	size_t size;
	int n;

	if (msg->payload_size < sizeof(*req) ||
	    !le16_to_cpu(req->size) ||
	    le16_to_cpu(req->size) != msg->payload_size - sizeof(*req)) {
		dev_err_ratelimited(&gb_tty->gbphy_dev->dev,
				    "receive data of %zu bytes with bad size field\n",
				    msg->payload_size);
		return -EINVAL;
	}
	size = le16_to_cpu(req->size);

	spin_lock_irq(&gb_tty->lock);
	if (req->flags & GB_UART_RECV_FLAG_OVERRUN)
		gb_tty->icount.overrun++;
	if (req->flags & GB_UART_RECV_FLAG_BREAK) {
		flag = TTY_BREAK;
		gb_tty->icount.brk++;
	} else if (req->flags & GB_UART_RECV_FLAG_PARITY) {
		flag = TTY_PARITY;
		gb_tty->icount.parity++;
	} else if (req->flags & GB_UART_RECV_FLAG_FRAMING) {
		flag = TTY_FRAME;
		gb_tty->icount.frame++;
	}
	spin_unlock_irq(&gb_tty->lock);

	/* Nobody listens on a closed port: do not keep stale input */
	if (!tty_port_initialized(port))
		return 0;

	if (req->flags & GB_UART_RECV_FLAG_OVERRUN)
		tty_insert_flip_char(port, 0, TTY_OVERRUN);
	n = tty_insert_flip_string_fixed_flag(port, req->data, flag, size);
	if ((size_t)n != size)
		dev_err_ratelimited(&gb_tty->gbphy_dev->dev,
				    "input buffer full, %zu bytes dropped\n",
				    size - n);

	spin_lock_irq(&gb_tty->lock);
	gb_tty->icount.rx += n;
	if ((size_t)n != size)
		gb_tty->icount.buf_overrun++;
	spin_unlock_irq(&gb_tty->lock);

	tty_flip_buffer_push(port);
	return 0;
}

static int gb_tty_serial_state(struct gb_tty *gb_tty, struct gb_message *msg)
{
	struct gb_uart_serial_state_request *req = msg->payload;
	u8 ctrl, changed;

	if (msg->payload_size != sizeof(*req)) {
		dev_err_ratelimited(&gb_tty->gbphy_dev->dev,
				    "serial state of %zu bytes\n",
				    msg->payload_size);
		return -EINVAL;
	}
	ctrl = req->control & (GB_UART_CTRL_DCD | GB_UART_CTRL_DSR |
			       GB_UART_CTRL_RI);

	spin_lock_irq(&gb_tty->lock);
	changed = gb_tty->ctrlin ^ ctrl;
	gb_tty->ctrlin = ctrl;
	if (changed & GB_UART_CTRL_DCD)
		gb_tty->icount.dcd++;
	if (changed & GB_UART_CTRL_DSR)
		gb_tty->icount.dsr++;
	if (changed & GB_UART_CTRL_RI)
		gb_tty->icount.rng++;
	spin_unlock_irq(&gb_tty->lock);

	if (!changed)
		return 0;
	wake_up_interruptible(&gb_tty->port.delta_msr_wait);
	if (!(changed & GB_UART_CTRL_DCD))
		return 0;
	/* Carrier: a blocking open waits for it; losing it hangs up */
	if (ctrl & GB_UART_CTRL_DCD)
		wake_up_interruptible(&gb_tty->port.open_wait);
	else
		tty_port_tty_hangup(&gb_tty->port, true);
	return 0;
}

static int gb_tty_receive_credits(struct gb_tty *gb_tty, struct gb_message *msg)
{
	struct gb_uart_receive_credits_request *req = msg->payload;
	unsigned int count, outstanding;

	if (msg->payload_size != sizeof(*req)) {
		dev_err_ratelimited(&gb_tty->gbphy_dev->dev,
				    "receive credits of %zu bytes\n",
				    msg->payload_size);
		return -EINVAL;
	}
	count = le16_to_cpu(req->count);

	spin_lock_irq(&gb_tty->lock);
	outstanding = GB_UART_CREDITS_MAX - gb_tty->credits;
	if (count <= outstanding)
		gb_tty->credits += count;
	spin_unlock_irq(&gb_tty->lock);

	if (count > outstanding) {
		dev_err_ratelimited(&gb_tty->gbphy_dev->dev,
				    "%u credits returned, %u outstanding\n",
				    count, outstanding);
		return -EINVAL;
	}

	schedule_work(&gb_tty->tx_work);
	tty_port_tty_wakeup(&gb_tty->port);
	return 0;
}

static int gb_tty_request_handler(struct gb_operation *operation)
{
	struct gb_tty *gb_tty = gb_connection_get_data(operation->connection);

	switch (operation->type) {
	case GB_UART_TYPE_RECEIVE_DATA:
		return gb_tty_receive_data(gb_tty, operation->request);
	case GB_UART_TYPE_SERIAL_STATE:
		return gb_tty_serial_state(gb_tty, operation->request);
	case GB_UART_TYPE_RECEIVE_CREDITS:
		return gb_tty_receive_credits(gb_tty, operation->request);
	default:
		dev_err_ratelimited(&gb_tty->gbphy_dev->dev,
				    "unexpected request 0x%02x\n",
				    operation->type);
		return -EPROTONOSUPPORT;
	}
}

/*
 * Sets and clears DTR/RTS.  With @wait a change the module refused is
 * not recorded; without, it is recorded once sent.
 */
static int gb_tty_set_ctrl(struct gb_tty *gb_tty, u8 set, u8 clear, bool wait)
{
	struct gb_uart_set_control_line_state_request req;
	u8 type = GB_UART_TYPE_SET_CONTROL_LINE_STATE;
	int ret = 0;

	mutex_lock(&gb_tty->mutex);
	req.control = (gb_tty->ctrlout | set) & ~clear;
	if (req.control != gb_tty->ctrlout) {
		if (wait)
			ret = gb_tty_op(gb_tty, type, &req, sizeof(req));
		else
			ret = gb_tty_op_async(gb_tty, type, &req, sizeof(req));
		if (!ret)
			gb_tty->ctrlout = req.control;
	}
	mutex_unlock(&gb_tty->mutex);
	return ret;
}

static u8 gb_tty_parity(const struct ktermios *t)
{
	if (!(t->c_cflag & PARENB))
		return GB_SERIAL_NO_PARITY;
	if (t->c_cflag & CMSPAR)
		return t->c_cflag & PARODD ? GB_SERIAL_MARK_PARITY :
					     GB_SERIAL_SPACE_PARITY;
	return t->c_cflag & PARODD ? GB_SERIAL_ODD_PARITY :
				     GB_SERIAL_EVEN_PARITY;
}

/* Sends the line coding of @tty's termios if it differs (or if @force) */
static int gb_tty_send_line_coding(struct gb_tty *gb_tty,
				   struct tty_struct *tty, bool force)
{
	struct gb_uart_set_line_coding_request req;
	const struct ktermios *t = &tty->termios;
	speed_t rate = tty_get_baud_rate(tty);
	int ret = 0;

	mutex_lock(&gb_tty->mutex);
	/* B0 only drops the lines; the rate stays what it was */
	req.rate = rate ? cpu_to_le32(rate) : gb_tty->line_coding.rate;
	if (!req.rate)
		req.rate = cpu_to_le32(9600);
	req.format = t->c_cflag & CSTOPB ? GB_SERIAL_2_STOP_BITS :
					   GB_SERIAL_1_STOP_BITS;
	req.parity = gb_tty_parity(t);
	req.data_bits = tty_get_char_size(t->c_cflag);
	req.flow_control = t->c_cflag & CRTSCTS ? GB_SERIAL_AUTO_RTSCTS_EN : 0;

	if (force || memcmp(&req, &gb_tty->line_coding, sizeof(req))) {
		ret = gb_tty_op(gb_tty, GB_UART_TYPE_SET_LINE_CODING, &req,
				sizeof(req));
		if (!ret)
			gb_tty->line_coding = req;
	}
	mutex_unlock(&gb_tty->mutex);
	return ret;
}

/* tty_port operations */

static int gb_tty_port_activate(struct tty_port *port, struct tty_struct *tty)
{
	struct gb_tty *gb_tty = container_of(port, struct gb_tty, port);
	int ret;

	/* Pairs with the removal: a tty installed just before it stays shut */
	mutex_lock(&gb_tty->mutex);
	ret = gb_tty->disconnected ? -ENODEV : 0;
	mutex_unlock(&gb_tty->mutex);
	if (ret)
		return ret;

	/* Resumed for as long as the port is open */
	ret = gbphy_runtime_get_sync(gb_tty->gbphy_dev);
	if (ret)
		return ret;

	ret = gb_tty_send_line_coding(gb_tty, tty, true);
	if (ret) {
		gbphy_runtime_put_autosuspend(gb_tty->gbphy_dev);
		return ret;
	}
	return 0;
}

static void gb_tty_port_shutdown(struct tty_port *port)
{
	struct gb_tty *gb_tty = container_of(port, struct gb_tty, port);

	spin_lock_irq(&gb_tty->lock);
	kfifo_reset(&gb_tty->fifo);
	gb_tty->flush_pending = false;
	spin_unlock_irq(&gb_tty->lock);
	cancel_work_sync(&gb_tty->tx_work);

	gbphy_runtime_put_autosuspend(gb_tty->gbphy_dev);
}

static void gb_tty_port_dtr_rts(struct tty_port *port, GB_TTY_PORT_BOOL raise)
{
	struct gb_tty *gb_tty = container_of(port, struct gb_tty, port);
	u8 lines = GB_UART_CTRL_DTR | GB_UART_CTRL_RTS;

	if (raise)
		gb_tty_set_ctrl(gb_tty, lines, 0, false);
	else
		gb_tty_set_ctrl(gb_tty, 0, lines, false);
}

static GB_TTY_PORT_BOOL gb_tty_port_carrier_raised(struct tty_port *port)
{
	struct gb_tty *gb_tty = container_of(port, struct gb_tty, port);
	int dcd;

	spin_lock_irq(&gb_tty->lock);
	dcd = !!(gb_tty->ctrlin & GB_UART_CTRL_DCD);
	spin_unlock_irq(&gb_tty->lock);
	return dcd;
}

/* The last reference: the gbphy device and every tty are gone */
static void gb_tty_port_destruct(struct tty_port *port)
{
	struct gb_tty *gb_tty = container_of(port, struct gb_tty, port);

	if (gb_tty->minor >= 0) {
		mutex_lock(&gb_tty_minors_lock);
		idr_remove(&gb_tty_minors, gb_tty->minor);
		mutex_unlock(&gb_tty_minors_lock);
	}
	kfifo_free(&gb_tty->fifo);
	kfree(gb_tty->send_buf);
	kfree(gb_tty);
}

static const struct tty_port_operations gb_tty_port_ops = {
	.activate	= gb_tty_port_activate,
	.shutdown	= gb_tty_port_shutdown,
	.dtr_rts	= gb_tty_port_dtr_rts,
	.carrier_raised	= gb_tty_port_carrier_raised,
	.destruct	= gb_tty_port_destruct,
};

/* tty operations */

static int gb_tty_install(struct tty_driver *driver, struct tty_struct *tty)
{
	struct gb_tty *gb_tty;
	int ret;

	mutex_lock(&gb_tty_minors_lock);
	gb_tty = idr_find(&gb_tty_minors, tty->index);
	if (gb_tty)
		tty_port_get(&gb_tty->port);
	mutex_unlock(&gb_tty_minors_lock);
	if (!gb_tty)
		return -ENODEV;

	mutex_lock(&gb_tty->mutex);
	if (gb_tty->disconnected)
		ret = -ENODEV;
	else
		ret = tty_port_install(&gb_tty->port, driver, tty);
	mutex_unlock(&gb_tty->mutex);
	if (ret) {
		tty_port_put(&gb_tty->port);
		return ret;
	}

	tty->driver_data = gb_tty;
	return 0;
}

static void gb_tty_cleanup(struct tty_struct *tty)
{
	struct gb_tty *gb_tty = tty->driver_data;

	tty_port_put(&gb_tty->port);
}

static int gb_tty_open(struct tty_struct *tty, struct file *filp)
{
	struct gb_tty *gb_tty = tty->driver_data;

	return tty_port_open(&gb_tty->port, tty, filp);
}

static void gb_tty_close(struct tty_struct *tty, struct file *filp)
{
	struct gb_tty *gb_tty = tty->driver_data;

	tty_port_close(&gb_tty->port, tty, filp);
}

static void gb_tty_hangup(struct tty_struct *tty)
{
	struct gb_tty *gb_tty = tty->driver_data;

	tty_port_hangup(&gb_tty->port);
}

static GB_TTY_WRITE_RET gb_tty_write(struct tty_struct *tty, const u8 *buf,
				     GB_TTY_WRITE_LEN count)
{
	struct gb_tty *gb_tty = tty->driver_data;
	unsigned int n;

	n = kfifo_in_spinlocked(&gb_tty->fifo, buf, count, &gb_tty->lock);
	if (n)
		schedule_work(&gb_tty->tx_work);
	return n;
}

static unsigned int gb_tty_write_room(struct tty_struct *tty)
{
	struct gb_tty *gb_tty = tty->driver_data;
	unsigned long flags;
	unsigned int room;

	spin_lock_irqsave(&gb_tty->lock, flags);
	room = kfifo_avail(&gb_tty->fifo);
	spin_unlock_irqrestore(&gb_tty->lock, flags);
	return room;
}

/*
 * Queued here and not yet handed back by the module; nothing once removal
 * started, so that a close waiting for it (holding the tty lock the
 * hangup needs) ends at once.
 */
static unsigned int gb_tty_chars_in_buffer(struct tty_struct *tty)
{
	struct gb_tty *gb_tty = tty->driver_data;
	unsigned long flags;
	unsigned int n;

	if (READ_ONCE(gb_tty->disconnected))
		return 0;

	spin_lock_irqsave(&gb_tty->lock, flags);
	n = kfifo_len(&gb_tty->fifo) + GB_UART_CREDITS_MAX - gb_tty->credits;
	spin_unlock_irqrestore(&gb_tty->lock, flags);
	return n;
}

/* May be called in atomic context: the FLUSH_FIFOS goes from tx_work */
static void gb_tty_flush_buffer(struct tty_struct *tty)
{
	struct gb_tty *gb_tty = tty->driver_data;
	unsigned long flags;

	spin_lock_irqsave(&gb_tty->lock, flags);
	kfifo_reset(&gb_tty->fifo);
	gb_tty->flush_pending = true;
	spin_unlock_irqrestore(&gb_tty->lock, flags);
	schedule_work(&gb_tty->tx_work);
}

static void gb_tty_set_termios(struct tty_struct *tty,
			       const struct ktermios *old)
{
	struct gb_tty *gb_tty = tty->driver_data;
	u8 lines = GB_UART_CTRL_DTR | GB_UART_CTRL_RTS;

	gb_tty_send_line_coding(gb_tty, tty, false);

	/* B0 is the classic way to hang up a modem */
	if (!C_BAUD(tty))
		gb_tty_set_ctrl(gb_tty, 0, lines, true);
	else if (old && !(old->c_cflag & CBAUD))
		gb_tty_set_ctrl(gb_tty, lines, 0, true);
}

static int gb_tty_tiocmget(struct tty_struct *tty)
{
	struct gb_tty *gb_tty = tty->driver_data;
	u8 in, out;

	mutex_lock(&gb_tty->mutex);
	out = gb_tty->ctrlout;
	mutex_unlock(&gb_tty->mutex);
	spin_lock_irq(&gb_tty->lock);
	in = gb_tty->ctrlin;
	spin_unlock_irq(&gb_tty->lock);

	return (out & GB_UART_CTRL_DTR ? TIOCM_DTR : 0) |
	       (out & GB_UART_CTRL_RTS ? TIOCM_RTS : 0) |
	       (in & GB_UART_CTRL_DCD ? TIOCM_CAR : 0) |
	       (in & GB_UART_CTRL_DSR ? TIOCM_DSR : 0) |
	       (in & GB_UART_CTRL_RI ? TIOCM_RI : 0);
}

static u8 gb_tty_tiocm_lines(unsigned int tiocm)
{
	return (tiocm & TIOCM_DTR ? GB_UART_CTRL_DTR : 0) |
	       (tiocm & TIOCM_RTS ? GB_UART_CTRL_RTS : 0);
}

static int gb_tty_tiocmset(struct tty_struct *tty, unsigned int set,
			   unsigned int clear)
{
	struct gb_tty *gb_tty = tty->driver_data;

	return gb_tty_set_ctrl(gb_tty, gb_tty_tiocm_lines(set),
			       gb_tty_tiocm_lines(clear), true);
}

static int gb_tty_break_ctl(struct tty_struct *tty, int state)
{
	struct gb_tty *gb_tty = tty->driver_data;
	struct gb_uart_set_break_request req = { .state = state ? 1 : 0 };
	int ret;

	/*
	 * The tty core calls this without any lock of ours, even after a
	 * hangup (TCSBRK's second half).  Under the mutex the removal,
	 * which marks the port disconnected under it before the connection
	 * goes, cannot slip between gb_tty_op()'s check and its send.
	 */
	mutex_lock(&gb_tty->mutex);
	ret = gb_tty_op(gb_tty, GB_UART_TYPE_SEND_BREAK, &req, sizeof(req));
	mutex_unlock(&gb_tty->mutex);
	return ret;
}

/* Whether a line in @mask changed since @old, or the port is going away */
static bool gb_tty_msr_changed(struct gb_tty *gb_tty,
			       const struct async_icount *old,
			       unsigned long mask)
{
	struct async_icount now;

	spin_lock_irq(&gb_tty->lock);
	now = gb_tty->icount;
	spin_unlock_irq(&gb_tty->lock);

	return READ_ONCE(gb_tty->disconnected) ||
	       ((mask & TIOCM_CAR) && now.dcd != old->dcd) ||
	       ((mask & TIOCM_DSR) && now.dsr != old->dsr) ||
	       ((mask & TIOCM_RNG) && now.rng != old->rng);
}

static int gb_tty_wait_msr(struct gb_tty *gb_tty, unsigned long mask)
{
	struct async_icount old;
	int ret;

	spin_lock_irq(&gb_tty->lock);
	old = gb_tty->icount;
	spin_unlock_irq(&gb_tty->lock);

	ret = wait_event_interruptible(gb_tty->port.delta_msr_wait,
				       gb_tty_msr_changed(gb_tty, &old, mask));
	if (ret)
		return ret;
	return READ_ONCE(gb_tty->disconnected) ? -EIO : 0;
}

static int gb_tty_ioctl(struct tty_struct *tty, unsigned int cmd,
			unsigned long arg)
{
	struct gb_tty *gb_tty = tty->driver_data;

	switch (cmd) {
	case TIOCMIWAIT:
		return gb_tty_wait_msr(gb_tty, arg);
	default:
		return -ENOIOCTLCMD;
	}
}

static int gb_tty_get_icount(struct tty_struct *tty,
			     struct serial_icounter_struct *icount)
{
	struct gb_tty *gb_tty = tty->driver_data;
	struct async_icount c;

	spin_lock_irq(&gb_tty->lock);
	c = gb_tty->icount;
	spin_unlock_irq(&gb_tty->lock);

	icount->dcd = c.dcd;
	icount->dsr = c.dsr;
	icount->rng = c.rng;
	icount->rx = c.rx;
	icount->frame = c.frame;
	icount->parity = c.parity;
	icount->overrun = c.overrun;
	icount->brk = c.brk;
	icount->buf_overrun = c.buf_overrun;
	return 0;
}

static const struct tty_operations gb_tty_ops = {
	.install	= gb_tty_install,
	.cleanup	= gb_tty_cleanup,
	.open		= gb_tty_open,
	.close		= gb_tty_close,
	.hangup		= gb_tty_hangup,
	.write		= gb_tty_write,
	.write_room	= gb_tty_write_room,
	.chars_in_buffer = gb_tty_chars_in_buffer,
	.flush_buffer	= gb_tty_flush_buffer,
	.set_termios	= gb_tty_set_termios,
	.tiocmget	= gb_tty_tiocmget,
	.tiocmset	= gb_tty_tiocmset,
	.break_ctl	= gb_tty_break_ctl,
	.ioctl		= gb_tty_ioctl,
	.get_icount	= gb_tty_get_icount,
};

static int gb_uart_probe(struct gbphy_device *gbphy_dev,
			 const struct gbphy_device_id *id)
{
	struct gb_connection *connection;
	struct gb_tty *gb_tty;
	struct device *tty_dev;
	size_t payload_max;
	int ret;

	gb_tty = kzalloc(sizeof(*gb_tty), GFP_KERNEL);
	if (!gb_tty)
		return -ENOMEM;

	/* From here on the port's destruct frees what was set up */
	tty_port_init(&gb_tty->port);
	gb_tty->port.ops = &gb_tty_port_ops;
	gb_tty->port.closing_wait = GB_UART_CLOSE_WAIT;
	gb_tty->gbphy_dev = gbphy_dev;
	gb_tty->minor = -1;
	gb_tty->credits = GB_UART_CREDITS_MAX;
	spin_lock_init(&gb_tty->lock);
	mutex_init(&gb_tty->mutex);
	INIT_WORK(&gb_tty->tx_work, gb_tty_tx_work);

	ret = kfifo_alloc(&gb_tty->fifo, GB_UART_FIFO_SIZE, GFP_KERNEL);
	if (ret)
		goto err_put;

	connection = gb_connection_create(gbphy_dev->bundle,
					  gbphy_cport_id(gbphy_dev),
					  gb_tty_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_put;
	}
	gb_connection_set_data(connection, gb_tty);
	gb_tty->connection = connection;

	payload_max = gb_operation_get_payload_size_max(connection);
	if (payload_max <= sizeof(*gb_tty->send_buf)) {
		ret = -EINVAL;
		goto err_destroy;
	}
	gb_tty->send_max = min_t(size_t, payload_max - sizeof(*gb_tty->send_buf),
				 U16_MAX);
	gb_tty->send_buf = kmalloc(payload_max, GFP_KERNEL);
	if (!gb_tty->send_buf) {
		ret = -ENOMEM;
		goto err_destroy;
	}

	mutex_lock(&gb_tty_minors_lock);
	ret = idr_alloc(&gb_tty_minors, gb_tty, 0, GB_UART_MINORS, GFP_KERNEL);
	mutex_unlock(&gb_tty_minors_lock);
	if (ret < 0) {
		if (ret == -ENOSPC)
			dev_err(&gbphy_dev->dev, "all %d ttyGB minors in use\n",
				GB_UART_MINORS);
		goto err_destroy;
	}
	gb_tty->minor = ret;

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy;

	tty_dev = tty_port_register_device(&gb_tty->port, gb_tty_driver,
					   gb_tty->minor, &gbphy_dev->dev);
	if (IS_ERR(tty_dev)) {
		ret = PTR_ERR(tty_dev);
		goto err_disable;
	}

	gb_gbphy_set_data(gbphy_dev, gb_tty);
	return 0;

err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
err_put:
	tty_port_put(&gb_tty->port);
	return ret;
}

static void gb_uart_remove(struct gbphy_device *gbphy_dev)
{
	struct gb_tty *gb_tty = gb_gbphy_get_data(gbphy_dev);
	struct tty_struct *tty;

	/* No new opens; an open in progress fails in activate */
	mutex_lock(&gb_tty->mutex);
	WRITE_ONCE(gb_tty->disconnected, true);
	mutex_unlock(&gb_tty->mutex);
	wake_up_interruptible(&gb_tty->port.delta_msr_wait);
	tty_port_tty_wakeup(&gb_tty->port);

	gb_connection_disable_rx(gb_tty->connection);

	/* Whoever still holds the tty open gets a hangup, at once */
	tty = tty_port_tty_get(&gb_tty->port);
	if (tty) {
		tty_vhangup(tty);
		tty_kref_put(tty);
	}
	tty_unregister_device(gb_tty_driver, gb_tty->minor);

	cancel_work_sync(&gb_tty->tx_work);
	gb_connection_disable(gb_tty->connection);
	gb_connection_destroy(gb_tty->connection);
	gb_tty->connection = NULL;

	tty_port_put(&gb_tty->port);
}

static const struct gbphy_device_id gb_uart_id_table[] = {
	{ GBPHY_PROTOCOL(GREYBUS_PROTOCOL_UART) },
	{ },
};
MODULE_DEVICE_TABLE(gbphy, gb_uart_id_table);
GBPHY_MODULE_ALIAS(GREYBUS_PROTOCOL_UART);

static struct gbphy_driver gb_uart_driver = {
	.name		= "gb-uart",
	.probe		= gb_uart_probe,
	.remove		= gb_uart_remove,
	.id_table	= gb_uart_id_table,
};

static int __init gb_uart_init(void)
{
	struct tty_driver *driver;
	int ret;

	driver = tty_alloc_driver(GB_UART_MINORS, TTY_DRIVER_REAL_RAW |
				  TTY_DRIVER_DYNAMIC_DEV);
	if (IS_ERR(driver))
		return PTR_ERR(driver);

	driver->driver_name = "gb-uart";
	driver->name = "ttyGB";
	driver->major = 0;
	driver->minor_start = 0;
	driver->type = TTY_DRIVER_TYPE_SERIAL;
	driver->subtype = SERIAL_TYPE_NORMAL;
	driver->init_termios = tty_std_termios;
	driver->init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL | CLOCAL;
	driver->init_termios.c_ispeed = 9600;
	driver->init_termios.c_ospeed = 9600;
	tty_set_operations(driver, &gb_tty_ops);

	ret = tty_register_driver(driver);
	if (ret)
		goto err_put;
	gb_tty_driver = driver;

	ret = gb_gbphy_register(&gb_uart_driver);
	if (ret)
		goto err_unregister;

	return 0;

err_unregister:
	tty_unregister_driver(driver);
err_put:
	tty_driver_kref_put(driver);
	return ret;
}
module_init(gb_uart_init);

static void __exit gb_uart_exit(void)
{
	gb_gbphy_deregister(&gb_uart_driver);
	tty_unregister_driver(gb_tty_driver);
	tty_driver_kref_put(gb_tty_driver);
	idr_destroy(&gb_tty_minors);
}
module_exit(gb_uart_exit);

MODULE_DESCRIPTION("Greybus UART protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
