/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus audio: what the four audio modules share.
 *
 * gb-audio-module binds the bundle, fetches and checks the topology
 * (topology.c) into the structures below, then asks gb-audio-codec for an
 * ASoC component built from it, gb-audio-card for a sound card around
 * that component, and gb-audio-manager to list the module.
 */
#ifndef __GB_AUDIO_H
#define __GB_AUDIO_H

#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <sound/soc.h>

#include <uapi/greybus/audio.h>

struct gb_bundle;
struct gb_connection;
struct platform_device;

/* Room for "GB 255 " and a name of the wire's 32 bytes */
#define GBAUDIO_NAME_MAX		48

#define GBAUDIO_MAX_DAIS		4
#define GBAUDIO_MAX_ENUM_ITEMS		64
#define GBAUDIO_MAX_WIDGET_CONTROLS	8

struct gbaudio_module;
struct gbaudio_stream;
struct gb_operation;

/* One control, top-level or a widget's */
struct gbaudio_ctl {
	/* DAPM finds these through the kcontrol's private_value */
	struct soc_enum		e;
	struct soc_mixer_control mc;

	struct gbaudio_module	*module;
	char			name[GBAUDIO_NAME_MAX];
	u8			id;
	u8			type;		/* GB_AUDIO_CTL_ELEM_TYPE_* */
	u8			count_values;	/* 1 or 2 */
	s32			min, max;
	u32			items;		/* enumerated */
	const char		**texts;	/* into @names */
	char			*names;
	bool			is_dapm;	/* belongs to a widget */
};

struct gbaudio_widget {
	char			name[GBAUDIO_NAME_MAX];	/* prefixed */
	char			sname[GBAUDIO_NAME_MAX];
	u8			id;
	u8			type;		/* GB_AUDIO_WIDGET_TYPE_* */
	unsigned int		num_ctls;
	struct gbaudio_ctl	*ctls;		/* into tplg->wctls */
};

struct gbaudio_route {
	struct gbaudio_widget	*source;
	struct gbaudio_widget	*sink;
	const char		*control;	/* NULL: always connected */
};

struct gbaudio_pcm {
	char			stream_name[GBAUDIO_NAME_MAX];
	u32			formats;	/* GB_AUDIO_PCM_FMT_* */
	u32			rates;		/* GB_AUDIO_PCM_RATE_* */
	u8			chan_min, chan_max;
	u8			sig_bits;
};

struct gbaudio_dai {
	char			name[GBAUDIO_NAME_MAX];
	u16			data_cport;	/* module side */
	struct gbaudio_pcm	playback, capture;
};

/* A checked topology; everything in it is owned by it */
struct gbaudio_tplg {
	unsigned int		num_dais, num_ctls, num_widgets, num_routes;
	unsigned int		num_wctls;
	struct gbaudio_dai	*dais;
	struct gbaudio_ctl	*ctls;		/* top-level */
	struct gbaudio_ctl	*wctls;		/* the widgets' */
	struct gbaudio_widget	*widgets;
	struct gbaudio_route	*routes;
	u32			jack_type;
};

/* The ASoC side of a module (gb-audio-codec) */
struct gbaudio_codec {
	const struct snd_soc_component_driver *drv;
	struct snd_soc_dai_driver *dai_drvs;
	struct snd_kcontrol_new	*controls;
	struct snd_kcontrol_new	*wcontrols;
	struct snd_soc_dapm_widget *widgets;
	struct snd_soc_dapm_route *routes;
	const char		*component_name;
	struct platform_device	*pdev;		/* the component's device */
};

struct gbaudio_module {
	struct gb_bundle	*bundle;
	struct gb_connection	*mgmt;
	struct gb_connection	*data;
	u8			intf_id;	/* the "GB N" of the names */
	struct gbaudio_tplg	*tplg;
	struct gbaudio_codec	*codec;
	struct platform_device	*card;
	int			manager_id;

	struct mutex		capture_lock;	/* guards @capture (pcm.c) */
	struct gbaudio_stream	*capture;	/* the open capture stream */

	/*
	 * Disconnect sets @gone under @io_lock (write); whatever sends on
	 * the connections from ALSA's side does it between
	 * gbaudio_io_begin() and gbaudio_io_end(), so none is under way
	 * once the connections go.
	 */
	struct rw_semaphore	io_lock;
	bool			gone;
	/* After disconnect: frees all once the card's last file is closed */
	struct work_struct	release_work;
};

/* 0, or -ENODEV once the module is gone; then nothing may be sent */
static inline int gbaudio_io_begin(struct gbaudio_module *module)
{
	down_read(&module->io_lock);
	if (module->gone) {
		up_read(&module->io_lock);
		return -ENODEV;
	}

	return 0;
}

static inline void gbaudio_io_end(struct gbaudio_module *module)
{
	up_read(&module->io_lock);
}

/* topology.c (gb-audio-module) */
struct gbaudio_tplg *gbaudio_tplg_parse(struct gbaudio_module *module,
					const void *blob, size_t size);
void gbaudio_tplg_free(struct gbaudio_tplg *tplg);

/* gb-audio-codec */
int gbaudio_codec_add(struct gbaudio_module *module);
void gbaudio_codec_disconnect(struct gbaudio_module *module);
void gbaudio_codec_remove(struct gbaudio_module *module);

/* pcm.c (gb-audio-codec): the component's PCM callbacks */
int gbaudio_pcm_open(struct snd_soc_component *component,
		     struct snd_pcm_substream *substream);
int gbaudio_pcm_close(struct snd_soc_component *component,
		      struct snd_pcm_substream *substream);
int gbaudio_pcm_sync_stop(struct snd_soc_component *component,
			  struct snd_pcm_substream *substream);
int gbaudio_pcm_hw_params(struct snd_soc_component *component,
			  struct snd_pcm_substream *substream,
			  struct snd_pcm_hw_params *params);
int gbaudio_pcm_prepare(struct snd_soc_component *component,
			struct snd_pcm_substream *substream);
int gbaudio_pcm_trigger(struct snd_soc_component *component,
			struct snd_pcm_substream *substream, int cmd);
snd_pcm_uframes_t gbaudio_pcm_pointer(struct snd_soc_component *component,
				      struct snd_pcm_substream *substream);
int gbaudio_pcm_construct(struct snd_soc_component *component,
			  struct snd_soc_pcm_runtime *rtd);
int gbaudio_pcm_receive(struct gbaudio_module *module, struct gb_operation *op);

/* gb-audio-card: a sound card with one link per DAI of the component */
struct gbaudio_card_info {
	const char		*component_name;
	unsigned int		num_dais;
	const char		*dai_names[GBAUDIO_MAX_DAIS];
	bool			playback[GBAUDIO_MAX_DAIS];
	bool			capture[GBAUDIO_MAX_DAIS];
	u8			intf_id;
	struct module		*owner;		/* held by the card's open files */
};

struct platform_device *gbaudio_card_add(struct device *parent,
					 const struct gbaudio_card_info *info);
void gbaudio_card_disconnect(struct platform_device *pdev);
void gbaudio_card_wait_closed(struct platform_device *pdev);
void gbaudio_card_remove(struct platform_device *pdev);

/* gb-audio-manager */
struct gb_audio_manager_desc {
	char			name[GBAUDIO_NAME_MAX];
	char			bundle[GBAUDIO_NAME_MAX];	/* device name */
	unsigned int		vid, pid;
	unsigned int		intf_id;
	unsigned int		num_dais, num_controls, num_widgets;
};

int gb_audio_manager_add(const struct gb_audio_manager_desc *desc);
void gb_audio_manager_remove(int id);

#endif /* __GB_AUDIO_H */
