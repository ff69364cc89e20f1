// SPDX-License-Identifier: GPL-2.0
/*
 * The module's topology, checked.  The blob comes from the module and
 * is untrusted: every count, size, offset, name and id is checked before
 * it is used, and anything that would not make a consistent sound card
 * (a route to a widget that does not exist, a mux without its item, a
 * control id used twice) refuses the whole topology, with one
 * rate-limited line saying why.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <greybus/greybus.h>

#include "audio.h"

struct gbaudio_parser {
	struct gbaudio_module	*module;
	struct device		*dev;
	DECLARE_BITMAP(ctl_ids, 256);
};

#define tplg_err(p, fmt, ...) \
	dev_err_ratelimited((p)->dev, "bad topology: " fmt, ##__VA_ARGS__)

/* A wire name: NUL-terminated inside its field and not empty */
static int gbaudio_copy_name(struct gbaudio_parser *p, char *dst, size_t dst_len,
			     const u8 *src, size_t src_len, const char *prefix,
			     const char *what)
{
	size_t len = strnlen(src, src_len);

	if (len == src_len || !len) {
		tplg_err(p, "%s name %s\n", what, len ? "not terminated" : "empty");
		return -EINVAL;
	}
	if (prefix)
		snprintf(dst, dst_len, "%s%.*s", prefix, (int)len, src);
	else
		snprintf(dst, dst_len, "%.*s", (int)len, src);

	return 0;
}

static int gbaudio_parse_pcm(struct gbaudio_parser *p, struct gbaudio_pcm *pcm,
			     const struct gb_audio_pcm *w)
{
	pcm->chan_max = w->chan_max;
	if (!pcm->chan_max)
		return 0;	/* no such stream */

	pcm->chan_min = w->chan_min;
	pcm->formats = le32_to_cpu(w->formats);
	pcm->rates = le32_to_cpu(w->rates);
	pcm->sig_bits = w->sig_bits;
	if (!pcm->chan_min || pcm->chan_min > pcm->chan_max ||
	    pcm->chan_max > 8 || !pcm->formats || !pcm->rates) {
		tplg_err(p, "pcm stream with channels %u..%u, formats 0x%x, rates 0x%x\n",
			 pcm->chan_min, pcm->chan_max, pcm->formats, pcm->rates);
		return -EINVAL;
	}

	return gbaudio_copy_name(p, pcm->stream_name, sizeof(pcm->stream_name),
				 w->stream_name, sizeof(w->stream_name), NULL,
				 "stream");
}

static bool gbaudio_bundle_has_data_cport(struct gb_bundle *bundle, u16 cport)
{
	size_t i;

	for (i = 0; i < bundle->num_cports; i++) {
		if (le16_to_cpu(bundle->cport_desc[i].id) == cport &&
		    bundle->cport_desc[i].protocol_id == GREYBUS_PROTOCOL_AUDIO_DATA)
			return true;
	}

	return false;
}

static int gbaudio_parse_dais(struct gbaudio_parser *p, struct gbaudio_tplg *t,
			      const u8 *data, size_t size)
{
	unsigned int i;
	int ret;

	if (size != (size_t)t->num_dais * sizeof(struct gb_audio_dai)) {
		tplg_err(p, "%u dais in %zu bytes\n", t->num_dais, size);
		return -EINVAL;
	}
	if (t->num_dais > GBAUDIO_MAX_DAIS) {
		tplg_err(p, "%u dais (at most %u)\n", t->num_dais, GBAUDIO_MAX_DAIS);
		return -EINVAL;
	}

	for (i = 0; i < t->num_dais; i++) {
		const struct gb_audio_dai *w = (const void *)(data + i * sizeof(*w));
		struct gbaudio_dai *dai = &t->dais[i];

		ret = gbaudio_copy_name(p, dai->name, sizeof(dai->name), w->name,
					sizeof(w->name), NULL, "dai");
		if (ret)
			return ret;
		dai->data_cport = le16_to_cpu(w->data_cport);
		if (!gbaudio_bundle_has_data_cport(p->module->bundle,
						   dai->data_cport)) {
			tplg_err(p, "dai %s on cport %u, not an audio data cport of the bundle\n",
				 dai->name, dai->data_cport);
			return -EINVAL;
		}
		ret = gbaudio_parse_pcm(p, &dai->playback, &w->playback);
		if (ret)
			return ret;
		ret = gbaudio_parse_pcm(p, &dai->capture, &w->capture);
		if (ret)
			return ret;
		if (!dai->playback.chan_max && !dai->capture.chan_max) {
			tplg_err(p, "dai %s has no stream\n", dai->name);
			return -EINVAL;
		}
	}

	return 0;
}

static int gbaudio_parse_enum_names(struct gbaudio_parser *p,
				    struct gbaudio_ctl *ctl, const u8 *names,
				    size_t len)
{
	size_t off = 0;
	u32 i;

	ctl->names = kmemdup(names, len, GFP_KERNEL);
	ctl->texts = kcalloc(ctl->items, sizeof(*ctl->texts), GFP_KERNEL);
	if (!ctl->names || !ctl->texts)
		return -ENOMEM;

	for (i = 0; i < ctl->items; i++) {
		size_t n = strnlen(ctl->names + off, len - off);

		if (off + n == len || !n || n >= GB_AUDIO_ENUM_NAME_MAX) {
			tplg_err(p, "control %s: item %u name bad\n", ctl->name, i);
			return -EINVAL;
		}
		ctl->texts[i] = ctl->names + off;
		off += n + 1;
	}
	if (off != len) {
		tplg_err(p, "control %s: %zu bytes after the item names\n",
			 ctl->name, len - off);
		return -EINVAL;
	}

	return 0;
}

/*
 * One control at @data, @avail bytes left in its section; sets @used to
 * its size on the wire.
 */
static int gbaudio_parse_ctl(struct gbaudio_parser *p, struct gbaudio_ctl *ctl,
			     const u8 *data, size_t avail, size_t *used,
			     const char *prefix)
{
	const struct gb_audio_control *w = (const void *)data;
	const size_t type_end = offsetof(struct gb_audio_control, info) + 1;
	const struct gb_audio_enumerated *en;
	size_t names_len;
	int ret;

	if (avail < type_end) {
		tplg_err(p, "control truncated (%zu bytes)\n", avail);
		return -EINVAL;
	}
	ctl->module = p->module;
	ctl->id = w->id;
	ctl->type = w->info.type;
	ctl->count_values = w->count_values;

	ret = gbaudio_copy_name(p, ctl->name, sizeof(ctl->name), w->name,
				sizeof(w->name), prefix, "control");
	if (ret)
		return ret;
	if (test_and_set_bit(ctl->id, p->ctl_ids)) {
		tplg_err(p, "control id %u used twice\n", ctl->id);
		return -EINVAL;
	}
	if (ctl->count_values < 1 || ctl->count_values > 2) {
		tplg_err(p, "control %s has %u values\n", ctl->name,
			 ctl->count_values);
		return -EINVAL;
	}

	switch (ctl->type) {
	case GB_AUDIO_CTL_ELEM_TYPE_BOOLEAN:
	case GB_AUDIO_CTL_ELEM_TYPE_INTEGER:
		if (avail < sizeof(*w)) {
			tplg_err(p, "control %s truncated\n", ctl->name);
			return -EINVAL;
		}
		ctl->min = (s32)le32_to_cpu(w->info.value.integer.min);
		ctl->max = (s32)le32_to_cpu(w->info.value.integer.max);
		if (ctl->type == GB_AUDIO_CTL_ELEM_TYPE_BOOLEAN) {
			ctl->min = 0;
			ctl->max = 1;
		}
		if (ctl->min >= ctl->max) {
			tplg_err(p, "control %s range %d..%d\n", ctl->name,
				 ctl->min, ctl->max);
			return -EINVAL;
		}
		*used = sizeof(*w);
		return 0;
	case GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED:
		if (avail < GB_AUDIO_CONTROL_ENUM_SIZE) {
			tplg_err(p, "control %s truncated\n", ctl->name);
			return -EINVAL;
		}
		en = &w->info.value.enumerated;
		ctl->items = le32_to_cpu(en->items);
		names_len = le16_to_cpu(en->names_length);
		if (!ctl->items || ctl->items > GBAUDIO_MAX_ENUM_ITEMS) {
			tplg_err(p, "control %s has %u items\n", ctl->name,
				 ctl->items);
			return -EINVAL;
		}
		if (names_len > avail - GB_AUDIO_CONTROL_ENUM_SIZE) {
			tplg_err(p, "control %s names run past its section\n",
				 ctl->name);
			return -EINVAL;
		}
		ret = gbaudio_parse_enum_names(p, ctl,
					       data + GB_AUDIO_CONTROL_ENUM_SIZE,
					       names_len);
		if (ret)
			return ret;
		ctl->min = 0;
		ctl->max = ctl->items - 1;
		*used = GB_AUDIO_CONTROL_ENUM_SIZE + names_len;
		return 0;
	default:
		tplg_err(p, "control %s of type %u\n", ctl->name, ctl->type);
		return -EINVAL;
	}
}

static int gbaudio_parse_ctls(struct gbaudio_parser *p, struct gbaudio_tplg *t,
			      const u8 *data, size_t size, const char *prefix)
{
	size_t off = 0, used;
	unsigned int i;
	int ret;

	for (i = 0; i < t->num_ctls; i++) {
		ret = gbaudio_parse_ctl(p, &t->ctls[i], data + off, size - off,
					&used, prefix);
		if (ret)
			return ret;
		off += used;
	}
	if (off != size) {
		tplg_err(p, "controls take %zu bytes, section has %zu\n", off, size);
		return -EINVAL;
	}

	return 0;
}

static int gbaudio_check_widget(struct gbaudio_parser *p, struct gbaudio_widget *w)
{
	unsigned int i;

	switch (w->type) {
	case GB_AUDIO_WIDGET_TYPE_MUX:
		if (w->num_ctls != 1 ||
		    w->ctls[0].type != GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED) {
			tplg_err(p, "mux %s needs one enumerated control\n", w->name);
			return -EINVAL;
		}
		return 0;
	case GB_AUDIO_WIDGET_TYPE_SWITCH:
	case GB_AUDIO_WIDGET_TYPE_MIXER:
		if (!w->num_ctls ||
		    (w->type == GB_AUDIO_WIDGET_TYPE_SWITCH && w->num_ctls != 1)) {
			tplg_err(p, "widget %s with %u controls\n", w->name,
				 w->num_ctls);
			return -EINVAL;
		}
		for (i = 0; i < w->num_ctls; i++) {
			if (w->ctls[i].type == GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED ||
			    w->ctls[i].min || w->ctls[i].max != 1 ||
			    w->ctls[i].count_values != 1) {
				tplg_err(p, "widget %s: control %s is not an on/off\n",
					 w->name, w->ctls[i].name);
				return -EINVAL;
			}
		}
		return 0;
	case GB_AUDIO_WIDGET_TYPE_INPUT:
	case GB_AUDIO_WIDGET_TYPE_OUTPUT:
	case GB_AUDIO_WIDGET_TYPE_PGA:
	case GB_AUDIO_WIDGET_TYPE_ADC:
	case GB_AUDIO_WIDGET_TYPE_DAC:
	case GB_AUDIO_WIDGET_TYPE_MIC:
	case GB_AUDIO_WIDGET_TYPE_HP:
	case GB_AUDIO_WIDGET_TYPE_SPK:
	case GB_AUDIO_WIDGET_TYPE_LINE:
	case GB_AUDIO_WIDGET_TYPE_AIF_IN:
	case GB_AUDIO_WIDGET_TYPE_AIF_OUT:
		if (w->num_ctls) {
			tplg_err(p, "widget %s of type %u cannot have controls\n",
				 w->name, w->type);
			return -EINVAL;
		}
		return 0;
	default:
		tplg_err(p, "widget %s of unsupported type %u\n", w->name, w->type);
		return -EINVAL;
	}
}

/* The size on the wire of the control at @data, or 0 if it is truncated */
static size_t gbaudio_ctl_wire_size(const u8 *data, size_t avail)
{
	const struct gb_audio_control *w = (const void *)data;
	size_t size;

	if (avail < GB_AUDIO_CONTROL_ENUM_SIZE)
		return 0;
	if (w->info.type == GB_AUDIO_CTL_ELEM_TYPE_ENUMERATED)
		size = GB_AUDIO_CONTROL_ENUM_SIZE +
		       le16_to_cpu(w->info.value.enumerated.names_length);
	else
		size = sizeof(*w);

	return size <= avail ? size : 0;
}

/*
 * Widgets in two passes: the first counts their controls (and checks
 * that they fit), so that the second can fill one array of them.
 */
static int gbaudio_count_wctls(struct gbaudio_parser *p, struct gbaudio_tplg *t,
			       const u8 *data, size_t size)
{
	const struct gb_audio_widget *w;
	unsigned int i, c, n = 0;
	size_t off = 0, csize;

	for (i = 0; i < t->num_widgets; i++) {
		if (size - off < sizeof(*w)) {
			tplg_err(p, "widget %u truncated\n", i);
			return -EINVAL;
		}
		w = (const void *)(data + off);
		if (w->ncontrols > GBAUDIO_MAX_WIDGET_CONTROLS) {
			tplg_err(p, "widget %u has %u controls\n", i, w->ncontrols);
			return -EINVAL;
		}
		n += w->ncontrols;
		off += sizeof(*w);
		for (c = 0; c < w->ncontrols; c++) {
			csize = gbaudio_ctl_wire_size(data + off, size - off);
			if (!csize) {
				tplg_err(p, "widget %u: control %u truncated\n", i, c);
				return -EINVAL;
			}
			off += csize;
		}
	}
	if (off != size) {
		tplg_err(p, "widgets take %zu bytes, section has %zu\n", off, size);
		return -EINVAL;
	}

	return n;
}

static int gbaudio_parse_widgets(struct gbaudio_parser *p, struct gbaudio_tplg *t,
				 const u8 *data, size_t size, const char *prefix)
{
	struct gbaudio_ctl *next = t->wctls;
	size_t off = 0, used;
	unsigned int i, j, c;
	int ret;

	for (i = 0; i < t->num_widgets; i++) {
		const struct gb_audio_widget *w = (const void *)(data + off);
		struct gbaudio_widget *widget = &t->widgets[i];

		ret = gbaudio_copy_name(p, widget->name, sizeof(widget->name),
					w->name, sizeof(w->name), prefix, "widget");
		if (ret)
			return ret;
		/* A stream name is optional */
		if (strnlen(w->sname, sizeof(w->sname)) == sizeof(w->sname)) {
			tplg_err(p, "widget %s: stream name not terminated\n",
				 widget->name);
			return -EINVAL;
		}
		strscpy(widget->sname, w->sname, sizeof(widget->sname));
		widget->id = w->id;
		widget->type = w->type;
		for (j = 0; j < i; j++) {
			if (t->widgets[j].id == widget->id) {
				tplg_err(p, "widget id %u used twice\n", widget->id);
				return -EINVAL;
			}
		}
		widget->num_ctls = w->ncontrols;
		widget->ctls = next;
		off += sizeof(*w);
		for (c = 0; c < widget->num_ctls; c++) {
			ret = gbaudio_parse_ctl(p, next, data + off, size - off,
						&used, NULL);
			if (ret)
				return ret;
			next->is_dapm = true;
			next++;
			off += used;
		}
		ret = gbaudio_check_widget(p, widget);
		if (ret)
			return ret;
	}

	return 0;
}

static struct gbaudio_widget *gbaudio_find_widget(struct gbaudio_tplg *t, u8 id)
{
	unsigned int i;

	for (i = 0; i < t->num_widgets; i++) {
		if (t->widgets[i].id == id)
			return &t->widgets[i];
	}

	return NULL;
}

static int gbaudio_parse_routes(struct gbaudio_parser *p, struct gbaudio_tplg *t,
				const u8 *data, size_t size)
{
	unsigned int i, c;

	if (size != (size_t)t->num_routes * sizeof(struct gb_audio_route)) {
		tplg_err(p, "%u routes in %zu bytes\n", t->num_routes, size);
		return -EINVAL;
	}

	for (i = 0; i < t->num_routes; i++) {
		const struct gb_audio_route *w = (const void *)(data + i * sizeof(*w));
		struct gbaudio_route *r = &t->routes[i];
		struct gbaudio_ctl *ctl = NULL;

		r->source = gbaudio_find_widget(t, w->source_id);
		r->sink = gbaudio_find_widget(t, w->destination_id);
		if (!r->source || !r->sink || r->source == r->sink) {
			tplg_err(p, "route %u from widget %u to %u\n", i,
				 w->source_id, w->destination_id);
			return -EINVAL;
		}
		if (!r->sink->num_ctls)
			continue;	/* a plain connection */

		for (c = 0; c < r->sink->num_ctls; c++) {
			if (r->sink->ctls[c].id == w->control_id)
				ctl = &r->sink->ctls[c];
		}
		if (!ctl) {
			tplg_err(p, "route %u: widget %s has no control %u\n", i,
				 r->sink->name, w->control_id);
			return -EINVAL;
		}
		if (r->sink->type == GB_AUDIO_WIDGET_TYPE_MUX) {
			if (w->index >= ctl->items) {
				tplg_err(p, "route %u: mux %s has no item %u\n", i,
					 r->sink->name, w->index);
				return -EINVAL;
			}
			r->control = ctl->texts[w->index];
		} else {
			r->control = ctl->name;
		}
	}

	return 0;
}

static int gbaudio_tplg_alloc(struct gbaudio_tplg *t)
{
	t->dais = kcalloc(max(t->num_dais, 1U), sizeof(*t->dais), GFP_KERNEL);
	t->ctls = kcalloc(max(t->num_ctls, 1U), sizeof(*t->ctls), GFP_KERNEL);
	t->widgets = kcalloc(max(t->num_widgets, 1U), sizeof(*t->widgets),
			     GFP_KERNEL);
	t->wctls = kcalloc(max(t->num_wctls, 1U), sizeof(*t->wctls), GFP_KERNEL);
	t->routes = kcalloc(max(t->num_routes, 1U), sizeof(*t->routes),
			    GFP_KERNEL);
	if (!t->dais || !t->ctls || !t->widgets || !t->wctls || !t->routes)
		return -ENOMEM;

	return 0;
}

struct gbaudio_tplg *gbaudio_tplg_parse(struct gbaudio_module *module,
					const void *blob, size_t size)
{
	const struct gb_audio_topology *h = blob;
	struct gbaudio_parser *p;
	struct gbaudio_tplg *t;
	u64 sizes[4], total;
	const u8 *data;
	char prefix[12];
	int ret, n;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!p || !t) {
		ret = -ENOMEM;
		goto err_free;
	}
	p->module = module;
	p->dev = &module->bundle->dev;
	snprintf(prefix, sizeof(prefix), "GB %u ", module->intf_id);

	if (size < sizeof(*h)) {
		tplg_err(p, "%zu bytes, no room for the header\n", size);
		ret = -EINVAL;
		goto err_free;
	}
	sizes[0] = le32_to_cpu(h->size_dais);
	sizes[1] = le32_to_cpu(h->size_controls);
	sizes[2] = le32_to_cpu(h->size_widgets);
	sizes[3] = le32_to_cpu(h->size_routes);
	total = sizeof(*h) + sizes[0] + sizes[1] + sizes[2] + sizes[3];
	if (total != size) {
		tplg_err(p, "sections add up to %llu bytes, topology has %zu\n",
			 total, size);
		ret = -EINVAL;
		goto err_free;
	}
	t->num_dais = h->num_dais;
	t->num_ctls = h->num_controls;
	t->num_widgets = h->num_widgets;
	t->num_routes = h->num_routes;
	t->jack_type = le32_to_cpu(h->jack_type);
	if (!t->num_dais) {
		tplg_err(p, "no dai\n");
		ret = -EINVAL;
		goto err_free;
	}

	data = h->data + sizes[0] + sizes[1];
	n = gbaudio_count_wctls(p, t, data, sizes[2]);
	if (n < 0) {
		ret = n;
		goto err_free;
	}
	t->num_wctls = n;

	ret = gbaudio_tplg_alloc(t);
	if (ret)
		goto err_free;

	data = h->data;
	ret = gbaudio_parse_dais(p, t, data, sizes[0]);
	if (ret)
		goto err_free;
	data += sizes[0];
	ret = gbaudio_parse_ctls(p, t, data, sizes[1], prefix);
	if (ret)
		goto err_free;
	data += sizes[1];
	ret = gbaudio_parse_widgets(p, t, data, sizes[2], prefix);
	if (ret)
		goto err_free;
	data += sizes[2];
	ret = gbaudio_parse_routes(p, t, data, sizes[3]);
	if (ret)
		goto err_free;

	kfree(p);
	return t;

err_free:
	gbaudio_tplg_free(t);
	kfree(p);
	return ERR_PTR(ret);
}

static void gbaudio_free_ctls(struct gbaudio_ctl *ctls, unsigned int n)
{
	unsigned int i;

	if (!ctls)
		return;
	for (i = 0; i < n; i++) {
		kfree(ctls[i].texts);
		kfree(ctls[i].names);
	}
	kfree(ctls);
}

void gbaudio_tplg_free(struct gbaudio_tplg *tplg)
{
	if (!tplg)
		return;
	gbaudio_free_ctls(tplg->ctls, tplg->num_ctls);
	gbaudio_free_ctls(tplg->wctls, tplg->num_wctls);
	kfree(tplg->routes);
	kfree(tplg->widgets);
	kfree(tplg->dais);
	kfree(tplg);
}
