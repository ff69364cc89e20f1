// SPDX-License-Identifier: GPL-2.0
/*
 * Playback and capture over Audio Data: the component is also the card's
 * platform.
 * The buffer is plain memory; a work item plays the part of the DMA
 * engine, sending one period every period time as SEND_DATA requests
 * (unidirectional, at most the connection's payload each) on the data
 * connection, then telling ALSA the period has elapsed.  Around the
 * stream: SET_PCM and SET_TX_DATA_SIZE in hw_params, ACTIVATE_TX and
 * DEACTIVATE_TX on start and stop (the link is nonatomic, so triggers
 * may sleep).  Those two are sent without giving up on a signal: the stop
 * of a process killed mid-stream comes from the release of its file, with
 * SIGKILL pending, and must still reach the module, as must a start that
 * the module may already have acted on.  An open stream holds a
 * runtime-PM reference on the bundle.
 *
 * Capture: between ACTIVATE_RX and DEACTIVATE_RX the module sends
 * SEND_DATA requests; gb-audio-module's handler hands them to
 * gbaudio_pcm_receive(), which copies them into the buffer and reports
 * each period filled.  module->capture_lock keeps the stream from going
 * while a message is copied (close takes it; the trigger, which may run
 * inside snd_pcm_period_elapsed(), does not).
 *
 * Stopping: the trigger only clears @running, as it may be called from
 * the work itself (a period elapsed at the end of a drain, an xrun) or
 * from gbaudio_pcm_receive() under capture_lock, so it can wait for
 * neither.  ALSA calls sync_stop after a stop and before anything that
 * changes or frees the buffer (hw_params, prepare, hw_free, so also
 * close, and card disconnection), without the stream lock: there the
 * work is cancelled and waited for, and capture_lock is taken once, so
 * that a message being copied is done and later ones see @running
 * false.  After sync_stop nothing touches the buffer.
 *
 * Lock order: capture_lock, then the stream lock (the receive path
 * reports periods under capture_lock), then io_lock (the trigger sends
 * under the stream lock).  Open therefore takes capture_lock only after
 * leaving io_lock.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <sound/pcm.h>
#include <sound/pcm_params.h>
#include <sound/soc.h>

#include <greybus/compat.h>
#include <greybus/greybus.h>

#include "audio.h"

struct gbaudio_stream {
	struct gbaudio_module	*module;
	struct snd_pcm_substream *substream;
	struct delayed_work	work;
	u16			data_cport;
	bool			running;	/* READ/WRITE_ONCE */
	bool			capture;
	size_t			period_bytes, buffer_bytes, pos;
	size_t			filled;		/* capture: since the last period */
	unsigned long		period_jiffies, next;
	struct gb_audio_send_data_request *msg;	/* one, reused */
	size_t			chunk;		/* its most sample bytes */
};

static const struct snd_pcm_hardware gbaudio_pcm_hw = {
	.info			= SNDRV_PCM_INFO_INTERLEAVED |
				  SNDRV_PCM_INFO_BLOCK_TRANSFER |
				  SNDRV_PCM_INFO_MMAP | SNDRV_PCM_INFO_MMAP_VALID,
	.buffer_bytes_max	= 128 * 1024,
	.period_bytes_min	= 256,
	.period_bytes_max	= 32 * 1024,
	.periods_min		= 2,
	.periods_max		= 64,
};

static struct gbaudio_dai *gbaudio_stream_dai(struct snd_pcm_substream *substream,
					      struct gbaudio_module *module)
{
	struct snd_soc_pcm_runtime *rtd = snd_soc_substream_to_rtd(substream);
	struct snd_soc_dai *dai = snd_soc_rtd_to_codec(rtd, 0);

	return &module->tplg->dais[dai->driver->id];
}

static void gbaudio_pcm_work(struct work_struct *work)
{
	struct gbaudio_stream *s = container_of(to_delayed_work(work),
						struct gbaudio_stream, work);
	struct snd_pcm_runtime *runtime = s->substream->runtime;
	struct gb_audio_send_data_request *req = s->msg;
	size_t off, n;
	long delay;
	int ret;

	if (!READ_ONCE(s->running) || gbaudio_io_begin(s->module))
		return;

	for (off = 0; off < s->period_bytes; off += n) {
		n = min(s->chunk, s->period_bytes - off);
		req->timestamp = cpu_to_le64(ktime_get_ns());
		memcpy(req->data, runtime->dma_area + s->pos + off, n);
		ret = gb_operation_unidirectional(s->module->data,
						  GB_AUDIO_TYPE_SEND_DATA, req,
						  sizeof(*req) + n);
		if (ret) {
			gbaudio_io_end(s->module);
			dev_err_ratelimited(&s->module->bundle->dev,
					    "failed to send audio data: %d\n", ret);
			snd_pcm_stop_xrun(s->substream);
			return;
		}
	}
	/* Not across the period: it may call the trigger, which takes it */
	gbaudio_io_end(s->module);
	s->pos = (s->pos + s->period_bytes) % s->buffer_bytes;
	snd_pcm_period_elapsed(s->substream);

	if (!READ_ONCE(s->running))
		return;
	s->next += s->period_jiffies;
	delay = (long)(s->next - jiffies);
	queue_delayed_work(system_wq, &s->work, delay > 0 ? delay : 0);
}

int gbaudio_pcm_open(struct snd_soc_component *component,
		     struct snd_pcm_substream *substream)
{
	struct gbaudio_module *module = snd_soc_component_get_drvdata(component);
	struct snd_pcm_runtime *runtime = substream->runtime;
	struct gbaudio_dai *dai = gbaudio_stream_dai(substream, module);
	struct gbaudio_stream *s;
	size_t max;
	int ret;

	struct gbaudio_pcm *pcm;

	ret = gbaudio_io_begin(module);
	if (ret)
		return ret;
	max = gb_operation_get_payload_size_max(module->data);
	if (max <= sizeof(struct gb_audio_send_data_request)) {
		ret = -EMSGSIZE;
		goto err_end;
	}

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		ret = -ENOMEM;
		goto err_end;
	}
	s->module = module;
	s->substream = substream;
	s->data_cport = dai->data_cport;
	s->capture = substream->stream == SNDRV_PCM_STREAM_CAPTURE;
	pcm = s->capture ? &dai->capture : &dai->playback;
	/* Whole frames of 16-bit stereo in each message */
	s->chunk = rounddown(max - sizeof(struct gb_audio_send_data_request), 4);
	s->msg = kzalloc(sizeof(*s->msg) + s->chunk, GFP_KERNEL);
	if (!s->msg) {
		ret = -ENOMEM;
		goto err_free;
	}
	INIT_DELAYED_WORK(&s->work, gbaudio_pcm_work);

	ret = gb_pm_runtime_get_sync(module->bundle);
	if (ret)
		goto err_free;

	runtime->hw = gbaudio_pcm_hw;
	runtime->hw.formats = SNDRV_PCM_FMTBIT_S16_LE;
	runtime->hw.rates = pcm->rates & SNDRV_PCM_RATE_8000_192000;
	snd_pcm_limit_hw_rates(runtime);
	runtime->hw.channels_min = pcm->chan_min;
	runtime->hw.channels_max = pcm->chan_max;
	ret = snd_pcm_hw_constraint_integer(runtime, SNDRV_PCM_HW_PARAM_PERIODS);
	if (ret < 0)
		goto err_put;

	gbaudio_io_end(module);

	/*
	 * Not under io_lock: gbaudio_pcm_receive() holds capture_lock across
	 * snd_pcm_period_elapsed(), which takes the stream lock, under which
	 * the trigger takes io_lock.
	 */
	if (s->capture) {
		ret = 0;
		mutex_lock(&module->capture_lock);
		if (module->capture)
			ret = -EBUSY;
		else
			module->capture = s;
		mutex_unlock(&module->capture_lock);
		if (ret) {
			gb_pm_runtime_put_autosuspend(module->bundle);
			kfree(s->msg);
			kfree(s);
			return ret;
		}
	}
	runtime->private_data = s;

	return 0;

err_put:
	gb_pm_runtime_put_autosuspend(module->bundle);
err_free:
	kfree(s->msg);
	kfree(s);
err_end:
	gbaudio_io_end(module);
	return ret;
}

int gbaudio_pcm_close(struct snd_soc_component *component,
		      struct snd_pcm_substream *substream)
{
	struct gbaudio_stream *s = substream->runtime->private_data;

	WRITE_ONCE(s->running, false);
	cancel_delayed_work_sync(&s->work);
	if (s->capture) {
		mutex_lock(&s->module->capture_lock);
		s->module->capture = NULL;
		mutex_unlock(&s->module->capture_lock);
	}
	gb_pm_runtime_put_autosuspend(s->module->bundle);
	kfree(s->msg);
	kfree(s);

	return 0;
}

int gbaudio_pcm_sync_stop(struct snd_soc_component *component,
			  struct snd_pcm_substream *substream)
{
	struct gbaudio_stream *s = substream->runtime->private_data;

	/* Stopped (@running is false): the work does not queue itself again */
	cancel_delayed_work_sync(&s->work);
	if (s->capture) {
		mutex_lock(&s->module->capture_lock);
		mutex_unlock(&s->module->capture_lock);
	}

	return 0;
}

int gbaudio_pcm_hw_params(struct snd_soc_component *component,
			  struct snd_pcm_substream *substream,
			  struct snd_pcm_hw_params *params)
{
	struct gbaudio_stream *s = substream->runtime->private_data;
	struct gb_audio_set_pcm_request pcm = {
		.data_cport	= cpu_to_le16(s->data_cport),
		.format		= cpu_to_le32(GB_AUDIO_PCM_FMT_S16_LE),
		.rate		= cpu_to_le32(params_rate(params)),
		.channels	= params_channels(params),
		.sig_bits	= 16,
	};
	struct gb_audio_set_data_size_request size = {
		.data_cport	= cpu_to_le16(s->data_cport),
		.size		= cpu_to_le16(s->chunk),
	};
	int ret;

	ret = gbaudio_io_begin(s->module);
	if (ret)
		return ret;
	ret = gb_operation_sync(s->module->mgmt, GB_AUDIO_TYPE_SET_PCM, &pcm,
				sizeof(pcm), NULL, 0);
	if (!ret)
		ret = gb_operation_sync(s->module->mgmt, s->capture ?
					GB_AUDIO_TYPE_SET_RX_DATA_SIZE :
					GB_AUDIO_TYPE_SET_TX_DATA_SIZE,
					&size, sizeof(size), NULL, 0);
	gbaudio_io_end(s->module);
	if (ret) {
		dev_err_ratelimited(&s->module->bundle->dev,
				    "failed to set up the stream: %d\n", ret);
		return ret;
	}

	s->period_bytes = params_period_bytes(params);
	s->buffer_bytes = params_buffer_bytes(params);
	s->period_jiffies = max(1UL,
				usecs_to_jiffies(div_u64((u64)params_period_size(params) *
							 USEC_PER_SEC,
							 params_rate(params))));

	return 0;
}

int gbaudio_pcm_prepare(struct snd_soc_component *component,
			struct snd_pcm_substream *substream)
{
	struct gbaudio_stream *s = substream->runtime->private_data;

	s->pos = 0;
	s->filled = 0;

	return 0;
}

int gbaudio_pcm_trigger(struct snd_soc_component *component,
			struct snd_pcm_substream *substream, int cmd)
{
	struct gbaudio_stream *s = substream->runtime->private_data;
	struct gb_audio_data_cport_request req = {
		.data_cport	= cpu_to_le16(s->data_cport),
	};
	int ret;

	switch (cmd) {
	case SNDRV_PCM_TRIGGER_START:
	case SNDRV_PCM_TRIGGER_RESUME:
	case SNDRV_PCM_TRIGGER_PAUSE_RELEASE:
		ret = gbaudio_io_begin(s->module);
		if (ret)
			return ret;
		/* Before ACTIVATE_RX: the module's first data may come at once */
		WRITE_ONCE(s->running, true);
		ret = gb_operation_sync_no_intr(s->module->mgmt, s->capture ?
						GB_AUDIO_TYPE_ACTIVATE_RX :
						GB_AUDIO_TYPE_ACTIVATE_TX,
						&req, sizeof(req), NULL, 0);
		gbaudio_io_end(s->module);
		if (ret) {
			WRITE_ONCE(s->running, false);
			return ret;
		}
		if (s->capture)
			return 0;
		s->next = jiffies;
		/* The first period goes at once: the module buffers it */
		queue_delayed_work(system_wq, &s->work, 0);
		return 0;
	case SNDRV_PCM_TRIGGER_STOP:
	case SNDRV_PCM_TRIGGER_SUSPEND:
	case SNDRV_PCM_TRIGGER_PAUSE_PUSH:
		/* The work may be the caller: sync_stop waits for it */
		WRITE_ONCE(s->running, false);
		cancel_delayed_work(&s->work);
		if (gbaudio_io_begin(s->module))
			return 0;	/* gone: nothing to tell */
		gb_operation_sync_no_intr(s->module->mgmt, s->capture ?
					  GB_AUDIO_TYPE_DEACTIVATE_RX :
					  GB_AUDIO_TYPE_DEACTIVATE_TX,
					  &req, sizeof(req), NULL, 0);
		gbaudio_io_end(s->module);
		return 0;
	default:
		return -EINVAL;
	}
}

snd_pcm_uframes_t gbaudio_pcm_pointer(struct snd_soc_component *component,
				      struct snd_pcm_substream *substream)
{
	struct gbaudio_stream *s = substream->runtime->private_data;

	return bytes_to_frames(substream->runtime, s->pos);
}

int gbaudio_pcm_construct(struct snd_soc_component *component,
			  struct snd_soc_pcm_runtime *rtd)
{
	snd_pcm_set_managed_buffer_all(rtd->pcm, SNDRV_DMA_TYPE_VMALLOC, NULL,
				       0, 0);

	return 0;
}

/**
 * gbaudio_pcm_receive() - samples from the module for the capture stream
 * @module: the audio module
 * @op: a SEND_DATA request on its data connection
 *
 * Copies the samples into the capture buffer and signals each period
 * filled, under @module->capture_lock.  Samples that arrive while no
 * capture stream is running are dropped.
 *
 * Context: The data connection's request handler (process context).
 * Return: 0, also when the samples were dropped; -EINVAL for a request
 * shorter than its header.
 */
int gbaudio_pcm_receive(struct gbaudio_module *module, struct gb_operation *op)
{
	struct gb_message *msg = op->request;
	const struct gb_audio_send_data_request *req = msg->payload;
	struct snd_pcm_runtime *runtime;
	struct gbaudio_stream *s;
	size_t n, left, off = 0;
	bool elapsed = false;

	if (msg->payload_size < sizeof(*req)) {
		dev_err_ratelimited(&module->bundle->dev,
				    "audio data of %zu bytes dropped\n",
				    msg->payload_size);
		return -EINVAL;
	}
	left = msg->payload_size - sizeof(*req);

	mutex_lock(&module->capture_lock);
	s = module->capture;
	if (!s || !READ_ONCE(s->running) || !s->buffer_bytes)
		goto out_unlock;	/* not recording: dropped */
	runtime = s->substream->runtime;

	while (left) {
		n = min(left, s->buffer_bytes - s->pos);
		memcpy(runtime->dma_area + s->pos, req->data + off, n);
		s->pos = (s->pos + n) % s->buffer_bytes;
		s->filled += n;
		off += n;
		left -= n;
	}
	if (s->filled >= s->period_bytes) {
		s->filled %= s->period_bytes;
		elapsed = true;
	}
	/* Under the lock: close waits for it, the trigger does not take it */
	if (elapsed)
		snd_pcm_period_elapsed(s->substream);
out_unlock:
	mutex_unlock(&module->capture_lock);

	return 0;
}
EXPORT_SYMBOL_NS_GPL(gbaudio_pcm_receive, GREYBUS);
