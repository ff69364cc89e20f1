// SPDX-License-Identifier: GPL-2.0
/*
 * tcpecho: the raw TCP round trip the gbnet benchmark compares itself
 * with (make bench).  One process echoes whatever a client sends; the
 * other sends SIZE bytes, waits for them to come back, COUNT times, and
 * prints the round trips as vhdtest echo does:
 *
 *   tcpecho serve ADDR PORT
 *   tcpecho ping ADDR PORT SIZE COUNT
 *     -> "echo size=S count=N min_us=.. median_us=.. p99_us=.. max_us=.."
 *
 * ADDR is an IPv4 address (a test tool: no names).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TCPECHO_SIZE_MAX	65536
#define TCPECHO_WARMUP		50

static int die(const char *what)
{
	fprintf(stderr, "tcpecho: %s: %s\n", what, strerror(errno));
	return 1;
}

static int addr(const char *ip, const char *port, struct sockaddr_in *sa)
{
	char *end;
	unsigned long p = strtoul(port, &end, 10);

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)p);
	if (*end || !p || p > 65535 || inet_pton(AF_INET, ip, &sa->sin_addr) != 1) {
		fprintf(stderr, "tcpecho: bad address %s port %s\n", ip, port);
		return -1;
	}
	return 0;
}

static int serve(struct sockaddr_in *sa)
{
	static char buf[TCPECHO_SIZE_MAX];
	int one = 1, lfd, fd;
	ssize_t n;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)sa, sizeof(*sa)) || listen(lfd, 4))
		return die("listen");
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			continue;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(fd, buf, (size_t)n) != n)
				break;
		close(fd);
	}
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int ping(struct sockaddr_in *sa, unsigned long size, unsigned long count)
{
	static char out[TCPECHO_SIZE_MAX], in[TCPECHO_SIZE_MAX];
	double *rtt, t0, sum = 0;
	int one = 1, fd;

	if (!size || size > TCPECHO_SIZE_MAX || !count || count > 10000000) {
		fprintf(stderr, "tcpecho: size 1..%d, count 1..10000000\n",
			TCPECHO_SIZE_MAX);
		return 2;
	}
	rtt = calloc(count, sizeof(*rtt));
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (!rtt || fd < 0 || connect(fd, (struct sockaddr *)sa, sizeof(*sa)))
		return die("connect");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	memset(out, 0x5a, size);
	for (unsigned long i = 0; i < count + TCPECHO_WARMUP; i++) {
		size_t got = 0;
		ssize_t n;

		t0 = now_us();
		if (write(fd, out, size) != (ssize_t)size)
			return die("write");
		while (got < size) {
			n = read(fd, in + got, size - got);
			if (n <= 0)
				return die("read");
			got += (size_t)n;
		}
		if (i >= TCPECHO_WARMUP)
			rtt[i - TCPECHO_WARMUP] = now_us() - t0;
	}
	qsort(rtt, count, sizeof(*rtt), cmp);
	for (unsigned long i = 0; i < count; i++)
		sum += rtt[i];
	printf("echo size=%lu count=%lu min_us=%.1f median_us=%.1f p99_us=%.1f max_us=%.1f mean_us=%.1f\n",
	       size, count, rtt[0], rtt[(count - 1) / 2],
	       rtt[(count * 99 + 99) / 100 - 1], rtt[count - 1], sum / count);
	free(rtt);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa;

	if (argc == 4 && !strcmp(argv[1], "serve")) {
		if (addr(argv[2], argv[3], &sa))
			return 2;
		return serve(&sa);
	}
	if (argc == 6 && !strcmp(argv[1], "ping")) {
		if (addr(argv[2], argv[3], &sa))
			return 2;
		return ping(&sa, strtoul(argv[4], NULL, 0),
			    strtoul(argv[5], NULL, 0));
	}
	fprintf(stderr, "Usage: tcpecho serve ADDR PORT\n"
		"       tcpecho ping ADDR PORT SIZE COUNT\n");
	return 2;
}
