// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop's timers (tools/lib/svc/loop.c): they fire in order of
 * due time (equal times in order of creation), never early, never once
 * cancelled, not twice; an id that fired or was cancelled cancels nothing
 * (its slot may hold another timer by then); and hundreds of thousands of
 * them cost O(log n) each (gbnet holds a few per node: a sorted list took
 * minutes here).
 */
#include <stdint.h>
#include <time.h>

#include "svc/loop.h"
#include "tap.h"

#define N_ORDER	2000

/*
 * The loop reads the clock itself when a timer is added, so the test
 * knows its due time only within [due_lo, due_hi]: the clock read just
 * before and just after gbsim_loop_add_timer(), plus the delay.  Order is
 * judged on those bounds, so a test preempted while adding (a busy
 * machine) sees no false disorder, and a real one is still caught.
 */
struct fired {
	uint64_t	due_lo;		/* it is due no earlier */
	uint64_t	due_hi;		/* and no later */
	int		count;
};

static struct fired fired[N_ORDER];
static unsigned int fire_seq;
static bool in_order = true, early;
static uint64_t latest_lo;	/* the largest due_lo of those fired */
static uint64_t ids[N_ORDER];

static void on_fire(struct gbsim_loop *loop, void *ctx)
{
	struct fired *f = ctx;

	(void)loop;
	if (gbsim_now_ns() < f->due_lo)
		early = true;
	/* due for sure before one that already fired */
	if (f->due_hi < latest_lo)
		in_order = false;
	if (f->due_lo > latest_lo)
		latest_lo = f->due_lo;
	f->count++;
	fire_seq++;
}

static void on_stop(struct gbsim_loop *loop, void *ctx)
{
	(void)ctx;
	gbsim_loop_stop(loop, 0);
}

static void test_order(void)
{
	struct gbsim_loop *loop = gbsim_loop_new();
	unsigned int cancelled = 0, live = 0;

	for (unsigned int i = 0; i < N_ORDER; i++) {
		unsigned int ms = (i * 7919u) % 40;

		fired[i].due_lo = gbsim_now_ns() + ms * 1000000ULL;
		ids[i] = gbsim_loop_add_timer(loop, ms, on_fire, &fired[i]);
		fired[i].due_hi = gbsim_now_ns() + ms * 1000000ULL;
		CHECK(ids[i] != 0, "timer %u added", i);
	}
	/* cancel every third, and one twice */
	for (unsigned int i = 0; i < N_ORDER; i += 3) {
		gbsim_loop_cancel_timer(loop, ids[i]);
		cancelled++;
	}
	gbsim_loop_cancel_timer(loop, ids[0]);
	gbsim_loop_add_timer(loop, 60, on_stop, NULL);
	CHECK(gbsim_loop_run(loop) == 0, "the loop stops");
	for (unsigned int i = 0; i < N_ORDER; i++) {
		CHECK(fired[i].count == (i % 3 ? 1 : 0), "timer %u fired %d times",
		      i, fired[i].count);
		live += i % 3 ? 1 : 0;
	}
	CHECK(fire_seq == live, "%u fired, %u expected", fire_seq, live);
	CHECK(in_order, "in order of due time");
	CHECK(!early, "none early");
	gbsim_loop_free(loop);

	/* a cancelled id, cancelled again once its slot holds another timer */
	{
		struct fired later = { .due_lo = 0 };
		uint64_t a, b;

		loop = gbsim_loop_new();
		a = gbsim_loop_add_timer(loop, 0, on_fire, &later);
		gbsim_loop_cancel_timer(loop, a);
		b = gbsim_loop_add_timer(loop, 0, on_fire, &later);
		gbsim_loop_cancel_timer(loop, a);
		CHECK(a && b && a != b, "ids %llx and %llx", (unsigned long long)a,
		      (unsigned long long)b);
		gbsim_loop_add_timer(loop, 5, on_stop, NULL);
		gbsim_loop_run(loop);
		CHECK(later.count == 1, "dead ids cancel nothing: fired %d times",
		      later.count);
	}
	gbsim_loop_free(loop);
}

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static void nop(struct gbsim_loop *loop, void *ctx)
{
	(void)loop;
	(void)ctx;
}

/* 200,000 timers in random order, cancelled in another: CPU time bound */
static void test_many(void)
{
	enum { N = 200000 };
	struct gbsim_loop *loop = gbsim_loop_new();
	uint64_t *many = malloc(N * sizeof(*many)), seed = 42;
	clock_t t0 = clock();
	double secs;

	for (unsigned int i = 0; i < N; i++)
		many[i] = gbsim_loop_add_timer(loop, (unsigned int)(lcg(&seed) % 1000000) + 1000,
					       nop, NULL);
	for (unsigned int i = N - 1; i > 0; i--) {
		unsigned int j = (unsigned int)(lcg(&seed) % (i + 1));
		uint64_t t = many[i];

		many[i] = many[j];
		many[j] = t;
	}
	for (unsigned int i = 0; i < N; i++)
		gbsim_loop_cancel_timer(loop, many[i]);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	/* O(log n) each: well under a second, even with sanitizers */
	CHECK(secs < 10.0, "200,000 timers added and cancelled in %.2f s of CPU", secs);
	tap_diag("200,000 timers added and cancelled in %.3f s of CPU", secs);
	gbsim_loop_add_timer(loop, 0, on_stop, NULL);
	gbsim_loop_run(loop);
	free(many);
	gbsim_loop_free(loop);
}

int main(void)
{
	tap_run("loop: timers fire in order, once, never cancelled ones", test_order);
	tap_run("loop: 200,000 timers cost O(log n) each", test_many);
	return tap_exit_status();
}
