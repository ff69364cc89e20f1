// SPDX-License-Identifier: GPL-2.0
/*
 * lsgb: the tree as text, in the manner of "lsusb -t":
 *
 *   /:  Bus 1: greybus1, Parent=greybus-vhd
 *       |__ SVC 1-svc: Endo=0x4755, AP Interface=0
 *           |__ Connection 0/0:0: AP CPort=0, CPort=0, Protocol=0x14 (svc), State=enabled
 *       |__ Module 1-2: Interfaces=1
 *           |__ Interface 1-2.2: Type=greybus, Vendor=0x12345678 "Project Ara", ...
 *
 * A node at depth d starts with 4d spaces and "|__ " (the host devices,
 * depth 0, with "/:  "); -v adds its attributes below it, indented as
 * its children would be, without the "|__ ".
 */
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/greybus.h>

#include "gb_msg.h"
#include "lsgb.h"

/* Length of the valid UTF-8 sequence at @s (1..4), or 0 */
static size_t lsgb_utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	/* Overlong three- and four-byte forms, surrogates, > U+10FFFF */
	if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) ||
		       (s[0] == 0xed && s[1] >= 0xa0)))
		return 0;
	if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) ||
		       (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return n;
}

/*
 * Prints @s so that one value stays on one line and bytes that are not
 * text cannot reach the terminal: \n, \t, \\, \xNN; with @quoted, the
 * string is in double quotes and '"' is \".
 */
static void lsgb_put_text(FILE *out, const char *str, bool quoted)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	if (quoted)
		fputc('"', out);
	while (*s) {
		if (*s == '\n') {
			fputs("\\n", out);
		} else if (*s == '\t') {
			fputs("\\t", out);
		} else if (*s == '\\') {
			fputs("\\\\", out);
		} else if (*s == '"' && quoted) {
			fputs("\\\"", out);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(out, "\\x%02x", *s);
		} else if (*s >= 0x80) {
			n = lsgb_utf8_len(s);
			if (!n) {
				fprintf(out, "\\x%02x", *s);
			} else {
				fwrite(s, 1, n, out);
				s += n - 1;
			}
		} else {
			fputc(*s, out);
		}
		s++;
	}
	if (quoted)
		fputc('"', out);
}

static void lsgb_indent(FILE *out, int depth)
{
	int i;

	if (!depth) {
		fputs("/:  ", out);
		return;
	}
	for (i = 0; i < depth; i++)
		fputs("    ", out);
	fputs("|__ ", out);
}

static void lsgb_info_indent(FILE *out, int depth)
{
	int i;

	for (i = 0; i <= depth; i++)
		fputs("    ", out);
}

/* "KEY=value" of an attribute, "KEY=?" when it could not be read */
static void lsgb_field(FILE *out, bool *first, const char *key,
		       const char *value)
{
	fputs(*first ? ": " : ", ", out);
	*first = false;
	fprintf(out, "%s=", key);
	lsgb_put_text(out, value ? value : "?", false);
}

static void lsgb_id_field(FILE *out, bool *first, const char *key,
			  const char *id, const char *string)
{
	lsgb_field(out, first, key, id);
	if (string && *string) {
		fputc(' ', out);
		lsgb_put_text(out, string, true);
	}
}

static void lsgb_dev_line(FILE *out, const struct lsgb_dev *dev)
{
	const struct lsgb_dev *ctrl;
	unsigned long long class;
	const char *vs = NULL, *ps = NULL;
	bool first = true;
	char buf[64];

	switch (dev->kind) {
	case LSGB_HOST:
		fprintf(out, "Bus %u: ", dev->bus);
		first = !dev->present;
		break;
	case LSGB_SVC:
		fputs("SVC ", out);
		break;
	case LSGB_MODULE:
		fputs("Module ", out);
		break;
	case LSGB_INTF:
		fputs("Interface ", out);
		break;
	case LSGB_CTRL:
		fputs("Control ", out);
		break;
	case LSGB_BUNDLE:
		fputs("Bundle ", out);
		break;
	default:
		fputs("Device ", out);
		break;
	}
	lsgb_put_text(out, dev->name, false);
	if (!dev->present) {
		fputs(" (not in sysfs)\n", out);
		return;
	}

	switch (dev->kind) {
	case LSGB_HOST:
		if (dev->parent_name)
			lsgb_field(out, &first, "Parent", dev->parent_name);
		break;
	case LSGB_SVC:
		lsgb_field(out, &first, "Endo", lsgb_attr(dev, "endo_id"));
		lsgb_field(out, &first, "AP Interface",
			   lsgb_attr(dev, "ap_intf_id"));
		break;
	case LSGB_MODULE:
		lsgb_field(out, &first, "Interfaces",
			   lsgb_attr(dev, "num_interfaces"));
		break;
	case LSGB_INTF:
		lsgb_field(out, &first, "Type",
			   lsgb_attr(dev, "interface_type"));
		ctrl = lsgb_child(dev, LSGB_CTRL);
		if (ctrl) {
			vs = lsgb_attr(ctrl, "vendor_string");
			ps = lsgb_attr(ctrl, "product_string");
		}
		if (lsgb_attr(dev, "vendor_id") || vs)
			lsgb_id_field(out, &first, "Vendor",
				      lsgb_attr(dev, "vendor_id"), vs);
		if (lsgb_attr(dev, "product_id") || ps)
			lsgb_id_field(out, &first, "Product",
				      lsgb_attr(dev, "product_id"), ps);
		break;
	case LSGB_BUNDLE:
		if (lsgb_attr_num(dev, "bundle_class", &class) && class <= 0xff) {
			snprintf(buf, sizeof(buf), "0x%02llx (%s)", class,
				 gb_class_name((uint8_t)class));
			lsgb_field(out, &first, "Class", buf);
		} else {
			lsgb_field(out, &first, "Class",
				   lsgb_attr(dev, "bundle_class"));
		}
		lsgb_field(out, &first, "Driver",
			   dev->driver ? dev->driver : "none");
		break;
	default:
		if (dev->driver)
			lsgb_field(out, &first, "Driver", dev->driver);
		break;
	}
	fputc('\n', out);
}

static void lsgb_attrs_text(FILE *out, const struct lsgb_dev *dev, int depth)
{
	const struct lsgb_attr *a;
	char err[128];
	size_t i;

	for (i = 0; i < dev->nattrs; i++) {
		a = &dev->attrs[i];
		lsgb_info_indent(out, depth);
		lsgb_put_text(out, a->name, false);
		fputs(": ", out);
		if (a->write_only) {
			fputs("(write-only)", out);
		} else if (!a->value) {
			snprintf(err, sizeof(err), "(unreadable: %s)",
				 strerror(a->err));
			fputs(err, out);
		} else {
			lsgb_put_text(out, a->value, false);
		}
		fputc('\n', out);
	}
}

static void lsgb_conn_text(FILE *out, const struct lsgb_conn *c, int depth,
			   const struct lsgb_opts *opts)
{
	size_t i;

	lsgb_indent(out, depth);
	fputs("Connection ", out);
	lsgb_put_text(out, c->name, false);
	fprintf(out, ": AP CPort=%u, CPort=%u, Protocol=0x%02x (%s), State=",
		c->hd_cport, c->cport, c->protocol,
		gb_protocol_name((uint8_t)c->protocol));
	lsgb_put_text(out, c->state, false);
	fputc('\n', out);
	if (!opts->verbose || !c->nstats)
		return;
	lsgb_info_indent(out, depth);
	for (i = 0; i < c->nstats; i++)
		fprintf(out, "%s%s=%llu", i ? " " : "", lsgb_conn_stat_names[i],
			c->stats[i]);
	fputc('\n', out);
}

static void lsgb_dev_text(FILE *out, const struct lsgb_dev *dev, int depth,
			  const struct lsgb_opts *opts)
{
	size_t i;

	lsgb_indent(out, depth);
	lsgb_dev_line(out, dev);
	if (opts->verbose) {
		if (dev->driver && dev->kind != LSGB_BUNDLE &&
		    dev->kind != LSGB_OTHER) {
			lsgb_info_indent(out, depth);
			fputs("driver: ", out);
			lsgb_put_text(out, dev->driver, false);
			fputc('\n', out);
		}
		lsgb_attrs_text(out, dev, depth);
	}

	/* The control device before the bundles, connections after them */
	for (i = 0; i < dev->nchildren; i++)
		lsgb_dev_text(out, dev->children[i], depth + 1, opts);
	for (i = 0; i < dev->nconns; i++)
		lsgb_conn_text(out, dev->conns[i], depth + 1, opts);
}

void lsgb_print_text(FILE *out, const struct lsgb_tree *tree,
		     const struct lsgb_opts *opts)
{
	const struct lsgb_dev *dev;
	size_t i;

	for (i = 0; i < tree->root.nchildren; i++) {
		dev = tree->root.children[i];
		if (dev->kind == LSGB_HOST) {
			lsgb_dev_text(out, dev, 0, opts);
		} else {
			/* Not below a host device: listed on its own */
			fputs("/:  ", out);
			lsgb_dev_line(out, dev);
			if (opts->verbose)
				lsgb_attrs_text(out, dev, 0);
		}
	}
}
