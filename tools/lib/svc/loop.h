/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbsim's event loop: poll() over a few file descriptors plus one-shot
 * timers.  Single-threaded; every callback runs from gbsim_loop_run().
 */
#ifndef GBSIM_LOOP_H
#define GBSIM_LOOP_H

#include <signal.h>
#include <stdint.h>

struct gbsim_loop;

typedef void (*gbsim_fd_cb)(struct gbsim_loop *loop, int fd, short revents,
			    void *ctx);
typedef void (*gbsim_timer_cb)(struct gbsim_loop *loop, void *ctx);

struct gbsim_loop *gbsim_loop_new(void);
void gbsim_loop_free(struct gbsim_loop *loop);

int gbsim_loop_add_fd(struct gbsim_loop *loop, int fd, short events,
		      gbsim_fd_cb cb, void *ctx);
int gbsim_loop_set_events(struct gbsim_loop *loop, int fd, short events);
void gbsim_loop_del_fd(struct gbsim_loop *loop, int fd);

/*
 * Deliver the signals of mask through the loop, never in the middle of a
 * callback: they are blocked and read from a signalfd (non-blocking,
 * close-on-exec) that calls cb; SIGPIPE is ignored, so a closed peer is
 * an error return of the write.  Returns the signalfd, which the caller
 * closes after the loop, or -errno.
 */
int gbsim_loop_add_signals(struct gbsim_loop *loop, const sigset_t *mask,
			   gbsim_fd_cb cb, void *ctx);

/* Returns a non-zero timer id, 0 when out of memory */
uint64_t gbsim_loop_add_timer(struct gbsim_loop *loop, unsigned int ms,
			      gbsim_timer_cb cb, void *ctx);
void gbsim_loop_cancel_timer(struct gbsim_loop *loop, uint64_t id);

/* Run until gbsim_loop_stop(); returns the code given to it */
int gbsim_loop_run(struct gbsim_loop *loop);
void gbsim_loop_stop(struct gbsim_loop *loop, int code);

/* CLOCK_MONOTONIC in nanoseconds: the clock of the log and the timers */
uint64_t gbsim_now_ns(void);

#endif /* GBSIM_LOOP_H */
