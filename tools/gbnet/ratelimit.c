// SPDX-License-Identifier: GPL-2.0
/*
 * Rate-limited logging: whatever a node does, it gets at most a burst of
 * lines per window into the log; the lines it lost are counted and the
 * next line that gets through says how many.
 */
#include "gbnet.h"
#include "loop.h"

#define GBNET_RL_WINDOW_NS	(5ULL * 1000000000ULL)
#define GBNET_RL_BURST		5

bool gbnet_ratelimit(struct gbnet_ratelimit *rl, unsigned int *missed)
{
	uint64_t now = gbsim_now_ns();

	if (!rl->window_start || now - rl->window_start >= GBNET_RL_WINDOW_NS) {
		rl->window_start = now;
		rl->lines = 0;
	}
	if (rl->lines >= GBNET_RL_BURST) {
		rl->missed++;
		return false;
	}
	rl->lines++;
	*missed = rl->missed;
	rl->missed = 0;
	return true;
}
