// SPDX-License-Identifier: GPL-2.0
/*
 * gb-i2c: the I2C protocol (0x03) as an i2c_adapter, so i2c-dev, i2c-tools
 * and any kernel client driver work on a module's I2C bus.
 *
 * One i2c_transfer() is one Greybus transfer operation carrying all its
 * messages; SMBus requests go through the I2C core's emulation on top.
 * Errors follow the I2C fault-codes convention: an address nobody
 * answered (the module's "nonexistent") is -ENXIO, a lost arbitration
 * -EAGAIN, a timeout -ETIMEDOUT, anything else the module got wrong
 * -EREMOTEIO.
 */
#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <greybus/gbphy.h>
#include <uapi/greybus/i2c.h>

/* What the adapter can pass on; anything else the module says is ignored */
#define GB_I2C_FUNC_MASK	(I2C_FUNC_I2C | I2C_FUNC_10BIT_ADDR | \
				 I2C_FUNC_NOSTART | I2C_FUNC_SMBUS_EMUL | \
				 I2C_FUNC_SMBUS_READ_BLOCK_DATA | \
				 I2C_FUNC_SMBUS_BLOCK_PROC_CALL)

#define GB_I2C_TIMEOUT_MS	1000

struct gb_i2c {
	struct gbphy_device	*gbphy_dev;
	struct gb_connection	*connection;
	u32			functionality;
	struct i2c_adapter	adapter;
};

static u16 gb_i2c_msg_flags(const struct i2c_msg *msg)
{
	u16 flags = 0;

	if (msg->flags & I2C_M_RD)
		flags |= GB_I2C_M_RD;
	if (msg->flags & I2C_M_TEN)
		flags |= GB_I2C_M_TEN;
	if (msg->flags & I2C_M_NOSTART)
		flags |= GB_I2C_M_NOSTART;
	return flags;
}

/*
 * Builds the operation for @num messages: ERR_PTR(-EMSGSIZE) if the
 * request or the response would not fit one message of the connection,
 * ERR_PTR(-ENOMEM) if memory runs out.
 */
static struct gb_operation *
gb_i2c_operation_create(struct gb_i2c *gb_i2c, struct i2c_msg *msgs, int num)
{
	size_t max = gb_operation_get_payload_size_max(gb_i2c->connection);
	struct gb_i2c_transfer_request *request;
	struct gb_operation *operation;
	size_t request_size, wlen = 0, rlen = 0;
	u8 *data;
	int i;

	for (i = 0; i < num; i++) {
		if (msgs[i].flags & I2C_M_RD)
			rlen += msgs[i].len;
		else
			wlen += msgs[i].len;
	}

	request_size = sizeof(*request) +
		       num * sizeof(struct gb_i2c_transfer_op) + wlen;
	if (request_size > max || rlen > max) {
		dev_err_ratelimited(&gb_i2c->gbphy_dev->dev,
				    "%d-message transfer too large: %zu request and %zu response bytes, at most %zu each\n",
				    num, request_size, rlen, max);
		return ERR_PTR(-EMSGSIZE);
	}
	operation = gb_operation_create(gb_i2c->connection,
					GB_I2C_TYPE_TRANSFER, request_size,
					rlen, GFP_KERNEL);
	if (!operation)
		return ERR_PTR(-ENOMEM);

	request = operation->request->payload;
	request->op_count = cpu_to_le16(num);
	data = (u8 *)&request->ops[num];
	for (i = 0; i < num; i++) {
		request->ops[i].addr = cpu_to_le16(msgs[i].addr);
		request->ops[i].flags = cpu_to_le16(gb_i2c_msg_flags(&msgs[i]));
		request->ops[i].size = cpu_to_le16(msgs[i].len);
		if (!(msgs[i].flags & I2C_M_RD)) {
			memcpy(data, msgs[i].buf, msgs[i].len);
			data += msgs[i].len;
		}
	}

	return operation;
}

static void gb_i2c_copy_reads(struct gb_operation *operation,
			      struct i2c_msg *msgs, int num)
{
	const u8 *data = operation->response->payload;
	int i;

	for (i = 0; i < num; i++) {
		if (!(msgs[i].flags & I2C_M_RD))
			continue;
		memcpy(msgs[i].buf, data, msgs[i].len);
		data += msgs[i].len;
	}
}

static int gb_i2c_map_errno(struct gb_i2c *gb_i2c,
			    struct gb_operation *operation, int ret)
{
	switch (ret) {
	case -ENODEV:		/* nobody at that address */
		return -ENXIO;
	case -EAGAIN:
		return ret;
	case -ETIMEDOUT:
		/* The core's own timeout log is for gb_operation_sync() only */
		dev_err_ratelimited(&gb_i2c->gbphy_dev->dev,
				    "transfer id 0x%04x timed out after %u ms\n",
				    operation->id, GB_I2C_TIMEOUT_MS);
		return ret;
	case -ESHUTDOWN:	/* the module left */
		return -ENODEV;
	default:
		dev_err_ratelimited(&gb_i2c->gbphy_dev->dev,
				    "transfer failed: %d\n", ret);
		return -EREMOTEIO;
	}
}

/*
 * i2c-dev's I2C_RDWR passes addresses and I2C_M_TEN unchecked: refuse a
 * 10-bit address the module did not say it handles, and addresses that
 * do not fit their width, rather than put them on the wire.
 */
static int gb_i2c_check_addr(struct gb_i2c *gb_i2c, const struct i2c_msg *msg)
{
	struct device *dev = &gb_i2c->gbphy_dev->dev;

	if (msg->flags & I2C_M_TEN) {
		if (!(gb_i2c->functionality & I2C_FUNC_10BIT_ADDR)) {
			dev_err_ratelimited(dev, "10-bit address 0x%03x: the module has no 10-bit addressing\n",
					    msg->addr);
			return -EOPNOTSUPP;
		}
		if (msg->addr > 0x3ff) {
			dev_err_ratelimited(dev, "10-bit address 0x%x out of range\n",
					    msg->addr);
			return -EINVAL;
		}
	} else if (msg->addr > 0x7f) {
		dev_err_ratelimited(dev, "7-bit address 0x%x out of range\n",
				    msg->addr);
		return -EINVAL;
	}
	return 0;
}

static int gb_i2c_master_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs,
			      int num)
{
	struct gb_i2c *gb_i2c = i2c_get_adapdata(adap);
	struct gb_operation *operation;
	int i, ret;

	for (i = 0; i < num; i++) {
		if (msgs[i].flags & I2C_M_RECV_LEN)
			return -EOPNOTSUPP;
		ret = gb_i2c_check_addr(gb_i2c, &msgs[i]);
		if (ret)
			return ret;
	}

	operation = gb_i2c_operation_create(gb_i2c, msgs, num);
	if (IS_ERR(operation))
		return PTR_ERR(operation);

	ret = gbphy_runtime_get_sync(gb_i2c->gbphy_dev);
	if (ret)
		goto out_put;

	ret = gb_operation_request_send_sync_timeout(operation,
						     GB_I2C_TIMEOUT_MS);
	gbphy_runtime_put_autosuspend(gb_i2c->gbphy_dev);
	if (ret) {
		ret = gb_i2c_map_errno(gb_i2c, operation, ret);
		goto out_put;
	}

	gb_i2c_copy_reads(operation, msgs, num);
	ret = num;
out_put:
	gb_operation_put(operation);
	return ret;
}

static u32 gb_i2c_functionality(struct i2c_adapter *adap)
{
	struct gb_i2c *gb_i2c = i2c_get_adapdata(adap);

	return gb_i2c->functionality;
}

static const struct i2c_algorithm gb_i2c_algorithm = {
	.master_xfer	= gb_i2c_master_xfer,
	.functionality	= gb_i2c_functionality,
};

static int gb_i2c_probe(struct gbphy_device *gbphy_dev,
			const struct gbphy_device_id *id)
{
	struct gb_i2c_functionality_response response;
	struct gb_connection *connection;
	struct i2c_adapter *adapter;
	struct gb_i2c *gb_i2c;
	int ret;

	gb_i2c = kzalloc(sizeof(*gb_i2c), GFP_KERNEL);
	if (!gb_i2c)
		return -ENOMEM;

	connection = gb_connection_create(gbphy_dev->bundle,
					  gbphy_cport_id(gbphy_dev), NULL);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_free;
	}
	gb_connection_set_data(connection, gb_i2c);
	gb_i2c->connection = connection;
	gb_i2c->gbphy_dev = gbphy_dev;

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy;

	ret = gb_operation_sync(connection, GB_I2C_TYPE_FUNCTIONALITY,
				NULL, 0, &response, sizeof(response));
	if (ret) {
		dev_err(&gbphy_dev->dev, "functionality query failed: %d\n",
			ret);
		goto err_disable;
	}
	gb_i2c->functionality = le32_to_cpu(response.functionality) &
				GB_I2C_FUNC_MASK;

	adapter = &gb_i2c->adapter;
	adapter->owner = THIS_MODULE;
	adapter->class = I2C_CLASS_HWMON;
	adapter->algo = &gb_i2c_algorithm;
	adapter->timeout = msecs_to_jiffies(GB_I2C_TIMEOUT_MS);
	adapter->retries = 0;
	adapter->dev.parent = &gbphy_dev->dev;
	snprintf(adapter->name, sizeof(adapter->name), "Greybus i2c adapter");
	i2c_set_adapdata(adapter, gb_i2c);

	ret = i2c_add_adapter(adapter);
	if (ret)
		goto err_disable;

	gb_gbphy_set_data(gbphy_dev, gb_i2c);

	return 0;

err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
err_free:
	kfree(gb_i2c);
	return ret;
}

static void gb_i2c_remove(struct gbphy_device *gbphy_dev)
{
	struct gb_i2c *gb_i2c = gb_gbphy_get_data(gbphy_dev);

	/* Waits for every transfer in progress and every client to go */
	i2c_del_adapter(&gb_i2c->adapter);
	gb_connection_disable(gb_i2c->connection);
	gb_connection_destroy(gb_i2c->connection);
	kfree(gb_i2c);
}

static const struct gbphy_device_id gb_i2c_id_table[] = {
	{ GBPHY_PROTOCOL(GREYBUS_PROTOCOL_I2C) },
	{ },
};
MODULE_DEVICE_TABLE(gbphy, gb_i2c_id_table);
GBPHY_MODULE_ALIAS(GREYBUS_PROTOCOL_I2C);

static struct gbphy_driver gb_i2c_driver = {
	.name		= "gb-i2c",
	.probe		= gb_i2c_probe,
	.remove		= gb_i2c_remove,
	.id_table	= gb_i2c_id_table,
};
module_gbphy_driver(gb_i2c_driver);

MODULE_DESCRIPTION("Greybus I2C protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
