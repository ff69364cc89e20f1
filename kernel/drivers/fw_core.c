// SPDX-License-Identifier: GPL-2.0
/*
 * gb-firmware: the firmware-management bundle (class 0x16).  Its CPorts
 * are one Firmware Management (required), at most one Firmware Download
 * and at most one Component Authentication.
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
	struct gb_connection	*cap_connection;
	struct gb_cap		*cap;
	struct gb_connection	*mgmt_connection;
	struct gb_fw_mgmt	*mgmt;
};

/* The CPort of each protocol (GB_CPORT_ID_BAD: none); each at most once */
static int gb_fw_core_pick(struct gb_bundle *bundle, u16 *mgmt, u16 *download,
			   u16 *cap)
{
	size_t i;

	*mgmt = GB_CPORT_ID_BAD;
	*download = GB_CPORT_ID_BAD;
	*cap = GB_CPORT_ID_BAD;
	for (i = 0; i < bundle->num_cports; i++) {
		struct greybus_descriptor_cport *desc = &bundle->cport_desc[i];
		u16 *slot;

		switch (desc->protocol_id) {
		case GREYBUS_PROTOCOL_FW_MANAGEMENT:
			slot = mgmt;
			break;
		case GREYBUS_PROTOCOL_FW_DOWNLOAD:
			slot = download;
			break;
		case GREYBUS_PROTOCOL_AUTHENTICATION:
			slot = cap;
			break;
		default:
			dev_err(&bundle->dev, "unexpected protocol 0x%02x on cport %u\n",
				desc->protocol_id, le16_to_cpu(desc->id));
			return -ENODEV;
		}
		if (*slot != GB_CPORT_ID_BAD) {
			dev_err(&bundle->dev, "protocol 0x%02x on more than one cport\n",
				desc->protocol_id);
			return -ENODEV;
		}
		*slot = le16_to_cpu(desc->id);
	}
	if (*mgmt == GB_CPORT_ID_BAD) {
		dev_err(&bundle->dev, "no firmware management cport\n");
		return -ENODEV;
	}

	return 0;
}

static int gb_fw_core_add_download(struct gb_fw_core *core,
				   struct gb_bundle *bundle, u16 cport)
{
	struct gb_connection *connection;
	int ret;

	connection = gb_connection_create(bundle, cport,
					  gb_fw_download_request_handler);
	if (IS_ERR(connection))
		return PTR_ERR(connection);
	core->download = gb_fw_download_create(connection);
	if (!core->download) {
		ret = -ENOMEM;
		goto err_destroy;
	}
	ret = gb_connection_enable(connection);
	if (ret)
		goto err_free;
	core->download_connection = connection;

	return 0;

err_free:
	gb_fw_download_destroy(core->download);
	core->download = NULL;
err_destroy:
	gb_connection_destroy(connection);
	return ret;
}

static void gb_fw_core_remove_download(struct gb_fw_core *core)
{
	if (!core->download_connection)
		return;
	gb_connection_disable(core->download_connection);
	gb_fw_download_destroy(core->download);
	gb_connection_destroy(core->download_connection);
}

static int gb_fw_core_add_cap(struct gb_fw_core *core,
			      struct gb_bundle *bundle, u16 cport)
{
	struct gb_connection *connection;
	struct gb_cap *cap;

	connection = gb_connection_create(bundle, cport,
					  gb_cap_request_handler);
	if (IS_ERR(connection))
		return PTR_ERR(connection);
	cap = gb_cap_create(connection);
	if (IS_ERR(cap)) {
		gb_connection_destroy(connection);
		return PTR_ERR(cap);
	}
	core->cap_connection = connection;
	core->cap = cap;

	return 0;
}

static void gb_fw_core_remove_cap(struct gb_fw_core *core)
{
	if (!core->cap_connection)
		return;
	gb_cap_destroy(core->cap);
	gb_connection_destroy(core->cap_connection);
}

static int gb_fw_core_probe(struct gb_bundle *bundle,
			    const struct greybus_bundle_id *id)
{
	struct gb_connection *connection;
	u16 mgmt_cport, download_cport, cap_cport;
	struct gb_fw_core *core;
	int ret;

	ret = gb_fw_core_pick(bundle, &mgmt_cport, &download_cport,
			      &cap_cport);
	if (ret)
		return ret;

	core = kzalloc(sizeof(*core), GFP_KERNEL);
	if (!core)
		return -ENOMEM;
	greybus_set_drvdata(bundle, core);

	if (download_cport != GB_CPORT_ID_BAD) {
		ret = gb_fw_core_add_download(core, bundle, download_cport);
		if (ret)
			goto err_free;
	}
	if (cap_cport != GB_CPORT_ID_BAD) {
		ret = gb_fw_core_add_cap(core, bundle, cap_cport);
		if (ret)
			goto err_remove_download;
	}

	connection = gb_connection_create(bundle, mgmt_cport,
					  gb_fw_mgmt_request_handler);
	if (IS_ERR(connection)) {
		ret = PTR_ERR(connection);
		goto err_remove_cap;
	}
	core->mgmt = gb_fw_mgmt_create(connection);
	if (IS_ERR(core->mgmt)) {
		ret = PTR_ERR(core->mgmt);
		goto err_destroy_mgmt;
	}
	core->mgmt_connection = connection;

	return 0;

err_destroy_mgmt:
	gb_connection_destroy(connection);
err_remove_cap:
	gb_fw_core_remove_cap(core);
err_remove_download:
	gb_fw_core_remove_download(core);
err_free:
	kfree(core);
	return ret;
}

static void gb_fw_core_disconnect(struct gb_bundle *bundle)
{
	struct gb_fw_core *core = greybus_get_drvdata(bundle);

	gb_fw_mgmt_destroy(core->mgmt);
	gb_connection_destroy(core->mgmt_connection);
	gb_fw_core_remove_cap(core);
	gb_fw_core_remove_download(core);
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
	ret = gb_cap_init();
	if (ret)
		goto err_mgmt;
	ret = greybus_register(&gb_fw_core_driver);
	if (ret)
		goto err_cap;

	return 0;

err_cap:
	gb_cap_exit();
err_mgmt:
	gb_fw_mgmt_exit();
	return ret;
}
module_init(gb_fw_core_init);

static void __exit gb_fw_core_exit(void)
{
	greybus_deregister(&gb_fw_core_driver);
	gb_cap_exit();
	gb_fw_mgmt_exit();
}
module_exit(gb_fw_core_exit);

MODULE_DESCRIPTION("Greybus firmware management, download and authentication driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
