// SPDX-License-Identifier: GPL-2.0
/*
 * lsgb -j: the tree as one JSON object (docs/lsgb.md has the schema).
 *
 * Numbers the kernel prints in decimal or hex become JSON numbers, except
 * the 64-bit serial number, which stays a "0x..." string (JSON readers
 * often hold numbers in doubles).  An attribute the device does not have,
 * or that could not be read, is null.  -v adds "attributes": every file
 * of the device directory as a string (null if unreadable or write-only).
 */
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/greybus.h>

#include "gb_msg.h"
#include "lsgb.h"

#define LSGB_JSON_DEPTH	32

struct lsgb_json {
	FILE	*out;
	int	depth;
	bool	need_comma[LSGB_JSON_DEPTH];
};

static void lsgb_json_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int cp;
	size_t n, i;

	fputc('"', out);
	for (; *s; s++) {
		switch (*s) {
		case '"':	fputs("\\\"", out); continue;
		case '\\':	fputs("\\\\", out); continue;
		case '\n':	fputs("\\n", out); continue;
		case '\t':	fputs("\\t", out); continue;
		case '\r':	fputs("\\r", out); continue;
		default:	break;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(out, "\\u%04x", *s);
			continue;
		}
		if (*s < 0x80) {
			fputc(*s, out);
			continue;
		}
		/* Valid UTF-8 goes through; anything else is U+FFFD */
		if (*s >= 0xc2 && *s <= 0xdf) {
			n = 2;
			cp = *s & 0x1f;
		} else if (*s >= 0xe0 && *s <= 0xef) {
			n = 3;
			cp = *s & 0x0f;
		} else if (*s >= 0xf0 && *s <= 0xf4) {
			n = 4;
			cp = *s & 0x07;
		} else {
			fputs("\\ufffd", out);
			continue;
		}
		for (i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				break;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if (i < n || (n == 3 && cp < 0x800) ||
		    (cp >= 0xd800 && cp <= 0xdfff) ||
		    (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
			fputs("\\ufffd", out);
			continue;
		}
		fwrite(s, 1, n, out);
		s += n - 1;
	}
	fputc('"', out);
}

/* Starts a member ("key": ) of an object, or an element of an array */
static void lsgb_json_key(struct lsgb_json *j, const char *key)
{
	int i;

	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = true;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
	if (key) {
		lsgb_json_str(j->out, key);
		fputs(": ", j->out);
	}
}

static void lsgb_json_open(struct lsgb_json *j, const char *key, char c)
{
	if (j->depth)
		lsgb_json_key(j, key);
	fputc(c, j->out);
	/* The tree is at most 11 levels deep */
	j->depth++;
	j->need_comma[j->depth] = false;
}

static void lsgb_json_close(struct lsgb_json *j, char c)
{
	bool had = j->need_comma[j->depth];
	int i;

	j->depth--;
	if (had) {
		fputc('\n', j->out);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	fputc(c, j->out);
}

static void lsgb_json_string(struct lsgb_json *j, const char *key,
			     const char *value)
{
	lsgb_json_key(j, key);
	if (value)
		lsgb_json_str(j->out, value);
	else
		fputs("null", j->out);
}

static void lsgb_json_uint(struct lsgb_json *j, const char *key,
			   unsigned long long value)
{
	lsgb_json_key(j, key);
	fprintf(j->out, "%llu", value);
}

static void lsgb_json_bool(struct lsgb_json *j, const char *key, bool value)
{
	lsgb_json_key(j, key);
	fputs(value ? "true" : "false", j->out);
}

/* The attribute as a number, null if absent or not a number */
static void lsgb_json_attr_num(struct lsgb_json *j, const char *key,
			       const struct lsgb_dev *dev, const char *attr)
{
	unsigned long long v;

	if (dev && lsgb_attr_num(dev, attr, &v)) {
		lsgb_json_uint(j, key, v);
	} else {
		lsgb_json_key(j, key);
		fputs("null", j->out);
	}
}

static void lsgb_json_attr_str(struct lsgb_json *j, const char *key,
			       const struct lsgb_dev *dev, const char *attr)
{
	lsgb_json_string(j, key, dev ? lsgb_attr(dev, attr) : NULL);
}

static void lsgb_json_conns(struct lsgb_json *j, const struct lsgb_dev *dev)
{
	const struct lsgb_conn *c;
	size_t i, k;

	lsgb_json_open(j, "connections", '[');
	for (i = 0; i < dev->nconns; i++) {
		c = dev->conns[i];
		lsgb_json_open(j, NULL, '{');
		lsgb_json_string(j, "name", c->name);
		lsgb_json_uint(j, "hd_cport_id", c->hd_cport);
		lsgb_json_uint(j, "interface_id", c->intf_id);
		lsgb_json_uint(j, "cport_id", c->cport);
		lsgb_json_uint(j, "protocol", c->protocol);
		lsgb_json_string(j, "protocol_name",
				 gb_protocol_name((uint8_t)c->protocol));
		lsgb_json_string(j, "state", c->state);
		for (k = 0; k < LSGB_CONN_NSTATS; k++) {
			if (k < c->nstats) {
				lsgb_json_uint(j, lsgb_conn_stat_names[k],
					       c->stats[k]);
			} else {
				lsgb_json_key(j, lsgb_conn_stat_names[k]);
				fputs("null", j->out);
			}
		}
		lsgb_json_close(j, '}');
	}
	lsgb_json_close(j, ']');
}

static void lsgb_json_attrs(struct lsgb_json *j, const struct lsgb_dev *dev,
			    const struct lsgb_opts *opts)
{
	size_t i;

	if (!opts->verbose)
		return;
	lsgb_json_open(j, "attributes", '{');
	for (i = 0; i < dev->nattrs; i++)
		lsgb_json_string(j, dev->attrs[i].name, dev->attrs[i].value);
	lsgb_json_close(j, '}');
}

/* Members every device object has */
static void lsgb_json_common(struct lsgb_json *j, const struct lsgb_dev *dev)
{
	lsgb_json_string(j, "name", dev->name);
	lsgb_json_bool(j, "present", dev->present);
}

static void lsgb_json_children(struct lsgb_json *j, const char *key,
			       const struct lsgb_dev *dev, enum lsgb_kind kind,
			       const struct lsgb_opts *opts);

static void lsgb_json_dev(struct lsgb_json *j, const char *key,
			  const struct lsgb_dev *dev,
			  const struct lsgb_opts *opts)
{
	const struct lsgb_dev *ctrl;
	unsigned long long class;

	if (!dev) {
		lsgb_json_key(j, key);
		fputs("null", j->out);
		return;
	}
	lsgb_json_open(j, key, '{');
	lsgb_json_common(j, dev);

	switch (dev->kind) {
	case LSGB_HOST:
		lsgb_json_uint(j, "bus_id", dev->bus);
		lsgb_json_string(j, "parent", dev->parent_name);
		lsgb_json_bool(j, "connections_read", dev->conns_read);
		lsgb_json_string(j, "connections_error",
				 dev->conns_read ? NULL : strerror(dev->conns_err));
		lsgb_json_attrs(j, dev, opts);
		lsgb_json_dev(j, "svc", lsgb_child(dev, LSGB_SVC), opts);
		lsgb_json_children(j, "modules", dev, LSGB_MODULE, opts);
		lsgb_json_children(j, "other_devices", dev, LSGB_OTHER, opts);
		break;
	case LSGB_SVC:
		lsgb_json_attr_num(j, "endo_id", dev, "endo_id");
		lsgb_json_attr_num(j, "ap_intf_id", dev, "ap_intf_id");
		lsgb_json_attrs(j, dev, opts);
		break;
	case LSGB_MODULE:
		lsgb_json_uint(j, "module_id", dev->module);
		lsgb_json_attr_num(j, "num_interfaces", dev, "num_interfaces");
		lsgb_json_attrs(j, dev, opts);
		lsgb_json_children(j, "interfaces", dev, LSGB_INTF, opts);
		break;
	case LSGB_INTF:
		ctrl = lsgb_child(dev, LSGB_CTRL);
		lsgb_json_uint(j, "interface_id", dev->intf);
		lsgb_json_attr_str(j, "interface_type", dev, "interface_type");
		lsgb_json_attr_num(j, "vendor_id", dev, "vendor_id");
		lsgb_json_attr_num(j, "product_id", dev, "product_id");
		lsgb_json_attr_str(j, "vendor_string", ctrl, "vendor_string");
		lsgb_json_attr_str(j, "product_string", ctrl, "product_string");
		lsgb_json_attr_str(j, "serial_number", dev, "serial_number");
		lsgb_json_attr_num(j, "ddbl1_manufacturer_id", dev,
				   "ddbl1_manufacturer_id");
		lsgb_json_attr_num(j, "ddbl1_product_id", dev,
				   "ddbl1_product_id");
		lsgb_json_attrs(j, dev, opts);
		lsgb_json_dev(j, "control", ctrl, opts);
		lsgb_json_children(j, "bundles", dev, LSGB_BUNDLE, opts);
		break;
	case LSGB_CTRL:
		lsgb_json_attrs(j, dev, opts);
		break;
	case LSGB_BUNDLE:
		lsgb_json_uint(j, "bundle_id", dev->bundle);
		if (lsgb_attr_num(dev, "bundle_class", &class) && class <= 0xff) {
			lsgb_json_uint(j, "class", class);
			lsgb_json_string(j, "class_name",
					 gb_class_name((uint8_t)class));
		} else {
			lsgb_json_string(j, "class", NULL);
			lsgb_json_string(j, "class_name", NULL);
		}
		lsgb_json_string(j, "driver", dev->driver);
		lsgb_json_attr_str(j, "state", dev, "state");
		lsgb_json_attrs(j, dev, opts);
		break;
	default:
		lsgb_json_string(j, "driver", dev->driver);
		lsgb_json_attrs(j, dev, opts);
		break;
	}
	if (dev->kind != LSGB_MODULE && dev->kind != LSGB_BUNDLE &&
	    dev->kind != LSGB_OTHER)
		lsgb_json_conns(j, dev);
	lsgb_json_close(j, '}');
}

static void lsgb_json_children(struct lsgb_json *j, const char *key,
			       const struct lsgb_dev *dev, enum lsgb_kind kind,
			       const struct lsgb_opts *opts)
{
	size_t i;

	lsgb_json_open(j, key, '[');
	for (i = 0; i < dev->nchildren; i++) {
		if (dev->children[i]->kind == kind)
			lsgb_json_dev(j, NULL, dev->children[i], opts);
	}
	lsgb_json_close(j, ']');
}

void lsgb_print_json(FILE *out, const struct lsgb_tree *tree,
		     const struct lsgb_opts *opts)
{
	struct lsgb_json j = { .out = out };

	lsgb_json_open(&j, NULL, '{');
	lsgb_json_string(&j, "sysfs", tree->sysfs);
	lsgb_json_string(&j, "debugfs", tree->debugfs);
	lsgb_json_children(&j, "hosts", &tree->root, LSGB_HOST, opts);
	lsgb_json_children(&j, "other_devices", &tree->root, LSGB_OTHER, opts);
	lsgb_json_close(&j, '}');
	fputc('\n', out);
}
