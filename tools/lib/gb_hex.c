// SPDX-License-Identifier: GPL-2.0
/*
 * Hex bytes from command lines: gb_hex.h.
 */
#include <string.h>

#include "gb_hex.h"

int gb_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void gb_hex_start(struct gb_hex *h, uint8_t *buf, size_t max)
{
	h->buf = buf;
	h->max = max;
	h->len = 0;
	h->hi = -1;
}

int gb_hex_add(struct gb_hex *h, const char *s, const char *blanks)
{
	int d;

	for (; *s; s++) {
		if (blanks && strchr(blanks, *s))
			continue;
		d = gb_hex_digit((unsigned char)*s);
		if (d < 0)
			return GB_HEX_BAD_DIGIT;
		if (h->hi < 0) {
			h->hi = d;
			continue;
		}
		if (h->len == h->max)
			return GB_HEX_TOO_LONG;
		h->buf[h->len++] = (uint8_t)(h->hi << 4 | d);
		h->hi = -1;
	}
	return 0;
}

ssize_t gb_hex_finish(const struct gb_hex *h)
{
	return h->hi < 0 ? (ssize_t)h->len : GB_HEX_ODD;
}

ssize_t gb_hex_decode(const char *s, const char *blanks, uint8_t *buf,
		      size_t max)
{
	struct gb_hex h;
	int ret;

	gb_hex_start(&h, buf, max);
	ret = gb_hex_add(&h, s, blanks);
	if (ret)
		return ret;
	return gb_hex_finish(&h);
}
