// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware upload to a CC1352P7 through its ROM serial bootloader, offered
 * through the kernel's firmware-upload interface (/sys/class/firmware/
 * NAME/{loading,data,status,error,remaining_size,cancel}); docs/hdlc.md,
 * "Firmware upload".
 *
 * The upload: the image is checked (greybus/cc1352_bl.h) before anything
 * happens to the chip; the port stops the Greybus link; the backdoor line
 * goes low and the reset line pulses, the backdoor held low until the
 * bootloader answers the auto-baud sync (0x55 0x55) or @boot_timeout_ms
 * passes; PING; BANK_ERASE; DOWNLOAD and SEND_DATA, each checked with
 * GET_STATUS, one packet of up to 252 bytes per write() call (so
 * remaining_size moves), runs of 0xFF (erased flash) skipped with a new
 * DOWNLOAD after them; CRC32 over the flash against the image's; RESET.
 * cleanup() releases the backdoor, resets the chip unless RESET went out,
 * and has the port start a new link, whatever happened before: a failed
 * upload leaves the chip running what its flash holds (the bootloader
 * itself once the flash is erased) and the next upload starts over.
 *
 * Every answer is untrusted: the receiver (cc1352_bl.c) is bounded, a
 * NACK, a malformed answer or none within @reply_timeout_ms ends the
 * upload with an error code in "error" and a line in the kernel log.
 *
 * Locking and lifetime: struct gb_hdlc_fwup is owned by the port (register
 * at probe, unregister before the link goes at removal).  The upload's
 * steps run one at a time on the firmware loader's work item; cancel()
 * comes from another thread (sysfs "cancel", or firmware_upload_unregister(),
 * which then waits for the work item, cleanup() included) and only sets
 * @cancelled and wakes the waiter, so every wait ends at once.  prepare()
 * clears @cancelled for the new upload; an unregister that came between
 * the loader queueing the upload and prepare() would be undone by that,
 * and the removal would wait for a whole upload: @closing, set before
 * unregistering and never cleared, is what prepare() starts from, both
 * under @lock, so that cancel either comes after the clear or is
 * @closing seen by it.  @lock
 * (irq-safe) guards @booting, @rx and the answer fields between the
 * port's receive path and the work item; the port calls
 * gb_hdlc_fwup_receive() under its own lock, which also guards its link
 * pointer, so no byte reaches a link being replaced.
 */
#include <linux/delay.h>
#include <linux/firmware.h>
#include <linux/gpio/consumer.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include <greybus/cc1352_bl.h>

#include "hdlc.h"

/*
 * A kernel without FW_UPLOAD_ERR_FW_INVALID (Kbuild asks its header; 6.1
 * has none) reports an image that is not the CC1352's as "hw-error",
 * whose meaning is "see the kernel log": the log line says what is wrong.
 */
#ifdef GB_HAVE_FW_UPLOAD_ERR_FW_INVALID
#define GB_HDLC_FWUP_ERR_IMAGE	FW_UPLOAD_ERR_FW_INVALID
#else
#define GB_HDLC_FWUP_ERR_IMAGE	FW_UPLOAD_ERR_HW_ERROR
#endif

static unsigned int gb_hdlc_reply_timeout_ms = 2000;
module_param_named(reply_timeout_ms, gb_hdlc_reply_timeout_ms, uint, 0644);
MODULE_PARM_DESC(reply_timeout_ms, "firmware upload: how long the CC1352's ROM bootloader may take to answer a command (ms)");

static unsigned int gb_hdlc_boot_timeout_ms = 20000;
module_param_named(boot_timeout_ms, gb_hdlc_boot_timeout_ms, uint, 0644);
MODULE_PARM_DESC(boot_timeout_ms, "firmware upload: how long the CC1352 may take to answer the bootloader's auto-baud sync after its reset (ms)");

struct gb_hdlc_fwup {
	struct gb_hdlc_fwup_port port;
	struct fw_upload	*fwl;

	spinlock_t		lock;		/* the fields below */
	bool			booting;	/* bytes go to @rx */
	struct cc1352_bl_rx	rx;
	bool			want_packet;	/* after the ACK */
	enum cc1352_bl_rx_result result;	/* MORE: nothing yet */
	u8			answer[CC1352_BL_PACKET_MAX - 2];
	size_t			answer_len;
	unsigned long		stray;		/* bytes after an answer */

	wait_queue_head_t	wait;
	bool			cancelled;	/* WRITE_ONCE by cancel() */
	bool			closing;	/* being unregistered, under @lock */

	/* the work item's own */
	u32			crc;
	u32			steps;		/* write() calls that sent data */
	bool			download;	/* a DOWNLOAD before more data */
	bool			reset_sent;
	bool			syncing;	/* a sync timeout is no error */
};

/**
 * gb_hdlc_fwup_receive() - bytes from the port, while the chip is in its
 * bootloader
 * @fw: the upload, or NULL
 * @data: the bytes
 * @len: their number
 *
 * Context: any; the port's receive path, under the port's lock.
 * Return: true if the bootloader took them (the link must not see them).
 */
bool gb_hdlc_fwup_receive(struct gb_hdlc_fwup *fw, const u8 *data,
			  size_t len)
{
	enum cc1352_bl_rx_result r;
	unsigned long flags;
	bool wake = false;
	size_t used;

	if (!fw)
		return false;
	spin_lock_irqsave(&fw->lock, flags);
	if (!fw->booting) {
		spin_unlock_irqrestore(&fw->lock, flags);
		return false;
	}
	while (len) {
		r = cc1352_bl_rx_feed(&fw->rx, data, len, &used);
		data += used;
		len -= used;
		if (r == CC1352_BL_RX_MORE)
			continue;
		if (fw->result != CC1352_BL_RX_MORE) {
			fw->stray += used;
			continue;
		}
		if (r == CC1352_BL_RX_GOT_ACK && fw->want_packet) {
			fw->want_packet = false;
			cc1352_bl_rx_reset(&fw->rx, CC1352_BL_RX_PACKET);
			continue;
		}
		if (r == CC1352_BL_RX_GOT_PACKET) {
			fw->answer_len = min(fw->rx.len, sizeof(fw->answer));
			memcpy(fw->answer, fw->rx.body, fw->answer_len);
		}
		fw->result = r;
		wake = true;
	}
	spin_unlock_irqrestore(&fw->lock, flags);
	if (wake)
		wake_up(&fw->wait);
	return true;
}

static void gb_hdlc_fwup_arm(struct gb_hdlc_fwup *fw, bool packet)
{
	unsigned long flags;

	spin_lock_irqsave(&fw->lock, flags);
	cc1352_bl_rx_reset(&fw->rx, CC1352_BL_RX_ACK);
	fw->want_packet = packet;
	fw->result = CC1352_BL_RX_MORE;
	fw->answer_len = 0;
	spin_unlock_irqrestore(&fw->lock, flags);
}

static bool gb_hdlc_fwup_answered(struct gb_hdlc_fwup *fw)
{
	unsigned long flags;
	bool done;

	spin_lock_irqsave(&fw->lock, flags);
	done = fw->result != CC1352_BL_RX_MORE;
	spin_unlock_irqrestore(&fw->lock, flags);
	return done || READ_ONCE(fw->cancelled);
}

static const char *gb_hdlc_fwup_rx_str(enum cc1352_bl_rx_result r)
{
	switch (r) {
	case CC1352_BL_RX_BAD_CHECKSUM:
		return "a packet with a bad checksum";
	case CC1352_BL_RX_BAD_SIZE:
		return "a packet size under 3";
	case CC1352_BL_RX_JUNK:
		return "a byte that is neither ACK, NACK nor a packet";
	default:
		return "something unexpected";
	}
}

/* Write @len bytes to the port and wait for the answer armed before */
static enum fw_upload_err gb_hdlc_fwup_xfer(struct gb_hdlc_fwup *fw,
					    const u8 *data, size_t len,
					    const char *what,
					    unsigned int timeout_ms)
{
	struct device *dev = fw->port.dev;
	enum cc1352_bl_rx_result r;
	unsigned long flags;
	int ret;

	if (READ_ONCE(fw->cancelled))
		return FW_UPLOAD_ERR_CANCELED;
	ret = fw->port.write(fw->port.priv, data, len);
	if (ret) {
		dev_err(dev, "firmware upload: writing %s to the port failed: %d\n",
			what, ret);
		return FW_UPLOAD_ERR_RW_ERROR;
	}
	wait_event_timeout(fw->wait, gb_hdlc_fwup_answered(fw),
			   msecs_to_jiffies(timeout_ms));
	if (READ_ONCE(fw->cancelled))
		return FW_UPLOAD_ERR_CANCELED;

	spin_lock_irqsave(&fw->lock, flags);
	r = fw->result;
	spin_unlock_irqrestore(&fw->lock, flags);
	switch (r) {
	case CC1352_BL_RX_MORE:
		/* the sync is sent again until the chip answers: no error yet */
		if (!fw->syncing)
			dev_err(dev, "firmware upload: no answer from the CC1352's bootloader to %s within %u ms (silent, or reset)\n",
				what, timeout_ms);
		return FW_UPLOAD_ERR_TIMEOUT;
	case CC1352_BL_RX_GOT_NACK:
		dev_err(dev, "firmware upload: the CC1352's bootloader answered %s with NACK\n",
			what);
		return FW_UPLOAD_ERR_HW_ERROR;
	case CC1352_BL_RX_GOT_ACK:
	case CC1352_BL_RX_GOT_PACKET:
		return FW_UPLOAD_ERR_NONE;
	default:
		dev_err(dev, "firmware upload: the CC1352's bootloader answered %s with %s\n",
			what, gb_hdlc_fwup_rx_str(r));
		return FW_UPLOAD_ERR_RW_ERROR;
	}
}

/* A command packet; its ACK, and its answer packet (ACKed) if @answer */
static enum fw_upload_err gb_hdlc_fwup_cmd(struct gb_hdlc_fwup *fw,
					   const u8 *body, size_t len,
					   const char *what, u8 *answer,
					   size_t answer_len)
{
	static const u8 ack[] = { 0x00, CC1352_BL_ACK };
	u8 pkt[CC1352_BL_PACKET_MAX];
	enum fw_upload_err err;
	unsigned long flags;
	size_t n, got;

	n = cc1352_bl_packet(pkt, sizeof(pkt), body, len);
	if (WARN_ON(!n))
		return FW_UPLOAD_ERR_RW_ERROR;
	gb_hdlc_fwup_arm(fw, answer);
	err = gb_hdlc_fwup_xfer(fw, pkt, n, what,
				READ_ONCE(gb_hdlc_reply_timeout_ms));
	if (err || !answer)
		return err;

	spin_lock_irqsave(&fw->lock, flags);
	got = fw->answer_len;
	if (got == answer_len)
		memcpy(answer, fw->answer, got);
	spin_unlock_irqrestore(&fw->lock, flags);
	if (got != answer_len) {
		dev_err(fw->port.dev, "firmware upload: the CC1352's bootloader answered %s with %zu bytes, not %zu\n",
			what, got, answer_len);
		return FW_UPLOAD_ERR_RW_ERROR;
	}
	if (fw->port.write(fw->port.priv, ack, sizeof(ack))) {
		dev_err(fw->port.dev, "firmware upload: writing an ACK failed\n");
		return FW_UPLOAD_ERR_RW_ERROR;
	}
	return FW_UPLOAD_ERR_NONE;
}

static const char *gb_hdlc_fwup_status_str(u8 status)
{
	switch (status) {
	case CC1352_BL_STATUS_UNKNOWN_CMD:
		return "unknown command";
	case CC1352_BL_STATUS_INVALID_CMD:
		return "invalid command";
	case CC1352_BL_STATUS_INVALID_ADR:
		return "invalid address";
	case CC1352_BL_STATUS_FLASH_FAIL:
		return "flash failure";
	default:
		return "unknown status";
	}
}

/* A command, then GET_STATUS, which must say success */
static enum fw_upload_err gb_hdlc_fwup_cmd_ok(struct gb_hdlc_fwup *fw,
					      const u8 *body, size_t len,
					      const char *what)
{
	static const u8 get_status = CC1352_BL_CMD_GET_STATUS;
	enum fw_upload_err err;
	u8 status;

	err = gb_hdlc_fwup_cmd(fw, body, len, what, NULL, 0);
	if (err)
		return err;
	err = gb_hdlc_fwup_cmd(fw, &get_status, 1, "GET_STATUS", &status, 1);
	if (err)
		return err;
	if (status != CC1352_BL_STATUS_SUCCESS) {
		dev_err(fw->port.dev, "firmware upload: %s failed in the CC1352's bootloader: status 0x%02x (%s)\n",
			what, status, gb_hdlc_fwup_status_str(status));
		return FW_UPLOAD_ERR_HW_ERROR;
	}
	return FW_UPLOAD_ERR_NONE;
}

static void gb_hdlc_fwup_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void gb_hdlc_fwup_set_booting(struct gb_hdlc_fwup *fw, bool on)
{
	unsigned long flags;

	spin_lock_irqsave(&fw->lock, flags);
	fw->booting = on;
	cc1352_bl_rx_reset(&fw->rx, CC1352_BL_RX_ACK);
	fw->result = CC1352_BL_RX_MORE;
	fw->stray = 0;
	spin_unlock_irqrestore(&fw->lock, flags);
}

/* Reset pulse: the line's value is RESET_N's level (hdlc_serdev.c) */
static void gb_hdlc_fwup_reset_pulse(struct gb_hdlc_fwup *fw)
{
	gpiod_set_value_cansleep(fw->port.reset, 0);
	usleep_range(1000, 2000);
	gpiod_set_value_cansleep(fw->port.reset, 1);
}

/* Backdoor low, a reset, the auto-baud sync until it is answered */
static enum fw_upload_err gb_hdlc_fwup_enter(struct gb_hdlc_fwup *fw)
{
	static const u8 sync[] = { CC1352_BL_SYNC, CC1352_BL_SYNC };
	static const u8 ping = CC1352_BL_CMD_PING;
	unsigned long deadline;
	enum fw_upload_err err;
	int ret;

	ret = gpiod_direction_output(fw->port.backdoor, 0);
	if (ret) {
		dev_err(fw->port.dev, "firmware upload: cannot drive the bootloader-backdoor line: %d\n",
			ret);
		return FW_UPLOAD_ERR_HW_ERROR;
	}
	gb_hdlc_fwup_reset_pulse(fw);

	deadline = jiffies + msecs_to_jiffies(READ_ONCE(gb_hdlc_boot_timeout_ms));
	fw->syncing = true;
	do {
		gb_hdlc_fwup_arm(fw, false);
		err = gb_hdlc_fwup_xfer(fw, sync, sizeof(sync), "the auto-baud sync",
					READ_ONCE(gb_hdlc_reply_timeout_ms));
	} while (err == FW_UPLOAD_ERR_TIMEOUT && time_before(jiffies, deadline));
	fw->syncing = false;
	gpiod_direction_input(fw->port.backdoor);
	if (err) {
		if (err == FW_UPLOAD_ERR_TIMEOUT)
			dev_err(fw->port.dev, "firmware upload: the CC1352 did not enter its ROM bootloader within %u ms of the backdoor and reset sequence\n",
				READ_ONCE(gb_hdlc_boot_timeout_ms));
		return err;
	}
	return gb_hdlc_fwup_cmd(fw, &ping, 1, "PING", NULL, 0);
}

/* Back to the Greybus link, whatever state the upload left */
static void gb_hdlc_fwup_leave(struct gb_hdlc_fwup *fw)
{
	int ret;

	gpiod_direction_input(fw->port.backdoor);
	if (!fw->reset_sent)
		gb_hdlc_fwup_reset_pulse(fw);
	gb_hdlc_fwup_set_booting(fw, false);
	ret = fw->port.link_up(fw->port.priv);
	if (ret)
		dev_err(fw->port.dev, "firmware upload: the Greybus link did not start again: %d\n",
			ret);
}

static enum fw_upload_err gb_hdlc_fwup_prepare(struct fw_upload *fwl,
					       const u8 *data, u32 size)
{
	struct gb_hdlc_fwup *fw = fwl->dd_handle;
	struct device *dev = fw->port.dev;
	enum cc1352_image_verdict v;
	enum fw_upload_err err;
	unsigned long flags;
	bool closing;

	spin_lock_irqsave(&fw->lock, flags);
	closing = fw->closing;
	WRITE_ONCE(fw->cancelled, closing);
	spin_unlock_irqrestore(&fw->lock, flags);
	if (closing) {
		dev_info(dev, "firmware upload: cancelled before it started, the device is going\n");
		return FW_UPLOAD_ERR_CANCELED;
	}
	fw->reset_sent = false;
	fw->steps = 0;
	fw->download = true;
	if (!fw->port.reset || !fw->port.backdoor) {
		dev_err(dev, "firmware upload refused: %s has no reset and bootloader-backdoor lines (a line discipline never has; the serdev binding needs reset-gpios and bootloader-backdoor-gpios in the device tree), so the CC1352 cannot be put into its ROM bootloader from here\n",
			fw->port.name);
		return FW_UPLOAD_ERR_HW_ERROR;
	}
	v = cc1352_image_check(data, size);
	if (v != CC1352_IMAGE_OK) {
		dev_err(dev, "firmware upload refused, nothing erased: the %u-byte image is %s\n",
			size, cc1352_image_verdict_str(v));
		return v == CC1352_IMAGE_TOO_LARGE || v == CC1352_IMAGE_TRUNCATED ?
		       FW_UPLOAD_ERR_INVALID_SIZE : GB_HDLC_FWUP_ERR_IMAGE;
	}
	fw->crc = cc1352_bl_crc32(data, size);
	dev_info(dev, "firmware upload: %u bytes, CRC32 0x%08x: stopping the Greybus link, entering the CC1352's ROM bootloader\n",
		 size, fw->crc);

	gb_hdlc_fwup_set_booting(fw, true);
	fw->port.link_down(fw->port.priv);
	err = gb_hdlc_fwup_enter(fw);
	if (err) {
		/* cleanup() is not called when prepare() fails */
		gb_hdlc_fwup_leave(fw);
		return err;
	}
	return FW_UPLOAD_ERR_NONE;
}

static bool gb_hdlc_fwup_erased(const u8 *data, u32 len)
{
	while (len--)
		if (*data++ != 0xff)
			return false;
	return true;
}

static enum fw_upload_err gb_hdlc_fwup_write(struct fw_upload *fwl,
					     const u8 *data, u32 offset,
					     u32 size, u32 *written)
{
	struct gb_hdlc_fwup *fw = fwl->dd_handle;
	u8 body[1 + CC1352_BL_DATA_MAX];
	enum fw_upload_err err;
	u32 n = min_t(u32, size, CC1352_BL_DATA_MAX);

	if (READ_ONCE(fw->cancelled))
		return FW_UPLOAD_ERR_CANCELED;
	if (!offset) {
		body[0] = CC1352_BL_CMD_BANK_ERASE;
		err = gb_hdlc_fwup_cmd_ok(fw, body, 1, "BANK_ERASE");
		if (err)
			return err;
	}
	/* erased flash reads 0xFF: such a run is skipped */
	if (gb_hdlc_fwup_erased(data + offset, n)) {
		fw->download = true;
		*written = n;
		return FW_UPLOAD_ERR_NONE;
	}
	if (fw->download) {
		body[0] = CC1352_BL_CMD_DOWNLOAD;
		gb_hdlc_fwup_be32(body + 1, offset);
		gb_hdlc_fwup_be32(body + 5, size);
		err = gb_hdlc_fwup_cmd_ok(fw, body, 9, "DOWNLOAD");
		if (err)
			return err;
		fw->download = false;
	}
	body[0] = CC1352_BL_CMD_SEND_DATA;
	memcpy(body + 1, data + offset, n);
	err = gb_hdlc_fwup_cmd_ok(fw, body, 1 + n, "SEND_DATA");
	if (err) {
		dev_err(fw->port.dev, "firmware upload: stopped at byte %u of %u; the flash is erased, the next upload starts over\n",
			offset, offset + size);
		return err;
	}
	fw->steps++;
	*written = n;
	return FW_UPLOAD_ERR_NONE;
}

static enum fw_upload_err gb_hdlc_fwup_poll_complete(struct fw_upload *fwl)
{
	struct gb_hdlc_fwup *fw = fwl->dd_handle;
	enum fw_upload_err err;
	u8 body[13], crc[4];
	u32 got;

	body[0] = CC1352_BL_CMD_CRC32;
	gb_hdlc_fwup_be32(body + 1, 0);
	gb_hdlc_fwup_be32(body + 5, CC1352_FLASH_SIZE);
	gb_hdlc_fwup_be32(body + 9, 0);
	err = gb_hdlc_fwup_cmd(fw, body, sizeof(body), "CRC32", crc,
			       sizeof(crc));
	if (err)
		return err;
	got = (u32)crc[0] << 24 | crc[1] << 16 | crc[2] << 8 | crc[3];
	if (got != fw->crc) {
		dev_err(fw->port.dev, "firmware upload: the flash's CRC32 is 0x%08x after programming, the image's 0x%08x: upload it again\n",
			got, fw->crc);
		return FW_UPLOAD_ERR_HW_ERROR;
	}

	body[0] = CC1352_BL_CMD_RESET;
	err = gb_hdlc_fwup_cmd(fw, body, 1, "RESET", NULL, 0);
	if (err)
		return err;
	fw->reset_sent = true;
	dev_info(fw->port.dev, "firmware upload: done, CRC32 0x%08x verified, the data sent in %u steps; the CC1352 boots the new firmware\n",
		 got, fw->steps);
	return FW_UPLOAD_ERR_NONE;
}

static void gb_hdlc_fwup_cancel(struct fw_upload *fwl)
{
	struct gb_hdlc_fwup *fw = fwl->dd_handle;

	WRITE_ONCE(fw->cancelled, true);
	wake_up(&fw->wait);
}

static void gb_hdlc_fwup_cleanup(struct fw_upload *fwl)
{
	struct gb_hdlc_fwup *fw = fwl->dd_handle;

	if (READ_ONCE(fw->cancelled))
		dev_info(fw->port.dev, "firmware upload: cancelled\n");
	gb_hdlc_fwup_leave(fw);
}

static const struct fw_upload_ops gb_hdlc_fwup_ops = {
	.prepare	= gb_hdlc_fwup_prepare,
	.write		= gb_hdlc_fwup_write,
	.poll_complete	= gb_hdlc_fwup_poll_complete,
	.cancel		= gb_hdlc_fwup_cancel,
	.cleanup	= gb_hdlc_fwup_cleanup,
};

/**
 * gb_hdlc_fwup_register() - offer firmware upload for a port
 * @port: how to reach the chip (copied)
 *
 * A port without reset and backdoor lines gets an upload device that
 * refuses every image with a clear error, so a user sees why.
 *
 * Context: process context; sleeps.
 * Return: the upload, or NULL (logged) if it could not be registered:
 * the link works without it.
 */
struct gb_hdlc_fwup *gb_hdlc_fwup_register(const struct gb_hdlc_fwup_port *port)
{
	struct gb_hdlc_fwup *fw;

	fw = kzalloc(sizeof(*fw), GFP_KERNEL);
	if (!fw)
		return NULL;
	fw->port = *port;
	spin_lock_init(&fw->lock);
	init_waitqueue_head(&fw->wait);
	cc1352_bl_rx_reset(&fw->rx, CC1352_BL_RX_ACK);

	/*
	 * No module reference (NULL): with one, gb-hdlc could not be
	 * unloaded while a CC1352 is bound.  None is needed: the ops run
	 * only on the loader's work item and under its lock, and
	 * gb_hdlc_fwup_unregister(), which every port calls before it goes,
	 * waits for the work item and removes the device.
	 */
	fw->fwl = firmware_upload_register(NULL, port->dev, port->name,
					   &gb_hdlc_fwup_ops, fw);
	if (IS_ERR(fw->fwl)) {
		dev_warn(port->dev, "no firmware upload as %s: %ld\n",
			 port->name, PTR_ERR(fw->fwl));
		kfree(fw);
		return NULL;
	}
	return fw;
}

/**
 * gb_hdlc_fwup_unregister() - withdraw it, waiting for an upload in
 * progress to be cancelled and cleaned up (the link is up again then)
 * @fw: the upload, or NULL
 *
 * An upload the loader has queued but not yet prepared is refused by
 * prepare() (@closing), before anything happens to the chip.
 *
 * The port's receive path may still call gb_hdlc_fwup_receive() (it takes
 * nothing now) until the port forgets @fw; then gb_hdlc_fwup_free().
 *
 * Context: process context; sleeps.
 */
void gb_hdlc_fwup_unregister(struct gb_hdlc_fwup *fw)
{
	unsigned long flags;

	if (!fw)
		return;
	spin_lock_irqsave(&fw->lock, flags);
	fw->closing = true;
	spin_unlock_irqrestore(&fw->lock, flags);
	firmware_upload_unregister(fw->fwl);
}

/**
 * gb_hdlc_fwup_free() - free an unregistered upload
 * @fw: the upload, or NULL
 */
void gb_hdlc_fwup_free(struct gb_hdlc_fwup *fw)
{
	kfree(fw);
}
