/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A host and port to one socket address, for gbsim --node and gbnet.
 * Names go through getaddrinfo() (the system's resolver), except in the
 * static builds (GB_STATIC: the test guest, the cross build), where a
 * static glibc would need its NSS modules at run time: those take IPv4
 * and IPv6 addresses only ("fe80::1%eth0" included).
 */
#ifndef GB_RESOLVE_H
#define GB_RESOLVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* An address only, never a lookup: -ENOENT if @host is not one */
int gb_resolve_numeric(const char *host, uint16_t port,
		       struct sockaddr_storage *ss, socklen_t *len, char *err,
		       size_t errlen);
/* An address, or a name looked up (blocks while the resolver works) */
int gb_resolve(const char *host, uint16_t port, struct sockaddr_storage *ss,
	       socklen_t *len, char *err, size_t errlen);

#endif /* GB_RESOLVE_H */
