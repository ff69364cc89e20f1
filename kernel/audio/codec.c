// SPDX-License-Identifier: GPL-2.0
/*
 * gb-audio-codec: an ASoC component made from a module's topology.
 *
 *   - top-level controls become mixer controls (integer, boolean,
 *     enumerated) named "GB <interface id> <name>";
 *   - widgets become DAPM widgets named the same way; a mux's enumerated
 *     control and a switch's or mixer's on/off controls become DAPM
 *     kcontrols, so DAPM knows which paths are connected;
 *   - routes become DAPM routes, DAIs the component's DAIs.
 *
 * Every get and put is one or two Audio Management GET/SET_CONTROL
 * operations, inside one runtime-PM reference on the bundle, so that
 * userspace may touch a control while the bundle is suspended: the
 * bundle resumes for it, and suspends after its idle delay.  When the
 * resume fails, so does the access, and the reference is given back.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <sound/soc.h>
#include <sound/soc-dapm.h>

#include <greybus/greybus.h>

#include "audio.h"

#define GBAUDIO_CODEC_NAME	"gbaudio-codec"
#define GBAUDIO_CODEC_DEV	"gb-audio-codec"

static struct gbaudio_ctl *gbaudio_kctl(struct snd_kcontrol *kcontrol)
{
	return (struct gbaudio_ctl *)kcontrol->private_value;
}

static struct gbaudio_ctl *gbaudio_dapm_enum_ctl(struct snd_kcontrol *kcontrol)
{
	struct soc_enum *e = (struct soc_enum *)kcontrol->private_value;

	return container_of(e, struct gbaudio_ctl, e);
}

static struct gbaudio_ctl *gbaudio_dapm_mixer_ctl(struct snd_kcontrol *kcontrol)
{
	struct soc_mixer_control *mc =
		(struct soc_mixer_control *)kcontrol->private_value;

	return container_of(mc, struct gbaudio_ctl, mc);
}

/* The two wire operations; the caller holds the PM reference */
static int gbaudio_read(struct gbaudio_ctl *ctl, s32 *val)
{
	struct gbaudio_module *module = ctl->module;
	struct gb_audio_get_control_request req = {
		.control_id	= ctl->id,
		.index		= GB_AUDIO_INVALID_INDEX,
	};
	struct gb_audio_get_control_response rsp;
	unsigned int i;
	int ret;

	ret = gb_operation_sync(module->mgmt, GB_AUDIO_TYPE_GET_CONTROL,
				&req, sizeof(req), &rsp, sizeof(rsp));
	if (ret) {
		dev_err_ratelimited(&module->bundle->dev, "%s: get failed: %d\n",
				    ctl->name, ret);
		return ret;
	}

	for (i = 0; i < ctl->count_values; i++) {
		/* integer_value and enumerated_item share their bytes */
		val[i] = (s32)le32_to_cpu(rsp.value.value.integer_value[i]);
		if (val[i] < ctl->min || val[i] > ctl->max) {
			dev_err_ratelimited(&module->bundle->dev,
					    "%s: module answered %d, outside %d..%d\n",
					    ctl->name, val[i], ctl->min, ctl->max);
			return -EPROTO;
		}
	}

	return 0;
}

static int gbaudio_write(struct gbaudio_ctl *ctl, const s32 *val)
{
	struct gbaudio_module *module = ctl->module;
	struct gb_audio_set_control_request req = {
		.control_id	= ctl->id,
		.index		= GB_AUDIO_INVALID_INDEX,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < ctl->count_values; i++)
		req.value.value.integer_value[i] = cpu_to_le32((u32)val[i]);

	ret = gb_operation_sync(module->mgmt, GB_AUDIO_TYPE_SET_CONTROL,
				&req, sizeof(req), NULL, 0);
	if (ret)
		dev_err_ratelimited(&module->bundle->dev, "%s: set failed: %d\n",
				    ctl->name, ret);

	return ret;
}

static int gbaudio_get(struct gbaudio_ctl *ctl, s32 *val)
{
	struct gb_bundle *bundle = ctl->module->bundle;
	int ret;

	ret = gbaudio_io_begin(ctl->module);
	if (ret)
		return ret;
	ret = gb_pm_runtime_get_sync(bundle);
	if (ret)
		goto out_end;
	ret = gbaudio_read(ctl, val);
	gb_pm_runtime_put_autosuspend(bundle);
out_end:
	gbaudio_io_end(ctl->module);

	return ret;
}

/* Returns 1 if the value changed, 0 if not, or -errno */
static int gbaudio_put(struct gbaudio_ctl *ctl, const s32 *val)
{
	struct gb_bundle *bundle = ctl->module->bundle;
	s32 old[2] = { 0, 0 };
	unsigned int i;
	int ret;

	for (i = 0; i < ctl->count_values; i++) {
		if (val[i] < ctl->min || val[i] > ctl->max)
			return -EINVAL;
	}

	ret = gbaudio_io_begin(ctl->module);
	if (ret)
		return ret;
	ret = gb_pm_runtime_get_sync(bundle);
	if (ret)
		goto out_end;
	ret = gbaudio_read(ctl, old);
	if (ret)
		goto out_put;
	if (!memcmp(old, val, ctl->count_values * sizeof(*val)))
		goto out_put;	/* ret is 0: no change */
	ret = gbaudio_write(ctl, val);
	if (!ret)
		ret = 1;
out_put:
	gb_pm_runtime_put_autosuspend(bundle);
out_end:
	gbaudio_io_end(ctl->module);

	return ret;
}

/* Top-level controls */

static int gbaudio_ctl_info(struct snd_kcontrol *kcontrol,
			    struct snd_ctl_elem_info *uinfo)
{
	struct gbaudio_ctl *ctl = gbaudio_kctl(kcontrol);

	if (ctl->type == GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED)
		return snd_ctl_enum_info(uinfo, ctl->count_values, ctl->items,
					 ctl->texts);

	uinfo->type = ctl->type == GB_AUDIO_CTL_ELEM_TYPE_BOOLEAN ?
		      SNDRV_CTL_ELEM_TYPE_BOOLEAN : SNDRV_CTL_ELEM_TYPE_INTEGER;
	uinfo->count = ctl->count_values;
	uinfo->value.integer.min = ctl->min;
	uinfo->value.integer.max = ctl->max;

	return 0;
}

static int gbaudio_ctl_get(struct snd_kcontrol *kcontrol,
			   struct snd_ctl_elem_value *ucontrol)
{
	struct gbaudio_ctl *ctl = gbaudio_kctl(kcontrol);
	s32 val[2];
	unsigned int i;
	int ret;

	ret = gbaudio_get(ctl, val);
	if (ret)
		return ret;

	for (i = 0; i < ctl->count_values; i++) {
		if (ctl->type == GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED)
			ucontrol->value.enumerated.item[i] = val[i];
		else
			ucontrol->value.integer.value[i] = val[i];
	}

	return 0;
}

static int gbaudio_ctl_put(struct snd_kcontrol *kcontrol,
			   struct snd_ctl_elem_value *ucontrol)
{
	struct gbaudio_ctl *ctl = gbaudio_kctl(kcontrol);
	s32 val[2] = { 0, 0 };
	unsigned int i;

	for (i = 0; i < ctl->count_values; i++) {
		if (ctl->type == GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED) {
			if (ucontrol->value.enumerated.item[i] >= ctl->items)
				return -EINVAL;
			val[i] = ucontrol->value.enumerated.item[i];
		} else {
			if (ucontrol->value.integer.value[i] < ctl->min ||
			    ucontrol->value.integer.value[i] > ctl->max)
				return -EINVAL;
			val[i] = ucontrol->value.integer.value[i];
		}
	}

	return gbaudio_put(ctl, val);
}

/* DAPM controls: the value goes to the module, then DAPM re-routes */

static int gbaudio_dapm_enum_get(struct snd_kcontrol *kcontrol,
				 struct snd_ctl_elem_value *ucontrol)
{
	struct gbaudio_ctl *ctl = gbaudio_dapm_enum_ctl(kcontrol);
	s32 val;
	int ret;

	ret = gbaudio_get(ctl, &val);
	if (ret)
		return ret;
	ucontrol->value.enumerated.item[0] = val;

	return 0;
}

static int gbaudio_dapm_enum_put(struct snd_kcontrol *kcontrol,
				 struct snd_ctl_elem_value *ucontrol)
{
	struct snd_soc_dapm_context *dapm = snd_soc_dapm_kcontrol_dapm(kcontrol);
	struct gbaudio_ctl *ctl = gbaudio_dapm_enum_ctl(kcontrol);
	unsigned int item = ucontrol->value.enumerated.item[0];
	s32 val = item;
	int ret;

	if (item >= ctl->items)
		return -EINVAL;

	ret = gbaudio_put(ctl, &val);
	if (ret <= 0)
		return ret;
	snd_soc_dapm_mux_update_power(dapm, kcontrol, item, &ctl->e, NULL);

	return 1;
}

static int gbaudio_dapm_switch_get(struct snd_kcontrol *kcontrol,
				   struct snd_ctl_elem_value *ucontrol)
{
	struct gbaudio_ctl *ctl = gbaudio_dapm_mixer_ctl(kcontrol);
	s32 val;
	int ret;

	ret = gbaudio_get(ctl, &val);
	if (ret)
		return ret;
	ucontrol->value.integer.value[0] = val;

	return 0;
}

static int gbaudio_dapm_switch_put(struct snd_kcontrol *kcontrol,
				   struct snd_ctl_elem_value *ucontrol)
{
	struct snd_soc_dapm_context *dapm = snd_soc_dapm_kcontrol_dapm(kcontrol);
	struct gbaudio_ctl *ctl = gbaudio_dapm_mixer_ctl(kcontrol);
	long v = ucontrol->value.integer.value[0];
	s32 val = v;
	int ret;

	if (v < 0 || v > 1)
		return -EINVAL;

	ret = gbaudio_put(ctl, &val);
	if (ret <= 0)
		return ret;
	snd_soc_dapm_mixer_update_power(dapm, kcontrol, val, NULL);

	return 1;
}

static void gbaudio_build_ctl(struct snd_kcontrol_new *kc, struct gbaudio_ctl *ctl)
{
	kc->iface = SNDRV_CTL_ELEM_IFACE_MIXER;
	kc->name = ctl->name;
	kc->access = SNDRV_CTL_ELEM_ACCESS_READWRITE;
	kc->info = gbaudio_ctl_info;
	kc->get = gbaudio_ctl_get;
	kc->put = gbaudio_ctl_put;
	kc->private_value = (unsigned long)ctl;
}

static void gbaudio_build_dapm_ctl(struct snd_kcontrol_new *kc,
				   struct gbaudio_ctl *ctl)
{
	kc->iface = SNDRV_CTL_ELEM_IFACE_MIXER;
	kc->name = ctl->name;
	kc->access = SNDRV_CTL_ELEM_ACCESS_READWRITE;
	if (ctl->type == GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED) {
		ctl->e.reg = SND_SOC_NOPM;
		ctl->e.items = ctl->items;
		ctl->e.mask = roundup_pow_of_two(ctl->items) - 1;
		ctl->e.texts = ctl->texts;
		kc->info = snd_soc_info_enum_double;
		kc->get = gbaudio_dapm_enum_get;
		kc->put = gbaudio_dapm_enum_put;
		kc->private_value = (unsigned long)&ctl->e;
	} else {
		ctl->mc.reg = SND_SOC_NOPM;
		ctl->mc.rreg = SND_SOC_NOPM;
		ctl->mc.max = 1;
		ctl->mc.platform_max = 1;
		kc->info = snd_soc_info_volsw;
		kc->get = gbaudio_dapm_switch_get;
		kc->put = gbaudio_dapm_switch_put;
		kc->private_value = (unsigned long)&ctl->mc;
	}
}

static const enum snd_soc_dapm_type gbaudio_widget_types[] = {
	[GB_AUDIO_WIDGET_TYPE_INPUT]	= snd_soc_dapm_input,
	[GB_AUDIO_WIDGET_TYPE_OUTPUT]	= snd_soc_dapm_output,
	[GB_AUDIO_WIDGET_TYPE_MUX]	= snd_soc_dapm_mux,
	[GB_AUDIO_WIDGET_TYPE_MIXER]	= snd_soc_dapm_mixer,
	[GB_AUDIO_WIDGET_TYPE_PGA]	= snd_soc_dapm_pga,
	[GB_AUDIO_WIDGET_TYPE_ADC]	= snd_soc_dapm_adc,
	[GB_AUDIO_WIDGET_TYPE_DAC]	= snd_soc_dapm_dac,
	[GB_AUDIO_WIDGET_TYPE_MIC]	= snd_soc_dapm_mic,
	[GB_AUDIO_WIDGET_TYPE_HP]	= snd_soc_dapm_hp,
	[GB_AUDIO_WIDGET_TYPE_SPK]	= snd_soc_dapm_spk,
	[GB_AUDIO_WIDGET_TYPE_LINE]	= snd_soc_dapm_line,
	[GB_AUDIO_WIDGET_TYPE_SWITCH]	= snd_soc_dapm_switch,
	[GB_AUDIO_WIDGET_TYPE_AIF_IN]	= snd_soc_dapm_aif_in,
	[GB_AUDIO_WIDGET_TYPE_AIF_OUT]	= snd_soc_dapm_aif_out,
};

static void gbaudio_build_pcm(struct snd_soc_pcm_stream *s,
			      const struct gbaudio_pcm *pcm)
{
	if (!pcm->chan_max)
		return;
	s->stream_name = pcm->stream_name;
	s->channels_min = pcm->chan_min;
	s->channels_max = pcm->chan_max;
	/* The wire's bits are ALSA's */
	s->rates = pcm->rates & SNDRV_PCM_RATE_8000_192000;
	s->formats = pcm->formats & 0x3fff;
	s->sig_bits = pcm->sig_bits;
}

/* A copy of this: the component keeps a pointer to it */
static int gbaudio_codec_drv(struct gbaudio_codec *codec, struct gbaudio_tplg *t)
{
	const struct snd_soc_component_driver drv = {
		.name			= GBAUDIO_CODEC_NAME,
		.controls		= codec->controls,
		.num_controls		= t->num_ctls,
		.dapm_widgets		= codec->widgets,
		.num_dapm_widgets	= t->num_widgets,
		.dapm_routes		= codec->routes,
		.num_dapm_routes	= t->num_routes,
		.open			= gbaudio_pcm_open,
		.close			= gbaudio_pcm_close,
		.sync_stop		= gbaudio_pcm_sync_stop,
		.hw_params		= gbaudio_pcm_hw_params,
		.prepare		= gbaudio_pcm_prepare,
		.trigger		= gbaudio_pcm_trigger,
		.pointer		= gbaudio_pcm_pointer,
		.pcm_construct		= gbaudio_pcm_construct,
	};

	codec->drv = kmemdup(&drv, sizeof(drv), GFP_KERNEL);

	return codec->drv ? 0 : -ENOMEM;
}

static int gbaudio_codec_build(struct gbaudio_codec *codec,
			       struct gbaudio_tplg *t)
{
	struct snd_kcontrol_new *wkc;
	unsigned int i;

	codec->controls = kcalloc(max(t->num_ctls, 1U), sizeof(*codec->controls),
				  GFP_KERNEL);
	codec->wcontrols = kcalloc(max(t->num_wctls, 1U),
				   sizeof(*codec->wcontrols), GFP_KERNEL);
	codec->widgets = kcalloc(max(t->num_widgets, 1U),
				 sizeof(*codec->widgets), GFP_KERNEL);
	codec->routes = kcalloc(max(t->num_routes, 1U), sizeof(*codec->routes),
				GFP_KERNEL);
	codec->dai_drvs = kcalloc(t->num_dais, sizeof(*codec->dai_drvs),
				  GFP_KERNEL);
	if (!codec->controls || !codec->wcontrols || !codec->widgets ||
	    !codec->routes || !codec->dai_drvs)
		return -ENOMEM;

	for (i = 0; i < t->num_ctls; i++)
		gbaudio_build_ctl(&codec->controls[i], &t->ctls[i]);

	wkc = codec->wcontrols;
	for (i = 0; i < t->num_widgets; i++) {
		struct gbaudio_widget *gw = &t->widgets[i];
		struct snd_soc_dapm_widget *w = &codec->widgets[i];
		unsigned int c;

		w->id = gbaudio_widget_types[gw->type];
		w->name = gw->name;
		w->sname = gw->sname[0] ? gw->sname : NULL;
		w->reg = SND_SOC_NOPM;
		w->num_kcontrols = gw->num_ctls;
		if (gw->num_ctls)
			w->kcontrol_news = wkc;
		for (c = 0; c < gw->num_ctls; c++)
			gbaudio_build_dapm_ctl(wkc++, &gw->ctls[c]);
	}

	for (i = 0; i < t->num_routes; i++) {
		codec->routes[i].source = t->routes[i].source->name;
		codec->routes[i].sink = t->routes[i].sink->name;
		codec->routes[i].control = t->routes[i].control;
	}

	for (i = 0; i < t->num_dais; i++) {
		struct snd_soc_dai_driver *d = &codec->dai_drvs[i];

		d->name = t->dais[i].name;
		d->id = i;
		gbaudio_build_pcm(&d->playback, &t->dais[i].playback);
		gbaudio_build_pcm(&d->capture, &t->dais[i].capture);
	}

	return gbaudio_codec_drv(codec, t);
}

static void gbaudio_codec_free(struct gbaudio_codec *codec)
{
	kfree(codec->component_name);
	kfree(codec->drv);
	kfree(codec->dai_drvs);
	kfree(codec->routes);
	kfree(codec->widgets);
	kfree(codec->wcontrols);
	kfree(codec->controls);
	kfree(codec);
}

/**
 * gbaudio_codec_add() - register the ASoC codec of an audio module
 * @module: the module, with its topology (@module->tplg) parsed
 *
 * Builds the component driver, its DAIs and controls from the topology
 * and registers it on the bundle's device; @module->codec holds it
 * until gbaudio_codec_remove().
 *
 * Context: Process context; sleeps.
 * Return: 0, -ENOMEM, or the error of building the codec or of
 * registering the component.
 */
int gbaudio_codec_add(struct gbaudio_module *module)
{
	struct platform_device_info pinfo = {
		.parent		= &module->bundle->dev,
		.name		= GBAUDIO_CODEC_DEV,
		.id		= PLATFORM_DEVID_AUTO,
	};
	struct snd_soc_component *component;
	struct gbaudio_codec *codec;
	struct device *dev;
	int ret;

	codec = kzalloc(sizeof(*codec), GFP_KERNEL);
	if (!codec)
		return -ENOMEM;

	ret = gbaudio_codec_build(codec, module->tplg);
	if (ret)
		goto err_free;

	/*
	 * ASoC allocates the component and its DAIs with devres on the
	 * device it is registered on: a device of our own, which stays
	 * until the card's files are closed, unlike the bundle.
	 */
	codec->pdev = platform_device_register_full(&pinfo);
	if (IS_ERR(codec->pdev)) {
		ret = PTR_ERR(codec->pdev);
		codec->pdev = NULL;
		goto err_free;
	}
	dev = &codec->pdev->dev;
	if (!dev->driver) {
		ret = -ENODEV;
		goto err_unregister_dev;
	}
	/* What the component's callbacks find with snd_soc_component_get_drvdata() */
	dev_set_drvdata(dev, module);

	ret = snd_soc_register_component(dev, codec->drv, codec->dai_drvs,
					 module->tplg->num_dais);
	if (ret) {
		dev_err(dev, "failed to register the codec: %d\n", ret);
		goto err_unregister_dev;
	}

	/* The card finds the component by the name ASoC gave it */
	component = snd_soc_lookup_component(dev, GBAUDIO_CODEC_NAME);
	codec->component_name = component ? kstrdup(component->name, GFP_KERNEL) :
					    NULL;
	if (!codec->component_name) {
		ret = -ENOMEM;
		goto err_unregister;
	}
	module->codec = codec;

	return 0;

err_unregister:
	snd_soc_unregister_component(dev);
err_unregister_dev:
	platform_device_unregister(codec->pdev);
err_free:
	gbaudio_codec_free(codec);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(gbaudio_codec_add, GREYBUS);

/* ASoC names a component after its device's driver: this one binds them */
static int gbaudio_codec_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver gbaudio_codec_driver = {
	.driver		= {
		.name			= GBAUDIO_CODEC_DEV,
		.suppress_bind_attrs	= true,
	},
	.probe		= gbaudio_codec_probe,
};
module_platform_driver(gbaudio_codec_driver);

/**
 * gbaudio_codec_disconnect() - detach a module's codec from its bundle
 * @module: a module whose codec gbaudio_codec_add() registered
 *
 * Moves the component's platform device out from under the bundle, which
 * goes first; the component itself stays until gbaudio_codec_remove().
 *
 * Context: Process context; sleeps.
 */
void gbaudio_codec_disconnect(struct gbaudio_module *module)
{
	struct device *dev = &module->codec->pdev->dev;
	int ret;

	ret = device_move(dev, NULL, DPM_ORDER_NONE);
	if (ret)
		dev_warn(dev, "codec stays under the bundle: %d\n", ret);
}
EXPORT_SYMBOL_NS_GPL(gbaudio_codec_disconnect, GREYBUS);

/**
 * gbaudio_codec_remove() - unregister the ASoC codec of an audio module
 * @module: a module whose codec gbaudio_codec_add() registered
 *
 * Unregisters the component and its platform device, and frees
 * @module->codec.
 *
 * Context: Process context; sleeps.
 */
void gbaudio_codec_remove(struct gbaudio_module *module)
{
	snd_soc_unregister_component(&module->codec->pdev->dev);
	platform_device_unregister(module->codec->pdev);
	gbaudio_codec_free(module->codec);
	module->codec = NULL;
}
EXPORT_SYMBOL_NS_GPL(gbaudio_codec_remove, GREYBUS);

MODULE_DESCRIPTION("Greybus audio codec: ASoC controls, widgets and routes from a topology");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
