// SPDX-License-Identifier: GPL-2.0
/*
 * The .topo audio topology compiler (tools/lib/gb_topo.c): the example
 * topologies in manifests/ against their expected layout, and malformed
 * sources, each refused with its line, column and message.
 *
 * Usage: topo_test MANIFEST_DIR
 */
#include <stdint.h>

#include <uapi/greybus/audio.h>

#include "gb_topo.h"
#include "tap.h"

static const char *manifest_dir = "manifests";

static char *read_file(const char *name, size_t *len)
{
	char path[4096];
	static char buf[1 << 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", manifest_dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Section sizes add up; the DAI is on @cport */
static void check_layout(const struct gb_topo *t, uint16_t cport)
{
	const struct gb_audio_topology *h = (const void *)t->blob;
	const struct gb_audio_dai *dai = (const void *)h->data;
	uint32_t sum = 24 + le32((const uint8_t *)&h->size_dais) +
		       le32((const uint8_t *)&h->size_controls) +
		       le32((const uint8_t *)&h->size_widgets) +
		       le32((const uint8_t *)&h->size_routes);

	CHECK(sum == t->len, "sections add up to %u, blob has %zu", sum, t->len);
	CHECK(le32((const uint8_t *)&h->size_dais) == 120 * h->num_dais,
	      "dai section");
	CHECK(le32((const uint8_t *)&h->size_routes) == 4 * h->num_routes,
	      "route section");
	CHECK((dai->data_cport & 0xff) == cport && !(dai->data_cport >> 8),
	      "data cport %u", dai->data_cport);
	CHECK(!strcmp((const char *)dai->name, "greybus-apb1"), "dai name");
}

static void test_speaker(void)
{
	struct gb_mnfs_diag d;
	struct gb_topo t;
	size_t len;
	char *src = read_file("audio-speaker.topo", &len);
	char msg[600];
	const uint8_t *routes;

	if (!tap_begin("topo: audio-speaker.topo compiles"))
		return;
	CHECK(src, "no audio-speaker.topo in %s", manifest_dir);
	if (!src)
		goto out;
	if (gb_topo_compile(src, len, "audio-speaker.topo", 2, &t, &d)) {
		CHECK(false, "%s", gb_mnfs_diag_format(&d, msg, sizeof(msg)));
		goto out;
	}
	CHECK(t.len == 868, "%zu bytes", t.len);
	CHECK(t.num_dais == 1 && t.num_controls == 2 && t.num_widgets == 6 &&
	      t.num_routes == 6 && t.num_widget_controls == 2,
	      "%u dais, %u controls, %u widgets, %u routes", t.num_dais,
	      t.num_controls, t.num_widgets, t.num_routes);
	check_layout(&t, 2);
	CHECK(!strcmp(t.ctl[0].name, "PB source") && t.ctl[0].enumerated &&
	      t.ctl[0].max == 1, "control 0");
	CHECK(!strcmp(t.ctl[1].name, "Speaker Volume") && t.ctl[1].init == 50 &&
	      t.ctl[1].max == 100, "control 1");
	CHECK(!strcmp(t.ctl[2].name, "AIF1_RX MUX") && t.ctl[2].max == 2,
	      "control 2");
	CHECK(!strcmp(t.ctl[3].name, "Switch") && !t.ctl[3].init, "control 3");
	CHECK(!t.ctl[4].declared, "control 4 not declared");
	/* the routes: AIF1RX -> mux (items 0..2), mux -> amp, amp -> SPK, MIC -> AIF1TX */
	routes = t.blob + t.len - 24;
	CHECK(!memcmp(routes, "\0\1\2\0" "\0\1\2\1" "\0\1\2\2" "\1\2\3\0"
		      "\2\3\377\0" "\4\5\377\0", 24), "routes");
	gb_topo_release(&t);
out:
	tap_end("topo: audio-speaker.topo compiles");
}

static void test_mic(void)
{
	struct gb_mnfs_diag d;
	struct gb_topo t;
	size_t len;
	char *src = read_file("audio-mic.topo", &len);
	char msg[600];
	const struct gb_audio_dai *dai;

	if (!tap_begin("topo: audio-mic.topo compiles"))
		return;
	CHECK(src, "no audio-mic.topo in %s", manifest_dir);
	if (!src)
		goto out;
	if (gb_topo_compile(src, len, "audio-mic.topo", 7, &t, &d)) {
		CHECK(false, "%s", gb_mnfs_diag_format(&d, msg, sizeof(msg)));
		goto out;
	}
	CHECK(t.len == 506, "%zu bytes", t.len);
	CHECK(t.num_dais == 1 && t.num_controls == 1 && t.num_widgets == 3 &&
	      t.num_routes == 2, "counts");
	check_layout(&t, 7);
	dai = (const void *)(t.blob + 24);
	CHECK(!dai->playback.chan_max && dai->capture.chan_min == 1 &&
	      dai->capture.chan_max == 2 &&
	      le32((const uint8_t *)&dai->capture.rates) == GB_AUDIO_PCM_RATE_48000,
	      "capture only, 1..2 channels, 48000 Hz");
	CHECK(!strcmp(t.ctl[0].name, "Mic Gain") && t.ctl[0].init == 12 &&
	      t.ctl[0].max == 30, "Mic Gain");
	CHECK(!strcmp(t.ctl[1].name, "Switch") && t.ctl[1].init == 1, "Switch on");
	gb_topo_release(&t);
out:
	tap_end("topo: audio-mic.topo compiles");
}

/* A minimal valid topology, and what the bad ones add to or change in it */
#define DAI "[dai 0]\nname = d\nplayback = P\n"

static const struct {
	const char *name;
	const char *src;
	const char *diag;	/* "file:line:column: message" or "file: message" */
} bad[] = {
	{ "no dai", "[control 0]\nname = x\ntype = boolean\n",
	  "t.topo: no [dai N] section: a topology needs at least one dai" },
	{ "text outside a section", "name = x\n",
	  "t.topo:1:1: key outside of any section" },
	{ "not key = value", DAI "just words\n",
	  "t.topo:4:1: expected '[section]', 'key = value' or a comment" },
	{ "unknown section", DAI "[speaker 1]\n",
	  "t.topo:4:2: unknown section [speaker] (dai, control, widget or route)" },
	{ "section without id", DAI "[widget]\n",
	  "t.topo:4:2: section [widget] needs an id, e.g. [widget 1]" },
	{ "missing ]", DAI "[widget 1\n", "t.topo:4:10: missing ']' after section name" },
	{ "duplicate section", DAI "[dai 0]\nname = e\n",
	  "t.topo:4:1: duplicate section [dai 0]: already declared at line 1" },
	{ "unknown key", DAI "colour = red\n", "t.topo:4:1: dai 0: unknown key 'colour'" },
	{ "duplicate key", DAI "name = e\n",
	  "t.topo:4:1: dai 0: duplicate key 'name': already set at line 2" },
	{ "control id 255", DAI "[control 255]\n",
	  "t.topo:4:10: [control]: id: value 255 is out of range (0..254)" },
	{ "dai without stream", "[dai 0]\nname = d\n",
	  "t.topo:1: dai 0: no stream: give 'playback', 'capture' or both" },
	{ "dai name too long", "[dai 0]\nname = 0123456789abcdef0123456789abcdef\nplayback = P\n",
	  "t.topo:2:8: dai 0: name: '0123456789abcdef0123456789abcdef' is 32 bytes, longer than 31" },
	{ "bad rate", DAI "rates = 48000, 22050\n",
	  "t.topo:4:16: dai 0: rates: unsupported rate '22050' (8000, 16000, 44100, 48000)" },
	{ "bad channels", DAI "channels = 2..1\n",
	  "t.topo:4:15: dai 0: channels: value 1 is out of range (2..8)" },
	{ "five dais", DAI "[dai 1]\nname = e\nplayback = P\n[dai 2]\nname = f\nplayback = P\n"
	  "[dai 3]\nname = g\nplayback = P\n[dai 4]\nname = h\nplayback = P\n",
	  "t.topo: 5 dais, at most 4" },
	{ "control without type", DAI "[control 0]\nname = x\n",
	  "t.topo:4: control 0: missing key 'type'" },
	{ "control of unknown type", DAI "[control 0]\nname = x\ntype = float\n",
	  "t.topo:6:8: control 0: type: 'float' is not boolean, integer or enumerated" },
	{ "integer without max", DAI "[control 0]\nname = x\ntype = integer\nmin = 0\n",
	  "t.topo:4: control 0: missing key 'max'" },
	{ "integer range", DAI "[control 0]\nname = x\ntype = integer\nmin = 5\nmax = 5\n",
	  "t.topo:8:7: control 0: max 5 is not above min 5" },
	{ "init out of range", DAI "[control 0]\nname = x\ntype = integer\nmin = -10\nmax = 10\ninit = 11\n",
	  "t.topo:9:8: control 0: init: value 11 is out of range (-10..10)" },
	{ "leading zero", DAI "[control 0]\nname = x\ntype = integer\nmin = 0\nmax = 010\n",
	  "t.topo:8:7: control 0: max: '010': a decimal number cannot start with 0 (write 0x.. for hex)" },
	{ "not a number", DAI "[control 0]\nname = x\ntype = boolean\nvalues = two\n",
	  "t.topo:7:10: control 0: values: 'two' is not a number" },
	{ "three values", DAI "[control 0]\nname = x\ntype = boolean\nvalues = 3\n",
	  "t.topo:7:10: control 0: values: value 3 is out of range (1..2)" },
	{ "items on an integer", DAI "[control 0]\nname = x\ntype = integer\nmin = 0\nmax = 1\nitems = a\n",
	  "t.topo:9:1: control 0: key 'items' only applies to an enumerated control" },
	{ "min on a boolean", DAI "[control 0]\nname = x\ntype = boolean\nmin = 0\n",
	  "t.topo:7:1: control 0: key 'min' does not apply to a boolean (0..1)" },
	{ "enumerated without items", DAI "[control 0]\nname = x\ntype = enumerated\n",
	  "t.topo:4: control 0: missing key 'items'" },
	{ "empty item", DAI "[control 0]\nname = x\ntype = enumerated\nitems = a,,b\n",
	  "t.topo:7:11: control 0: items: empty element in the list" },
	{ "widget type", DAI "[widget 0]\nname = w\ntype = amp\n",
	  "t.topo:6:8: widget 0: type: unknown widget type 'amp' (input, output, mux, mixer, pga, adc, dac, mic, hp, speaker, line, switch, aif-in, aif-out)" },
	{ "mux without control", DAI "[widget 0]\nname = w\ntype = mux\n",
	  "t.topo:4: widget 0: a mux needs exactly one control, enumerated (controls = ID)" },
	{ "mux with a boolean", DAI "[control 0]\nname = x\ntype = boolean\n"
	  "[widget 0]\nname = w\ntype = mux\ncontrols = 0\n",
	  "t.topo:7: widget 0: a mux needs exactly one control, enumerated (controls = ID)" },
	{ "switch with an integer", DAI "[control 0]\nname = x\ntype = integer\nmin = 0\nmax = 9\n"
	  "[widget 0]\nname = w\ntype = switch\ncontrols = 0\n",
	  "t.topo:9: widget 0: control 0 is not an on/off control (a boolean, or an integer 0..1 with one value)" },
	{ "speaker with a control", DAI "[control 0]\nname = x\ntype = boolean\n"
	  "[widget 0]\nname = w\ntype = speaker\ncontrols = 0\n",
	  "t.topo:10:12: widget 0: a widget of type 'speaker' cannot have controls" },
	{ "undeclared widget control", DAI "[widget 0]\nname = w\ntype = switch\ncontrols = 3\n",
	  "t.topo:7:12: widget 0: controls: control 3 is not declared" },
	{ "control in two widgets", DAI "[control 0]\nname = x\ntype = boolean\n"
	  "[widget 0]\nname = w\ntype = switch\ncontrols = 0\n"
	  "[widget 1]\nname = v\ntype = switch\ncontrols = 0\n",
	  "t.topo:14:12: widget 1: controls: control 0 already belongs to widget 0" },
	{ "route to nowhere", DAI "[widget 0]\nname = w\ntype = mic\n[route 0]\nsource = 0\nsink = 9\n",
	  "t.topo:9:8: route 0: sink: widget 9 is not declared" },
	{ "route to itself", DAI "[widget 0]\nname = w\ntype = mic\n[route 0]\nsource = 0\nsink = 0\n",
	  "t.topo:9:8: route 0: source and sink are the same widget" },
	{ "route control missing", DAI "[control 0]\nname = x\ntype = boolean\n"
	  "[widget 0]\nname = w\ntype = mic\n[widget 1]\nname = s\ntype = switch\ncontrols = 0\n"
	  "[route 0]\nsource = 0\nsink = 1\n",
	  "t.topo:14: route 0: missing key 'control'" },
	{ "route control of another widget", DAI "[control 0]\nname = x\ntype = boolean\n"
	  "[control 1]\nname = y\ntype = boolean\n"
	  "[widget 0]\nname = w\ntype = switch\ncontrols = 1\n[widget 1]\nname = s\ntype = switch\ncontrols = 0\n"
	  "[route 0]\nsource = 0\nsink = 1\ncontrol = 1\n",
	  "t.topo:21:11: route 0: control: widget 1 has no control 1" },
	{ "mux item out of range", DAI "[control 0]\nname = x\ntype = enumerated\nitems = a, b\n"
	  "[widget 0]\nname = w\ntype = mic\n[widget 1]\nname = m\ntype = mux\ncontrols = 0\n"
	  "[route 0]\nsource = 0\nsink = 1\ncontrol = 0\nindex = 2\n",
	  "t.topo:19:9: route 0: index: value 2 is out of range (0..1)" },
	{ "control on a plain route", DAI "[widget 0]\nname = w\ntype = mic\n[widget 1]\nname = v\ntype = adc\n"
	  "[route 0]\nsource = 0\nsink = 1\ncontrol = 0\n",
	  "t.topo:13:1: route 0: key 'control' is for a route into a widget with controls" },
	{ "binary input", "\1\0\0\0", "t.topo: NUL byte in source (is this a binary topology?)" },
};

static void test_bad(void)
{
	struct gb_mnfs_diag d;
	struct gb_topo t;
	char msg[600], name[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i].src);

		if (!strcmp(bad[i].name, "binary input"))
			len = 4;
		snprintf(name, sizeof(name), "topo: refused: %s", bad[i].name);
		if (!tap_begin(name))
			continue;
		CHECK(gb_topo_compile(bad[i].src, len, "t.topo", 2, &t, &d) == -1,
		      "compiled");
		CHECK(!t.blob && !t.len, "result left empty");
		gb_mnfs_diag_format(&d, msg, sizeof(msg));
		CHECK(!strcmp(msg, bad[i].diag), "got '%s', want '%s'", msg,
		      bad[i].diag);
		/* and without a diagnostic to fill */
		CHECK(gb_topo_compile(bad[i].src, len, "t.topo", 2, &t, NULL) == -1,
		      "compiled without diag");
		tap_end(name);
	}
}

/* Comments, blanks, CRLF, case-insensitive keys and hex numbers */
static void test_syntax(void)
{
	static const char src[] =
		"\xef\xbb\xbf; a comment\r\n"
		"# another\r\n"
		"  [dai 0]   ; trailing\r\n"
		"NAME = my dai\r\n"
		"Capture: x\r\n"		/* ':' is not a separator here */
		"capture = C # the stream\r\n"
		"channels = 2\r\n"
		"cport = 0x10\r\n"
		"[control 0x07]\r\n"
		"name = Vol\r\n"
		"type = integer\r\n"
		"min = -0x10\r\n"
		"max = 16\r\n";
	struct gb_mnfs_diag d;
	struct gb_topo t;
	char msg[600];

	if (!tap_begin("topo: syntax"))
		return;
	/* the "Capture: x" line is not key = value */
	CHECK(gb_topo_compile(src, sizeof(src) - 1, "s.topo", 2, &t, &d) == -1,
	      "'Capture: x' accepted");
	gb_mnfs_diag_format(&d, msg, sizeof(msg));
	CHECK(!strcmp(msg, "s.topo:5:1: expected '[section]', 'key = value' or a comment"),
	      "%s", msg);
	{
		char fixed[sizeof(src)];
		char *p;

		memcpy(fixed, src, sizeof(src));
		p = strstr(fixed, "Capture: x\r\n");
		memcpy(p, ";apture: x", 10);
		if (gb_topo_compile(fixed, sizeof(src) - 1, "s.topo", 2, &t, &d)) {
			CHECK(false, "%s", gb_mnfs_diag_format(&d, msg, sizeof(msg)));
		} else {
			const struct gb_audio_dai *dai = (const void *)(t.blob + 24);

			CHECK(!strcmp((const char *)dai->name, "my dai"), "dai name");
			CHECK(!strcmp((const char *)dai->capture.stream_name, "C"),
			      "stream name without its comment");
			CHECK(dai->capture.chan_min == 2 && dai->capture.chan_max == 2,
			      "channels 2");
			CHECK(dai->data_cport == 0x10, "cport 0x10");
			CHECK(t.ctl[7].declared && t.ctl[7].min == -16 &&
			      t.ctl[7].init == -16, "control 7: -16..16");
			gb_topo_release(&t);
		}
	}
	tap_end("topo: syntax");
}

int main(int argc, char **argv)
{
	if (argc > 1)
		manifest_dir = argv[1];
	test_speaker();
	test_mic();
	test_syntax();
	test_bad();
	return tap_failed_tests ? 1 : 0;
}
