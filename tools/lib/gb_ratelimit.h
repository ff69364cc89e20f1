/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rate-limited log lines: whoever causes them (a network peer, a device
 * that misbehaves) gets at most a burst of lines per window; the lines
 * it lost are counted and the next line that gets through says how many.
 */
#ifndef GB_RATELIMIT_H
#define GB_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

#define GB_RATELIMIT_WINDOW_NS	(5ULL * 1000000000ULL)
#define GB_RATELIMIT_BURST	5

struct gb_ratelimit {
	uint64_t	window_start;
	unsigned int	lines;
	unsigned int	missed;
};

/*
 * May a line be logged at @now_ns (CLOCK_MONOTONIC)?  When it may,
 * *missed is the number of lines refused since the last one allowed.
 */
bool gb_ratelimit(struct gb_ratelimit *rl, uint64_t now_ns,
		  unsigned int *missed);

#endif /* GB_RATELIMIT_H */
