/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bulk endpoints of functionfs have no poll() and block until the host
 * moves the data, so each one gets a thread: a writer pump drains a
 * queue into an IN endpoint, a reader pump turns each OUT transfer into
 * one datagram on a socket the event loop watches.  Nothing else of
 * gbsim runs on these threads.
 */
#ifndef GBSIM_ES2_PUMP_H
#define GBSIM_ES2_PUMP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gbsim_es2_item;

struct gbsim_es2_pump {
	int		ep;		/* the endpoint file */
	int		desc_fd;	/* writer: the same, O_NONBLOCK */
	pthread_t	thread;
	bool		running;
	/* writer: what waits for the endpoint */
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	struct gbsim_es2_item *head, *tail;
	size_t		queued;
	unsigned long	failed;		/* writes the endpoint refused */
	size_t		size;		/* largest transfer */
	/* reader: the socket's thread end */
	int		sock;
};

/*
 * @size: the largest transfer the AP takes in one go; @desc_fd: the
 * endpoint opened again with O_NONBLOCK, for its descriptor (the caller
 * keeps owning both files)
 */
int gbsim_es2_writer_start(struct gbsim_es2_pump *p, int ep, int desc_fd,
			   size_t size);
/* Copies @len bytes; -ENOBUFS when too much is waiting already */
int gbsim_es2_writer_queue(struct gbsim_es2_pump *p, const void *data,
			   size_t len);
/* Returns the loop's end of the socket, or -errno */
int gbsim_es2_reader_start(struct gbsim_es2_pump *p, int ep, size_t size);
void gbsim_es2_pump_stop(struct gbsim_es2_pump *p);

#endif /* GBSIM_ES2_PUMP_H */
