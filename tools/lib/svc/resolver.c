// SPDX-License-Identifier: GPL-2.0
/*
 * Name lookups off the event loop (resolver.h).
 *
 * Locking: everything in struct gbsim_resolver below the mutex is shared
 * with the worker and only touched under it.  The worker takes a request
 * from the "todo" list, drops the lock for the lookup, and puts the
 * answer on the "done" list, then writes the eventfd; the loop reads the
 * eventfd and takes the whole "done" list.  Freeing: if the worker is in
 * a lookup (which cannot be interrupted), it is told to stop and detached,
 * and the state is left to it (the process is ending: gbnet frees its
 * resolver on the way out); otherwise it is joined and the state freed.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "loop.h"
#include "resolver.h"

struct gbsim_lookup {
	struct gbsim_lookup *next;
	uint64_t	key;
	uint16_t	port;
	int		ret;
	socklen_t	len;
	struct sockaddr_storage ss;
	char		err[160];
	char		host[];
};

struct gbsim_resolver {
	struct gbsim_loop *loop;
	gbsim_resolve_fn fn;
	gbsim_resolved_cb cb;
	void		*ctx;
	int		efd;
	bool		started;
	pthread_t	thread;

	pthread_mutex_t	lock;
	pthread_cond_t	wake;
	struct gbsim_lookup *todo, *todo_tail;	/* under lock */
	struct gbsim_lookup *done;		/* under lock, newest first */
	bool		busy;			/* under lock: in a lookup */
	bool		stop;			/* under lock */
};

static void gbsim_lookups_free(struct gbsim_lookup *l)
{
	while (l) {
		struct gbsim_lookup *next = l->next;

		free(l);
		l = next;
	}
}

static void gbsim_resolver_destroy(struct gbsim_resolver *r)
{
	gbsim_lookups_free(r->todo);
	gbsim_lookups_free(r->done);
	close(r->efd);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->wake);
	free(r);
}

static void *gbsim_resolver_main(void *arg)
{
	struct gbsim_resolver *r = arg;
	struct gbsim_lookup *l;
	uint64_t one = 1;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (!r->todo && !r->stop)
			pthread_cond_wait(&r->wake, &r->lock);
		if (r->stop)
			break;
		l = r->todo;
		r->todo = l->next;
		if (!r->todo)
			r->todo_tail = NULL;
		r->busy = true;
		pthread_mutex_unlock(&r->lock);

		l->ret = r->fn(l->host, l->port, &l->ss, &l->len, l->err,
			       sizeof(l->err));

		pthread_mutex_lock(&r->lock);
		r->busy = false;
		l->next = r->done;
		r->done = l;
		if (r->stop)
			break;
		if (write(r->efd, &one, sizeof(one)) < 0) {
			/* the counter is full: the loop has an answer to read anyway */
		}
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* The eventfd says answers are there: hand them to the callback, oldest first */
static void gbsim_resolver_ready(struct gbsim_loop *loop, int fd, short revents,
				 void *ctx)
{
	struct gbsim_resolver *r = ctx;
	struct gbsim_lookup *done, *rev = NULL;
	uint64_t n;

	(void)loop;
	(void)revents;
	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		return;
	pthread_mutex_lock(&r->lock);
	done = r->done;
	r->done = NULL;
	pthread_mutex_unlock(&r->lock);
	while (done) {
		struct gbsim_lookup *next = done->next;

		done->next = rev;
		rev = done;
		done = next;
	}
	while (rev) {
		struct gbsim_lookup *next = rev->next;

		r->cb(r->ctx, rev->key, rev->ret, &rev->ss, rev->len, rev->err);
		free(rev);
		rev = next;
	}
}

struct gbsim_resolver *gbsim_resolver_new(struct gbsim_loop *loop,
					  gbsim_resolve_fn fn,
					  gbsim_resolved_cb cb, void *ctx)
{
	struct gbsim_resolver *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->loop = loop;
	r->fn = fn;
	r->cb = cb;
	r->ctx = ctx;
	r->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->efd < 0) {
		free(r);
		return NULL;
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->wake, NULL);
	if (gbsim_loop_add_fd(loop, r->efd, POLLIN, gbsim_resolver_ready, r)) {
		gbsim_resolver_destroy(r);
		return NULL;
	}
	return r;
}

int gbsim_resolver_ask(struct gbsim_resolver *r, uint64_t key,
		       const char *host, uint16_t port)
{
	size_t n = strlen(host) + 1;
	struct gbsim_lookup *l = calloc(1, sizeof(*l) + n);

	if (!l)
		return -ENOMEM;
	l->key = key;
	l->port = port;
	memcpy(l->host, host, n);
	if (!r->started) {
		if (pthread_create(&r->thread, NULL, gbsim_resolver_main, r)) {
			free(l);
			return -EAGAIN;
		}
		r->started = true;
	}
	pthread_mutex_lock(&r->lock);
	if (r->todo_tail)
		r->todo_tail->next = l;
	else
		r->todo = l;
	r->todo_tail = l;
	pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

void gbsim_resolver_free(struct gbsim_resolver *r)
{
	bool busy;

	if (!r)
		return;
	gbsim_loop_del_fd(r->loop, r->efd);
	pthread_mutex_lock(&r->lock);
	r->stop = true;
	busy = r->busy;
	pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
	if (!r->started) {
		gbsim_resolver_destroy(r);
		return;
	}
	if (busy) {
		/*
		 * A lookup cannot be interrupted and may take seconds: the
		 * process is ending, so the thread is left to it, with its
		 * state (reachable from the thread, not leaked)
		 */
		pthread_detach(r->thread);
		return;
	}
	pthread_join(r->thread, NULL);
	gbsim_resolver_destroy(r);
}
