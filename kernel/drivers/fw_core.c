// SPDX-License-Identifier: GPL-2.0
/*
 * gb-firmware: the firmware-management bundle (class 0x16).  Its CPorts
 * are one Firmware Management (required), at most one Firmware Download
 * and at most one Component Authentication, which is not served yet: its
 * CPort is left unconnected.
 *
 * Firmware Download comes up first, since the module fetches files over
 * it as soon as management asks it to load something, and goes last.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "firmware.h"

struct gb_fw_core {
	struct gb_connection	*download_connection;
	struct gb_fw_download	*download;
	struct gb_connection	*mgmt_connection;
	struct gb_fw_mgmt	*mgmt;
};

/* Finds the CPorts; each protocol may be there once */
static int gb_fw_core_pick(struct gb_bundle *bundle, u16 *mgmt, u16 *download)
{
	bool have_mgmt = false, have_download = false, have_cap = false;
	size_t i;

	for (i = 0; i < bundle->num_cports; i++) {
		struct greybus_descriptor_cport *desc = &bundle->cport_desc[i];
		bool *have;

		switch (desc->protocol_id) {
		case GREYBUS_PROTOCOL_FW_MANAGEMENT:
			have = &have_mgmt;
			*mgmt = le16_to_cpu(desc->id);
			break;
		case GREYBUS_PROTOCOL_FW_DOWNLOAD:
			have = &have_download;
			*download = le16_to_cpu(desc->id);
			break;
		case GREYBUS_PROTOCOL_AUTHENTICATION:
			have = &have_cap;
			break;
		default:
			dev_err(&bundle->dev, "unexpected protocol 0x%02x on cport %u\n",
				desc->protocol_id, le16_to_cpu(desc->id));
			return -ENODEV;
		}
		if (*have) {
			dev_err(&bundle->dev, "protocol 0x%02x on more than one cport\n",
				desc->protocol_id);
			return -ENODEV;
		}
		*have = true;
	}
	if (!have_mgmt) {
		dev_err(&bundle->dev, "no firmware management cport\n");
		return -ENODEV;
	}
	if (!have_download)
		*download = GB_CPORT_ID_BAD;
	if (have_cap)
		dev_dbg(&bundle->dev, "component authentication not supported\n");

	return 0;
}

static int gb_fw_core_probe(struct gb_bundle *bundle,
			    const struct greybus_bundle_id *id)
{
	struct gb_connection *connection;
	struct gb_fw_core *core;
	u16 mgmt_cport, download_cport;
	int ret;

	ret = gb_fw_core_pick(bundle, &mgmt_cport, &download_cport);
	if (ret)
		return ret;

	core = kzalloc(sizeof(*core), GFP_KERNEL);
	if (!core)
		return -ENOMEM;
	greybus_set_drvdata(bundle, core);

	if (download_cport != GB_CPORT_ID_BAD) {
		connection = gb_connection_create(bundle, download_cport,
						  gb_fw_download_request_handler);
		if (IS_ERR(connection)) {
			ret = PTR_ERR(connection);
			goto err_free;
		}
		core->download_connection = connection;
		core->download = gb_fw_download_create(connection);
		if (!core->download) {
			ret = -ENOMEM;
			goto err_destroy_download;
		}
		ret = gb_connection_enable(connection);
		if (ret)
			goto err_free_download;
	}

	connection = gb_connection_create(bundle, mgmt_cport,
					  gb_fw_mgmt_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_disable_download;
	}
	core->mgmt_connection = connection;
	core->mgmt = gb_fw_mgmt_create(connection);
	if (IS_ERR(core->mgmt)) {
		ret = PTR_ERR(core->mgmt);
		goto err_destroy_mgmt;
	}

	return 0;

err_destroy_mgmt:
	gb_connection_destroy(core->mgmt_connection);
err_disable_download:
	if (core->download_connection)
		gb_connection_disable(core->download_connection);
err_free_download:
	if (core->download)
		gb_fw_download_destroy(core->download);
err_destroy_download:
	if (core->download_connection)
		gb_connection_destroy(core->download_connection);
err_free:
	kfree(core);
	return ret;
}

static void gb_fw_core_disconnect(struct gb_bundle *bundle)
{
	struct gb_fw_core *core = greybus_get_drvdata(bundle);

	gb_fw_mgmt_destroy(core->mgmt);
	gb_connection_destroy(core->mgmt_connection);
	if (core->download_connection) {
		gb_connection_disable(core->download_connection);
		gb_fw_download_destroy(core->download);
		gb_connection_destroy(core->download_connection);
	}
	kfree(core);
}

static const struct greybus_bundle_id gb_fw_core_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_FW_MANAGEMENT) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gb_fw_core_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_FW_MANAGEMENT);

static struct greybus_driver gb_fw_core_driver = {
	.name		= "gb-firmware",
	.probe		= gb_fw_core_probe,
	.disconnect	= gb_fw_core_disconnect,
	.id_table	= gb_fw_core_id_table,
};

static int __init gb_fw_core_init(void)
{
	int ret;

	ret = gb_fw_mgmt_init();
	if (ret)
		return ret;
	ret = greybus_register(&gb_fw_core_driver);
	if (ret)
		gb_fw_mgmt_exit();
	return ret;
}
module_init(gb_fw_core_init);

static void __exit gb_fw_core_exit(void)
{
	greybus_deregister(&gb_fw_core_driver);
	gb_fw_mgmt_exit();
}
module_exit(gb_fw_core_exit);

MODULE_DESCRIPTION("Greybus firmware management and download protocols driver");
MODULE_LICENSE("GPL");
