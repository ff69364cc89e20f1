// SPDX-License-Identifier: GPL-2.0
/*
 * Rate-limited log lines (gb_ratelimit.h).
 */
#include "gb_ratelimit.h"

bool gb_ratelimit(struct gb_ratelimit *rl, uint64_t now_ns,
		  unsigned int *missed)
{
	if (!rl->window_start || now_ns - rl->window_start >= GB_RATELIMIT_WINDOW_NS) {
		rl->window_start = now_ns;
		rl->lines = 0;
	}
	if (rl->lines >= GB_RATELIMIT_BURST) {
		rl->missed++;
		return false;
	}
	rl->lines++;
	*missed = rl->missed;
	rl->missed = 0;
	return true;
}
