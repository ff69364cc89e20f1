// SPDX-License-Identifier: GPL-2.0
/*
 * gb-audio-module: the bundle driver of audio modules (class 0x12), with
 * one Audio Management CPort (0x12) and at least one Audio Data CPort
 * (0x13).  Probe fetches the topology (its size, then the blob), checks
 * it (topology.c), and builds the module's sound card: an ASoC component
 * (gb-audio-codec), a card around it (gb-audio-card), and an entry in
 * gb-audio-manager.
 *
 * Disconnect never waits for userspace: it drops the manager's entry,
 * disconnects the card (ALSA refuses new accesses and stops the streams),
 * waits for the accesses under way to stop sending (@io_lock), takes the
 * connections down and queues release_work.  The card, the component,
 * the topology and the module's memory stay while ALSA files of the card
 * are open (closing one still calls into the component), with a
 * reference on the bundle device: release_work waits until the card's
 * last file is closed (snd_card_disconnect_sync()), then removes and
 * frees them.  So the wait and its wake-up are ALSA's own code (the
 * release work sleeps in it), not a callback of this module that a
 * closing file would run after ALSA has dropped the file's reference on
 * this module.  The card's files hold this module, so it cannot be
 * unloaded while one is open; once the last one lets it go, its exit
 * waits for the releases still running (destroy_workqueue()).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <greybus/greybus.h>

#include "audio.h"

/* Runs the releases of disconnected modules; drained at module exit */
static struct workqueue_struct *gbaudio_release_wq;

static int gbaudio_data_handler(struct gb_operation *op)
{
	struct gbaudio_module *module = gb_connection_get_data(op->connection);

	if (op->type != GB_AUDIO_TYPE_SEND_DATA)
		return -EPROTONOSUPPORT;

	return gbaudio_pcm_receive(module, op);
}

static int gbaudio_request_handler(struct gb_operation *op)
{
	struct gb_connection *connection = op->connection;

	/* Jack, button and streaming events are not acted upon (yet) */
	dev_dbg(&connection->bundle->dev, "event 0x%02x ignored\n", op->type);

	return 0;
}

static int gbaudio_get_topology(struct gbaudio_module *module)
{
	struct gb_audio_get_topology_size_response size_rsp;
	struct device *dev = &module->bundle->dev;
	struct gbaudio_tplg *tplg;
	size_t size, max;
	void *blob;
	int ret;

	ret = gb_operation_sync(module->mgmt, GB_AUDIO_TYPE_GET_TOPOLOGY_SIZE,
				NULL, 0, &size_rsp, sizeof(size_rsp));
	if (ret) {
		dev_err(dev, "failed to get topology size: %d\n", ret);
		return ret;
	}

	size = le16_to_cpu(size_rsp.size);
	max = gb_operation_get_payload_size_max(module->mgmt);
	if (size < sizeof(struct gb_audio_topology) || size > max) {
		dev_err_ratelimited(dev, "bad topology: size %zu (%zu..%zu)\n",
				    size, sizeof(struct gb_audio_topology), max);
		return -EPROTO;
	}

	blob = kzalloc(size, GFP_KERNEL);
	if (!blob)
		return -ENOMEM;

	ret = gb_operation_sync(module->mgmt, GB_AUDIO_TYPE_GET_TOPOLOGY,
				NULL, 0, blob, size);
	if (ret) {
		dev_err(dev, "failed to get topology: %d\n", ret);
		goto out_free;
	}

	tplg = gbaudio_tplg_parse(module, blob, size);
	if (IS_ERR(tplg)) {
		ret = PTR_ERR(tplg);
		goto out_free;
	}
	module->tplg = tplg;
	ret = 0;

out_free:
	kfree(blob);
	return ret;
}

static int gbaudio_add_card(struct gbaudio_module *module)
{
	struct gbaudio_tplg *t = module->tplg;
	struct gbaudio_card_info info = {
		.component_name	= module->codec->component_name,
		.num_dais	= t->num_dais,
		.intf_id	= module->intf_id,
		.owner		= THIS_MODULE,
	};
	struct platform_device *pdev;
	unsigned int i;

	for (i = 0; i < t->num_dais; i++) {
		info.dai_names[i] = t->dais[i].name;
		info.playback[i] = t->dais[i].playback.chan_max;
		info.capture[i] = t->dais[i].capture.chan_max;
	}

	pdev = gbaudio_card_add(&module->bundle->dev, &info);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	module->card = pdev;

	return 0;
}

static int gbaudio_manager_add(struct gbaudio_module *module)
{
	struct gb_interface *intf = module->bundle->intf;
	struct gb_audio_manager_desc desc = {
		.vid		= intf->vendor_id,
		.pid		= intf->product_id,
		.intf_id	= module->intf_id,
		.num_dais	= module->tplg->num_dais,
		.num_controls	= module->tplg->num_ctls,
		.num_widgets	= module->tplg->num_widgets,
	};
	int id;

	snprintf(desc.name, sizeof(desc.name), "GB Audio %u", module->intf_id);
	strscpy(desc.bundle, dev_name(&module->bundle->dev), sizeof(desc.bundle));
	id = gb_audio_manager_add(&desc);
	if (id < 0)
		return id;
	module->manager_id = id;

	return 0;
}

static int gbaudio_find_cports(struct gb_bundle *bundle, u16 *mgmt, u16 *data)
{
	bool have_mgmt = false, have_data = false;
	size_t i;

	for (i = 0; i < bundle->num_cports; i++) {
		struct greybus_descriptor_cport *desc = &bundle->cport_desc[i];

		switch (desc->protocol_id) {
		case GREYBUS_PROTOCOL_AUDIO_MGMT:
			if (have_mgmt)
				return -ENODEV;
			*mgmt = le16_to_cpu(desc->id);
			have_mgmt = true;
			break;
		case GREYBUS_PROTOCOL_AUDIO_DATA:
			/* One data path: the first */
			if (!have_data)
				*data = le16_to_cpu(desc->id);
			have_data = true;
			break;
		default:
			return -ENODEV;
		}
	}

	return have_mgmt && have_data ? 0 : -ENODEV;
}

static int gbaudio_probe(struct gb_bundle *bundle,
			 const struct greybus_bundle_id *id)
{
	struct gbaudio_module *module;
	u16 mgmt_cport, data_cport;
	int ret;

	ret = gbaudio_find_cports(bundle, &mgmt_cport, &data_cport);
	if (ret)
		return ret;

	module = kzalloc(sizeof(*module), GFP_KERNEL);
	if (!module)
		return -ENOMEM;
	module->bundle = bundle;
	module->intf_id = bundle->intf->interface_id;
	mutex_init(&module->capture_lock);
	init_rwsem(&module->io_lock);
	greybus_set_drvdata(bundle, module);

	module->mgmt = gb_connection_create(bundle, mgmt_cport,
					    gbaudio_request_handler);
	if (IS_ERR(module->mgmt)) {
		ret = PTR_ERR(module->mgmt);
		goto err_free;
	}
	module->data = gb_connection_create(bundle, data_cport,
					    gbaudio_data_handler);
	if (IS_ERR(module->data)) {
		ret = PTR_ERR(module->data);
		goto err_destroy_mgmt;
	}
	gb_connection_set_data(module->mgmt, module);
	gb_connection_set_data(module->data, module);

	ret = gb_connection_enable(module->mgmt);
	if (ret)
		goto err_destroy_data;
	ret = gb_connection_enable(module->data);
	if (ret)
		goto err_disable_mgmt;

	ret = gbaudio_get_topology(module);
	if (ret)
		goto err_disable_data;

	ret = gbaudio_codec_add(module);
	if (ret)
		goto err_free_tplg;

	ret = gbaudio_add_card(module);
	if (ret)
		goto err_remove_codec;

	ret = gbaudio_manager_add(module);
	if (ret)
		goto err_remove_card;

	dev_info(&bundle->dev, "audio module: %u dais, %u controls, %u widgets, %u routes\n",
		 module->tplg->num_dais, module->tplg->num_ctls,
		 module->tplg->num_widgets, module->tplg->num_routes);

	return 0;

err_remove_card:
	gbaudio_card_remove(module->card);
err_remove_codec:
	gbaudio_codec_remove(module);
err_free_tplg:
	gbaudio_tplg_free(module->tplg);
err_disable_data:
	gb_connection_disable(module->data);
err_disable_mgmt:
	gb_connection_disable(module->mgmt);
err_destroy_data:
	gb_connection_destroy(module->data);
err_destroy_mgmt:
	gb_connection_destroy(module->mgmt);
err_free:
	kfree(module);
	return ret;
}

/* After disconnect: frees all once the card has no file left */
static void gbaudio_release(struct work_struct *work)
{
	struct gbaudio_module *module =
		container_of(work, struct gbaudio_module, release_work);
	struct gb_bundle *bundle = module->bundle;

	/* Then nothing in ALSA can reach the module */
	gbaudio_card_wait_closed(module->card);
	gbaudio_card_remove(module->card);
	gbaudio_codec_remove(module);
	gbaudio_tplg_free(module->tplg);
	kfree(module);
	put_device(&bundle->dev);
}

static void gbaudio_disconnect(struct gb_bundle *bundle)
{
	struct gbaudio_module *module = greybus_get_drvdata(bundle);

	gb_audio_manager_remove(module->manager_id);
	/* No new access from here on; the streams are stopped */
	gbaudio_card_disconnect(module->card);
	gbaudio_codec_disconnect(module);
	/* Waits for the accesses under way; later ones find @gone */
	down_write(&module->io_lock);
	module->gone = true;
	up_write(&module->io_lock);
	gb_connection_disable(module->data);
	gb_connection_disable(module->mgmt);
	gb_connection_destroy(module->data);
	gb_connection_destroy(module->mgmt);
	module->data = NULL;
	module->mgmt = NULL;

	/* Closing a stream still gives back its PM reference on the bundle */
	get_device(&bundle->dev);
	INIT_WORK(&module->release_work, gbaudio_release);
	queue_work(gbaudio_release_wq, &module->release_work);
	dev_info(&bundle->dev,
		 "sound card removed; freed when its files are closed\n");
}

static const struct greybus_bundle_id gbaudio_id_table[] = {
	{ GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_AUDIO) },
	{ }
};
MODULE_DEVICE_TABLE(greybus, gbaudio_id_table);
GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_AUDIO);

static struct greybus_driver gbaudio_driver = {
	.name		= "gb-audio-module",
	.probe		= gbaudio_probe,
	.disconnect	= gbaudio_disconnect,
	.id_table	= gbaudio_id_table,
};

static int __init gbaudio_init(void)
{
	int ret;

	gbaudio_release_wq = alloc_workqueue("gb-audio-release", 0, 0);
	if (!gbaudio_release_wq)
		return -ENOMEM;
	ret = greybus_register(&gbaudio_driver);
	if (ret)
		destroy_workqueue(gbaudio_release_wq);

	return ret;
}
module_init(gbaudio_init);

static void __exit gbaudio_exit(void)
{
	greybus_deregister(&gbaudio_driver);
	/*
	 * Releases still running: the last close of a card's file drops its
	 * reference on this module before ALSA wakes the release waiting
	 * for it
	 */
	destroy_workqueue(gbaudio_release_wq);
}
module_exit(gbaudio_exit);

MODULE_DESCRIPTION("Greybus audio module driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
