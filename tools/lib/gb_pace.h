/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A serial line's pace: bytes cross a UART at most at baud / 10 per
 * second (8N1: a start bit, eight data bits, a stop bit).  The caller
 * asks how many bytes have had the time to cross since the last ones,
 * takes what it moved, and asks when the next ones will have.  Time is
 * the caller's (nanoseconds of any monotonic clock), so the arithmetic
 * can be tested without a clock.
 */
#ifndef GB_PACE_H
#define GB_PACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GB_PACE_BAUD_MIN	50
#define GB_PACE_BAUD_MAX	4000000

struct gb_pace {
	uint32_t	baud;		/* 0: not paced */
	uint64_t	origin_ns;	/* the clock's reading at gb_pace_init() */
	/* bit-times x 1e9 since origin up to which the line has been used */
	unsigned __int128 used;
	bool		idle;		/* nothing waited since the last use */
};

/* baud 0 turns pacing off: every call then allows everything at once */
void gb_pace_init(struct gb_pace *p, uint32_t baud, uint64_t now_ns);

/*
 * Bytes that may cross now, at most want.  Time the line spent waiting
 * for its taker counts; after gb_pace_idle(), the line has no more than
 * one byte's worth of credit: idle time is not saved up.
 */
size_t gb_pace_avail(struct gb_pace *p, uint64_t now_ns, size_t want);

/* n bytes crossed (n no more than gb_pace_avail() allowed) */
void gb_pace_take(struct gb_pace *p, size_t n);

/*
 * The taker had nothing to move: the time until its next
 * gb_pace_avail() is idle time, not time bytes waited for the line.
 * A line starts idle.
 */
void gb_pace_idle(struct gb_pace *p);

/* Nanoseconds from now until n more bytes may cross (0: now) */
uint64_t gb_pace_wait_ns(const struct gb_pace *p, uint64_t now_ns, size_t n);

#endif /* GB_PACE_H */
