// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's trust rules (gb_rules.h): the functions of a bundle and the
 * parser and matcher of rule lines.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <uapi/greybus/greybus.h>

#include "gb_rules.h"

const char *const gb_rules_fn_names[GB_FN_COUNT] = {
	[GB_FN_GPIO]		= "gpio",
	[GB_FN_I2C]		= "i2c",
	[GB_FN_SPI]		= "spi",
	[GB_FN_PWM]		= "pwm",
	[GB_FN_LIGHTS]		= "lights",
	[GB_FN_LOOPBACK]	= "loopback",
	[GB_FN_LOG]		= "log",
	[GB_FN_POWER_SUPPLY]	= "power-supply",
	[GB_FN_VIBRATOR]	= "vibrator",
	[GB_FN_UART]		= "uart",
	[GB_FN_SDIO]		= "sdio",
	[GB_FN_USB]		= "usb",
	[GB_FN_HID]		= "hid",
	[GB_FN_RAW]		= "raw",
	[GB_FN_FIRMWARE]	= "firmware",
	[GB_FN_BOOTROM]		= "bootrom",
	[GB_FN_AUDIO]		= "audio",
	[GB_FN_CAMERA]		= "camera",
	[GB_FN_DISPLAY]		= "display",
	[GB_FN_SENSOR]		= "sensor",
	[GB_FN_VENDOR]		= "vendor",
	[GB_FN_OTHER]		= "other",
};

uint32_t gb_rules_fn_of_class(uint8_t bundle_class)
{
	switch (bundle_class) {
	case GREYBUS_CLASS_HID:			return GB_FN(GB_FN_HID);
	case GREYBUS_CLASS_POWER_SUPPLY:	return GB_FN(GB_FN_POWER_SUPPLY);
	case GREYBUS_CLASS_DISPLAY:		return GB_FN(GB_FN_DISPLAY);
	case GREYBUS_CLASS_CAMERA:		return GB_FN(GB_FN_CAMERA);
	case GREYBUS_CLASS_SENSOR:		return GB_FN(GB_FN_SENSOR);
	case GREYBUS_CLASS_LIGHTS:		return GB_FN(GB_FN_LIGHTS);
	case GREYBUS_CLASS_VIBRATOR:		return GB_FN(GB_FN_VIBRATOR);
	case GREYBUS_CLASS_LOOPBACK:		return GB_FN(GB_FN_LOOPBACK);
	case GREYBUS_CLASS_AUDIO:		return GB_FN(GB_FN_AUDIO);
	case GREYBUS_CLASS_BOOTROM:		return GB_FN(GB_FN_BOOTROM);
	case GREYBUS_CLASS_FW_MANAGEMENT:	return GB_FN(GB_FN_FIRMWARE);
	case GREYBUS_CLASS_LOG:			return GB_FN(GB_FN_LOG);
	case GREYBUS_CLASS_RAW:			return GB_FN(GB_FN_RAW);
	case GREYBUS_CLASS_VENDOR:		return GB_FN(GB_FN_VENDOR);
	default:				return GB_FN(GB_FN_OTHER);
	}
}

uint32_t gb_rules_fn_of_protocol(uint8_t protocol)
{
	switch (protocol) {
	case GREYBUS_PROTOCOL_GPIO:	return GB_FN(GB_FN_GPIO);
	case GREYBUS_PROTOCOL_I2C:	return GB_FN(GB_FN_I2C);
	case GREYBUS_PROTOCOL_UART:	return GB_FN(GB_FN_UART);
	case GREYBUS_PROTOCOL_USB:	return GB_FN(GB_FN_USB);
	case GREYBUS_PROTOCOL_SDIO:	return GB_FN(GB_FN_SDIO);
	case GREYBUS_PROTOCOL_PWM:	return GB_FN(GB_FN_PWM);
	case GREYBUS_PROTOCOL_SPI:	return GB_FN(GB_FN_SPI);
	default:			return GB_FN(GB_FN_OTHER);
	}
}

static int gb_rules_fn_word(const char *w, size_t n, uint32_t *mask)
{
	static const struct {
		const char *name;
		uint32_t mask;
	} sets[] = {
		{ "default", GB_FN_DEFAULT },
		{ "all", GB_FN_ALL },
		{ "none", 0 },
	};

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		if (strlen(sets[i].name) == n && !memcmp(w, sets[i].name, n)) {
			*mask |= sets[i].mask;
			return 0;
		}
	}
	for (int f = 0; f < GB_FN_COUNT; f++) {
		if (strlen(gb_rules_fn_names[f]) == n &&
		    !memcmp(w, gb_rules_fn_names[f], n)) {
			*mask |= GB_FN(f);
			return 0;
		}
	}
	return -1;
}

int gb_rules_fn_parse(const char *words, uint32_t *mask)
{
	uint32_t m = 0;
	const char *p = words;

	for (;;) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);

		if (!n || gb_rules_fn_word(p, n, &m))
			return -1;
		if (!c)
			break;
		p = c + 1;
	}
	*mask = m;
	return 0;
}

char *gb_rules_fn_format(uint32_t mask, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (int f = 0; f < GB_FN_COUNT; f++) {
		int n;

		if (!(mask & GB_FN(f)))
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? "," : "",
			     gb_rules_fn_names[f]);
		if (n < 0 || (size_t)n >= len - off)
			return buf;	/* truncated, still terminated */
		off += (size_t)n;
	}
	if (!off)
		snprintf(buf, len, "none");
	return buf;
}

static void gb_rules_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * The next word of *@pp into @out (at most @outlen - 1 bytes): runs of
 * non-blanks, and "..." anywhere in them, with \" and \\.  1 a word, 0 the
 * end, -1 an error (said in @err).
 */
static int gb_rules_word(const char **pp, char *out, size_t outlen,
			 char *err, size_t errlen)
{
	const char *p = *pp;
	size_t n = 0;
	bool quoted = false;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '#')
		return 0;
	while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
		char c = *p++;

		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (quoted && c == '\\') {
			if (*p != '"' && *p != '\\') {
				gb_rules_err(err, errlen,
					     "only \\\" and \\\\ may follow a backslash");
				return -1;
			}
			c = *p++;
		}
		if ((unsigned char)c < 0x20 || c == 0x7f) {
			gb_rules_err(err, errlen, "control character in a rule");
			return -1;
		}
		if (n + 1 >= outlen) {
			gb_rules_err(err, errlen, "word longer than %zu bytes",
				     outlen - 1);
			return -1;
		}
		out[n++] = c;
	}
	if (quoted) {
		gb_rules_err(err, errlen, "unterminated quote");
		return -1;
	}
	out[n] = '\0';
	*pp = p;
	return 1;
}

static int gb_rules_addr(struct gb_rule *r, const char *v, char *err,
			 size_t errlen)
{
	char ip[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(v, '/');
	size_t n = slash ? (size_t)(slash - v) : strlen(v);
	unsigned int max, prefix;

	if (n >= sizeof(ip))
		goto bad;
	memcpy(ip, v, n);
	ip[n] = '\0';
	if (inet_pton(AF_INET, ip, r->addr) == 1) {
		r->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, ip, r->addr) == 1) {
		r->family = AF_INET6;
		max = 128;
	} else {
		goto bad;
	}
	prefix = max;
	if (slash) {
		const char *d = slash + 1;

		if (!*d || strlen(d) > 3)
			goto bad;
		prefix = 0;
		for (; *d; d++) {
			if (*d < '0' || *d > '9')
				goto bad;
			prefix = prefix * 10 + (unsigned int)(*d - '0');
		}
		if (prefix > max)
			goto bad;
	}
	r->prefix = prefix;
	r->has_addr = true;
	return 0;
bad:
	gb_rules_err(err, errlen,
		     "addr '%s' is not an IPv4 or IPv6 address[/prefix length]",
		     v);
	return -1;
}

int gb_rule_parse(const char *line, struct gb_rule *rule, char *err,
		  size_t errlen)
{
	char word[GB_RULES_LINE_MAX];
	struct gb_rule r;
	bool allow = false, any = false;
	int ret;

	memset(&r, 0, sizeof(r));
	if (strlen(line) >= GB_RULES_LINE_MAX) {
		gb_rules_err(err, errlen, "rule longer than %d bytes",
			     GB_RULES_LINE_MAX - 1);
		return -1;
	}
	while ((ret = gb_rules_word(&line, word, sizeof(word), err,
				    errlen)) > 0) {
		char *eq = strchr(word, '=');
		const char *v = eq ? eq + 1 : NULL;

		if (allow) {
			uint32_t m;

			if (gb_rules_fn_parse(word, &m)) {
				gb_rules_err(err, errlen,
					     "unknown function in '%s' (gpio, i2c, spi, pwm, lights, loopback, log, power-supply, vibrator, uart, sdio, usb, hid, raw, firmware, bootrom, audio, camera, display, sensor, vendor, other, default, all, none)",
					     word);
				return -1;
			}
			r.allow |= m;
			any = true;
			continue;
		}
		if (!strcmp(word, "allow")) {
			allow = true;
			continue;
		}
		if (eq)
			*eq = '\0';
		if (!v) {
			gb_rules_err(err, errlen,
				     "'%s': expected addr=, vendor=, product=, via=, fingerprint=, subject= or allow",
				     word);
			return -1;
		}
		if (!strcmp(word, "addr") && !r.has_addr) {
			if (gb_rules_addr(&r, v, err, errlen))
				return -1;
		} else if ((!strcmp(word, "vendor") && !r.has_vendor) ||
			   (!strcmp(word, "product") && !r.has_product)) {
			bool vendor = word[0] == 'v';

			if (strlen(v) >= GB_RULES_STR_MAX) {
				gb_rules_err(err, errlen, "%s string longer than %d bytes",
					     word, GB_RULES_STR_MAX - 1);
				return -1;
			}
			strcpy(vendor ? r.vendor : r.product, v);
			*(vendor ? &r.has_vendor : &r.has_product) = true;
		} else if (!strcmp(word, "fingerprint") && !r.has_fingerprint) {
			size_t k = 0;

			for (const char *c = v; *c; c++) {
				char ch = *c;

				if (ch == ':')
					continue;
				if (ch >= 'A' && ch <= 'F')
					ch = (char)(ch - 'A' + 'a');
				if (!((ch >= '0' && ch <= '9') ||
				      (ch >= 'a' && ch <= 'f')) || k == 64) {
					k = 0;
					break;
				}
				r.fingerprint[k++] = ch;
			}
			if (k != 64) {
				gb_rules_err(err, errlen,
					     "fingerprint='%s': the SHA-256 of the certificate, 64 hex digits",
					     v);
				return -1;
			}
			r.fingerprint[64] = '\0';
			r.has_fingerprint = true;
		} else if (!strcmp(word, "subject") && !r.has_subject) {
			if (strlen(v) >= sizeof(r.subject)) {
				gb_rules_err(err, errlen, "subject longer than %zu bytes",
					     sizeof(r.subject) - 1);
				return -1;
			}
			strcpy(r.subject, v);
			r.has_subject = true;
		} else if (!strcmp(word, "via") && !r.via) {
			if (!strcmp(v, "static"))
				r.via = GB_RULE_VIA_STATIC;
			else if (!strcmp(v, "mdns"))
				r.via = GB_RULE_VIA_MDNS;
			else {
				gb_rules_err(err, errlen,
					     "via='%s': static or mdns", v);
				return -1;
			}
		} else if (!strcmp(word, "addr") || !strcmp(word, "vendor") ||
			   !strcmp(word, "product") || !strcmp(word, "via") ||
			   !strcmp(word, "fingerprint") || !strcmp(word, "subject")) {
			gb_rules_err(err, errlen, "%s= given twice", word);
			return -1;
		} else {
			gb_rules_err(err, errlen,
				     "unknown match '%s' (addr, vendor, product, via, fingerprint, subject)",
				     word);
			return -1;
		}
	}
	if (ret < 0)
		return -1;
	if (!allow || !any) {
		gb_rules_err(err, errlen,
			     "a rule ends with 'allow FUNCTION...' (or 'allow none')");
		return -1;
	}
	*rule = r;
	return 0;
}

static bool gb_rules_addr_matches(const struct gb_rule *r, const char *addr)
{
	uint8_t a[16];
	unsigned int bits = r->prefix, i;

	if (!addr || inet_pton(r->family, addr, a) != 1)
		return false;
	for (i = 0; bits >= 8; i++, bits -= 8) {
		if (a[i] != r->addr[i])
			return false;
	}
	if (bits) {
		uint8_t m = (uint8_t)(0xff << (8 - bits));

		if ((a[i] & m) != (r->addr[i] & m))
			return false;
	}
	return true;
}

bool gb_rule_matches(const struct gb_rule *rule,
		     const struct gb_rules_node *node)
{
	if (rule->has_addr && !gb_rules_addr_matches(rule, node->addr))
		return false;
	if (rule->has_vendor &&
	    (!node->vendor || strcmp(rule->vendor, node->vendor)))
		return false;
	if (rule->has_product &&
	    (!node->product || strcmp(rule->product, node->product)))
		return false;
	if (rule->has_fingerprint &&
	    (!node->fingerprint || strcmp(rule->fingerprint, node->fingerprint)))
		return false;
	if (rule->has_subject &&
	    (!node->subject || strcmp(rule->subject, node->subject)))
		return false;
	if (rule->via == GB_RULE_VIA_STATIC && node->mdns)
		return false;
	if (rule->via == GB_RULE_VIA_MDNS && !node->mdns)
		return false;
	return true;
}
