// SPDX-License-Identifier: GPL-2.0
/*
 * The HID protocol (0x05), module side: a boot keyboard.  It types
 * strings as IRQ_EVENT input reports (a press report, then a release
 * report, per character), one report every delay_ms while the AP has
 * powered it on (PWR_ON); a string typed before that waits.  It answers
 * GET_REPORT (input: the keys down now; output: the LEDs) and logs every
 * output report the AP sets ("hid N: output report leds=0x02").
 *
 *   GBSIM_HID="type=STRING,delay_ms=N,desc_len=N,rdesc_len=N,blength=N"
 *
 *   type=STRING   typed once the AP powers the keyboard on
 *   delay_ms=N    between two reports (default 20)
 *   desc_len=N    the report descriptor length GET_DESC claims (default
 *                 the real one, 63); rdesc_len=N the bytes
 *                 GET_REPORT_DESC then sends (default desc_len; beyond
 *                 63, zeros); blength=N GET_DESC's bLength (default 10):
 *                 what the malformed-descriptor cases need
 *
 * `gbsim ctl hid type IFID:CPORT STRING...` types at run time (the words
 * joined by blanks; "\n" is Enter, "\t" Tab, "\\" a backslash),
 * `gbsim ctl hid press IFID:CPORT MODS:USAGE[+USAGE]...` presses and
 * releases chords of keys given by their usage ids (hexadecimal; MODS is
 * the modifier byte: 01 Ctrl, 02 Shift, 04 Alt, 40 AltGr...),
 * `gbsim ctl hid show IFID:CPORT` prints the keyboard's state and
 * `gbsim ctl hid set KEY=VALUE...` changes the knobs above (but type)
 * for the answers from then on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/hid.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"

#define GBSIM_HID_ENV		"GBSIM_HID"
#define GBSIM_HID_REPORT_LEN	8	/* modifiers, reserved, 6 keys */
#define GBSIM_HID_USAGE		"usage: hid type IFID:CPORT STRING... | hid press IFID:CPORT MODS:USAGE[+USAGE]... | hid show IFID:CPORT | hid set KEY=VALUE..."

#define GBSIM_HID_TIMEOUT	2000	/* ms, for an IRQ_EVENT answer */
#define GBSIM_HID_QUEUE_MAX	65536	/* reports waiting */
#define GBSIM_HID_SHIFT		0x02	/* left shift modifier bit */

/* The boot keyboard of the HID spec: 8-byte input, 1-byte LED output */
static const uint8_t gbsim_hid_rdesc[] = {
	0x05, 0x01,		/* usage page: generic desktop */
	0x09, 0x06,		/* usage: keyboard */
	0xa1, 0x01,		/* collection: application */
	0x05, 0x07,		/*   usage page: keys */
	0x19, 0xe0, 0x29, 0xe7,	/*   usages: left control .. right GUI */
	0x15, 0x00, 0x25, 0x01,	/*   logical 0..1 */
	0x75, 0x01, 0x95, 0x08,	/*   8 x 1 bit */
	0x81, 0x02,		/*   input: modifiers */
	0x95, 0x01, 0x75, 0x08,	/*   1 x 8 bits */
	0x81, 0x01,		/*   input: reserved byte */
	0x95, 0x05, 0x75, 0x01,	/*   5 x 1 bit */
	0x05, 0x08,		/*   usage page: LEDs */
	0x19, 0x01, 0x29, 0x05,	/*   num lock .. kana */
	0x91, 0x02,		/*   output: the LEDs */
	0x95, 0x01, 0x75, 0x03,	/*   1 x 3 bits */
	0x91, 0x01,		/*   output: padding */
	0x95, 0x06, 0x75, 0x08,	/*   6 x 8 bits */
	0x15, 0x00, 0x25, 0x65,	/*   logical 0..101 */
	0x05, 0x07,		/*   usage page: keys */
	0x19, 0x00, 0x29, 0x65,	/*   usages 0..101 */
	0x81, 0x00,		/*   input: key array */
	0xc0,			/* end collection */
};

static struct {
	char		*type;
	unsigned int	delay_ms;
	unsigned int	desc_len;
	unsigned int	rdesc_len;
	unsigned int	blength;
	bool		rdesc_len_set;
	bool		read;
} gbsim_hid_knobs = {
	.delay_ms = 20,
	.desc_len = sizeof(gbsim_hid_rdesc),
	.rdesc_len = sizeof(gbsim_hid_rdesc),
	.blength = sizeof(struct gb_hid_desc_response),
};

/* conn->priv */
struct gbsim_hid {
	struct gbsim_conn	*conn;
	bool			powered;
	uint8_t			leds;
	uint8_t			keys[GBSIM_HID_REPORT_LEN];	/* sent last */
	uint8_t			(*queue)[GBSIM_HID_REPORT_LEN];
	size_t			head, len, max;
	size_t			typed;		/* characters queued */
	uint64_t		timer;
};

/* One KEY=VALUE of GBSIM_HID (or of "hid set"); false if it is not one */
static bool gbsim_hid_knob(const char *tok)
{
	unsigned long v;
	char *type;

	if (!strncmp(tok, "type=", 5)) {
		type = strdup(tok + 5);
		if (!type)
			return false;
		free(gbsim_hid_knobs.type);
		gbsim_hid_knobs.type = type;
	} else if (sscanf(tok, "delay_ms=%lu", &v) == 1 && v >= 1 && v <= 60000) {
		gbsim_hid_knobs.delay_ms = v;
	} else if (sscanf(tok, "desc_len=%lu", &v) == 1 && v <= 0xffff) {
		gbsim_hid_knobs.desc_len = v;
		if (!gbsim_hid_knobs.rdesc_len_set)
			gbsim_hid_knobs.rdesc_len = v;
	} else if (sscanf(tok, "rdesc_len=%lu", &v) == 1 && v <= 0xffff) {
		gbsim_hid_knobs.rdesc_len = v;
		gbsim_hid_knobs.rdesc_len_set = true;
	} else if (sscanf(tok, "blength=%lu", &v) == 1 && v <= 0xff) {
		gbsim_hid_knobs.blength = v;
	} else {
		return false;
	}
	return true;
}

static void gbsim_hid_read_knobs(void)
{
	gbsim_knobs_from_env(GBSIM_HID_ENV, gbsim_hid_knob,
			     &gbsim_hid_knobs.read);
}

/* Punctuation: the keys from 0x2d (minus) to 0x38 (slash), then shifted */
static const char gbsim_hid_punct[2][13] = {
	{ '-', '=', '[', ']', '\\', 0, ';', '\'', '`', ',', '.', '/' },
	{ '_', '+', '{', '}', '|', 0, ':', '"', '~', '<', '>', '?' },
};
static const char gbsim_hid_digits_shifted[] = "!@#$%^&*()";

/* The key for an ASCII character: usage id and whether shift is down */
static bool gbsim_hid_key(char c, uint8_t *usage, bool *shift)
{
	*shift = false;
	if (c >= 'a' && c <= 'z') {
		*usage = 0x04 + (c - 'a');
		return true;
	}
	if (c >= 'A' && c <= 'Z') {
		*usage = 0x04 + (c - 'A');
		*shift = true;
		return true;
	}
	if (c >= '1' && c <= '9') {
		*usage = 0x1e + (c - '1');
		return true;
	}
	switch (c) {
	case '0':
		*usage = 0x27;
		return true;
	case '\n':
		*usage = 0x28;
		return true;
	case '\t':
		*usage = 0x2b;
		return true;
	case ' ':
		*usage = 0x2c;
		return true;
	}
	for (int i = 0; i < 10; i++) {
		if (c == gbsim_hid_digits_shifted[i]) {
			*usage = 0x1e + i;
			*shift = true;
			return true;
		}
	}
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < 12; i++) {
			if (c && c == gbsim_hid_punct[s][i]) {
				*usage = 0x2d + i;
				*shift = s;
				return true;
			}
		}
	}
	return false;
}

/* Queue one input report: the modifier bits and up to six keys down */
static int gbsim_hid_push(struct gbsim_hid *kb, uint8_t mods,
			  const uint8_t *usages, size_t n)
{
	uint8_t *r;

	if (kb->head + kb->len == kb->max) {
		size_t max = kb->max ? 2 * kb->max : 64;
		void *q;

		if (kb->head) {
			memmove(kb->queue, kb->queue + kb->head,
				kb->len * sizeof(*kb->queue));
			kb->head = 0;
		} else if (max > GBSIM_HID_QUEUE_MAX ||
			   !(q = realloc(kb->queue, max * sizeof(*kb->queue)))) {
			return -1;
		} else {
			kb->queue = q;
			kb->max = max;
		}
	}
	r = kb->queue[kb->head + kb->len++];
	memset(r, 0, GBSIM_HID_REPORT_LEN);
	r[0] = mods;
	if (n)	/* a release report passes no keys (NULL) */
		memcpy(r + 2, usages, n);
	return 0;
}

static void gbsim_hid_tick(struct gbsim_loop *loop, void *ctx);

static void gbsim_hid_arm(struct gbsim_hid *kb)
{
	if (kb->timer || !kb->powered || !kb->len)
		return;
	kb->timer = gbsim_loop_add_timer(kb->conn->sim->loop,
					 gbsim_hid_knobs.delay_ms,
					 gbsim_hid_tick, kb);
}

static void gbsim_hid_tick(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_hid *kb = ctx;

	(void)loop;
	kb->timer = 0;
	if (!kb->powered || !kb->len)
		return;
	memcpy(kb->keys, kb->queue[kb->head], GBSIM_HID_REPORT_LEN);
	kb->head++;
	kb->len--;
	gbsim_send_request(kb->conn->sim, kb->conn->hd_cport,
			   GB_HID_TYPE_IRQ_EVENT, kb->keys, sizeof(kb->keys),
			   GBSIM_HID_TIMEOUT, NULL, NULL);
	if (!kb->len) {
		kb->head = 0;
		gbsim_log_info("hid %u: typed %zu keys", kb->conn->intf_id,
			       kb->typed);
		kb->typed = 0;
	}
	gbsim_hid_arm(kb);
}

/* Queue the keys for text; "\n", "\t" and "\\" are escapes */
static int gbsim_hid_type(struct gbsim_hid *kb, const char *text,
			  char *err, size_t errlen)
{
	size_t n = 0;

	for (const char *p = text; *p; p++) {
		char c = *p;
		uint8_t usage;
		bool shift;

		if (c == '\\' && p[1]) {
			p++;
			c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		}
		if (!gbsim_hid_key(c, &usage, &shift)) {
			snprintf(err, errlen, "no key for character 0x%02x",
				 (unsigned char)c);
			return -1;
		}
		if (gbsim_hid_push(kb, shift ? GBSIM_HID_SHIFT : 0, &usage, 1) ||
		    gbsim_hid_push(kb, 0, NULL, 0)) {
			snprintf(err, errlen, "too many keys queued");
			return -1;
		}
		n++;
	}
	kb->typed += n;
	gbsim_log_info("hid %u: typing %zu keys%s", kb->conn->intf_id, n,
		       kb->powered ? "" : " once powered on");
	gbsim_hid_arm(kb);
	return 0;
}

/*
 * Queue chords: each "MODS:USAGE[+USAGE...]" (hexadecimal: the modifier
 * byte, up to six key usages) is pressed in one report and released in
 * the next, for the keys no character stands for (Scroll Lock, SysRq,
 * Delete with Ctrl and Alt held...).
 */
static int gbsim_hid_press(struct gbsim_hid *kb, int argc, char **argv,
			   char *err, size_t errlen)
{
	for (int i = 0; i < argc; i++) {
		uint8_t usages[GBSIM_HID_REPORT_LEN - 2];
		unsigned long v;
		size_t n = 0;
		char *end;

		v = strtoul(argv[i], &end, 16);
		if (end == argv[i] || *end != ':' || v > 0xff)
			goto bad;
		do {
			const char *p = end + 1;
			unsigned long u = strtoul(p, &end, 16);

			if (end == p || u > 0xff || n == sizeof(usages) ||
			    (*end && *end != '+'))
				goto bad;
			usages[n++] = (uint8_t)u;
		} while (*end);
		if (gbsim_hid_push(kb, (uint8_t)v, usages, n) ||
		    gbsim_hid_push(kb, 0, NULL, 0)) {
			snprintf(err, errlen, "too many keys queued");
			return -1;
		}
		kb->typed++;
		continue;
bad:
		snprintf(err, errlen, "bad chord '%.16s' (MODS:USAGE[+USAGE...], hex, six keys at most)",
			 argv[i]);
		return -1;
	}
	gbsim_log_info("hid %u: pressing %d chords%s", kb->conn->intf_id,
		       argc, kb->powered ? "" : " once powered on");
	gbsim_hid_arm(kb);
	return 0;
}

static int gbsim_hid_conn_init(struct gbsim_conn *conn)
{
	struct gbsim_hid *kb;
	char err[64];

	gbsim_hid_read_knobs();
	kb = calloc(1, sizeof(*kb));
	if (!kb)
		return -1;
	kb->conn = conn;
	conn->priv = kb;
	if (gbsim_hid_knobs.type &&
	    gbsim_hid_type(kb, gbsim_hid_knobs.type, err, sizeof(err)))
		gbsim_log_warn("%s: type: %s", GBSIM_HID_ENV, err);
	return 0;
}

static void gbsim_hid_conn_fini(struct gbsim_conn *conn)
{
	struct gbsim_hid *kb = conn->priv;

	if (!kb)
		return;
	if (kb->timer)
		gbsim_loop_cancel_timer(conn->sim->loop, kb->timer);
	free(kb->queue);
	free(kb);
	conn->priv = NULL;
}

static void gbsim_hid_log_leds(struct gbsim_op *op, uint8_t leds)
{
	static const char *const names[] = {
		"num_lock", "caps_lock", "scroll_lock", "compose", "kana",
	};
	char line[96];
	struct gb_buf b = { .p = line, .max = sizeof(line) };

	line[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (leds & (1u << i))
			gb_buf_printf(&b, " %s", names[i]);
	gbsim_log_info("hid %u: output report leds=0x%02x%s", op->intf->id,
		       leds, line[0] ? line : " none");
}

static int gbsim_hid_request(struct gbsim_op *op)
{
	struct gbsim_hid *kb = op->conn->priv;
	size_t n;

	switch (op->type) {
	case GB_HID_TYPE_GET_DESC:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		op->rsp[0] = (uint8_t)gbsim_hid_knobs.blength;
		gbsim_put_le16(op->rsp + 1, gbsim_hid_knobs.desc_len);
		gbsim_put_le16(op->rsp + 3, 0x0111);	/* HID 1.11 */
		gbsim_put_le16(op->rsp + 5, 0x4b42);	/* product "KB" */
		gbsim_put_le16(op->rsp + 7, 0x4753);	/* vendor "GS" */
		op->rsp[9] = 0;
		op->rsp_len = sizeof(struct gb_hid_desc_response);
		return GB_OP_SUCCESS;
	case GB_HID_TYPE_GET_REPORT_DESC:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		n = gbsim_hid_knobs.rdesc_len;
		if (!gbsim_op_rsp_fits(op, n))
			return GB_OP_OVERFLOW;
		memset(op->rsp, 0, n);
		memcpy(op->rsp, gbsim_hid_rdesc,
		       n < sizeof(gbsim_hid_rdesc) ? n : sizeof(gbsim_hid_rdesc));
		op->rsp_len = n;
		return GB_OP_SUCCESS;
	case GB_HID_TYPE_PWR_ON:
	case GB_HID_TYPE_PWR_OFF:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		kb->powered = op->type == GB_HID_TYPE_PWR_ON;
		gbsim_log_info("hid %u: power %s", op->intf->id,
			       kb->powered ? "on" : "off");
		if (!kb->powered && kb->timer) {
			gbsim_loop_cancel_timer(op->sim->loop, kb->timer);
			kb->timer = 0;
		}
		gbsim_hid_arm(kb);
		return GB_OP_SUCCESS;
	case GB_HID_TYPE_GET_REPORT:
		if (!gbsim_op_len_is(op, 2) || op->req[1] != 0)
			return GB_OP_INVALID;
		if (op->req[0] == GB_HID_INPUT_REPORT) {
			memcpy(op->rsp, kb->keys, sizeof(kb->keys));
			op->rsp_len = sizeof(kb->keys);
		} else if (op->req[0] == GB_HID_OUTPUT_REPORT) {
			op->rsp[0] = kb->leds;
			op->rsp_len = 1;
		} else {
			return GB_OP_INVALID;
		}
		return GB_OP_SUCCESS;
	case GB_HID_TYPE_SET_REPORT:
		if (op->req_len != 3 || op->req[0] != GB_HID_OUTPUT_REPORT ||
		    op->req[1] != 0) {
			gbsim_log_info("hid %u: set report of %zu bytes refused",
				       op->intf->id, op->req_len);
			return GB_OP_INVALID;
		}
		kb->leds = op->req[2];
		gbsim_hid_log_leds(op, kb->leds);
		return GB_OP_SUCCESS;
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

static struct gbsim_proto gbsim_proto_hid = {
	.id		= GREYBUS_PROTOCOL_HID,
	.name		= "hid",
	.request	= gbsim_hid_request,
	.conn_init	= gbsim_hid_conn_init,
	.conn_fini	= gbsim_hid_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_hid);

/* The HID connection to IFID:CPORT */
static struct gbsim_hid *gbsim_hid_find(struct gbsim *sim, const char *word,
					struct gbsim_ctl_out *out)
{
	unsigned int intf, cport;
	char end;

	if (sscanf(word, "%u:%u%c", &intf, &cport, &end) != 2) {
		gbsim_ctl_fail(out, "'%s' is not IFID:CPORT", word);
		return NULL;
	}
	for (unsigned int i = 1; i < sim->num_cports; i++) {
		struct gbsim_conn *c = sim->conns[i];

		if (c && c->intf_id == intf && c->intf_cport == cport &&
		    !gbsim_conn_stale(sim, c) &&
		    c->protocol == GREYBUS_PROTOCOL_HID && c->priv)
			return c->priv;
	}
	gbsim_ctl_fail(out, "no HID connection to interface %u cport %u",
		       intf, cport);
	return NULL;
}

/* "hid set KEY=VALUE...": the knobs, for the answers from now on */
static int gbsim_hid_cmd_set(int argc, char **argv, struct gbsim_ctl_out *out)
{
	gbsim_hid_read_knobs();
	for (int i = 2; i < argc; i++) {
		if (!strncmp(argv[i], "type=", 5) || !gbsim_hid_knob(argv[i]))
			return gbsim_ctl_fail(out, "bad hid setting '%.32s' (delay_ms, desc_len, rdesc_len, blength)",
					      argv[i]);
	}
	return 0;
}

int gbsim_cmd_hid(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out)
{
	struct gbsim_hid *kb;
	char text[4096], err[96];
	size_t len = 0;

	if (argc >= 3 && !strcmp(argv[1], "set"))
		return gbsim_hid_cmd_set(argc, argv, out);
	if (argc < 3 || (strcmp(argv[1], "type") && strcmp(argv[1], "show") &&
			 strcmp(argv[1], "press")))
		return gbsim_ctl_fail(out, "%s", GBSIM_HID_USAGE);
	kb = gbsim_hid_find(sim, argv[2], out);
	if (!kb)
		return -1;
	if (!strcmp(argv[1], "show")) {
		gbsim_ctl_printf(out, "powered=%d leds=0x%02x queued=%zu\n",
				 kb->powered, kb->leds, kb->len);
		return 0;
	}
	if (argc < 4)
		return gbsim_ctl_fail(out, "usage: hid %s IFID:CPORT %s...", argv[1],
				      strcmp(argv[1], "press") ? "STRING" : "MODS:USAGE[+USAGE]");
	if (!strcmp(argv[1], "press")) {
		if (gbsim_hid_press(kb, argc - 3, argv + 3, err, sizeof(err)))
			return gbsim_ctl_fail(out, "%s", err);
		return 0;
	}
	text[0] = '\0';
	for (int i = 3; i < argc; i++) {
		int n = snprintf(text + len, sizeof(text) - len, "%s%s",
				 i > 3 ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(text) - len)
			return gbsim_ctl_fail(out, "text longer than %zu bytes",
					      sizeof(text) - 1);
		len += (size_t)n;
	}
	if (gbsim_hid_type(kb, text, err, sizeof(err)))
		return gbsim_ctl_fail(out, "%s", err);
	return 0;
}
