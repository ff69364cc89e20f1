/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hex bytes from command lines ("0a1b", "0a 1b", "0a:1b"): one decoder
 * for every tool that takes raw bytes.  Digits pair up across calls, so
 * a message may come in several words.
 */
#ifndef GB_HEX_H
#define GB_HEX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum gb_hex_error {
	GB_HEX_BAD_DIGIT	= -1,	/* neither a hex digit nor a blank */
	GB_HEX_TOO_LONG		= -2,	/* more bytes than the buffer holds */
	GB_HEX_ODD		= -3,	/* a digit left without its pair */
};

struct gb_hex {
	uint8_t	*buf;
	size_t	max;
	size_t	len;
	int	hi;		/* the first digit of a byte, or -1 */
};

/* The value of hex digit @c, or -1 */
int gb_hex_digit(int c);

void gb_hex_start(struct gb_hex *h, uint8_t *buf, size_t max);
/* Adds the digits of @s, skipping characters in @blanks; 0 or an error */
int gb_hex_add(struct gb_hex *h, const char *s, const char *blanks);
/* The byte count, or GB_HEX_ODD */
ssize_t gb_hex_finish(const struct gb_hex *h);

/* All of @s at once: the byte count, or an error */
ssize_t gb_hex_decode(const char *s, const char *blanks, uint8_t *buf,
		      size_t max);

#endif /* GB_HEX_H */
