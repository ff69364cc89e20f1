// SPDX-License-Identifier: GPL-2.0
/*
 * A serial line's pace (tools/lib/gb_pace.c): what gbsim's --baud lets
 * through, against a clock the test moves by hand.
 */
#include <stdint.h>

#include "gb_pace.h"
#include "tap.h"

#define MS	1000000ULL
#define S	1000000000ULL

static void test_off(void)
{
	struct gb_pace p;

	gb_pace_init(&p, 0, 5 * S);
	CHECK(gb_pace_avail(&p, 5 * S, 100000) == 100000, "everything at once");
	gb_pace_take(&p, 100000);
	CHECK(gb_pace_wait_ns(&p, 5 * S, 100000) == 0, "never a wait");
}

/* 115200 baud: 11,520 bytes a second, one every 86,805.6 ns */
static void test_rate(void)
{
	struct gb_pace p;
	uint64_t t = 7 * S;
	size_t n, total = 0;

	gb_pace_init(&p, 115200, t);
	CHECK(gb_pace_avail(&p, t, 1000) == 0, "nothing at the origin");
	/* one second in 1 ms steps, taking whatever is allowed */
	for (int i = 0; i < 1000; i++) {
		t += MS;
		n = gb_pace_avail(&p, t, 1000);
		gb_pace_take(&p, n);
		total += n;
	}
	CHECK(total == 11520, "11520 bytes in a second, not %zu", total);
	CHECK(gb_pace_avail(&p, t, 1000) == 0, "and none more at once");
	/* the 11521st byte: 1/11520 s after the last, rounded up */
	CHECK(gb_pace_wait_ns(&p, t, 1) == 86806, "next byte in %llu ns",
	      (unsigned long long)gb_pace_wait_ns(&p, t, 1));
	CHECK(gb_pace_wait_ns(&p, t, 11520) == S, "a second's worth in a second");
}

/* Idle time is not saved up: one byte of credit at most */
static void test_idle(void)
{
	struct gb_pace p;
	uint64_t t = 0;

	gb_pace_init(&p, 9600, t);
	t += 60 * S;
	CHECK(gb_pace_avail(&p, t, 500) == 1, "one byte after a minute idle");
	gb_pace_take(&p, 1);
	CHECK(gb_pace_avail(&p, t, 500) == 0, "then nothing");
	/* 100 bytes at 9600 baud: 104.17 ms */
	CHECK(gb_pace_wait_ns(&p, t, 100) == 104166667, "100 bytes in %llu ns",
	      (unsigned long long)gb_pace_wait_ns(&p, t, 100));
	CHECK(gb_pace_avail(&p, t + 104166666, 500) == 99,
	      "99 just before");
	CHECK(gb_pace_avail(&p, t + 104166667, 500) == 100, "100 on time");
	/* a taker with bytes waiting gets the time it was late for */
	gb_pace_take(&p, 100);
	t += 104166667 + S;
	CHECK(gb_pace_avail(&p, t, 5000) == 960, "a late taker: 960 bytes");
	/* one that had nothing to move does not */
	gb_pace_take(&p, 960);
	gb_pace_idle(&p);
	t += S;
	CHECK(gb_pace_avail(&p, t, 5000) == 1, "after idling: one byte");
}

/* A taker that moves less than allowed keeps the rest for later */
static void test_partial(void)
{
	struct gb_pace p;

	gb_pace_init(&p, 1000000, 0);		/* 100,000 bytes/s: 10 us each */
	CHECK(gb_pace_avail(&p, 0, 50) == 0, "busy from the origin");
	CHECK(gb_pace_avail(&p, 100000, 50) == 10, "10 bytes in 100 us");
	gb_pace_take(&p, 4);
	CHECK(gb_pace_avail(&p, 100000, 50) == 6, "6 left");
	CHECK(gb_pace_wait_ns(&p, 100000, 6) == 0, "no wait for those");
	CHECK(gb_pace_wait_ns(&p, 100000, 7) == 10000, "10 us for one more");
	/* a clock reading before the origin counts as the origin */
	gb_pace_init(&p, 1000000, 5 * S);
	CHECK(gb_pace_avail(&p, 4 * S, 10) == 0, "before the origin");
	CHECK(gb_pace_wait_ns(&p, 4 * S, 1) == 10000, "a byte after the origin");
}

/* Over a long run at the top speed nothing drifts or overflows */
static void test_long(void)
{
	struct gb_pace p;
	uint64_t t = 1000ULL * 3600 * S;	/* 1000 hours of uptime */
	size_t total = 0, n;

	gb_pace_init(&p, GB_PACE_BAUD_MAX, t);
	gb_pace_avail(&p, t, 0);
	for (int i = 0; i < 3600; i++) {	/* an hour in 1 s steps */
		t += S;
		n = gb_pace_avail(&p, t, (size_t)-1);
		gb_pace_take(&p, n);
		total += n;
	}
	CHECK(total == 3600ULL * 400000, "an hour at 4 Mbaud: %zu bytes", total);
}

int main(void)
{
	tap_run("pace: baud 0 is not paced", test_off);
	tap_run("pace: 115200 baud is 11520 bytes a second", test_rate);
	tap_run("pace: an idle line saves no credit", test_idle);
	tap_run("pace: what is not taken stays available", test_partial);
	tap_run("pace: no drift over an hour at the top speed", test_long);
	return tap_exit_status();
}
