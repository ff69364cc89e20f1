// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop.  Descriptors (the transport, signals, the control
 * socket, one per gbnet node) in a plain array, handed to poll(); timers
 * (request timeouts, delayed answers, every gbnet node's backoff, connect
 * and frame timers) in a binary min-heap over a table of slots, so that
 * adding, cancelling and firing one costs O(log n) however many there are
 * (gbnet may hold thousands).  A timer id names its slot and the slot's
 * generation, so an id that has fired or was cancelled cancels nothing.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "loop.h"

struct gbsim_watch {
	int		fd;
	short		events;
	bool		dead;	/* removed while the loop was dispatching */
	gbsim_fd_cb	cb;
	void		*ctx;
};

struct gbsim_timer {
	uint64_t	due_ns;
	uint64_t	seq;		/* equal due times: order of creation */
	gbsim_timer_cb	cb;
	void		*ctx;
	uint32_t	gen;		/* bumped each time the slot is freed */
	uint32_t	pos;		/* in the heap; GBSIM_TIMER_FREE: not */
};

#define GBSIM_TIMER_FREE	UINT32_MAX

struct gbsim_loop {
	struct gbsim_watch *watches;
	size_t		num_watches;
	size_t		max_watches;
	struct gbsim_timer *slots;	/* every timer, by slot */
	uint32_t	num_slots;
	uint32_t	*free_slots;	/* stack of free slot numbers */
	uint32_t	num_free;
	uint32_t	*heap;		/* slot numbers, earliest first */
	uint32_t	heap_len;
	uint64_t	next_seq;
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
	return calloc(1, sizeof(struct gbsim_loop));
}

void gbsim_loop_free(struct gbsim_loop *loop)
{
	if (!loop)
		return;
	free(loop->slots);
	free(loop->free_slots);
	free(loop->heap);
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

static bool gbsim_timer_before(const struct gbsim_loop *loop, uint32_t a,
			       uint32_t b)
{
	const struct gbsim_timer *ta = &loop->slots[a], *tb = &loop->slots[b];

	return ta->due_ns < tb->due_ns ||
	       (ta->due_ns == tb->due_ns && ta->seq < tb->seq);
}

static void gbsim_heap_set(struct gbsim_loop *loop, uint32_t pos, uint32_t slot)
{
	loop->heap[pos] = slot;
	loop->slots[slot].pos = pos;
}

static void gbsim_heap_up(struct gbsim_loop *loop, uint32_t pos)
{
	uint32_t slot = loop->heap[pos];

	while (pos) {
		uint32_t parent = (pos - 1) / 2;

		if (!gbsim_timer_before(loop, slot, loop->heap[parent]))
			break;
		gbsim_heap_set(loop, pos, loop->heap[parent]);
		pos = parent;
	}
	gbsim_heap_set(loop, pos, slot);
}

static void gbsim_heap_down(struct gbsim_loop *loop, uint32_t pos)
{
	uint32_t slot = loop->heap[pos];

	for (;;) {
		uint32_t child = 2 * pos + 1;

		if (child >= loop->heap_len)
			break;
		if (child + 1 < loop->heap_len &&
		    gbsim_timer_before(loop, loop->heap[child + 1],
				       loop->heap[child]))
			child++;
		if (!gbsim_timer_before(loop, loop->heap[child], slot))
			break;
		gbsim_heap_set(loop, pos, loop->heap[child]);
		pos = child;
	}
	gbsim_heap_set(loop, pos, slot);
}

/* Take slot @slot out of the heap and free it (its id is dead) */
static void gbsim_timer_release(struct gbsim_loop *loop, uint32_t slot)
{
	uint32_t pos = loop->slots[slot].pos, last;

	last = loop->heap[--loop->heap_len];
	if (pos != loop->heap_len) {
		gbsim_heap_set(loop, pos, last);
		gbsim_heap_down(loop, pos);
		gbsim_heap_up(loop, loop->slots[last].pos);
	}
	loop->slots[slot].pos = GBSIM_TIMER_FREE;
	if (!++loop->slots[slot].gen)
		loop->slots[slot].gen = 1;	/* an id is never 0 */
	loop->free_slots[loop->num_free++] = slot;
}

/* Room for one timer more: the three arrays grow together */
static int gbsim_timer_grow(struct gbsim_loop *loop)
{
	uint32_t n = loop->num_slots ? loop->num_slots * 2 : 16;
	struct gbsim_timer *slots;
	uint32_t *heap, *free_slots;

	if (loop->num_slots >= UINT32_MAX / 4)
		return -ENOMEM;
	slots = realloc(loop->slots, n * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	loop->slots = slots;
	heap = realloc(loop->heap, n * sizeof(*heap));
	if (!heap)
		return -ENOMEM;
	loop->heap = heap;
	free_slots = realloc(loop->free_slots, n * sizeof(*free_slots));
	if (!free_slots)
		return -ENOMEM;
	loop->free_slots = free_slots;
	/* new slots are free, the lowest numbers on top of the stack */
	for (uint32_t i = n; i > loop->num_slots; i--) {
		slots[i - 1].pos = GBSIM_TIMER_FREE;
		slots[i - 1].gen = 1;
		free_slots[loop->num_free++] = i - 1;
	}
	loop->num_slots = n;
	return 0;
}

uint64_t gbsim_loop_add_timer(struct gbsim_loop *loop, unsigned int ms,
			      gbsim_timer_cb cb, void *ctx)
{
	struct gbsim_timer *t;
	uint32_t slot;

	if (!loop->num_free && gbsim_timer_grow(loop))
		return 0;
	slot = loop->free_slots[--loop->num_free];
	t = &loop->slots[slot];
	t->due_ns = gbsim_now_ns() + (uint64_t)ms * 1000000ULL;
	t->seq = loop->next_seq++;
	t->cb = cb;
	t->ctx = ctx;
	loop->heap[loop->heap_len] = slot;
	t->pos = loop->heap_len++;
	gbsim_heap_up(loop, t->pos);
	/* never 0: the generation is at least 1 */
	return (uint64_t)t->gen << 32 | slot;
}

void gbsim_loop_cancel_timer(struct gbsim_loop *loop, uint64_t id)
{
	uint32_t slot = (uint32_t)id, gen = (uint32_t)(id >> 32);

	if (slot >= loop->num_slots || loop->slots[slot].gen != gen ||
	    loop->slots[slot].pos == GBSIM_TIMER_FREE)
		return;
	gbsim_timer_release(loop, slot);
}

static void gbsim_loop_run_timers(struct gbsim_loop *loop)
{
	uint64_t now = gbsim_now_ns();

	/* one at a time: a callback may add or cancel timers */
	while (!loop->stopped && loop->heap_len &&
	       loop->slots[loop->heap[0]].due_ns <= now) {
		uint32_t slot = loop->heap[0];
		gbsim_timer_cb cb = loop->slots[slot].cb;
		void *ctx = loop->slots[slot].ctx;

		/* its id is dead before it runs: cancelling it is harmless */
		gbsim_timer_release(loop, slot);
		cb(loop, ctx);
	}
}

static int gbsim_loop_poll_timeout(struct gbsim_loop *loop)
{
	uint64_t now, ms, due;

	if (!loop->heap_len)
		return -1;
	now = gbsim_now_ns();
	due = loop->slots[loop->heap[0]].due_ns;
	if (due <= now)
		return 0;
	ms = (due - now + 999999) / 1000000;
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

int gbsim_loop_add_signals(struct gbsim_loop *loop, const sigset_t *mask,
			   gbsim_fd_cb cb, void *ctx)
{
	int fd, ret;

	signal(SIGPIPE, SIG_IGN);
	if (sigprocmask(SIG_BLOCK, mask, NULL))
		return -errno;
	fd = signalfd(-1, mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		return -errno;
	ret = gbsim_loop_add_fd(loop, fd, POLLIN, cb, ctx);
	if (ret) {
		close(fd);
		return ret < 0 ? ret : -ENOMEM;
	}
	return fd;
}
