// SPDX-License-Identifier: GPL-2.0
/*
 * gb-sdio: the Greybus SDIO protocol (0x07) as an MMC host.
 *
 * Probe asks the module for its controller's capabilities (voltage
 * ranges, clock range, block limits) and registers an mmc_host; the MMC
 * core then finds the card with the usual commands and mmc_block makes it
 * /dev/mmcblkN.
 *
 * Each mmc_request runs in a work item, since operations sleep: the
 * command (COMMAND, with the block count and size of its data), then the
 * data as TRANSFER operations of as many whole blocks as fit the
 * connection's payload, then the stop command.  Everything the module
 * answers is checked against what was asked: a transfer answer must name
 * the blocks and block size requested and carry exactly their bytes.
 *
 * The module reports card insertion, removal and the write-protect switch
 * with EVENT; the card is taken as present until it says otherwise.
 *
 * Removal: new requests fail at once, the MMC host (and with it the card
 * and its block device) is removed, then the connection; a request in
 * flight ends when its operation does, at once if the module is gone.
 */
#include <linux/kernel.h>
#include <linux/mmc/host.h>
#include <linux/mmc/mmc.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <greybus/greybus.h>
#include <greybus/gbphy.h>
#include <uapi/greybus/sdio.h>

/* Data commands and transfers may wait for a busy card: more than 1 s */
#define GB_SDIO_OP_TIMEOUT_MS	3000

/*
 * The longest busy time the module is asked to wait out before it answers
 * a command (the MMC core's max_busy_timeout).  Such a command's
 * operation may take that long plus GB_SDIO_OP_TIMEOUT_MS.  A longer busy
 * command (an erase of many blocks) goes without the busy flag, and the
 * MMC core polls SEND_STATUS until the card is done.
 */
#define GB_SDIO_BUSY_MAX_MS	10000

/* Upper bound of one mmc_request, whatever the module allows */
#define GB_SDIO_REQ_MAX		(512 * 1024)

/* The largest block the MMC core knows of (SD's READ_BL_LEN is 2048) */
#define GB_SDIO_BLKSZ_MAX	2048

struct gb_sdio {
	struct gbphy_device	*gbphy_dev;
	struct gb_connection	*connection;
	struct mmc_host		*mmc;
	struct workqueue_struct	*wq;
	struct work_struct	work;
	size_t			xfer_max;	/* data bytes per TRANSFER */
	u32			caps;		/* GB_SDIO_CAP_* */
	/* the module's wrong answers, limited per host rather than per line */
	struct ratelimit_state	bad_answer_rs;

	/* request() may run in atomic context: a spinlock for these */
	spinlock_t		lock;
	struct mmc_request	*mrq;		/* the one being run */
	bool			removed;
	bool			present;
	bool			read_only;

	/* serialises card-detect changes with registration and removal */
	struct mutex		detect_lock;
	bool			added;
};

static int gb_sdio_errno(int ret)
{
	/* the module left under us: tell the MMC core the card is gone */
	return ret == -ESHUTDOWN ? -ENOMEDIUM : ret;
}

static u8 gb_sdio_cmd_flags(struct mmc_command *cmd)
{
	u8 flags = GB_SDIO_RSP_NONE;

	if (cmd->flags & MMC_RSP_PRESENT)
		flags |= GB_SDIO_RSP_PRESENT;
	if (cmd->flags & MMC_RSP_136)
		flags |= GB_SDIO_RSP_136;
	if (cmd->flags & MMC_RSP_CRC)
		flags |= GB_SDIO_RSP_CRC;
	if (cmd->flags & MMC_RSP_BUSY)
		flags |= GB_SDIO_RSP_BUSY;
	if (cmd->flags & MMC_RSP_OPCODE)
		flags |= GB_SDIO_RSP_OPCODE;
	return flags;
}

static u8 gb_sdio_cmd_type(struct mmc_command *cmd)
{
	switch (mmc_cmd_type(cmd)) {
	case MMC_CMD_ADTC:
		return GB_SDIO_CMD_ADTC;
	case MMC_CMD_BC:
		return GB_SDIO_CMD_BC;
	case MMC_CMD_BCR:
		return GB_SDIO_CMD_BCR;
	default:
		return GB_SDIO_CMD_AC;
	}
}

/*
 * An operation without gb_operation_sync(), which logs every failure: a
 * command without answer is how the MMC core learns what card is there,
 * and a module that left makes every operation fail until removal.
 */
static int gb_sdio_op(struct gb_sdio *host, u8 type, const void *req,
		      size_t req_size, void *rsp, size_t rsp_size,
		      unsigned int timeout_ms)
{
	struct gb_operation *op;
	int ret;

	op = gb_operation_create(host->connection, type, req_size, rsp_size,
				 GFP_NOIO);
	if (!op)
		return -ENOMEM;
	memcpy(op->request->payload, req, req_size);
	ret = gb_operation_request_send_sync_timeout(op, timeout_ms);
	if (!ret && rsp_size)
		memcpy(rsp, op->response->payload, rsp_size);
	gb_operation_put(op);
	return ret;
}

/* One command; its error is in cmd->error too */
static int gb_sdio_command(struct gb_sdio *host, struct mmc_command *cmd,
			   struct mmc_data *data)
{
	struct gb_sdio_command_request req = { };
	struct gb_sdio_command_response rsp;
	unsigned int timeout = GB_SDIO_OP_TIMEOUT_MS;
	unsigned int i;
	int ret;

	req.cmd = cmd->opcode;
	req.cmd_flags = gb_sdio_cmd_flags(cmd);
	req.cmd_type = gb_sdio_cmd_type(cmd);
	req.cmd_arg = cpu_to_le32(cmd->arg);
	if (data) {
		req.data_blocks = cpu_to_le16(data->blocks);
		req.data_blksz = cpu_to_le16(data->blksz);
	}

	/* The answer waits for the busy card: at most GB_SDIO_BUSY_MAX_MS */
	if (cmd->flags & MMC_RSP_BUSY)
		timeout += min_t(unsigned int, cmd->busy_timeout,
				 GB_SDIO_BUSY_MAX_MS);
	ret = gb_sdio_op(host, GB_SDIO_TYPE_COMMAND, &req, sizeof(req), &rsp,
			 sizeof(rsp), timeout);
	if (ret) {
		cmd->error = gb_sdio_errno(ret);
		return cmd->error;
	}

	if (cmd->flags & MMC_RSP_136) {
		for (i = 0; i < ARRAY_SIZE(rsp.resp); i++)
			cmd->resp[i] = le32_to_cpu(rsp.resp[i]);
	} else if (cmd->flags & MMC_RSP_PRESENT) {
		cmd->resp[0] = le32_to_cpu(rsp.resp[0]);
	}
	cmd->error = 0;
	return 0;
}

/* @blocks blocks of @data from byte @off, as one TRANSFER */
static int gb_sdio_transfer_one(struct gb_sdio *host, struct mmc_data *data,
				unsigned int blocks, size_t off)
{
	struct device *dev = &host->gbphy_dev->dev;
	size_t len = (size_t)blocks * data->blksz;
	bool write = data->flags & MMC_DATA_WRITE;
	struct gb_sdio_transfer_response *rsp;
	struct gb_sdio_transfer_request *req;
	struct gb_operation *op;
	size_t got, want;
	int ret;

	want = sizeof(*rsp) + (write ? 0 : len);
	op = gb_operation_create_flags(host->connection, GB_SDIO_TYPE_TRANSFER,
				       sizeof(*req) + (write ? len : 0), want,
				       GB_OPERATION_FLAG_SHORT_RESPONSE,
				       GFP_NOIO);
	if (!op)
		return -ENOMEM;

	req = op->request->payload;
	req->data_flags = write ? GB_SDIO_DATA_WRITE : GB_SDIO_DATA_READ;
	req->data_blocks = cpu_to_le16(blocks);
	req->data_blksz = cpu_to_le16(data->blksz);
	if (write &&
	    sg_pcopy_to_buffer(data->sg, data->sg_len, req->data, len,
			       off) != len) {
		ret = -EINVAL;
		goto out;
	}

	ret = gb_operation_request_send_sync_timeout(op, GB_SDIO_OP_TIMEOUT_MS);
	if (ret) {
		ret = gb_sdio_errno(ret);
		goto out;
	}

	/* what the module did must be what was asked, to the byte */
	rsp = op->response->payload;
	got = op->response->payload_size;
	if (got < sizeof(*rsp) ||
	    le16_to_cpu(rsp->data_blocks) != blocks ||
	    le16_to_cpu(rsp->data_blksz) != data->blksz || got != want) {
		if (__ratelimit(&host->bad_answer_rs))
			dev_err(dev, "%s of %u x %u bytes answered with %zu bytes (%u x %u)\n",
				write ? "write" : "read", blocks, data->blksz,
				got,
				got < sizeof(*rsp) ? 0 :
				le16_to_cpu(rsp->data_blocks),
				got < sizeof(*rsp) ? 0 :
				le16_to_cpu(rsp->data_blksz));
		ret = -EREMOTEIO;
		goto out;
	}
	if (!write &&
	    sg_pcopy_from_buffer(data->sg, data->sg_len, rsp->data, len,
				 off) != len)
		ret = -EINVAL;
out:
	gb_operation_put(op);
	return ret;
}

static void gb_sdio_transfer(struct gb_sdio *host, struct mmc_data *data)
{
	unsigned int per_op = host->xfer_max / data->blksz;
	unsigned int left = data->blocks, n;
	size_t off = 0;
	int ret = 0;

	data->bytes_xfered = 0;
	while (left) {
		n = min(left, per_op);
		ret = gb_sdio_transfer_one(host, data, n, off);
		if (ret)
			break;
		off += (size_t)n * data->blksz;
		data->bytes_xfered = off;
		left -= n;
	}
	data->error = ret;
}

/* A data command the host cannot carry (the MMC core keeps to the limits) */
static bool gb_sdio_data_bad(struct gb_sdio *host, struct mmc_data *data)
{
	return !data->blksz || data->blksz > host->mmc->max_blk_size ||
	       data->blksz > host->xfer_max || !data->blocks ||
	       data->blocks > host->mmc->max_blk_count ||
	       !(data->flags & MMC_DATA_WRITE) == !(data->flags & MMC_DATA_READ);
}

static void gb_sdio_run(struct gb_sdio *host, struct mmc_request *mrq)
{
	struct mmc_data *data = mrq->data;

	if (data && gb_sdio_data_bad(host, data)) {
		dev_err_ratelimited(&host->gbphy_dev->dev, "cmd %u: cannot carry %u blocks of %u bytes\n",
				    mrq->cmd->opcode, data->blocks,
				    data->blksz);
		mrq->cmd->error = -EINVAL;
		return;
	}
	if (mrq->sbc && gb_sdio_command(host, mrq->sbc, NULL))
		return;
	if (gb_sdio_command(host, mrq->cmd, data) || !data)
		return;

	gb_sdio_transfer(host, data);
	/* the stop ends a multi-block transfer, also one that failed */
	if (mrq->stop && data->error != -ENOMEDIUM)
		gb_sdio_command(host, mrq->stop, NULL);
}

static void gb_sdio_work(struct work_struct *work)
{
	struct gb_sdio *host = container_of(work, struct gb_sdio, work);
	struct mmc_request *mrq;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&host->lock, flags);
	mrq = host->mrq;
	spin_unlock_irqrestore(&host->lock, flags);
	if (!mrq)
		return;

	ret = gbphy_runtime_get_sync(host->gbphy_dev);
	if (ret) {
		mrq->cmd->error = ret;
	} else {
		gb_sdio_run(host, mrq);
		gbphy_runtime_put_autosuspend(host->gbphy_dev);
	}

	spin_lock_irqsave(&host->lock, flags);
	host->mrq = NULL;
	spin_unlock_irqrestore(&host->lock, flags);
	mmc_request_done(host->mmc, mrq);
}

static void gb_sdio_request(struct mmc_host *mmc, struct mmc_request *mrq)
{
	struct gb_sdio *host = mmc_priv(mmc);
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&host->lock, flags);
	if (host->removed || !host->present)
		err = -ENOMEDIUM;
	else if (host->mrq)
		err = -EBUSY;	/* the MMC core sends one at a time */
	else
		host->mrq = mrq;
	spin_unlock_irqrestore(&host->lock, flags);

	if (err) {
		mrq->cmd->error = err;
		mmc_request_done(mmc, mrq);
		return;
	}
	queue_work(host->wq, &host->work);
}

static void gb_sdio_set_ios(struct mmc_host *mmc, struct mmc_ios *ios)
{
	struct gb_sdio *host = mmc_priv(mmc);
	struct device *dev = &host->gbphy_dev->dev;
	struct gb_sdio_set_ios_request req = { };
	int ret;

	req.clock = cpu_to_le32(ios->clock);
	/* ios->vdd is the bit number of the range, the wire has the bit */
	if (ios->vdd >= GB_SDIO_VDD_SHIFT &&
	    ios->vdd < GB_SDIO_VDD_SHIFT + fls(GB_SDIO_VDD_ALL))
		req.vdd = cpu_to_le32(BIT(ios->vdd - GB_SDIO_VDD_SHIFT));
	req.bus_mode = ios->bus_mode == MMC_BUSMODE_OPENDRAIN ?
		       GB_SDIO_BUSMODE_OPENDRAIN : GB_SDIO_BUSMODE_PUSHPULL;
	switch (ios->power_mode) {
	case MMC_POWER_OFF:
		req.power_mode = GB_SDIO_POWER_OFF;
		break;
	case MMC_POWER_UP:
		req.power_mode = GB_SDIO_POWER_UP;
		break;
	case MMC_POWER_ON:
		req.power_mode = GB_SDIO_POWER_ON;
		break;
	default:
		req.power_mode = GB_SDIO_POWER_UNDEFINED;
	}
	switch (ios->bus_width) {
	case MMC_BUS_WIDTH_4:
		req.bus_width = GB_SDIO_BUS_WIDTH_4;
		break;
	case MMC_BUS_WIDTH_8:
		req.bus_width = GB_SDIO_BUS_WIDTH_8;
		break;
	default:
		req.bus_width = GB_SDIO_BUS_WIDTH_1;
	}
	/* the MMC core's timing, signal voltage and driver type numbers are the wire's */
	req.timing = ios->timing;
	req.signal_voltage = ios->signal_voltage;
	req.drv_type = ios->drv_type;

	ret = gbphy_runtime_get_sync(host->gbphy_dev);
	if (ret)
		return;
	ret = gb_sdio_op(host, GB_SDIO_TYPE_SET_IOS, &req, sizeof(req), NULL, 0,
			 GB_SDIO_OP_TIMEOUT_MS);
	gbphy_runtime_put_autosuspend(host->gbphy_dev);
	/* set_ios cannot fail: the next command will; a module gone is no news */
	if (ret && ret != -ESHUTDOWN && ret != -ENOTCONN)
		dev_err_ratelimited(dev, "set_ios failed: %d\n", ret);
}

static int gb_sdio_get_ro(struct mmc_host *mmc)
{
	struct gb_sdio *host = mmc_priv(mmc);
	unsigned long flags;
	int ro;

	spin_lock_irqsave(&host->lock, flags);
	ro = host->read_only;
	spin_unlock_irqrestore(&host->lock, flags);
	return ro;
}

static int gb_sdio_get_cd(struct mmc_host *mmc)
{
	struct gb_sdio *host = mmc_priv(mmc);
	unsigned long flags;
	int cd;

	spin_lock_irqsave(&host->lock, flags);
	cd = host->present && !host->removed;
	spin_unlock_irqrestore(&host->lock, flags);
	return cd;
}

static const struct mmc_host_ops gb_sdio_ops = {
	.request	= gb_sdio_request,
	.set_ios	= gb_sdio_set_ios,
	.get_ro		= gb_sdio_get_ro,
	.get_cd		= gb_sdio_get_cd,
};

static int gb_sdio_event(struct gb_sdio *host, u8 event)
{
	struct device *dev = &host->gbphy_dev->dev;
	bool inserted = event & GB_SDIO_CARD_INSERTED;
	bool removed = event & GB_SDIO_CARD_REMOVED;
	unsigned long flags;
	bool detect;

	if ((event & ~(GB_SDIO_CARD_INSERTED | GB_SDIO_CARD_REMOVED |
		       GB_SDIO_WP)) || (inserted && removed)) {
		dev_err_ratelimited(dev, "bad event 0x%02x\n", event);
		return -EINVAL;
	}
	/* a card that cannot be removed is always there */
	if (host->caps & GB_SDIO_CAP_NONREMOVABLE) {
		inserted = false;
		removed = false;
	}

	mutex_lock(&host->detect_lock);
	spin_lock_irqsave(&host->lock, flags);
	detect = (inserted && !host->present) || (removed && host->present);
	if (inserted)
		host->present = true;
	if (removed)
		host->present = false;
	host->read_only = event & GB_SDIO_WP;
	detect = detect && host->added && !host->removed;
	spin_unlock_irqrestore(&host->lock, flags);
	if (detect) {
		dev_dbg(dev, "card %s\n", inserted ? "inserted" : "removed");
		mmc_detect_change(host->mmc, 0);
	}
	mutex_unlock(&host->detect_lock);
	return 0;
}

static int gb_sdio_request_handler(struct gb_operation *op)
{
	struct gb_sdio *host = gb_connection_get_data(op->connection);
	struct device *dev = &host->gbphy_dev->dev;
	struct gb_sdio_event_request *req;

	if (op->type != GB_SDIO_TYPE_EVENT) {
		dev_err_ratelimited(dev, "unknown request type 0x%02x\n",
				    op->type);
		return -EINVAL;
	}
	if (op->request->payload_size != sizeof(*req)) {
		dev_err_ratelimited(dev, "event of %zu bytes\n",
				    op->request->payload_size);
		return -EINVAL;
	}
	req = op->request->payload;
	return gb_sdio_event(host, req->event);
}

static const struct {
	u32 gb;
	u32 mmc;
} gb_sdio_caps_map[] = {
	{ GB_SDIO_CAP_NONREMOVABLE,	MMC_CAP_NONREMOVABLE },
	{ GB_SDIO_CAP_4_BIT_DATA,	MMC_CAP_4_BIT_DATA },
	{ GB_SDIO_CAP_8_BIT_DATA,	MMC_CAP_8_BIT_DATA },
	{ GB_SDIO_CAP_MMC_HS,		MMC_CAP_MMC_HIGHSPEED },
	{ GB_SDIO_CAP_SD_HS,		MMC_CAP_SD_HIGHSPEED },
	{ GB_SDIO_CAP_POWER_OFF_CARD,	MMC_CAP_POWER_OFF_CARD },
	{ GB_SDIO_CAP_DRIVER_TYPE_A,	MMC_CAP_DRIVER_TYPE_A },
	{ GB_SDIO_CAP_DRIVER_TYPE_C,	MMC_CAP_DRIVER_TYPE_C },
	{ GB_SDIO_CAP_DRIVER_TYPE_D,	MMC_CAP_DRIVER_TYPE_D },
};

/*
 * The controller's limits.  The UHS, DDR, HS200 and HS400 modes need a
 * signal voltage switch and tuning, which the protocol cannot carry: they
 * are not offered to the MMC core.
 */
static int gb_sdio_get_caps(struct gb_sdio *host)
{
	struct device *dev = &host->gbphy_dev->dev;
	struct gb_sdio_get_caps_response rsp;
	struct mmc_host *mmc = host->mmc;
	u32 ocr, f_min, f_max, caps = 0;
	unsigned int i, blksz, blocks;
	size_t max;
	int ret;

	ret = gb_operation_sync(host->connection, GB_SDIO_TYPE_GET_CAPABILITIES,
				NULL, 0, &rsp, sizeof(rsp));
	if (ret) {
		dev_err(dev, "get capabilities failed: %d\n", ret);
		return ret;
	}
	ocr = le32_to_cpu(rsp.ocr);
	f_min = le32_to_cpu(rsp.f_min);
	f_max = le32_to_cpu(rsp.f_max);
	blocks = le16_to_cpu(rsp.max_blk_count);
	blksz = le16_to_cpu(rsp.max_blk_size);
	if (!ocr || (ocr & ~GB_SDIO_VDD_ALL) || !f_min || f_min > f_max ||
	    !blocks || blksz < 512 || blksz > GB_SDIO_BLKSZ_MAX) {
		dev_err(dev, "nonsense capabilities (ocr 0x%08x, %u..%u Hz, %u blocks of %u bytes)\n",
			ocr, f_min, f_max, blocks, blksz);
		return -EPROTO;
	}

	/* a 512-byte block must fit one TRANSFER, both ways */
	max = gb_operation_get_payload_size_max(host->connection);
	if (max < sizeof(struct gb_sdio_transfer_request) + 512) {
		dev_err(dev, "payload of %zu bytes is too small for a block\n",
			max);
		return -EMSGSIZE;
	}
	host->xfer_max = max - sizeof(struct gb_sdio_transfer_request);
	host->caps = le32_to_cpu(rsp.caps);

	for (i = 0; i < ARRAY_SIZE(gb_sdio_caps_map); i++)
		if (host->caps & gb_sdio_caps_map[i].gb)
			caps |= gb_sdio_caps_map[i].mmc;
	/*
	 * The module answers a busy command once the card is ready, as long
	 * as an operation may wait (0 would tell the MMC core "for ever", and
	 * it would size an erase to 60 s of busy time)
	 */
	mmc->caps = caps | MMC_CAP_WAIT_WHILE_BUSY;
	mmc->max_busy_timeout = GB_SDIO_BUSY_MAX_MS;
	mmc->ocr_avail = ocr << GB_SDIO_VDD_SHIFT;
	mmc->f_min = f_min;
	mmc->f_max = f_max;
	mmc->max_blk_size = min_t(size_t, blksz, host->xfer_max);
	mmc->max_blk_count = blocks;
	mmc->max_req_size = min_t(unsigned int, GB_SDIO_REQ_MAX,
				  blocks * mmc->max_blk_size);
	mmc->max_seg_size = mmc->max_req_size;
	mmc->max_segs = 128;
	return 0;
}

static int gb_sdio_probe(struct gbphy_device *gbphy_dev,
			 const struct gbphy_device_id *id)
{
	struct gb_connection *connection;
	struct mmc_host *mmc;
	struct gb_sdio *host;
	int ret;

	mmc = mmc_alloc_host(sizeof(*host), &gbphy_dev->dev);
	if (!mmc)
		return -ENOMEM;
	host = mmc_priv(mmc);
	host->gbphy_dev = gbphy_dev;
	host->mmc = mmc;
	host->present = true;
	spin_lock_init(&host->lock);
	mutex_init(&host->detect_lock);
	ratelimit_state_init(&host->bad_answer_rs, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);
	INIT_WORK(&host->work, gb_sdio_work);
	mmc->ops = &gb_sdio_ops;

	host->wq = alloc_ordered_workqueue("gb_sdio_%s", WQ_MEM_RECLAIM,
					   dev_name(&gbphy_dev->dev));
	if (!host->wq) {
		ret = -ENOMEM;
		goto err_free_host;
	}

	connection = gb_connection_create(gbphy_dev->bundle,
					  gbphy_cport_id(gbphy_dev),
					  gb_sdio_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_destroy_wq;
	}
	host->connection = connection;
	gb_connection_set_data(connection, host);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy_conn;

	ret = gb_sdio_get_caps(host);
	if (ret)
		goto err_disable;

	gb_gbphy_set_data(gbphy_dev, host);
	ret = mmc_add_host(mmc);
	if (ret) {
		dev_err(&gbphy_dev->dev, "failed to add mmc host: %d\n", ret);
		goto err_disable;
	}
	/* from now on card-detect events reach the MMC core */
	mutex_lock(&host->detect_lock);
	host->added = true;
	mutex_unlock(&host->detect_lock);
	return 0;

err_disable:
	gb_connection_disable(connection);
err_destroy_conn:
	gb_connection_destroy(connection);
err_destroy_wq:
	destroy_workqueue(host->wq);
err_free_host:
	mmc_free_host(mmc);
	return ret;
}

static void gb_sdio_remove(struct gbphy_device *gbphy_dev)
{
	struct gb_sdio *host = gb_gbphy_get_data(gbphy_dev);
	unsigned long flags;

	/* no card-detect change after this, no new request sent */
	mutex_lock(&host->detect_lock);
	spin_lock_irqsave(&host->lock, flags);
	host->removed = true;
	spin_unlock_irqrestore(&host->lock, flags);
	mutex_unlock(&host->detect_lock);

	mmc_remove_host(host->mmc);
	/* the request in flight, if any, has ended: the card is gone */
	flush_workqueue(host->wq);
	gb_connection_disable(host->connection);
	gb_connection_destroy(host->connection);
	destroy_workqueue(host->wq);
	mmc_free_host(host->mmc);
}

static const struct gbphy_device_id gb_sdio_id_table[] = {
	{ GBPHY_PROTOCOL(GREYBUS_PROTOCOL_SDIO) },
	{ },
};
MODULE_DEVICE_TABLE(gbphy, gb_sdio_id_table);
GBPHY_MODULE_ALIAS(GREYBUS_PROTOCOL_SDIO);

static struct gbphy_driver gb_sdio_driver = {
	.name		= "gb-sdio",
	.probe		= gb_sdio_probe,
	.remove		= gb_sdio_remove,
	.id_table	= gb_sdio_id_table,
};
module_gbphy_driver(gb_sdio_driver);

MODULE_DESCRIPTION("Greybus SDIO protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
