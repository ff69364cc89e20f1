// SPDX-License-Identifier: GPL-2.0
/*
 * gb-spi: the Greybus SPI protocol (0x0b) as an spi_controller.
 *
 * Probe asks the module for its controller's capabilities (master config)
 * and, for each chip select, what sits there (device config); each device
 * is registered as a spi_device.  Devices the module calls "spidev" are
 * bound to the spidev driver through driver_override, since spidev's id
 * table has no generic name.
 *
 * A message becomes as few TRANSFER operations as fit the connection's
 * payload size: transfers are packed into one request, and split when
 * their write data (request) or read data (response) would not fit.  All
 * but the last operation of a message say INPROGRESS, so the module keeps
 * the chip select asserted in between.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spi/spi.h>

#include <greybus/compat.h>
#include <greybus/greybus.h>
#include <greybus/gbphy.h>
#include <uapi/greybus/spi.h>

/* descriptors one TRANSFER operation carries at most */
#define GB_SPI_OP_DESC_MAX	32

struct gb_spi {
	struct gbphy_device	*gbphy_dev;
	struct gb_connection	*connection;
	struct spi_controller	*controller;
};

/* A piece of one spi_transfer, as one descriptor of an operation */
struct gb_spi_chunk {
	struct spi_transfer	*xfer;
	unsigned int		off;
	unsigned int		len;
	bool			last;	/* ends its transfer */
};

struct gb_spi_batch {
	struct gb_spi_chunk	chunk[GB_SPI_OP_DESC_MAX];
	unsigned int		count;
	size_t			wr;	/* write bytes in the request */
	size_t			rd;	/* read bytes in the response */
};

static int gb_spi_send_batch(struct gb_spi *gbspi, struct spi_device *spi,
			     struct gb_spi_batch *b, bool more,
			     struct spi_message *msg)
{
	struct device *dev = &gbspi->gbphy_dev->dev;
	struct gb_spi_transfer_request *req;
	struct gb_spi_transfer *desc;
	struct gb_operation *op;
	struct gb_spi_chunk *c;
	size_t req_size;
	u8 *wdata, *rdata;
	unsigned int i;
	int ret;

	req_size = sizeof(*req) + b->count * sizeof(*desc) + b->wr;
	op = gb_operation_create(gbspi->connection, GB_SPI_TYPE_TRANSFER,
				 req_size, b->rd, GFP_KERNEL);
	if (!op)
		return -ENOMEM;

	req = op->request->payload;
	req->chip_select = spi_get_chipselect(spi, 0);
	req->mode = spi->mode & 0xff;
	req->count = cpu_to_le16(b->count);
	wdata = (u8 *)&req->transfers[b->count];
	for (i = 0; i < b->count; i++) {
		c = &b->chunk[i];
		desc = &req->transfers[i];
		desc->speed_hz = cpu_to_le32(c->xfer->speed_hz);
		desc->len = cpu_to_le32(c->len);
		desc->delay_usecs = 0;
		desc->cs_change = 0;
		if (c->last) {
			if (c->xfer->delay.unit == SPI_DELAY_UNIT_USECS)
				desc->delay_usecs =
					cpu_to_le16(c->xfer->delay.value);
			desc->cs_change = c->xfer->cs_change;
		}
		desc->bits_per_word = c->xfer->bits_per_word;
		desc->xfer_flags = 0;
		if (c->xfer->tx_buf) {
			desc->xfer_flags |= GB_SPI_XFER_WRITE;
			memcpy(wdata, c->xfer->tx_buf + c->off, c->len);
			wdata += c->len;
		}
		if (c->xfer->rx_buf)
			desc->xfer_flags |= GB_SPI_XFER_READ;
	}
	if (more)
		req->transfers[b->count - 1].xfer_flags |=
			GB_SPI_XFER_INPROGRESS;

	ret = gb_operation_request_send_sync(op);
	if (ret == -ESHUTDOWN) {
		/* the module left: cancelled, not failed */
		ret = -ENODEV;
		goto out;
	}
	if (ret) {
		dev_err_ratelimited(dev, "cs %u: transfer failed: %d\n",
				    spi_get_chipselect(spi, 0), ret);
		goto out;
	}

	rdata = op->response->payload;
	if (op->response->payload_size != b->rd) {
		dev_err_ratelimited(dev, "transfer: %zu read bytes, expected %zu\n",
				    op->response->payload_size, b->rd);
		ret = -EREMOTEIO;
		goto out;
	}
	for (i = 0; i < b->count; i++) {
		c = &b->chunk[i];
		if (c->xfer->rx_buf) {
			memcpy(c->xfer->rx_buf + c->off, rdata, c->len);
			rdata += c->len;
		}
		msg->actual_length += c->len;
	}
out:
	gb_operation_put(op);
	b->count = 0;
	b->wr = 0;
	b->rd = 0;
	return ret;
}

static int gb_spi_run_message(struct gb_spi *gbspi, struct spi_message *msg)
{
	size_t max = gb_operation_get_payload_size_max(gbspi->connection);
	size_t hdr = sizeof(struct gb_spi_transfer_request);
	size_t dsz = sizeof(struct gb_spi_transfer);
	struct spi_transfer *xfer;
	struct gb_spi_batch *b;
	struct gb_spi_chunk *c;
	unsigned int off, len;
	size_t used;
	int ret = 0;

	if (max < hdr + dsz + 1)
		return -EMSGSIZE;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;

	list_for_each_entry(xfer, &msg->transfers, transfer_list) {
		off = 0;
		while (off < xfer->len) {
			if (b->count == GB_SPI_OP_DESC_MAX)
				goto flush;
			len = xfer->len - off;
			/*
			 * The request holds one descriptor per chunk, read
			 * chunks included, then the write bytes: flush when
			 * one more descriptor (and a write byte) would not
			 * fit, rather than build a request the connection
			 * cannot carry.
			 */
			used = hdr + (b->count + 1) * dsz + b->wr;
			if (used > max || (xfer->tx_buf && used == max))
				goto flush;
			if (xfer->tx_buf)
				len = min_t(size_t, len, max - used);
			if (xfer->rx_buf) {
				if (max <= b->rd)
					goto flush;
				len = min_t(size_t, len, max - b->rd);
			}
			/* whole words only, for wider words */
			if (xfer->bits_per_word > 8 && len < xfer->len - off)
				len &= ~1U;
			if (!len)
				goto flush;
			c = &b->chunk[b->count++];
			c->xfer = xfer;
			c->off = off;
			c->len = len;
			off += len;
			c->last = off == xfer->len;
			if (xfer->tx_buf)
				b->wr += len;
			if (xfer->rx_buf)
				b->rd += len;
			continue;
flush:
			if (!b->count) {
				ret = -EMSGSIZE;
				goto out;
			}
			ret = gb_spi_send_batch(gbspi, msg->spi, b, true, msg);
			if (ret)
				goto out;
		}
	}
	if (b->count)
		ret = gb_spi_send_batch(gbspi, msg->spi, b, false, msg);
out:
	kfree(b);
	return ret;
}

static int gb_spi_transfer_one_message(struct spi_controller *ctlr,
				       struct spi_message *msg)
{
	struct gb_spi *gbspi = spi_controller_get_devdata(ctlr);
	int ret;

	ret = gbphy_runtime_get_sync(gbspi->gbphy_dev);
	if (!ret) {
		ret = gb_spi_run_message(gbspi, msg);
		gbphy_runtime_put_autosuspend(gbspi->gbphy_dev);
	}
	msg->status = ret;
	spi_finalize_current_message(ctlr);
	return ret;
}

static int gb_spi_master_config(struct gb_spi *gbspi)
{
	struct spi_controller *ctlr = gbspi->controller;
	struct device *dev = &gbspi->gbphy_dev->dev;
	struct gb_spi_master_config_response rsp;
	u32 min_hz, max_hz;
	int ret;

	ret = gb_operation_sync(gbspi->connection, GB_SPI_TYPE_MASTER_CONFIG,
				NULL, 0, &rsp, sizeof(rsp));
	if (ret) {
		dev_err_ratelimited(dev, "master config failed: %d\n", ret);
		return ret;
	}
	min_hz = le32_to_cpu(rsp.min_speed_hz);
	max_hz = le32_to_cpu(rsp.max_speed_hz);
	if (!rsp.num_chipselect || !rsp.bits_per_word_mask ||
	    (max_hz && min_hz > max_hz)) {
		dev_err_ratelimited(dev, "nonsense master config (cs %u, bpw 0x%x, %u..%u Hz)\n",
				    rsp.num_chipselect,
				    le32_to_cpu(rsp.bits_per_word_mask),
				    min_hz, max_hz);
		return -EPROTO;
	}
	ctlr->bits_per_word_mask = le32_to_cpu(rsp.bits_per_word_mask);
	ctlr->min_speed_hz = min_hz;
	ctlr->max_speed_hz = max_hz;
	/* the GB_SPI_MODE_* and _FLAG_* bits are Linux's */
	ctlr->mode_bits = le16_to_cpu(rsp.mode) & 0xff;
	ctlr->flags = le16_to_cpu(rsp.flags) &
		      (SPI_CONTROLLER_HALF_DUPLEX | SPI_CONTROLLER_NO_RX |
		       SPI_CONTROLLER_NO_TX);
	ctlr->num_chipselect = rsp.num_chipselect;
	return 0;
}

static int gb_spi_add_device(struct gb_spi *gbspi, u8 cs)
{
	struct device *dev = &gbspi->gbphy_dev->dev;
	struct gb_spi_device_config_response rsp;
	struct gb_spi_device_config_request req = { .chip_select = cs };
	char name[GB_SPI_DEVICE_NAME_LEN + 1];
	struct spi_device *spi;
	int ret;

	ret = gb_operation_sync(gbspi->connection, GB_SPI_TYPE_DEVICE_CONFIG,
				&req, sizeof(req), &rsp, sizeof(rsp));
	if (ret) {
		dev_err_ratelimited(dev, "device config of cs %u failed: %d\n",
				    cs, ret);
		return ret;
	}
	memcpy(name, rsp.name, GB_SPI_DEVICE_NAME_LEN);
	name[GB_SPI_DEVICE_NAME_LEN] = '\0';

	spi = spi_alloc_device(gbspi->controller);
	if (!spi)
		return -ENOMEM;
	gb_spi_set_chip_select(spi, cs);
	spi->mode = le16_to_cpu(rsp.mode) & 0xff;
	spi->bits_per_word = rsp.bits_per_word;
	spi->max_speed_hz = le32_to_cpu(rsp.max_speed_hz);

	switch (rsp.device_type) {
	case GB_SPI_DEVICE_TYPE_SPIDEV:
		strscpy(spi->modalias, "spidev", sizeof(spi->modalias));
		/* a copy, freed with the device */
		ret = gb_spi_set_driver_override(spi, "spidev");
		if (ret)
			goto err_put;
		break;
	case GB_SPI_DEVICE_TYPE_SPI_NOR:
		strscpy(spi->modalias, "spi-nor", sizeof(spi->modalias));
		break;
	case GB_SPI_DEVICE_TYPE_MODALIAS:
		if (!name[0]) {
			ret = -EPROTO;
			goto err_bad;
		}
		strscpy(spi->modalias, name, sizeof(spi->modalias));
		break;
	default:
		ret = -EPROTO;
		goto err_bad;
	}

	ret = spi_add_device(spi);
	if (ret) {
		dev_err(dev, "failed to add spi device on cs %u: %d\n", cs, ret);
		goto err_put;
	}
	return 0;

err_bad:
	dev_err_ratelimited(dev, "cs %u: bad device type %u\n", cs,
			    rsp.device_type);
err_put:
	spi_dev_put(spi);
	return ret;
}

static int gb_spi_probe(struct gbphy_device *gbphy_dev,
			const struct gbphy_device_id *id)
{
	struct gb_connection *connection;
	struct spi_controller *ctlr;
	struct gb_spi *gbspi;
	unsigned int cs;
	int ret;

	ctlr = spi_alloc_master(&gbphy_dev->dev, sizeof(*gbspi));
	if (!ctlr)
		return -ENOMEM;
	gbspi = spi_controller_get_devdata(ctlr);
	gbspi->gbphy_dev = gbphy_dev;
	gbspi->controller = ctlr;

	connection = gb_connection_create(gbphy_dev->bundle,
					  gbphy_cport_id(gbphy_dev), NULL);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_put;
	}
	gbspi->connection = connection;
	gb_connection_set_data(connection, gbspi);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy;

	ret = gb_spi_master_config(gbspi);
	if (ret)
		goto err_disable;

	ctlr->bus_num = -1;
	ctlr->transfer_one_message = gb_spi_transfer_one_message;

	/* a reference for remove(), which uses gbspi after unregistering */
	spi_controller_get(ctlr);
	ret = spi_register_controller(ctlr);
	if (ret)
		goto err_unget;

	gb_gbphy_set_data(gbphy_dev, gbspi);

	for (cs = 0; cs < ctlr->num_chipselect; cs++) {
		ret = gb_spi_add_device(gbspi, cs);
		if (ret)
			goto err_unregister;
	}
	return 0;

err_unregister:
	spi_unregister_controller(ctlr);
	goto err_disable;
err_unget:
	spi_controller_put(ctlr);
err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
err_put:
	spi_controller_put(ctlr);
	return ret;
}

static void gb_spi_remove(struct gbphy_device *gbphy_dev)
{
	struct gb_spi *gbspi = gb_gbphy_get_data(gbphy_dev);
	struct spi_controller *ctlr = gbspi->controller;

	spi_unregister_controller(ctlr);	/* drops one reference */
	gb_connection_disable(gbspi->connection);
	gb_connection_destroy(gbspi->connection);
	spi_controller_put(ctlr);		/* probe's own, with gbspi */
}

static const struct gbphy_device_id gb_spi_id_table[] = {
	{ GBPHY_PROTOCOL(GREYBUS_PROTOCOL_SPI) },
	{ },
};
MODULE_DEVICE_TABLE(gbphy, gb_spi_id_table);
GBPHY_MODULE_ALIAS(GREYBUS_PROTOCOL_SPI);

static struct gbphy_driver gb_spi_driver = {
	.name		= "gb-spi",
	.probe		= gb_spi_probe,
	.remove		= gb_spi_remove,
	.id_table	= gb_spi_id_table,
};
module_gbphy_driver(gb_spi_driver);

MODULE_DESCRIPTION("Greybus SPI protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
