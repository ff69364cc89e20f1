/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Name lookups off the event loop.  getaddrinfo() blocks for as long as
 * the system's resolver takes (seconds when a DNS server is silent), and
 * everything else of gbnet runs on one loop: so names are looked up by
 * one worker thread, and the answer comes back through an eventfd the
 * loop watches, as a callback on the loop's thread.  Addresses need no
 * lookup and never reach the thread.
 *
 * A lookup is named by a key of the caller's (gbnet: a node's serial
 * number), so that an answer for a node removed meanwhile finds nothing
 * rather than a freed node.
 */
#ifndef GBSIM_RESOLVER_H
#define GBSIM_RESOLVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct gbsim_loop;
struct gbsim_resolver;

/* What the thread runs for a name (gb_resolve(); a test may slow it) */
typedef int (*gbsim_resolve_fn)(const char *host, uint16_t port,
				struct sockaddr_storage *ss, socklen_t *len,
				char *err, size_t errlen);
/* An answer, on the loop's thread: @ret 0 and @ss, or < 0 and @err */
typedef void (*gbsim_resolved_cb)(void *ctx, uint64_t key, int ret,
				  const struct sockaddr_storage *ss,
				  socklen_t len, const char *err);

/* NULL when out of memory or threads; the thread starts at the first name */
struct gbsim_resolver *gbsim_resolver_new(struct gbsim_loop *loop,
					  gbsim_resolve_fn fn,
					  gbsim_resolved_cb cb, void *ctx);
/* Look @host up; the answer comes later through the callback */
int gbsim_resolver_ask(struct gbsim_resolver *r, uint64_t key,
		       const char *host, uint16_t port);
/* Stops the thread; a lookup still running is abandoned, not waited for */
void gbsim_resolver_free(struct gbsim_resolver *r);

#endif /* GBSIM_RESOLVER_H */
