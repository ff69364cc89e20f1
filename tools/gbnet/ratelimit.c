// SPDX-License-Identifier: GPL-2.0
/*
 * Rate-limited logging for gbnet's nodes: the shared limiter
 * (tools/lib/gb_ratelimit.c) on the event loop's clock.
 */
#include "gbnet.h"
#include "loop.h"

bool gbnet_ratelimit(struct gb_ratelimit *rl, unsigned int *missed)
{
	return gb_ratelimit(rl, gbsim_now_ns(), missed);
}
