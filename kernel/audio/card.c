// SPDX-License-Identifier: GPL-2.0
/*
 * gb-audio-card: the machine driver.  The guest has no SoC, so each
 * audio module gets a card of its own: one DAI link per DAI of its
 * component, with ASoC's dummy DAI on the CPU side and the component
 * itself as the platform (pcm.c).
 * gb-audio-module creates the platform device (gbaudio_card_add()) once
 * the component is registered.  On disconnect it first disconnects the
 * card (gbaudio_card_disconnect()): ALSA refuses every new access, stops
 * the streams, and the device leaves the bundle, which is about to go;
 * gbaudio_card_wait_closed() waits for the card's last file to be
 * closed, then gbaudio_card_remove() removes it.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <sound/soc.h>

#include "audio.h"

#define GBAUDIO_CARD_DRV	"gb-audio-card"

static int gbaudio_card_probe(struct platform_device *pdev)
{
	const struct gbaudio_card_info *info = dev_get_platdata(&pdev->dev);
	struct device *dev = &pdev->dev;
	struct snd_soc_dai_link *links;
	struct snd_soc_card *card;
	unsigned int i;

	if (!info || !info->num_dais || info->num_dais > GBAUDIO_MAX_DAIS)
		return -EINVAL;

	card = devm_kzalloc(dev, sizeof(*card), GFP_KERNEL);
	links = devm_kcalloc(dev, info->num_dais, sizeof(*links), GFP_KERNEL);
	if (!card || !links)
		return -ENOMEM;

	for (i = 0; i < info->num_dais; i++) {
		struct snd_soc_dai_link *link = &links[i];
		struct snd_soc_dai_link_component *dlc;

		/* cpu, codec, platform */
		dlc = devm_kcalloc(dev, 3, sizeof(*dlc), GFP_KERNEL);
		if (!dlc)
			return -ENOMEM;
		dlc[0].name = "snd-soc-dummy";
		dlc[0].dai_name = "snd-soc-dummy-dai";
		dlc[1].name = info->component_name;
		dlc[1].dai_name = info->dai_names[i];
		/* The component plays the DMA engine too */
		dlc[2].name = info->component_name;

		link->name = info->dai_names[i];
		link->stream_name = info->dai_names[i];
		link->cpus = &dlc[0];
		link->num_cpus = 1;
		link->codecs = &dlc[1];
		link->num_codecs = 1;
		link->platforms = &dlc[2];
		link->num_platforms = 1;
		/* Triggers send operations: they must be able to sleep */
		link->nonatomic = 1;
		link->playback_only = info->playback[i] && !info->capture[i];
		link->capture_only = info->capture[i] && !info->playback[i];
	}

	card->dev = dev;
	/* Open files hold the module whose callbacks their close runs */
	card->owner = info->owner;
	card->name = devm_kasprintf(dev, GFP_KERNEL, "GB Audio %u", info->intf_id);
	card->long_name = devm_kasprintf(dev, GFP_KERNEL,
					 "Greybus audio module at interface %u",
					 info->intf_id);
	card->driver_name = "gb-audio";
	if (!card->name || !card->long_name)
		return -ENOMEM;
	card->dai_link = links;
	card->num_links = info->num_dais;

	return devm_snd_soc_register_card(dev, card);
}

static struct platform_driver gbaudio_card_driver = {
	.driver		= {
		.name	= GBAUDIO_CARD_DRV,
	},
	.probe		= gbaudio_card_probe,
};

/**
 * gbaudio_card_add() - create the sound card of an audio module
 * @parent: the device the card's platform device goes under (the bundle)
 * @info: the codec component and DAIs the card links; copied
 *
 * Registers a platform device for the card driver of this module, which
 * binds at once and registers the ASoC card.
 *
 * Context: Process context; sleeps.
 * Return: the platform device, to be passed to gbaudio_card_remove(), or
 * an ERR_PTR(): -ENODEV if no card came up, or the error of registering
 * the platform device.
 */
struct platform_device *gbaudio_card_add(struct device *parent,
					 const struct gbaudio_card_info *info)
{
	struct platform_device_info pinfo = {
		.parent		= parent,
		.name		= GBAUDIO_CARD_DRV,
		.id		= PLATFORM_DEVID_AUTO,
		.data		= info,
		.size_data	= sizeof(*info),
	};
	struct platform_device *pdev;

	pdev = platform_device_register_full(&pinfo);
	if (IS_ERR(pdev))
		return pdev;

	/* Bound at once (the driver is ours and loaded): a card or nothing */
	if (!pdev->dev.driver) {
		dev_err(parent, "no sound card\n");
		platform_device_unregister(pdev);
		return ERR_PTR(-ENODEV);
	}

	return pdev;
}
EXPORT_SYMBOL_NS_GPL(gbaudio_card_add, GREYBUS);

/**
 * gbaudio_card_disconnect() - cut a sound card off from its users
 * @pdev: a platform device from gbaudio_card_add()
 *
 * Disconnects the ALSA card, so that it takes no new file and runs no
 * callback but those closing the files still open, and moves @pdev out
 * from under the bundle, which goes before the card.
 *
 * Context: Process context; sleeps.
 */
void gbaudio_card_disconnect(struct platform_device *pdev)
{
	struct snd_soc_card *card = platform_get_drvdata(pdev);
	int ret;

	snd_card_disconnect(card->snd_card);
	/* Out from under the bundle, which goes before the card */
	ret = device_move(&pdev->dev, NULL, DPM_ORDER_NONE);
	if (ret)
		dev_warn(&pdev->dev, "card stays under the bundle: %d\n", ret);
}
EXPORT_SYMBOL_NS_GPL(gbaudio_card_disconnect, GREYBUS);

/**
 * gbaudio_card_wait_closed() - wait until a disconnected card is unused
 * @pdev: a platform device given to gbaudio_card_disconnect()
 *
 * Returns once the card's last file is closed: ALSA's own wait, woken by
 * ALSA's close.  Then nothing in ALSA calls into the card's component.
 *
 * Context: Process context; sleeps as long as files are open.
 */
void gbaudio_card_wait_closed(struct platform_device *pdev)
{
	struct snd_soc_card *card = platform_get_drvdata(pdev);

	snd_card_disconnect_sync(card->snd_card);
}
EXPORT_SYMBOL_NS_GPL(gbaudio_card_wait_closed, GREYBUS);

/**
 * gbaudio_card_remove() - remove a sound card
 * @pdev: a platform device from gbaudio_card_add()
 *
 * Unregisters the card along with its platform device.  ASoC's card
 * removal waits until the card's last file is closed.
 *
 * Context: Process context; sleeps.
 */
void gbaudio_card_remove(struct platform_device *pdev)
{
	platform_device_unregister(pdev);
}
EXPORT_SYMBOL_NS_GPL(gbaudio_card_remove, GREYBUS);

module_platform_driver(gbaudio_card_driver);

MODULE_DESCRIPTION("Greybus audio sound card for guests without a SoC");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
