// SPDX-License-Identifier: GPL-2.0
/*
 * Audio Management (0x12), module side: the topology, and the control
 * values, which it remembers for as long as the connection lasts.
 *
 * The topology: GBSIM_AUDIO_TOPOLOGY names a .topo source file
 * (tools/lib/gb_topo.c, docs/audio.md), compiled when gbsim starts (a
 * malformed one stops gbsim with status 2 and the line and column at
 * fault) and again for each connection with the bundle's Audio Data
 * CPort; without it (or with "speaker"), the built-in stereo speaker
 * (audio_speaker(), the same bytes as manifests/audio-speaker.topo), or
 * with "mic" the built-in microphone (audio_mic(), audio-mic.topo).
 * GBSIM_AUDIO_TOPOLOGY_RAW names a file whose bytes are sent as they are,
 * hostile ones included.  Every GET_CONTROL and SET_CONTROL is logged as
 * an INFO line, "audio IFID: get control ID (NAME) = V0 V1", which is
 * what the cases check.
 *
 * Playback: SET_PCM gives the rate and channels; between ACTIVATE_TX and
 * DEACTIVATE_TX the samples of every Audio Data SEND_DATA are written to
 * the WAV file named by GBSIM_AUDIO_WAV (if set), logged as
 * "audio IFID: tx started" and "audio IFID: tx stopped after N bytes".
 *
 * Capture: between ACTIVATE_RX and DEACTIVATE_RX the module sends 10 ms
 * of samples every 10 ms as SEND_DATA on the Audio Data connection (as
 * many messages as the MTU needs, each with the timestamp): the
 * samples of the WAV file GBSIM_AUDIO_SOURCE names (then silence), or a
 * 16-bit counter without it; "audio IFID: rx started/stopped after N
 * bytes".  A WAV file that cannot be read, is not RIFF/WAVE PCM, or whose
 * rate, channels or sample size differ from the stream's (SET_PCM) makes
 * ACTIVATE_RX fail with INVALID and an ERROR line saying why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/audio.h>

#include "gb_topo.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"

#define AUDIO_TPLG_MAX		GB_TOPO_SIZE_MAX
#define AUDIO_CTL_IDS		256
#define AUDIO_TOPOLOGY_ENV	"GBSIM_AUDIO_TOPOLOGY"
#define AUDIO_TOPOLOGY_RAW_ENV	"GBSIM_AUDIO_TOPOLOGY_RAW"

struct gbsim_audio {
	uint8_t		tplg[AUDIO_TPLG_MAX];
	size_t		tplg_len;
	int32_t		value[AUDIO_CTL_IDS][2];
	char		name[AUDIO_CTL_IDS][GB_AUDIO_CONTROL_NAME_MAX];
};

/* GBSIM_AUDIO_TOPOLOGY's source, checked at start (audio_read_env()) */
static struct {
	const char	*path;
	char		*src;
	size_t		len;
} audio_topo;

/* One playback per interface: the two connections share it */
struct audio_tx {
	uint32_t	rate;
	uint8_t		channels;
	uint32_t	format;		/* GB_AUDIO_PCM_FMT_*, from SET_PCM */
	bool		active;
	FILE		*wav;
	size_t		bytes;

	/* capture */
	struct gbsim	*sim;
	uint16_t	data_hd_cport;	/* 0: no data connection */
	bool		rx_active;
	uint64_t	rx_timer;
	FILE		*source;	/* at the WAV's samples */
	size_t		source_left;	/* bytes of samples still to send */
	size_t		rx_bytes;
	uint16_t	counter;
};

static struct audio_tx audio_tx[GBSIM_INTF_MAX];

struct audio_builder {
	struct gbsim_audio *audio;
	uint8_t		*p;
	size_t		len;
	size_t		section;	/* where the current section began */
};

static void *audio_put(struct audio_builder *b, size_t n)
{
	void *p = b->p + b->len;

	b->len += n;
	return p;
}

/* Ends the current section: its size goes to *size, the next one begins */
static void audio_section_end(struct audio_builder *b, void *size)
{
	gbsim_put_le32(size, (uint32_t)(b->len - b->section));
	b->section = b->len;
}

static void audio_name(uint8_t *dst, size_t max, const char *src)
{
	snprintf((char *)dst, max, "%s", src);
}

static void audio_pcm(struct gb_audio_pcm *pcm, const char *stream)
{
	audio_name(pcm->stream_name, sizeof(pcm->stream_name), stream);
	gbsim_put_le32(&pcm->formats, GB_AUDIO_PCM_FMT_S16_LE);
	gbsim_put_le32(&pcm->rates, GB_AUDIO_PCM_RATE_48000);
	pcm->chan_min = 1;
	pcm->chan_max = 2;
	pcm->sig_bits = 16;
}

/* The one DAI, "greybus-apb1": capture, and playback if asked for */
static void audio_dai(struct audio_builder *b, struct gb_audio_topology *t,
		      uint16_t data_cport, bool playback)
{
	struct gb_audio_dai *dai = audio_put(b, sizeof(*dai));

	audio_name(dai->name, sizeof(dai->name), "greybus-apb1");
	gbsim_put_le16(&dai->data_cport, data_cport);
	if (playback)
		audio_pcm(&dai->playback, "AIF1 Playback");
	audio_pcm(&dai->capture, "AIF1 Capture");
	t->num_dais = 1;
	audio_section_end(b, &t->size_dais);
}

/* An integer (or boolean) control of count_values values */
static void audio_int_ctl(struct audio_builder *b, uint8_t id, const char *name,
			  uint8_t type, int32_t min, int32_t max, uint8_t values,
			  int32_t init)
{
	struct gb_audio_control *c = audio_put(b, sizeof(*c));

	audio_name(c->name, sizeof(c->name), name);
	c->id = id;
	c->iface = GB_AUDIO_CTL_ELEM_IFACE_MIXER;
	gbsim_put_le32(&c->access, GB_AUDIO_ACCESS_READ | GB_AUDIO_ACCESS_WRITE);
	c->count = 1;
	c->count_values = values;
	c->info.type = type;
	gbsim_put_le32(&c->info.value.integer.min, (uint32_t)min);
	gbsim_put_le32(&c->info.value.integer.max, (uint32_t)max);
	gbsim_put_le32(&c->info.value.integer.step, 1);
	snprintf(b->audio->name[id], sizeof(b->audio->name[id]), "%s", name);
	b->audio->value[id][0] = init;
	b->audio->value[id][1] = init;
}

/* An enumerated control; items is a NULL-terminated list */
static void audio_enum_ctl(struct audio_builder *b, uint8_t id, const char *name,
			   const char *const *items)
{
	struct gb_audio_control *c = audio_put(b, GB_AUDIO_CONTROL_ENUM_SIZE);
	uint32_t n = 0;
	size_t names = 0;

	audio_name(c->name, sizeof(c->name), name);
	c->id = id;
	c->iface = GB_AUDIO_CTL_ELEM_IFACE_MIXER;
	gbsim_put_le32(&c->access, GB_AUDIO_ACCESS_READ | GB_AUDIO_ACCESS_WRITE);
	c->count = 1;
	c->count_values = 1;
	c->info.type = GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED;
	for (; items[n]; n++) {
		size_t len = strlen(items[n]) + 1;

		memcpy(audio_put(b, len), items[n], len);
		names += len;
	}
	gbsim_put_le32(&c->info.value.enumerated.items, n);
	gbsim_put_le16(&c->info.value.enumerated.names_length, (uint16_t)names);
	snprintf(b->audio->name[id], sizeof(b->audio->name[id]), "%s", name);
}

static void audio_widget(struct audio_builder *b, uint8_t id, const char *name,
			 const char *sname, uint8_t type, uint8_t ncontrols)
{
	struct gb_audio_widget *w = audio_put(b, sizeof(*w));

	audio_name(w->name, sizeof(w->name), name);
	audio_name(w->sname, sizeof(w->sname), sname);
	w->id = id;
	w->type = type;
	w->state = GB_AUDIO_WIDGET_STATE_DISABLED;
	w->ncontrols = ncontrols;
}

static void audio_route(struct audio_builder *b, uint8_t src, uint8_t dst,
			uint8_t ctl, uint8_t index)
{
	struct gb_audio_route *r = audio_put(b, sizeof(*r));

	r->source_id = src;
	r->destination_id = dst;
	r->control_id = ctl;
	r->index = index;
}

/*
 * The stereo speaker: AIF1 playback -> "AIF1_RX MUX" (Stereo, Left,
 * Right) -> "SPK Amp" switch -> "SPK"; top-level controls "PB source"
 * (AIF1, AIF2) and "Speaker Volume" (0..100, stereo); and a monitor
 * microphone for capture: "MIC" -> "AIF1TX" (AIF1 capture).
 */
static void audio_speaker(struct gbsim_audio *audio, uint16_t data_cport)
{
	static const char *const pb_source[] = { "AIF1", "AIF2", NULL };
	static const char *const rx_mux[] = { "Stereo", "Left", "Right", NULL };
	struct audio_builder b = { .audio = audio, .p = audio->tplg };
	struct gb_audio_topology *t = audio_put(&b, sizeof(*t));

	b.section = b.len;
	audio_dai(&b, t, data_cport, true);
	audio_enum_ctl(&b, 0, "PB source", pb_source);
	audio_int_ctl(&b, 1, "Speaker Volume", GB_AUDIO_CTL_ELEM_TYPE_INTEGER,
		      0, 100, 2, 50);
	t->num_controls = 2;
	audio_section_end(&b, &t->size_controls);

	audio_widget(&b, 0, "AIF1RX", "AIF1 Playback", GB_AUDIO_WIDGET_TYPE_AIF_IN, 0);
	audio_widget(&b, 1, "AIF1_RX MUX", "", GB_AUDIO_WIDGET_TYPE_MUX, 1);
	audio_enum_ctl(&b, 2, "AIF1_RX MUX", rx_mux);
	audio_widget(&b, 2, "SPK Amp", "", GB_AUDIO_WIDGET_TYPE_SWITCH, 1);
	audio_int_ctl(&b, 3, "Switch", GB_AUDIO_CTL_ELEM_TYPE_BOOLEAN, 0, 1, 1, 0);
	audio_widget(&b, 3, "SPK", "", GB_AUDIO_WIDGET_TYPE_SPK, 0);
	audio_widget(&b, 4, "MIC", "", GB_AUDIO_WIDGET_TYPE_MIC, 0);
	audio_widget(&b, 5, "AIF1TX", "AIF1 Capture", GB_AUDIO_WIDGET_TYPE_AIF_OUT, 0);
	t->num_widgets = 6;
	audio_section_end(&b, &t->size_widgets);

	audio_route(&b, 0, 1, 2, 0);
	audio_route(&b, 0, 1, 2, 1);
	audio_route(&b, 0, 1, 2, 2);
	audio_route(&b, 1, 2, 3, 0);
	audio_route(&b, 2, 3, 0xff, 0);
	audio_route(&b, 4, 5, 0xff, 0);
	t->num_routes = 6;
	audio_section_end(&b, &t->size_routes);

	audio->tplg_len = b.len;
}

/*
 * The microphone: "MIC" -> "Mic Capture" switch -> "AIF1TX" (AIF1
 * capture, mono or stereo); a DAI that only captures; top-level control
 * "Mic Gain" (0..30 dB in 1 dB steps, mono, 12 at start).
 */
static void audio_mic(struct gbsim_audio *audio, uint16_t data_cport)
{
	struct audio_builder b = { .audio = audio, .p = audio->tplg };
	struct gb_audio_topology *t = audio_put(&b, sizeof(*t));

	b.section = b.len;
	audio_dai(&b, t, data_cport, false);
	audio_int_ctl(&b, 0, "Mic Gain", GB_AUDIO_CTL_ELEM_TYPE_INTEGER,
		      0, 30, 1, 12);
	t->num_controls = 1;
	audio_section_end(&b, &t->size_controls);

	audio_widget(&b, 0, "MIC", "", GB_AUDIO_WIDGET_TYPE_MIC, 0);
	audio_widget(&b, 1, "Mic Capture", "", GB_AUDIO_WIDGET_TYPE_SWITCH, 1);
	audio_int_ctl(&b, 1, "Switch", GB_AUDIO_CTL_ELEM_TYPE_BOOLEAN, 0, 1, 1, 1);
	audio_widget(&b, 2, "AIF1TX", "AIF1 Capture", GB_AUDIO_WIDGET_TYPE_AIF_OUT, 0);
	t->num_widgets = 3;
	audio_section_end(&b, &t->size_widgets);

	audio_route(&b, 0, 1, 1, 0);
	audio_route(&b, 1, 2, 0xff, 0);
	t->num_routes = 2;
	audio_section_end(&b, &t->size_routes);

	audio->tplg_len = b.len;
}

static int audio_load_file(struct gbsim_audio *audio, const char *path)
{
	FILE *f = fopen(path, "rb");

	if (!f) {
		gbsim_log_error("audio: cannot open topology %s: %s", path,
				strerror(errno));
		return -1;
	}
	audio->tplg_len = fread(audio->tplg, 1, sizeof(audio->tplg), f);
	fclose(f);
	gbsim_log_info("audio: raw topology from %s (%zu bytes)", path,
		       audio->tplg_len);
	return 0;
}

/* GBSIM_AUDIO_TOPOLOGY's source, for this connection's data CPort */
static int audio_compile(struct gbsim_audio *audio, uint16_t data_cport)
{
	struct gb_mnfs_diag diag;
	struct gb_topo t;
	char msg[600];

	if (gb_topo_compile(audio_topo.src, audio_topo.len, audio_topo.path,
			    data_cport, &t, &diag)) {
		gbsim_log_error("audio: %s",
				gb_mnfs_diag_format(&diag, msg, sizeof(msg)));
		return -1;
	}
	if (t.len > sizeof(audio->tplg)) {
		gbsim_log_error("audio: topology %s of %zu bytes", audio_topo.path,
				t.len);
		gb_topo_release(&t);
		return -1;
	}
	memcpy(audio->tplg, t.blob, t.len);
	audio->tplg_len = t.len;
	for (size_t id = 0; id < AUDIO_CTL_IDS; id++) {
		if (!t.ctl[id].declared)
			continue;
		snprintf(audio->name[id], sizeof(audio->name[id]), "%s",
			 t.ctl[id].name);
		audio->value[id][0] = t.ctl[id].init;
		audio->value[id][1] = t.ctl[id].init;
	}
	gbsim_log_info("audio: topology %s: %u dais, %u controls, %u widgets, %u routes, %zu bytes",
		       audio_topo.path, t.num_dais, t.num_controls,
		       t.num_widgets, t.num_routes, t.len);
	gb_topo_release(&t);
	return 0;
}

/*
 * GBSIM_AUDIO_TOPOLOGY naming a file: read and compiled once at start, so
 * that a malformed topology stops gbsim (status 2) before it plugs
 * anything in, with the place and the reason.
 */
static void __attribute__((constructor)) audio_read_env(void)
{
	const char *path = getenv(AUDIO_TOPOLOGY_ENV);
	struct gb_mnfs_diag diag;
	struct gb_topo t;
	char msg[600];
	FILE *f;

	if (!path || !*path || !strcmp(path, "speaker") || !strcmp(path, "mic"))
		return;
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "gbsim: %s: cannot read %s: %s\n",
			AUDIO_TOPOLOGY_ENV, path, strerror(errno));
		exit(2);
	}
	audio_topo.src = malloc(AUDIO_TPLG_MAX * 4);
	if (!audio_topo.src) {
		fprintf(stderr, "gbsim: %s: out of memory\n", AUDIO_TOPOLOGY_ENV);
		exit(2);
	}
	audio_topo.len = fread(audio_topo.src, 1, AUDIO_TPLG_MAX * 4, f);
	if (ferror(f) || !feof(f)) {
		fprintf(stderr, "gbsim: %s: %s: %s\n", AUDIO_TOPOLOGY_ENV, path,
			ferror(f) ? "read error" : "longer than 256 KiB");
		exit(2);
	}
	fclose(f);
	audio_topo.path = path;
	if (gb_topo_compile(audio_topo.src, audio_topo.len, path, 0, &t, &diag)) {
		fprintf(stderr, "gbsim: %s: %s\n", AUDIO_TOPOLOGY_ENV,
			gb_mnfs_diag_format(&diag, msg, sizeof(msg)));
		exit(2);
	}
	gb_topo_release(&t);
}

static uint16_t audio_data_cport(const struct gbsim_conn *conn,
				 const struct gbsim_intf *intf)
{
	for (size_t i = 0; intf && i < intf->num_cports; i++) {
		if (intf->cports[i].bundle_id == conn->bundle_id &&
		    intf->cports[i].protocol == GREYBUS_PROTOCOL_AUDIO_DATA)
			return intf->cports[i].id;
	}
	return 0;
}

static const char *audio_ctl_name(const struct gbsim_audio *audio, uint8_t id)
{
	return audio->name[id][0] ? audio->name[id] : "?";
}

static int audio_get_control(struct gbsim_op *op, struct gbsim_audio *audio)
{
	struct gb_audio_get_control_request req;
	struct gb_audio_get_control_response rsp;

	if (!gbsim_op_len_is(op, sizeof(req)) || !gbsim_op_rsp_fits(op, sizeof(rsp)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	memset(&rsp, 0, sizeof(rsp));
	gbsim_put_le32(&rsp.value.value.integer_value[0],
		       (uint32_t)audio->value[req.control_id][0]);
	gbsim_put_le32(&rsp.value.value.integer_value[1],
		       (uint32_t)audio->value[req.control_id][1]);
	gbsim_log_info("audio %u: get control %u (%s) = %d %d", op->intf->id,
		       req.control_id, audio_ctl_name(audio, req.control_id),
		       audio->value[req.control_id][0],
		       audio->value[req.control_id][1]);
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int audio_set_control(struct gbsim_op *op, struct gbsim_audio *audio)
{
	struct gb_audio_set_control_request req;
	int32_t *v;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	v = audio->value[req.control_id];
	v[0] = (int32_t)gbsim_get_le32(&req.value.value.integer_value[0]);
	v[1] = (int32_t)gbsim_get_le32(&req.value.value.integer_value[1]);
	gbsim_log_info("audio %u: set control %u (%s) = %d %d", op->intf->id,
		       req.control_id, audio_ctl_name(audio, req.control_id),
		       v[0], v[1]);
	op->rsp_len = 0;
	return GB_OP_SUCCESS;
}

static void audio_wav_header(FILE *f, const struct audio_tx *tx)
{
	uint8_t h[44];
	uint32_t ch = tx->channels ? tx->channels : 2;

	memcpy(h, "RIFF", 4);
	gbsim_put_le32(h + 4, (uint32_t)(36 + tx->bytes));
	memcpy(h + 8, "WAVEfmt ", 8);
	gbsim_put_le32(h + 16, 16);
	gbsim_put_le16(h + 20, 1);		/* PCM */
	gbsim_put_le16(h + 22, (uint16_t)ch);
	gbsim_put_le32(h + 24, tx->rate);
	gbsim_put_le32(h + 28, tx->rate * ch * 2);
	gbsim_put_le16(h + 32, (uint16_t)(ch * 2));
	gbsim_put_le16(h + 34, 16);
	memcpy(h + 36, "data", 4);
	gbsim_put_le32(h + 40, (uint32_t)tx->bytes);
	rewind(f);
	fwrite(h, 1, sizeof(h), f);
}

static void audio_tx_start(uint8_t intf_id)
{
	struct audio_tx *tx = &audio_tx[intf_id];
	const char *path = getenv("GBSIM_AUDIO_WAV");

	if (tx->active)
		return;
	tx->active = true;
	tx->bytes = 0;
	if (path && *path) {
		tx->wav = fopen(path, "wb");
		if (tx->wav)
			audio_wav_header(tx->wav, tx);
		else
			gbsim_log_error("audio %u: cannot write %s", intf_id, path);
	}
	gbsim_log_info("audio %u: tx started, %u Hz, %u channels", intf_id,
		       tx->rate, tx->channels);
}

static void audio_tx_stop(uint8_t intf_id)
{
	struct audio_tx *tx = &audio_tx[intf_id];

	if (!tx->active)
		return;
	tx->active = false;
	if (tx->wav) {
		audio_wav_header(tx->wav, tx);
		fclose(tx->wav);
		tx->wav = NULL;
	}
	gbsim_log_info("audio %u: tx stopped after %zu bytes", intf_id, tx->bytes);
}

static void audio_rx_tick(struct gbsim_loop *loop, void *ctx)
{
	struct audio_tx *tx = ctx;
	uint8_t msg[8 + 1920], out[8 + 1920];
	size_t n = (size_t)tx->rate / 100 * (tx->channels ? tx->channels : 2) * 2;
	size_t got = 0, max;

	tx->rx_timer = 0;
	if (!tx->rx_active || !tx->data_hd_cport)
		return;
	if (n > sizeof(msg) - 8)
		n = sizeof(msg) - 8;
	memset(msg, 0, sizeof(msg));
	gbsim_put_le64(msg, gbsim_now_ns());
	if (tx->source) {
		got = fread(msg + 8, 1, n < tx->source_left ? n : tx->source_left,
			    tx->source);
		tx->source_left -= got;
	} else
		for (; got + 1 < n; got += 2)
			gbsim_put_le16(msg + 8 + got, tx->counter++);
	(void)got;	/* past the end of the source: silence */
	/* In as many messages as the MTU needs, each with the timestamp */
	max = tx->sim->mtu > 20 ? (tx->sim->mtu - 16u) & ~(size_t)3 : 4;
	for (size_t off = 0, len; off < n; off += len) {
		len = n - off < max ? n - off : max;
		memcpy(out, msg, 8);
		memcpy(out + 8, msg + 8 + off, len);
		gbsim_send_request_id(tx->sim, tx->data_hd_cport,
				      GB_AUDIO_TYPE_SEND_DATA, 0, out, 8 + len,
				      0, NULL, NULL);
	}
	tx->rx_bytes += n;
	tx->rx_timer = gbsim_loop_add_timer(loop, 10, audio_rx_tick, tx);
}

/* What a WAV file's header says */
struct audio_wav {
	uint16_t	tag;		/* 1: PCM */
	uint16_t	channels;
	uint32_t	rate;
	uint16_t	bits;
	uint32_t	data_len;	/* of the data chunk */
};

/*
 * Reads the RIFF header of @f up to the first sample of its data chunk:
 * "RIFF" size "WAVE", then chunks (id, le32 size, the bytes, a pad byte
 * if the size is odd): "fmt " before "data", others skipped.  Returns
 * NULL, or why the file is refused.
 */
static const char *audio_wav_open(FILE *f, struct audio_wav *w)
{
	uint8_t h[16];
	bool fmt = false;

	if (fread(h, 1, 12, f) != 12 || memcmp(h, "RIFF", 4) ||
	    memcmp(h + 8, "WAVE", 4))
		return "not a RIFF/WAVE file";
	for (;;) {
		uint32_t size;

		if (fread(h, 1, 8, f) != 8)
			return fmt ? "no data chunk" : "no fmt chunk";
		size = gbsim_get_le32(h + 4);
		if (!memcmp(h, "data", 4)) {
			if (!fmt)
				return "data chunk before the fmt chunk";
			w->data_len = size;
			return NULL;
		}
		if (!memcmp(h, "fmt ", 4)) {
			if (size < 16)
				return "fmt chunk shorter than 16 bytes";
			if (fread(h, 1, 16, f) != 16)
				return "fmt chunk cut short";
			w->tag = gbsim_get_le16(h);
			w->channels = gbsim_get_le16(h + 2);
			w->rate = gbsim_get_le32(h + 4);
			w->bits = gbsim_get_le16(h + 14);
			fmt = true;
			size -= 16;
		}
		if (fseek(f, (long)size + (size & 1), SEEK_CUR))
			return "chunk runs past the end";
	}
}

/* The stream's sample size in bits, 0 for a format a WAV cannot give */
static unsigned int audio_format_bits(uint32_t format)
{
	switch (format) {
	case GB_AUDIO_PCM_FMT_S8:
	case GB_AUDIO_PCM_FMT_U8:
		return 8;
	case GB_AUDIO_PCM_FMT_S16_LE:
		return 16;
	case GB_AUDIO_PCM_FMT_S32_LE:
		return 32;
	default:
		return 0;
	}
}

/* GBSIM_AUDIO_SOURCE: a WAV file in the stream's format, or an error */
static int audio_source_open(uint8_t intf_id, struct audio_tx *tx,
			     const char *path)
{
	unsigned int bits = audio_format_bits(tx->format);
	struct audio_wav w = { 0 };
	const char *why;
	FILE *f = fopen(path, "rb");

	if (!f) {
		gbsim_log_error("audio %u: capture source %s: %s: refused",
				intf_id, path, strerror(errno));
		return -1;
	}
	why = audio_wav_open(f, &w);
	if (!why && w.tag != 1)
		why = "not PCM";
	if (why) {
		gbsim_log_error("audio %u: capture source %s: %s: refused",
				intf_id, path, why);
		fclose(f);
		return -1;
	}
	if (w.rate != tx->rate || w.channels != tx->channels ||
	    w.bits != bits || !bits) {
		gbsim_log_error("audio %u: capture source %s is %u Hz, %u channels, %u bits; the stream is %u Hz, %u channels, %u bits: refused",
				intf_id, path, w.rate, w.channels, w.bits,
				tx->rate, tx->channels, bits);
		fclose(f);
		return -1;
	}
	tx->source = f;
	tx->source_left = w.data_len;
	gbsim_log_info("audio %u: capture source %s: %u bytes of samples",
		       intf_id, path, w.data_len);
	return 0;
}

static int audio_rx_start(uint8_t intf_id)
{
	struct audio_tx *tx = &audio_tx[intf_id];
	const char *path = getenv("GBSIM_AUDIO_SOURCE");

	if (tx->rx_active || !tx->sim)
		return GB_OP_SUCCESS;
	if (path && *path && audio_source_open(intf_id, tx, path))
		return GB_OP_INVALID;
	tx->rx_active = true;
	tx->rx_bytes = 0;
	tx->counter = 0;
	gbsim_log_info("audio %u: rx started, %u Hz, %u channels", intf_id,
		       tx->rate, tx->channels);
	tx->rx_timer = gbsim_loop_add_timer(tx->sim->loop, 0, audio_rx_tick, tx);
	return GB_OP_SUCCESS;
}

static void audio_rx_stop(uint8_t intf_id)
{
	struct audio_tx *tx = &audio_tx[intf_id];

	if (!tx->rx_active)
		return;
	tx->rx_active = false;
	if (tx->rx_timer)
		gbsim_loop_cancel_timer(tx->sim->loop, tx->rx_timer);
	tx->rx_timer = 0;
	if (tx->source)
		fclose(tx->source);
	tx->source = NULL;
	gbsim_log_info("audio %u: rx stopped after %zu bytes", intf_id,
		       tx->rx_bytes);
}

static int audio_set_pcm(struct gbsim_op *op)
{
	struct gb_audio_set_pcm_request req;
	struct audio_tx *tx = &audio_tx[op->intf->id];

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	tx->rate = gbsim_get_le32(&req.rate);
	tx->channels = req.channels;
	tx->format = gbsim_get_le32(&req.format);
	op->rsp_len = 0;
	return GB_OP_SUCCESS;
}

static int gbsim_audio_request(struct gbsim_op *op)
{
	struct gbsim_audio *audio = op->conn->priv;
	struct gb_audio_get_topology_size_response size_rsp;

	switch (op->type) {
	case GB_AUDIO_TYPE_GET_TOPOLOGY_SIZE:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		gbsim_put_le16(&size_rsp.size, (uint16_t)audio->tplg_len);
		memcpy(op->rsp, &size_rsp, sizeof(size_rsp));
		op->rsp_len = sizeof(size_rsp);
		return GB_OP_SUCCESS;
	case GB_AUDIO_TYPE_GET_TOPOLOGY:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		if (!gbsim_op_rsp_fits(op, audio->tplg_len))
			return GB_OP_NO_MEMORY;
		memcpy(op->rsp, audio->tplg, audio->tplg_len);
		op->rsp_len = audio->tplg_len;
		return GB_OP_SUCCESS;
	case GB_AUDIO_TYPE_GET_CONTROL:
		return audio_get_control(op, audio);
	case GB_AUDIO_TYPE_SET_CONTROL:
		return audio_set_control(op, audio);
	case GB_AUDIO_TYPE_SET_PCM:
		return audio_set_pcm(op);
	case GB_AUDIO_TYPE_ACTIVATE_TX:
		audio_tx_start(op->intf->id);
		op->rsp_len = 0;
		return GB_OP_SUCCESS;
	case GB_AUDIO_TYPE_DEACTIVATE_TX:
		audio_tx_stop(op->intf->id);
		op->rsp_len = 0;
		return GB_OP_SUCCESS;
	case GB_AUDIO_TYPE_ACTIVATE_RX:
		op->rsp_len = 0;
		return audio_rx_start(op->intf->id);
	case GB_AUDIO_TYPE_DEACTIVATE_RX:
		audio_rx_stop(op->intf->id);
		op->rsp_len = 0;
		return GB_OP_SUCCESS;
	case GB_AUDIO_TYPE_ENABLE_WIDGET:
	case GB_AUDIO_TYPE_DISABLE_WIDGET:
	case GB_AUDIO_TYPE_SET_TX_DATA_SIZE:
	case GB_AUDIO_TYPE_SET_RX_DATA_SIZE:
		op->rsp_len = 0;
		return GB_OP_SUCCESS;
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

static int gbsim_audio_conn_init(struct gbsim_conn *conn)
{
	struct gbsim_audio *audio = calloc(1, sizeof(*audio));
	const char *path = getenv(AUDIO_TOPOLOGY_ENV);
	const char *raw = getenv(AUDIO_TOPOLOGY_RAW_ENV);
	uint16_t data_cport;

	if (!audio)
		return -1;
	data_cport = audio_data_cport(conn, conn->sim->intfs[conn->intf_id]);
	if (raw && *raw) {
		if (audio_load_file(audio, raw)) {
			free(audio);
			return -1;
		}
	} else if (audio_topo.src) {
		if (audio_compile(audio, data_cport)) {
			free(audio);
			return -1;
		}
	} else if (path && !strcmp(path, "mic")) {
		audio_mic(audio, data_cport);
	} else {
		audio_speaker(audio, data_cport);
	}
	conn->priv = audio;
	return 0;
}

static void gbsim_audio_conn_fini(struct gbsim_conn *conn)
{
	audio_tx_stop(conn->intf_id);
	audio_rx_stop(conn->intf_id);
	free(conn->priv);
	conn->priv = NULL;
}

static struct gbsim_proto gbsim_proto_audio_mgmt = {
	.id		= GREYBUS_PROTOCOL_AUDIO_MGMT,
	.name		= "audio_mgmt",
	.request	= gbsim_audio_request,
	.conn_init	= gbsim_audio_conn_init,
	.conn_fini	= gbsim_audio_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_audio_mgmt);

/* Audio Data: the AP's samples arrive as SEND_DATA, unanswered (id 0) */
static int gbsim_audio_data_request(struct gbsim_op *op)
{
	struct audio_tx *tx = &audio_tx[op->intf->id];

	if (op->type != GB_AUDIO_TYPE_SEND_DATA)
		return GB_OP_PROTOCOL_BAD;
	if (op->req_len < sizeof(struct gb_audio_send_data_request)) {
		gbsim_log_error("audio %u: send_data of %zu bytes", op->intf->id,
				op->req_len);
		return GBSIM_NO_RESPONSE;
	}
	if (tx->active) {
		size_t n = op->req_len - sizeof(struct gb_audio_send_data_request);

		if (tx->wav)
			fwrite(op->req + sizeof(struct gb_audio_send_data_request),
			       1, n, tx->wav);
		tx->bytes += n;
	}
	return GBSIM_NO_RESPONSE;
}

static int gbsim_audio_data_conn_init(struct gbsim_conn *conn)
{
	audio_tx[conn->intf_id].sim = conn->sim;
	audio_tx[conn->intf_id].data_hd_cport = conn->hd_cport;
	return 0;
}

static void gbsim_audio_data_conn_fini(struct gbsim_conn *conn)
{
	audio_rx_stop(conn->intf_id);
	audio_tx[conn->intf_id].data_hd_cport = 0;
}

static struct gbsim_proto gbsim_proto_audio_data = {
	.id		= GREYBUS_PROTOCOL_AUDIO_DATA,
	.name		= "audio_data",
	.request	= gbsim_audio_data_request,
	.conn_init	= gbsim_audio_data_conn_init,
	.conn_fini	= gbsim_audio_data_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_audio_data);
