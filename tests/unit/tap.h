/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny TAP producer for the unit-test programs.  Each program prints
 * "ok - NAME" / "not ok - NAME" lines plus "# " diagnostics; tests/unit/run
 * numbers them, merges all programs into one stream and prints the plan.
 * $T, if set, is a substring filter on test names.
 */
#ifndef GB_TEST_TAP_H
#define GB_TEST_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned int tap_failed_tests;
static bool tap_current_failed;

static void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

/* Records a failed expectation in the running test */
#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			tap_current_failed = true;			\
			tap_diag("%s:%d: check failed: %s", __FILE__,	\
				 __LINE__, #cond);			\
			tap_diag(__VA_ARGS__);				\
		}							\
	} while (0)

static bool tap_wanted(const char *name)
{
	const char *filter = getenv("T");

	return !filter || !*filter || strstr(name, filter);
}

/* Starts a test; returns false (and prints nothing) if $T filters it out */
static bool tap_begin(const char *name)
{
	(void)name;
	tap_current_failed = false;
	return tap_wanted(name);
}

static void tap_end(const char *name)
{
	printf("%s - %s\n", tap_current_failed ? "not ok" : "ok", name);
	fflush(stdout);
	if (tap_current_failed)
		tap_failed_tests++;
}

/* Runs @fn as test @name */
static inline void tap_run(const char *name, void (*fn)(void))
{
	if (!tap_begin(name))
		return;
	fn();
	tap_end(name);
}

static inline int tap_exit_status(void)
{
	return tap_failed_tests ? 1 : 0;
}

/*
 * Parses hex pairs, ignoring blanks, into a malloc'ed buffer of exactly
 * the decoded size (so ASan sees any overread).  "@@" stands for the
 * little-endian 16-bit length of the whole result: a manifest header size.
 */
static inline unsigned char *tap_hex(const char *hex, size_t *len)
{
	size_t n = 0, cap = strlen(hex) / 2 + 1, size_at = (size_t)-1;
	unsigned char *buf = malloc(cap), *exact;

	if (!buf)
		abort();

	for (const char *p = hex; *p; p++) {
		unsigned int v;

		if (*p == ' ' || *p == '\n' || *p == '\t')
			continue;
		if (p[0] == '@' && p[1] == '@') {
			size_at = n;
			buf[n++] = 0;
			buf[n++] = 0;
			p++;
			continue;
		}
		if (sscanf(p, "%2x", &v) != 1 || !p[1]) {
			fprintf(stderr, "bad hex in test: %s\n", p);
			abort();
		}
		buf[n++] = (unsigned char)v;
		p++;
	}
	if (size_at != (size_t)-1) {
		buf[size_at] = n & 0xff;
		buf[size_at + 1] = (n >> 8) & 0xff;
	}
	exact = malloc(n ? n : 1);
	if (!exact)
		abort();
	memcpy(exact, buf, n);
	free(buf);
	*len = n;
	return exact;
}

static inline char *tap_hexdump(const unsigned char *p, size_t n)
{
	char *s = malloc(n * 3 + 1);

	if (!s)
		abort();
	static const char digits[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (i)
			s[o++] = ' ';
		s[o++] = digits[p[i] >> 4];
		s[o++] = digits[p[i] & 15];
	}
	s[o] = '\0';
	return s;
}

#endif /* GB_TEST_TAP_H */
