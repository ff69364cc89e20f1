// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop.  A handful of descriptors (the transport, signals, later
 * a control socket) and a short list of timers (request timeouts, delayed
 * answers) are all gbsim ever waits on, so plain arrays and a sorted list
 * are enough.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "loop.h"

struct gbsim_watch {
	int		fd;
	short		events;
	bool		dead;	/* removed while the loop was dispatching */
	gbsim_fd_cb	cb;
	void		*ctx;
};

struct gbsim_timer {
	uint64_t	id;
	uint64_t	due_ns;
	gbsim_timer_cb	cb;
	void		*ctx;
	struct gbsim_timer *next;
};

struct gbsim_loop {
	struct gbsim_watch *watches;
	size_t		num_watches;
	size_t		max_watches;
	struct gbsim_timer *timers;	/* sorted by due time */
	uint64_t	next_timer_id;
	bool		stopped;
	int		code;
};

uint64_t gbsim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct gbsim_loop *gbsim_loop_new(void)
{
	struct gbsim_loop *loop = calloc(1, sizeof(*loop));

	if (loop)
		loop->next_timer_id = 1;
	return loop;
}

void gbsim_loop_free(struct gbsim_loop *loop)
{
	struct gbsim_timer *t;

	if (!loop)
		return;
	while ((t = loop->timers)) {
		loop->timers = t->next;
		free(t);
	}
	free(loop->watches);
	free(loop);
}

int gbsim_loop_add_fd(struct gbsim_loop *loop, int fd, short events,
		      gbsim_fd_cb cb, void *ctx)
{
	struct gbsim_watch *w;

	if (loop->num_watches == loop->max_watches) {
		size_t n = loop->max_watches ? loop->max_watches * 2 : 4;

		w = realloc(loop->watches, n * sizeof(*w));
		if (!w)
			return -ENOMEM;
		loop->watches = w;
		loop->max_watches = n;
	}
	w = &loop->watches[loop->num_watches++];
	w->fd = fd;
	w->events = events;
	w->dead = false;
	w->cb = cb;
	w->ctx = ctx;
	return 0;
}

int gbsim_loop_set_events(struct gbsim_loop *loop, int fd, short events)
{
	for (size_t i = 0; i < loop->num_watches; i++) {
		if (loop->watches[i].fd == fd && !loop->watches[i].dead) {
			loop->watches[i].events = events;
			return 0;
		}
	}
	return -ENOENT;
}

void gbsim_loop_del_fd(struct gbsim_loop *loop, int fd)
{
	/* Only marked here: the dispatch loop may be iterating the array */
	for (size_t i = 0; i < loop->num_watches; i++)
		if (loop->watches[i].fd == fd)
			loop->watches[i].dead = true;
}

static void gbsim_loop_compact(struct gbsim_loop *loop)
{
	size_t j = 0;

	for (size_t i = 0; i < loop->num_watches; i++)
		if (!loop->watches[i].dead)
			loop->watches[j++] = loop->watches[i];
	loop->num_watches = j;
}

uint64_t gbsim_loop_add_timer(struct gbsim_loop *loop, unsigned int ms,
			      gbsim_timer_cb cb, void *ctx)
{
	struct gbsim_timer *t = calloc(1, sizeof(*t));
	struct gbsim_timer **pp;

	if (!t)
		return 0;
	t->id = loop->next_timer_id++;
	t->due_ns = gbsim_now_ns() + (uint64_t)ms * 1000000ULL;
	t->cb = cb;
	t->ctx = ctx;
	/* equal due times keep their order of creation */
	for (pp = &loop->timers; *pp && (*pp)->due_ns <= t->due_ns;
	     pp = &(*pp)->next)
		;
	t->next = *pp;
	*pp = t;
	return t->id;
}

void gbsim_loop_cancel_timer(struct gbsim_loop *loop, uint64_t id)
{
	struct gbsim_timer **pp, *t;

	for (pp = &loop->timers; (t = *pp); pp = &t->next) {
		if (t->id == id) {
			*pp = t->next;
			free(t);
			return;
		}
	}
}

static void gbsim_loop_run_timers(struct gbsim_loop *loop)
{
	uint64_t now = gbsim_now_ns();
	struct gbsim_timer *t;

	/* one at a time: a callback may add or cancel timers */
	while (!loop->stopped && (t = loop->timers) && t->due_ns <= now) {
		loop->timers = t->next;
		t->cb(loop, t->ctx);
		free(t);
	}
}

static int gbsim_loop_poll_timeout(struct gbsim_loop *loop)
{
	uint64_t now, ms;

	if (!loop->timers)
		return -1;
	now = gbsim_now_ns();
	if (loop->timers->due_ns <= now)
		return 0;
	ms = (loop->timers->due_ns - now + 999999) / 1000000;
	return ms > 60000 ? 60000 : (int)ms;
}

int gbsim_loop_run(struct gbsim_loop *loop)
{
	struct pollfd *pfds = NULL;
	size_t max_pfds = 0;

	while (!loop->stopped) {
		size_t n = loop->num_watches;
		int ret;

		if (n > max_pfds) {
			struct pollfd *p = realloc(pfds, n * sizeof(*p));

			if (!p) {
				gbsim_loop_stop(loop, 1);
				break;
			}
			pfds = p;
			max_pfds = n;
		}
		for (size_t i = 0; i < n; i++) {
			pfds[i].fd = loop->watches[i].fd;
			pfds[i].events = loop->watches[i].events;
			pfds[i].revents = 0;
		}
		ret = poll(pfds, n, gbsim_loop_poll_timeout(loop));
		if (ret < 0 && errno != EINTR) {
			gbsim_loop_stop(loop, 1);
			break;
		}
		for (size_t i = 0; ret > 0 && i < n && !loop->stopped; i++) {
			struct gbsim_watch *w = &loop->watches[i];

			if (!pfds[i].revents || w->dead || w->fd != pfds[i].fd)
				continue;
			w->cb(loop, w->fd, pfds[i].revents, w->ctx);
		}
		gbsim_loop_compact(loop);
		gbsim_loop_run_timers(loop);
	}
	free(pfds);
	return loop->code;
}

/* The first reason to stop wins: a fatal error is not hidden by SIGTERM */
void gbsim_loop_stop(struct gbsim_loop *loop, int code)
{
	if (!loop->stopped) {
		loop->stopped = true;
		loop->code = code;
	}
}
