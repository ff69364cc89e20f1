// SPDX-License-Identifier: GPL-2.0
/*
 * gb-log: the Log protocol (0x1a).  The module sends text; each message
 * becomes one kernel log line prefixed with the bundle's device name
 * (dev_info), so "dmesg | grep 1-2.2.1" shows what module 2 said.
 *
 * The text is untrusted: it is not NUL-terminated, may hold anything,
 * and a chatty module must not flood the log.  Each message is cut at
 * its first NUL and at GB_LOG_MAX_LEN bytes, every byte outside printable
 * ASCII becomes '?', and lines go out rate-limited per bundle.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <greybus/greybus.h>
#include <uapi/greybus/log.h>

struct gb_log {
	struct gb_connection	*connection;
	struct ratelimit_state	ratelimit;	/* the module's lines */
	char			buf[GB_LOG_MAX_LEN + 1];	/* one line */
};

static int gb_log_request_handler(struct gb_operation *operation)
{
	struct gb_connection *connection = operation->connection;
	struct gb_log *log = gb_connection_get_data(connection);
	struct device *dev = &connection->bundle->dev;
	struct gb_log_send_log_request *request;
	size_t size = operation->request->payload_size;
	size_t len, i;

	if (operation->type != GB_LOG_TYPE_SEND_LOG) {
		dev_err_ratelimited(dev, "unknown request type 0x%02x\n",
				    operation->type);
		return -EINVAL;
	}

	request = operation->request->payload;
	if (size < sizeof(*request)) {
		dev_err_ratelimited(dev, "log request too short (%zu bytes)\n",
				    size);
		return -EINVAL;
	}
	len = le16_to_cpu(request->len);
	if (!len || len != size - sizeof(*request) || len > GB_LOG_MAX_LEN) {
		dev_err_ratelimited(dev, "log request of %zu bytes says %zu\n",
				    size - sizeof(*request), len);
		return -EINVAL;
	}

	len = strnlen(request->msg, len);
	/* A module's own line ending is not part of the text */
	while (len && (request->msg[len - 1] == '\n' ||
		       request->msg[len - 1] == '\r'))
		len--;

	/* Handlers of one connection run one at a time: buf is ours */
	for (i = 0; i < len; i++) {
		u8 c = request->msg[i];

		log->buf[i] = (c >= 0x20 && c < 0x7f) ? c : '?';
	}
	log->buf[len] = '\0';

	if (__ratelimit(&log->ratelimit))
		dev_info(dev, "%s\n", log->buf);

	return 0;
}

static int gb_log_probe(struct gb_bundle *bundle,
			const struct greybus_bundle_id *id)
{
	struct greybus_descriptor_cport *desc;
	struct gb_connection *connection;
	struct gb_log *log;
	int ret;

	if (bundle->num_cports != 1)
		return -ENODEV;
	desc = &bundle->cport_desc[0];
	if (desc->protocol_id != GREYBUS_PROTOCOL_LOG)
		return -ENODEV;

	log = kzalloc(sizeof(*log), GFP_KERNEL);
	if (!log)
		return -ENOMEM;
	/* A burst of 20 lines, then at most 20 every 5 s */
	ratelimit_state_init(&log->ratelimit, 5 * HZ, 20);

	connection = gb_connection_create(bundle, le16_to_cpu(desc->id),
					  gb_log_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_free;
	}
	gb_connection_set_data(connection, log);
	log->connection = connection;
	greybus_set_drvdata(bundle, log);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy;

	return 0;

err_destroy:
	gb_connection_destroy(connection);
err_free:
	kfree(log);
	return ret;
}

static void gb_log_disconnect(struct gb_bundle *bundle)
{
	struct gb_log *log = greybus_get_drvdata(bundle);

	gb_connection_disable(log->connection);
	gb_connection_destroy(log->connection);
	kfree(log);
}

static const struct greybus_bundle_id gb_log_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_LOG) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_log_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_LOG);

static struct greybus_driver gb_log_driver = {
	.name		= "gb-log",
	.probe		= gb_log_probe,
	.disconnect	= gb_log_disconnect,
	.id_table	= gb_log_id_table,
};
module_greybus_driver(gb_log_driver);

MODULE_DESCRIPTION("Greybus Log protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
