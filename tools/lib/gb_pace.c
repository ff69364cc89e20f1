// SPDX-License-Identifier: GPL-2.0
/*
 * A serial line's pace (gb_pace.h).  The line's use is kept in units of
 * 1e9 x bit-times (ns x baud), so that no rounding of a byte's duration
 * accumulates: a byte is 10 bits, 1e10 units, at any speed.
 */
#include "gb_pace.h"

#define GB_PACE_BYTE	10000000000ULL	/* one byte: 10 bits x 1e9 */

void gb_pace_init(struct gb_pace *p, uint32_t baud, uint64_t now_ns)
{
	p->baud = baud;
	p->origin_ns = now_ns;
	p->used = 0;
	p->idle = true;
}

void gb_pace_idle(struct gb_pace *p)
{
	p->idle = true;
}

/* The clock in line units, never before the origin */
static unsigned __int128 gb_pace_now(const struct gb_pace *p, uint64_t now_ns)
{
	if (now_ns < p->origin_ns)
		return 0;
	return (unsigned __int128)(now_ns - p->origin_ns) * p->baud;
}

size_t gb_pace_avail(struct gb_pace *p, uint64_t now_ns, size_t want)
{
	unsigned __int128 now, n;

	if (!p->baud)
		return want;
	now = gb_pace_now(p, now_ns);
	/* an idle line keeps one byte of credit, not the whole idle time */
	if (p->idle && now >= GB_PACE_BYTE && p->used < now - GB_PACE_BYTE)
		p->used = now - GB_PACE_BYTE;
	p->idle = false;
	if (p->used >= now)
		return 0;
	n = (now - p->used) / GB_PACE_BYTE;
	return n < want ? (size_t)n : want;
}

void gb_pace_take(struct gb_pace *p, size_t n)
{
	if (p->baud)
		p->used += (unsigned __int128)n * GB_PACE_BYTE;
}

uint64_t gb_pace_wait_ns(const struct gb_pace *p, uint64_t now_ns, size_t n)
{
	unsigned __int128 now, ready;

	if (!p->baud || !n)
		return 0;
	now = gb_pace_now(p, now_ns);
	ready = p->used + (unsigned __int128)n * GB_PACE_BYTE;
	if (ready <= now)
		return 0;
	/* round up: waking early would find nothing to do */
	return (uint64_t)((ready - now + p->baud - 1) / p->baud);
}
