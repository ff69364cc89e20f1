// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket's server: accepts clients on a Unix SOCK_SEQPACKET
 * socket, splits each request datagram into words, runs the command
 * (ctl-cmd.c) and sends the reply in datagrams (ctl.h has the format).
 *
 * Everything runs from the event loop.  A client that does not read its
 * replies gets them queued, up to GBSIM_CTL_QUEUE_MAX bytes; past that,
 * or on any socket error, it is dropped.  Clients are freed from a timer,
 * never from inside the log tap or their own callback, so nothing ever
 * uses a client already freed.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"

#define GBSIM_CTL_CLIENTS_MAX	64
#define GBSIM_CTL_QUEUE_MAX	(16 * 1024 * 1024)

struct gbsim_ctl_dgram {
	size_t		len;
	struct gbsim_ctl_dgram *next;
	char		data[];
};

struct gbsim_ctl_client {
	struct gbsim_ctl *ctl;
	int		fd;
	bool		follow;		/* log -f: gets every new line */
	bool		dead;		/* to be closed by the reaper */
	struct gbsim_ctl_dgram *head, *tail;	/* not sent yet */
	size_t		queued;		/* bytes in that queue */
	struct gbsim_ctl_client *next;
};

struct gbsim_ctl {
	struct gbsim	*sim;
	gbsim_ctl_run_fn run;
	char		*path;
	int		fd;
	struct gbsim_ctl_client *clients;
	unsigned int	num_clients;
	uint64_t	reap_timer;
	char		*rbuf;		/* GBSIM_CTL_REQ_MAX + 1 bytes */
	char		**words;	/* GBSIM_CTL_WORDS_MAX entries */
};

/* ------------------------------------------------------------------ */
/* Command output                                                      */

static void gbsim_ctl_vprintf(struct gbsim_ctl_out *out, const char *fmt,
			      va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if (out->len + (size_t)n + 1 > out->max) {
		size_t max = out->max ? out->max : 256;
		char *p;

		while (max < out->len + (size_t)n + 1)
			max *= 2;
		p = realloc(out->p, max);
		if (!p)
			return;	/* cut: a reply is never worth dying for */
		out->p = p;
		out->max = max;
	}
	vsnprintf(out->p + out->len, out->max - out->len, fmt, ap);
	out->len += (size_t)n;
}

void gbsim_ctl_printf(struct gbsim_ctl_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gbsim_ctl_vprintf(out, fmt, ap);
	va_end(ap);
}

int gbsim_ctl_fail(struct gbsim_ctl_out *out, const char *fmt, ...)
{
	va_list ap;

	out->len = 0;
	out->failed = true;
	out->follow = false;
	va_start(ap, fmt);
	gbsim_ctl_vprintf(out, fmt, ap);
	va_end(ap);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Clients                                                             */

static void gbsim_ctl_reap(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_ctl *ctl = ctx;
	struct gbsim_ctl_client **pp = &ctl->clients, *c;
	struct gbsim_ctl_dgram *d;

	(void)loop;
	ctl->reap_timer = 0;
	while ((c = *pp)) {
		if (!c->dead) {
			pp = &c->next;
			continue;
		}
		*pp = c->next;
		gbsim_loop_del_fd(ctl->sim->loop, c->fd);
		close(c->fd);
		while ((d = c->head)) {
			c->head = d->next;
			free(d);
		}
		free(c);
		ctl->num_clients--;
	}
}

static void gbsim_ctl_kill(struct gbsim_ctl_client *c)
{
	struct gbsim_ctl *ctl = c->ctl;

	c->dead = true;
	c->follow = false;
	if (!ctl->reap_timer)
		ctl->reap_timer = gbsim_loop_add_timer(ctl->sim->loop, 0,
						       gbsim_ctl_reap, ctl);
}

/* 0 sent, 1 would block, -1 the client is gone */
static int gbsim_ctl_xmit(struct gbsim_ctl_client *c, const char *p,
			  size_t len)
{
	ssize_t n;

	do {
		n = send(c->fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 1;
	return n == (ssize_t)len ? 0 : -1;
}

static void gbsim_ctl_flush(struct gbsim_ctl_client *c)
{
	struct gbsim_ctl_dgram *d;
	int ret;

	while ((d = c->head)) {
		ret = gbsim_ctl_xmit(c, d->data, d->len);
		if (ret == 1)
			return;
		if (ret < 0) {
			gbsim_ctl_kill(c);
			return;
		}
		c->head = d->next;
		if (!c->head)
			c->tail = NULL;
		c->queued -= d->len;
		free(d);
	}
	gbsim_loop_set_events(c->ctl->sim->loop, c->fd, POLLIN);
}

/* One reply datagram: the kind byte, then len bytes of text */
static void gbsim_ctl_send(struct gbsim_ctl_client *c, char kind,
			   const char *text, size_t len)
{
	struct gbsim_ctl_dgram *d;
	int ret;

	if (c->dead)
		return;
	d = malloc(sizeof(*d) + len + 1);
	if (!d) {
		gbsim_ctl_kill(c);
		return;
	}
	d->len = len + 1;
	d->next = NULL;
	d->data[0] = kind;
	if (len)
		memcpy(d->data + 1, text, len);
	if (!c->head) {
		ret = gbsim_ctl_xmit(c, d->data, d->len);
		if (ret <= 0) {
			free(d);
			if (ret < 0)
				gbsim_ctl_kill(c);
			return;
		}
	}
	if (c->queued + d->len > GBSIM_CTL_QUEUE_MAX) {
		free(d);
		gbsim_ctl_kill(c);	/* not reading: not worth the memory */
		return;
	}
	if (c->tail)
		c->tail->next = d;
	else
		c->head = d;
	c->tail = d;
	c->queued += d->len;
	gbsim_loop_set_events(c->ctl->sim->loop, c->fd, POLLIN | POLLOUT);
}

/* The text in datagrams cut at line ends; the last one of kind last */
static void gbsim_ctl_send_text(struct gbsim_ctl_client *c, const char *p,
				size_t len, char last)
{
	const size_t room = GBSIM_CTL_CHUNK - 1;

	while (len > room) {
		size_t n = room;

		while (n > room / 2 && p[n - 1] != '\n')
			n--;
		if (p[n - 1] != '\n')
			n = room;	/* a very long line: cut anywhere */
		gbsim_ctl_send(c, GBSIM_CTL_MORE, p, n);
		p += n;
		len -= n;
	}
	if (last)
		gbsim_ctl_send(c, last, p, len);
	else if (len)
		gbsim_ctl_send(c, GBSIM_CTL_MORE, p, len);
}

/* Every log line, to every client following the log */
static void gbsim_ctl_tap(const char *line, size_t len, void *ctx)
{
	struct gbsim_ctl *ctl = ctx;

	for (struct gbsim_ctl_client *c = ctl->clients; c; c = c->next)
		if (c->follow && !c->dead)
			gbsim_ctl_send(c, GBSIM_CTL_MORE, line, len);
}

/* Words: NUL-terminated, or (no NUL at all) separated by blanks */
static int gbsim_ctl_split(struct gbsim_ctl *ctl, size_t len)
{
	char *p = ctl->rbuf, *end = ctl->rbuf + len;
	int n = 0;

	*end = '\0';
	if (!memchr(p, '\0', len)) {
		char *save = NULL;

		for (char *w = strtok_r(p, " \t\r\n", &save); w;
		     w = strtok_r(NULL, " \t\r\n", &save)) {
			if (n == GBSIM_CTL_WORDS_MAX)
				return -1;
			ctl->words[n++] = w;
		}
		return n;
	}
	while (p < end) {
		if (n == GBSIM_CTL_WORDS_MAX)
			return -1;
		ctl->words[n++] = p;
		p += strlen(p) + 1;
	}
	return n;
}

static void gbsim_ctl_request(struct gbsim_ctl_client *c, size_t len)
{
	struct gbsim_ctl *ctl = c->ctl;
	struct gbsim_ctl_out out = { 0 };
	int argc;

	argc = gbsim_ctl_split(ctl, len);
	if (argc < 0)
		gbsim_ctl_fail(&out, "more than %d words", GBSIM_CTL_WORDS_MAX);
	else if (argc == 0)
		gbsim_ctl_fail(&out, "empty request");
	else
		ctl->run(ctl->sim, argc, ctl->words, &out);

	if (out.failed) {
		gbsim_ctl_send(c, GBSIM_CTL_ERR, out.p, out.len);
	} else if (out.follow) {
		gbsim_ctl_send_text(c, out.p, out.len, 0);
		c->follow = !c->dead;
	} else {
		gbsim_ctl_send_text(c, out.p, out.len, GBSIM_CTL_OK);
	}
	free(out.p);
}

static void gbsim_ctl_client_ready(struct gbsim_loop *loop, int fd,
				   short revents, void *ctx)
{
	struct gbsim_ctl_client *c = ctx;
	struct gbsim_ctl *ctl = c->ctl;
	ssize_t n;

	(void)loop;
	if (c->dead)
		return;
	if (revents & POLLOUT)
		gbsim_ctl_flush(c);
	if (c->dead)
		return;
	if (!(revents & POLLIN)) {
		if (revents & (POLLHUP | POLLERR | POLLNVAL))
			gbsim_ctl_kill(c);
		return;
	}
	do {
		n = recv(fd, ctl->rbuf, GBSIM_CTL_REQ_MAX,
			 MSG_DONTWAIT | MSG_TRUNC);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n <= 0) {
		gbsim_ctl_kill(c);	/* the client hung up */
		return;
	}
	if (c->follow)
		return;	/* a follower has said all it had to say */
	if (n > GBSIM_CTL_REQ_MAX) {
		char msg[80];
		int m = snprintf(msg, sizeof(msg), "request of %zd bytes, the limit is %d",
				 n, GBSIM_CTL_REQ_MAX);

		gbsim_ctl_send(c, GBSIM_CTL_ERR, msg, (size_t)m);
		return;
	}
	gbsim_ctl_request(c, (size_t)n);
}

static void gbsim_ctl_accept(struct gbsim_loop *loop, int fd, short revents,
			     void *ctx)
{
	struct gbsim_ctl *ctl = ctx;
	struct gbsim_ctl_client *c;
	int cfd;

	(void)revents;
	for (;;) {
		cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				gbsim_log_error("ctl: accept: %s", strerror(errno));
			return;
		}
		if (ctl->num_clients >= GBSIM_CTL_CLIENTS_MAX) {
			static const char busy[] = "Etoo many control clients";

			(void)!send(cfd, busy, sizeof(busy) - 1,
				    MSG_DONTWAIT | MSG_NOSIGNAL);
			close(cfd);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (!c || gbsim_loop_add_fd(loop, cfd, POLLIN,
					    gbsim_ctl_client_ready, c)) {
			free(c);
			close(cfd);
			continue;
		}
		c->ctl = ctl;
		c->fd = cfd;
		c->next = ctl->clients;
		ctl->clients = c;
		ctl->num_clients++;
	}
}

/* ------------------------------------------------------------------ */
/* The listening socket                                                */

/* Someone listening at path?  Then it is not ours to replace */
static bool gbsim_ctl_live(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	bool live;

	if (fd < 0)
		return false;
	live = !connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	close(fd);
	return live;
}

struct gbsim_ctl *gbsim_ctl_open(struct gbsim *sim, const char *path,
				 gbsim_ctl_run_fn run, char *err,
				 size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct gbsim_ctl *ctl;
	struct stat st;

	if (!*path || strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "control socket path '%s': empty or longer than %zu bytes",
			 path, sizeof(sa.sun_path) - 1);
		return NULL;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);

	ctl = calloc(1, sizeof(*ctl));
	if (!ctl)
		goto nomem;
	ctl->sim = sim;
	ctl->run = run;
	ctl->fd = -1;
	ctl->path = strdup(path);
	ctl->rbuf = malloc(GBSIM_CTL_REQ_MAX + 1);
	ctl->words = calloc(GBSIM_CTL_WORDS_MAX, sizeof(*ctl->words));
	if (!ctl->path || !ctl->rbuf || !ctl->words)
		goto nomem;

	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "control socket %s: exists and is not a socket",
				 path);
			goto err_free;
		}
		if (gbsim_ctl_live(&sa)) {
			snprintf(err, errlen, "control socket %s: another gbsim is listening there",
				 path);
			goto err_free;
		}
		unlink(path);	/* stale: its gbsim is gone */
	}

	ctl->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC,
			 0);
	if (ctl->fd < 0 ||
	    bind(ctl->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(ctl->fd, 16)) {
		snprintf(err, errlen, "control socket %s: %s", path,
			 strerror(errno));
		goto err_free;
	}
	if (gbsim_loop_add_fd(sim->loop, ctl->fd, POLLIN, gbsim_ctl_accept,
			      ctl)) {
		unlink(path);
		goto nomem;
	}
	gbsim_log_set_tap(gbsim_ctl_tap, ctl);
	gbsim_log_info("control socket %s", path);
	return ctl;

nomem:
	snprintf(err, errlen, "control socket: out of memory");
err_free:
	if (ctl) {
		if (ctl->fd >= 0)
			close(ctl->fd);
		free(ctl->path);
		free(ctl->rbuf);
		free(ctl->words);
		free(ctl);
	}
	return NULL;
}

void gbsim_ctl_close(struct gbsim_ctl *ctl)
{
	if (!ctl)
		return;
	gbsim_log_set_tap(NULL, NULL);
	for (struct gbsim_ctl_client *c = ctl->clients; c; c = c->next)
		c->dead = true;
	if (ctl->reap_timer)
		gbsim_loop_cancel_timer(ctl->sim->loop, ctl->reap_timer);
	gbsim_ctl_reap(ctl->sim->loop, ctl);
	gbsim_loop_del_fd(ctl->sim->loop, ctl->fd);
	close(ctl->fd);
	unlink(ctl->path);
	free(ctl->path);
	free(ctl->rbuf);
	free(ctl->words);
	free(ctl);
}
