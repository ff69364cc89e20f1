// SPDX-License-Identifier: GPL-2.0
/*
 * Host and port to a socket address (gb_resolve.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#ifndef GB_STATIC
#include <netdb.h>
#endif

#include "gb_resolve.h"

int gb_resolve_numeric(const char *host, uint16_t port,
		       struct sockaddr_storage *ss, socklen_t *len, char *err,
		       size_t errlen)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char addr[INET6_ADDRSTRLEN + 1];
	const char *scope = strchr(host, '%');
	size_t n = scope ? (size_t)(scope - host) : strlen(host);

	memset(ss, 0, sizeof(*ss));
	if (!scope && inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		*len = sizeof(*in);
		return 0;
	}
	if (n < sizeof(addr)) {
		memcpy(addr, host, n);
		addr[n] = '\0';
		if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
			in6->sin6_family = AF_INET6;
			in6->sin6_port = htons(port);
			if (scope) {
				char *end;

				in6->sin6_scope_id = if_nametoindex(scope + 1);
				if (!in6->sin6_scope_id)
					in6->sin6_scope_id =
						(uint32_t)strtoul(scope + 1, &end, 10);
				if (!in6->sin6_scope_id) {
					snprintf(err, errlen, "%s: no interface '%s'",
						 host, scope + 1);
					return -EINVAL;
				}
			}
			*len = sizeof(*in6);
			return 0;
		}
	}
	snprintf(err, errlen, "%s: not an IPv4 or IPv6 address", host);
	return -ENOENT;
}

#ifdef GB_STATIC
int gb_resolve(const char *host, uint16_t port, struct sockaddr_storage *ss,
	       socklen_t *len, char *err, size_t errlen)
{
	int ret = gb_resolve_numeric(host, port, ss, len, err, errlen);

	if (ret != -ENOENT)
		return ret;
	snprintf(err, errlen, "%s: not an IPv4 or IPv6 address (this static build resolves no names)",
		 host);
	return -EINVAL;
}
#else
int gb_resolve(const char *host, uint16_t port, struct sockaddr_storage *ss,
	       socklen_t *len, char *err, size_t errlen)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICSERV,
	};
	struct addrinfo *res;
	char serv[8];
	int ret;

	snprintf(serv, sizeof(serv), "%u", port);
	ret = getaddrinfo(host, serv, &hints, &res);
	if (ret) {
		snprintf(err, errlen, "%s: %s", host, gai_strerror(ret));
		return -EINVAL;
	}
	if (res->ai_addrlen > sizeof(*ss)) {
		freeaddrinfo(res);
		snprintf(err, errlen, "%s: address too long", host);
		return -EINVAL;
	}
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}
#endif
