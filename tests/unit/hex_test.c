// SPDX-License-Identifier: GPL-2.0
/*
 * Hex bytes from command lines (tools/lib/gb_hex.c).
 */
#include <stdint.h>

#include "gb_hex.h"
#include "tap.h"

static void test_digits(void)
{
	static const char digits[] = "0123456789abcdefABCDEF";
	int i;

	for (i = 0; digits[i]; i++)
		CHECK(gb_hex_digit(digits[i]) == (i < 16 ? i : i - 6),
		      "digit '%c'", digits[i]);
	CHECK(gb_hex_digit('g') == -1 && gb_hex_digit('G') == -1 &&
	      gb_hex_digit(' ') == -1 && gb_hex_digit('/') == -1 &&
	      gb_hex_digit(':') == -1 && gb_hex_digit('@') == -1 &&
	      gb_hex_digit('`') == -1 && gb_hex_digit(0x80) == -1 &&
	      gb_hex_digit('x') == -1, "non-digits");
}

static void test_decode(void)
{
	uint8_t buf[4];

	memset(buf, 0xee, sizeof(buf));
	CHECK(gb_hex_decode("0aFf10", NULL, buf, sizeof(buf)) == 3, "3 bytes");
	CHECK(buf[0] == 0x0a && buf[1] == 0xff && buf[2] == 0x10 &&
	      buf[3] == 0xee, "values, nothing written past them");
	CHECK(gb_hex_decode("", NULL, buf, sizeof(buf)) == 0, "empty");
	CHECK(gb_hex_decode("0a0b0c0d", NULL, buf, 4) == 4, "exactly full");
}

static void test_errors(void)
{
	uint8_t buf[2];

	CHECK(gb_hex_decode("0a0b0c", NULL, buf, 2) == GB_HEX_TOO_LONG,
	      "one byte too many");
	CHECK(gb_hex_decode("0a0", NULL, buf, 2) == GB_HEX_ODD, "odd");
	CHECK(gb_hex_decode("0g", NULL, buf, 2) == GB_HEX_BAD_DIGIT, "g");
	CHECK(gb_hex_decode("0x0a", NULL, buf, 2) == GB_HEX_BAD_DIGIT, "0x");
	CHECK(gb_hex_decode("0a 0b", NULL, buf, 2) == GB_HEX_BAD_DIGIT,
	      "a blank nobody allowed");
	CHECK(gb_hex_decode("-1", NULL, buf, 2) == GB_HEX_BAD_DIGIT, "sign");
}

static void test_blanks(void)
{
	uint8_t buf[4];

	CHECK(gb_hex_decode(" 0a:0b\t0c ", " :\t", buf, sizeof(buf)) == 3,
	      "blanks and colons skipped");
	CHECK(buf[0] == 0x0a && buf[1] == 0x0b && buf[2] == 0x0c, "values");
	/* A blank may even split a byte: digits pair up as they come */
	CHECK(gb_hex_decode("a b", " ", buf, sizeof(buf)) == 1 &&
	      buf[0] == 0xab, "a byte split by a blank");
	CHECK(gb_hex_decode("0a:0b", " ", buf, sizeof(buf)) == GB_HEX_BAD_DIGIT,
	      "a colon when only blanks are allowed");
	CHECK(gb_hex_decode("   ", " ", buf, sizeof(buf)) == 0, "only blanks");
}

/* Several words make one message, as gbsim's ctl "send" takes them */
static void test_words(void)
{
	static const char *const words[] = { "0a", "b", "c0d", "" };
	uint8_t buf[3];
	struct gb_hex h;
	unsigned int i;

	gb_hex_start(&h, buf, sizeof(buf));
	for (i = 0; i < 4; i++)
		CHECK(gb_hex_add(&h, words[i], " ") == 0, "word %u", i);
	CHECK(gb_hex_finish(&h) == 3, "3 bytes from 4 words");
	CHECK(buf[0] == 0x0a && buf[1] == 0xbc && buf[2] == 0x0d, "values");

	gb_hex_start(&h, buf, sizeof(buf));
	CHECK(gb_hex_add(&h, "0a0", NULL) == 0, "a half byte waits");
	CHECK(gb_hex_finish(&h) == GB_HEX_ODD, "and is odd at the end");
	CHECK(gb_hex_add(&h, "b", NULL) == 0 && gb_hex_finish(&h) == 2 &&
	      buf[1] == 0x0b, "until its pair comes");
	CHECK(gb_hex_add(&h, "0c0d", NULL) == GB_HEX_TOO_LONG,
	      "a full buffer refuses more");
}

int main(void)
{
	tap_run("hex: digit values", test_digits);
	tap_run("hex: decode a string", test_decode);
	tap_run("hex: errors are distinct", test_errors);
	tap_run("hex: blanks the caller allows", test_blanks);
	tap_run("hex: digits pair up across words", test_words);
	return tap_exit_status();
}
