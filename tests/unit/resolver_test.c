// SPDX-License-Identifier: GPL-2.0
/*
 * Name lookups off the event loop (tools/lib/svc/resolver.c): a lookup
 * that blocks (a stand-in for a silent DNS server) until the loop's timer
 * has ticked ten times ends, so the loop kept running meanwhile; answers
 * come back on the loop's thread, in order, with their keys; the resolver
 * is freed while a lookup still runs without waiting for it.  gbnet
 * looked names up on its loop, so every other node's operations waited
 * for a slow DNS server.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gb_resolve.h>

#include "svc/loop.h"
#include "svc/resolver.h"
#include "tap.h"

static pthread_t loop_thread;
static bool wrong_thread;
static uint64_t keys[8];
static int rets[8];
static unsigned int answers, ticks, ticks_at_slow;

static int fake_resolve(const char *host, uint16_t port,
			struct sockaddr_storage *ss, socklen_t *len, char *err,
			size_t errlen)
{
	if (!strcmp(host, "slow.example")) {
		/*
		 * A lookup that lasts until the loop has ticked 10 times (30 s
		 * at most): it ends only if the loop runs meanwhile, however
		 * slowly a busy machine runs either thread.
		 */
		for (int i = 0; i < 3000 && __atomic_load_n(&ticks, __ATOMIC_RELAXED) < 10; i++)
			usleep(10000);
		return gb_resolve_numeric("192.0.2.1", port, ss, len, err, errlen);
	}
	if (!strcmp(host, "stuck.example")) {
		usleep(300000);
		return -EAGAIN;
	}
	snprintf(err, errlen, "%s: no such name", host);
	return -ENOENT;
}

static void on_answer(void *ctx, uint64_t key, int ret,
		      const struct sockaddr_storage *ss, socklen_t len,
		      const char *err)
{
	struct gbsim_loop *loop = ctx;

	(void)ss;
	(void)len;
	(void)err;
	if (!pthread_equal(pthread_self(), loop_thread))
		wrong_thread = true;
	if (answers < 8) {
		keys[answers] = key;
		rets[answers] = ret;
	}
	answers++;
	if (key == 1)
		ticks_at_slow = __atomic_load_n(&ticks, __ATOMIC_RELAXED);
	if (answers == 2)
		gbsim_loop_stop(loop, 0);
}

static void tick(struct gbsim_loop *loop, void *ctx)
{
	(void)ctx;
	__atomic_add_fetch(&ticks, 1, __ATOMIC_RELAXED);
	gbsim_loop_add_timer(loop, 20, tick, NULL);
}

static void give_up(struct gbsim_loop *loop, void *ctx)
{
	(void)ctx;
	gbsim_loop_stop(loop, 1);
}

static void test_off_loop(void)
{
	struct gbsim_loop *loop = gbsim_loop_new();
	struct gbsim_resolver *r;

	loop_thread = pthread_self();
	r = gbsim_resolver_new(loop, fake_resolve, on_answer, loop);
	CHECK(r != NULL, "resolver created");
	CHECK(!gbsim_resolver_ask(r, 1, "slow.example", 4242), "slow name asked");
	CHECK(!gbsim_resolver_ask(r, 2, "nosuch.example", 4242), "bad name asked");
	gbsim_loop_add_timer(loop, 20, tick, NULL);
	gbsim_loop_add_timer(loop, 60000, give_up, NULL);
	CHECK(gbsim_loop_run(loop) == 0, "both answers came");
	CHECK(answers == 2 && keys[0] == 1 && rets[0] == 0 && keys[1] == 2 &&
	      rets[1] == -ENOENT, "answers in order with their keys");
	/* the slow lookup waited for 10 ticks of the loop: it ran meanwhile */
	CHECK(ticks_at_slow >= 10, "the loop ran during the lookup: %u ticks",
	      ticks_at_slow);
	CHECK(!wrong_thread, "answers on the loop's thread");
	tap_diag("%u timer ticks of 20 ms during the slow lookup", ticks_at_slow);
	/* freed while a lookup runs: returns at once */
	CHECK(!gbsim_resolver_ask(r, 3, "stuck.example", 4242), "stuck name asked");
	usleep(50000);
	gbsim_resolver_free(r);
	gbsim_loop_free(loop);
	/* let the abandoned lookup end before the process does */
	usleep(400000);
}

int main(void)
{
	tap_run("resolver: names looked up off the loop", test_off_loop);
	return tap_exit_status();
}
