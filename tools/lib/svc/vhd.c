// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/greybus-vhd transport (include/uapi/greybus/vhd.h, docs/vhd.md).
 *
 * The host is created with version 3 (batched I/O) when the kernel
 * offers it, else with version 2 (--authorized-default, gbnet) or 1.
 * Reads are drained until EAGAIN each time poll() says so, at most
 * GBSIM_VHD_READS_MAX of them (a descriptor that never runs dry shares
 * the loop with the signals that stop it); on a version 3 host each read
 * returns as many events as fit in room for one largest SEND (header,
 * message head and an MTU of payload; the kernel queues nothing
 * larger): with an MTU of 4096, some two hundred pings but one
 * 2048-byte transfer.  Whole-queue reads cost the async 2048-byte
 * loopback figures 3-4% (docs/performance.md).  Should an event not fit
 * all the same, it is read with the whole GBSIM_VHD_RBUF.
 *
 * Messages to the AP (send) are written at once, except while the
 * transport is held (gbsim_vhd_hold(): while the events one read()
 * returned are handled, and while gbnet handles what a node sent): then they are
 * packed into one buffer and written with one write() at the last
 * release, or when the buffer is full.  A write the kernel takes only
 * partly refused the event where it stopped: that one is written alone
 * again to learn why, logged, and the rest goes on, as it would have
 * event by event.  Other events (strobe, authorize) flush what is held
 * first, then go alone: their answer is wanted at once.
 *
 * On hosts of version 1 and 2 writes that would block wait in a FIFO
 * (order matters: a response must not overtake an earlier one) and go
 * out on POLLOUT.
 *
 * A path is opened only if it is the greybus-vhd character device: the
 * CREATE written first would otherwise land in whatever file it names.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <uapi/greybus/vhd.h>

#include <gb_ratelimit.h>
#include <gb_vhd_batch.h>

#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "transport.h"

#define GBSIM_VHD_QUEUE_MAX	4096	/* events waiting for POLLOUT */
_Static_assert(GBSIM_BACKLOG_HIGH < GBSIM_VHD_QUEUE_MAX,
	       "back-pressure must start before the queue refuses");
#define GBSIM_VHD_READS_MAX	64	/* reads per wake-up */
/* A batched read's buffer, and the most a held batch writes at once */
#define GBSIM_VHD_RBUF		(128 * 1024)
#define GBSIM_VHD_WBUF		(128 * 1024)
_Static_assert(GBSIM_VHD_RBUF >= GB_VHD_EVENT_SIZE_MAX &&
	       GBSIM_VHD_WBUF >= GB_VHD_EVENT_SIZE_MAX,
	       "a batch buffer holds the largest event");

struct gbsim_vhd_pending {
	size_t		len;
	struct gbsim_vhd_pending *next;
	uint8_t		data[];
};

struct gbsim_vhd {
	uint8_t		*rbuf;		/* GBSIM_VHD_RBUF bytes */
	size_t		rbuf_len;	/* what one read() may return */
	bool		batch;		/* a version 3 host */
	unsigned int	hold;		/* gbsim_vhd_hold() depth */
	uint8_t		*wbuf;		/* held events, GBSIM_VHD_WBUF bytes */
	size_t		wlen;
	struct gbsim_vhd_pending *head, *tail;
	size_t		queued;
	bool		lost;
	bool		high;		/* the backlog reached the high mark */
	struct gb_ratelimit rl;		/* complaints about what is read */
};

/* A complaint about an event read: rate-limited, the device may be odd */
#define gbsim_vhd_complain(vhd, fmt, ...)				\
	do {								\
		unsigned int missed_;					\
									\
		if (gb_ratelimit(&(vhd)->rl, gbsim_now_ns(), &missed_))	\
			gbsim_log_error(fmt "%s", __VA_ARGS__,		\
					missed_ ? " (and lines suppressed)" : ""); \
	} while (0)

static void gbsim_vhd_lost(struct gbsim_transport *tp, int err)
{
	struct gbsim_vhd *vhd = tp->priv;

	if (vhd->lost)
		return;
	vhd->lost = true;
	gbsim_loop_del_fd(tp->loop, tp->fd);
	gbsim_host_lost(tp->sim, err);
}

/* Write one whole event; 1 = would block, 0 = done, < 0 = error */
static int gbsim_vhd_write(struct gbsim_transport *tp, const void *ev,
			   size_t len)
{
	ssize_t n;

	do {
		n = write(tp->fd, ev, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 1;
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;	/* the ABI takes whole events only */
	return 0;
}

static int gbsim_vhd_queue(struct gbsim_transport *tp, const void *ev,
			   size_t len);

/*
 * Write what is held, in as few write() calls as the kernel allows: one,
 * unless an event is refused; that one is logged (as a message the AP
 * did not get) and skipped, and the rest goes on.  A device that would
 * block (gb-vhd never does; a test's socket may) gets the rest through
 * the FIFO, event by event, as on an older host.
 */
static void gbsim_vhd_flush_held(struct gbsim_transport *tp)
{
	struct gbsim_vhd *vhd = tp->priv;
	struct gb_vhd_event_hdr hdr;
	struct gb_vhd_message m;
	size_t off = 0, len;
	ssize_t n;

	while (off < vhd->wlen) {
		n = write(tp->fd, vhd->wbuf + off, vhd->wlen - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		len = gb_vhd_event_len(vhd->wbuf + off, vhd->wlen - off);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			for (; len; off += len,
			     len = gb_vhd_event_len(vhd->wbuf + off,
						    vhd->wlen - off)) {
				if (gbsim_vhd_queue(tp, vhd->wbuf + off, len))
					gbsim_log_error("vhd: queue full, an event of %zu bytes to the AP dropped",
							len);
			}
			break;
		}
		/* the first event left was refused: errno says why */
		memcpy(&hdr, vhd->wbuf + off, sizeof(hdr));
		memcpy(&m, vhd->wbuf + off + sizeof(hdr), sizeof(m));
		gbsim_log_error("cport %u: sending %zu bytes to the AP failed: %s",
				m.cport_id, (size_t)hdr.len - sizeof(m),
				n < 0 ? strerror(errno) : "nothing written");
		if (!len)
			break;	/* cannot be: only whole events are packed */
		off += len;
	}
	vhd->wlen = 0;
}

void gbsim_vhd_hold(struct gbsim_transport *tp)
{
	struct gbsim_vhd *vhd = tp->priv;

	if (vhd)
		vhd->hold++;
}

void gbsim_vhd_release(struct gbsim_transport *tp)
{
	struct gbsim_vhd *vhd = tp->priv;

	if (!vhd || !vhd->hold || --vhd->hold)
		return;
	if (vhd->wlen && !vhd->lost)
		gbsim_vhd_flush_held(tp);
	if (tp->released)
		tp->released(tp->released_ctx);
}

bool gbsim_vhd_held(const struct gbsim_transport *tp)
{
	const struct gbsim_vhd *vhd = tp->priv;

	return vhd && vhd->hold;
}

static int gbsim_vhd_queue(struct gbsim_transport *tp, const void *ev,
			   size_t len)
{
	struct gbsim_vhd *vhd = tp->priv;
	struct gbsim_vhd_pending *p;

	if (vhd->queued >= GBSIM_VHD_QUEUE_MAX)
		return -ENOBUFS;
	p = malloc(sizeof(*p) + len);
	if (!p)
		return -ENOMEM;
	p->len = len;
	p->next = NULL;
	memcpy(p->data, ev, len);
	if (vhd->tail)
		vhd->tail->next = p;
	else
		vhd->head = p;
	vhd->tail = p;
	if (++vhd->queued >= GBSIM_BACKLOG_HIGH)
		vhd->high = true;
	gbsim_loop_set_events(tp->loop, tp->fd, POLLIN | POLLOUT);
	return 0;
}

static void gbsim_vhd_flush(struct gbsim_transport *tp)
{
	struct gbsim_vhd *vhd = tp->priv;
	struct gbsim_vhd_pending *p;

	while ((p = vhd->head)) {
		int ret = gbsim_vhd_write(tp, p->data, p->len);

		if (ret == 1)
			return;
		if (ret < 0)
			gbsim_log_error("vhd: delayed write of %zu bytes failed: %s",
					p->len, strerror(-ret));
		vhd->head = p->next;
		if (!vhd->head)
			vhd->tail = NULL;
		vhd->queued--;
		free(p);
		if (vhd->high && vhd->queued <= GBSIM_BACKLOG_LOW) {
			vhd->high = false;
			if (tp->drained)
				tp->drained(tp->drained_ctx);
		}
	}
	gbsim_loop_set_events(tp->loop, tp->fd, POLLIN);
}

static size_t gbsim_vhd_backlog(struct gbsim_transport *tp)
{
	struct gbsim_vhd *vhd = tp->priv;

	return vhd ? vhd->queued : 0;
}

static int gbsim_vhd_event(struct gbsim_transport *tp, uint32_t type,
			   const void *payload, size_t len)
{
	struct gbsim_vhd *vhd = tp->priv;
	struct gb_vhd_event_hdr hdr = { .type = type, .len = (uint32_t)len };
	uint8_t *ev;
	int ret;

	if (vhd->lost)
		return -ENODEV;
	if (vhd->wlen)
		gbsim_vhd_flush_held(tp);	/* in order */
	ev = malloc(sizeof(hdr) + len);
	if (!ev)
		return -ENOMEM;
	memcpy(ev, &hdr, sizeof(hdr));
	memcpy(ev + sizeof(hdr), payload, len);
	if (vhd->head)
		ret = gbsim_vhd_queue(tp, ev, sizeof(hdr) + len);
	else {
		ret = gbsim_vhd_write(tp, ev, sizeof(hdr) + len);
		if (ret == 1)
			ret = gbsim_vhd_queue(tp, ev, sizeof(hdr) + len);
	}
	free(ev);
	return ret;
}

static const char *gbsim_vhd_cport_event_name(uint32_t type)
{
	switch (type) {
	case GB_VHD_CPORT_ENABLE:	return "enable";
	case GB_VHD_CPORT_DISABLE:	return "disable";
	case GB_VHD_CPORT_FLUSH:	return "flush";
	case GB_VHD_CPORT_CONNECTED:	return "connected";
	case GB_VHD_CPORT_QUIESCE:	return "quiesce";
	case GB_VHD_CPORT_CLEAR:	return "clear";
	case GB_VHD_CPORT_SHUTDOWN:	return "shutdown";
	default:			return NULL;
	}
}

static void gbsim_vhd_dispatch(struct gbsim_transport *tp, const uint8_t *ev,
			       size_t n)
{
	struct gbsim_vhd *vhd = tp->priv;
	struct gb_vhd_event_hdr hdr;
	const uint8_t *payload;
	const char *what;

	if (n < sizeof(hdr)) {
		gbsim_vhd_complain(vhd, "vhd: short event of %zu bytes ignored", n);
		return;
	}
	memcpy(&hdr, ev, sizeof(hdr));
	payload = ev + sizeof(hdr);
	if (hdr.len != n - sizeof(hdr)) {
		gbsim_vhd_complain(vhd, "vhd: event type 0x%x says %u payload bytes, read %zu: ignored",
				hdr.type, hdr.len, n - sizeof(hdr));
		return;
	}

	switch (hdr.type) {
	case GB_VHD_CREATED: {
		struct gb_vhd_created c;

		if (hdr.len < sizeof(c))
			break;
		memcpy(&c, payload, sizeof(c));
		gbsim_host_created(tp->sim, c.bus_id);
		return;
	}
	case GB_VHD_SEND: {
		struct gb_vhd_message m;

		if (hdr.len < sizeof(m))
			break;
		memcpy(&m, payload, sizeof(m));
		gbsim_host_message(tp->sim, m.cport_id, payload + sizeof(m),
				   hdr.len - sizeof(m));
		return;
	}
	case GB_VHD_ECHO_REPLY:
		gbsim_log_event("vhd echo reply of %u bytes", hdr.len);
		return;
	case GB_VHD_RESET:
		gbsim_host_reset(tp->sim);
		return;
	case GB_VHD_BUNDLE: {
		struct gb_vhd_bundle b;

		if (hdr.len < sizeof(b))
			break;
		memcpy(&b, payload, sizeof(b));
		gbsim_log_event("vhd bundle %u.%u class 0x%02x authorized=%u",
				b.intf_id, b.bundle_id, b.bundle_class,
				b.authorized);
		if (tp->on_bundle)
			tp->on_bundle(tp->bundle_ctx, b.intf_id, b.bundle_id,
				      b.bundle_class, b.authorized);
		return;
	}
	default:
		what = gbsim_vhd_cport_event_name(hdr.type);
		if (what) {
			struct gb_vhd_cport c;

			if (hdr.len < sizeof(c))
				break;
			memcpy(&c, payload, sizeof(c));
			gbsim_host_cport_event(tp->sim, what, c.cport_id, c.arg);
			return;
		}
		gbsim_vhd_complain(vhd, "vhd: unknown event type 0x%x (%u bytes) ignored",
			       hdr.type, hdr.len);
		return;
	}
	gbsim_vhd_complain(vhd, "vhd: event type 0x%x too short (%u bytes): ignored",
			hdr.type, hdr.len);
}

/* What one read() returned: one event, or on a version 3 host several */
static void gbsim_vhd_dispatch_all(struct gbsim_transport *tp,
				   const uint8_t *buf, size_t n)
{
	struct gbsim_vhd *vhd = tp->priv;
	struct gb_vhd_event_hdr hdr;
	const uint8_t *payload;
	size_t off = 0, start;
	int ret;

	if (!vhd->batch) {
		gbsim_vhd_dispatch(tp, buf, n);
		return;
	}
	for (;;) {
		start = off;
		ret = gb_vhd_batch_next(buf, n, &off, &hdr, &payload);
		if (ret <= 0)
			break;
		gbsim_vhd_dispatch(tp, buf + start, off - start);
		if (vhd->lost)
			return;
	}
	if (ret < 0)
		gbsim_vhd_complain(vhd, "vhd: %zu bytes at the end of a %zu-byte read are not a whole event: ignored",
				   n - off, n);
}

static void gbsim_vhd_ready(struct gbsim_loop *loop, int fd, short revents,
			    void *ctx)
{
	struct gbsim_transport *tp = ctx;
	struct gbsim_vhd *vhd = tp->priv;

	(void)loop;
	if (revents & POLLOUT)
		gbsim_vhd_flush(tp);
	if (revents & POLLIN) {
		for (unsigned int i = 0; i < GBSIM_VHD_READS_MAX; i++) {
			ssize_t n = read(fd, vhd->rbuf, vhd->rbuf_len);

			if (n < 0 && errno == EMSGSIZE &&
			    vhd->rbuf_len < GBSIM_VHD_RBUF)
				n = read(fd, vhd->rbuf, GBSIM_VHD_RBUF);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				break;
			if (n < 0) {
				gbsim_vhd_lost(tp, -errno);
				return;
			}
			if (n == 0) {
				gbsim_vhd_lost(tp, -EPIPE);
				return;
			}
			/*
			 * The answers to what one read returned go out
			 * before the next read: waiting for more would
			 * only delay them
			 */
			gbsim_vhd_hold(tp);
			gbsim_vhd_dispatch_all(tp, vhd->rbuf, (size_t)n);
			gbsim_vhd_release(tp);
			if (vhd->lost)
				return;
		}
	} else if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
		gbsim_vhd_lost(tp, -EPIPE);
	}
}

/*
 * Is @fd (opened from @path) the greybus-vhd character device?  A
 * character device whose sysfs entry names another device is not; when
 * sysfs cannot say (not mounted), a character device is taken.
 */
static int gbsim_vhd_check(int fd, const char *path, char *err, size_t errlen)
{
	char uevent[64], line[128];
	struct stat st;
	bool other = false;
	FILE *f;

	if (fstat(fd, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISCHR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a character device (the %s device is)",
			 path, GB_VHD_DEVICE_NAME);
		return -ENODEV;
	}
	snprintf(uevent, sizeof(uevent), "/sys/dev/char/%u:%u/uevent",
		 major(st.st_rdev), minor(st.st_rdev));
	f = fopen(uevent, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			other = strcmp(line + 8, GB_VHD_DEVICE_NAME) != 0;
		}
	}
	fclose(f);
	if (other) {
		snprintf(err, errlen, "%s: not the %s device", path,
			 GB_VHD_DEVICE_NAME);
		return -ENODEV;
	}
	return 0;
}

/*
 * CREATE with @version; 0, 1 (would block) or -errno.  The kernel refuses
 * a version it does not know with -EINVAL and changes nothing.
 */
static int gbsim_vhd_create(struct gbsim_transport *tp, uint32_t version)
{
	struct {
		struct gb_vhd_event_hdr hdr;
		struct gb_vhd_create create;
	} GB_PACKED ev = {
		.hdr = { .type = GB_VHD_CREATE, .len = sizeof(ev.create) },
		.create = {
			.version = version,
			.num_cports = tp->num_cports,
			.mtu = tp->mtu,
			.flags = 0,
		},
	};

	return gbsim_vhd_write(tp, &ev, sizeof(ev));
}

static int gbsim_vhd_open(struct gbsim_transport *tp, char *err, size_t errlen)
{
	/* the newest we would take, and what to fall back to */
	uint32_t old = tp->authorize ? GB_VHD_VERSION_AUTH : GB_VHD_VERSION;
	uint32_t version = GB_VHD_VERSION_BATCH;
	struct gbsim_vhd *vhd;
	int ret, flags;

	if (tp->vhd_version && tp->vhd_version < version)
		version = tp->vhd_version < old ? old : tp->vhd_version;
	vhd = calloc(1, sizeof(*vhd));
	if (vhd) {
		vhd->rbuf = malloc(GBSIM_VHD_RBUF);
		vhd->wbuf = malloc(GBSIM_VHD_WBUF);
	}
	if (!vhd || !vhd->rbuf || !vhd->wbuf) {
		if (vhd) {
			free(vhd->rbuf);
			free(vhd->wbuf);
			free(vhd);
		}
		snprintf(err, errlen, "vhd: out of memory");
		return -ENOMEM;
	}
	tp->priv = vhd;

	if (tp->fd < 0) {
		tp->fd = open(tp->device, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (tp->fd < 0) {
			ret = -errno;
			snprintf(err, errlen, "cannot open %s: %s%s", tp->device,
				 strerror(errno),
				 errno == ENOENT ? " (is gb-vhd loaded?)" : "");
			goto err_free;
		}
		ret = gbsim_vhd_check(tp->fd, tp->device, err, errlen);
		if (ret)
			goto err_close;
	} else {
		/* non-blocking, and not inherited by anything run later */
		flags = fcntl(tp->fd, F_GETFL);
		if (flags < 0 || fcntl(tp->fd, F_SETFL, flags | O_NONBLOCK) < 0 ||
		    fcntl(tp->fd, F_SETFD, FD_CLOEXEC) < 0) {
			ret = -errno;
			snprintf(err, errlen, "descriptor %d: %s", tp->fd,
				 strerror(errno));
			goto err_free;
		}
	}

	ret = gbsim_vhd_create(tp, version);
	if (ret == -EINVAL && version > old) {
		/* a gb-vhd without batched I/O: one event per call */
		gbsim_log_event("vhd: ABI version %u refused, using %u", version,
				old);
		version = old;
		ret = gbsim_vhd_create(tp, version);
	}
	if (ret) {
		ret = ret > 0 ? -EAGAIN : ret;
		snprintf(err, errlen,
			 "%s refused to create a host device (ABI version %u, %u cports, mtu %u): %s%s",
			 tp->device ? tp->device : "vhd", version,
			 tp->num_cports, tp->mtu, strerror(-ret),
			 tp->authorize && ret == -EINVAL ?
			 " (a gb-vhd without authorization?)" : "");
		goto err_close;
	}
	vhd->batch = version >= GB_VHD_VERSION_BATCH;
	/* one largest SEND per read at most (see the top of the file) */
	vhd->rbuf_len = vhd->batch ? sizeof(struct gb_vhd_event_hdr) +
				     sizeof(struct gb_vhd_message) + tp->mtu :
				     GB_VHD_EVENT_SIZE_MAX;
	if (vhd->rbuf_len > GBSIM_VHD_RBUF)
		vhd->rbuf_len = GBSIM_VHD_RBUF;
	gbsim_log_event("vhd: host created with ABI version %u (%s)", version,
			vhd->batch ? "batched I/O" : "one event per call");
	if (tp->hold_bundles) {
		ret = gbsim_vhd_authorize(tp, 0, -1, false);
		if (ret) {
			snprintf(err, errlen,
				 "vhd: cannot set authorized_default 0: %s",
				 strerror(-ret));
			goto err_close;
		}
	}

	ret = gbsim_loop_add_fd(tp->loop, tp->fd, POLLIN, gbsim_vhd_ready, tp);
	if (ret) {
		snprintf(err, errlen, "vhd: out of memory");
		goto err_close;
	}
	return 0;

err_close:
	close(tp->fd);
	tp->fd = -1;
err_free:
	free(vhd->rbuf);
	free(vhd->wbuf);
	free(vhd);
	tp->priv = NULL;
	return ret;
}

static int gbsim_vhd_send(struct gbsim_transport *tp, uint16_t cport,
			  const void *msg, size_t len)
{
	struct gb_vhd_message m = { .cport_id = cport, .pad = 0 };
	struct gbsim_vhd *vhd = tp->priv;
	uint8_t *buf;
	size_t n;
	int ret;

	if (vhd->batch && vhd->hold && !vhd->lost && !vhd->head) {
		n = gb_vhd_batch_put(vhd->wbuf + vhd->wlen,
				     GBSIM_VHD_WBUF - vhd->wlen, GB_VHD_RECV,
				     &m, sizeof(m), msg, len);
		if (!n && vhd->wlen) {
			gbsim_vhd_flush_held(tp);
			n = gb_vhd_batch_put(vhd->wbuf, GBSIM_VHD_WBUF,
					     GB_VHD_RECV, &m, sizeof(m),
					     msg, len);
		}
		if (n) {
			vhd->wlen += n;
			return 0;
		}
		/* larger than an event may be: refused as it would be alone */
	}

	buf = malloc(sizeof(m) + len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &m, sizeof(m));
	memcpy(buf + sizeof(m), msg, len);
	ret = gbsim_vhd_event(tp, GB_VHD_RECV, buf, sizeof(m) + len);
	free(buf);
	return ret;
}

static void gbsim_vhd_close(struct gbsim_transport *tp)
{
	struct gbsim_vhd *vhd = tp->priv;
	struct gbsim_vhd_pending *p;

	if (!vhd)
		return;
	if (tp->fd >= 0 && vhd->wlen && !vhd->lost)
		gbsim_vhd_flush_held(tp);
	if (tp->fd >= 0) {
		gbsim_loop_del_fd(tp->loop, tp->fd);
		close(tp->fd);	/* = unplug the bridge */
		tp->fd = -1;
	}
	while ((p = vhd->head)) {
		vhd->head = p->next;
		free(p);
	}
	free(vhd->rbuf);
	free(vhd->wbuf);
	free(vhd);
	tp->priv = NULL;
}

static int gbsim_vhd_strobe(struct gbsim_transport *tp, uint64_t timestamp_ns)
{
	struct gb_vhd_strobe s = { .timestamp_ns = timestamp_ns };

	return gbsim_vhd_event(tp, GB_VHD_TIMESYNC_STROBE, &s, sizeof(s));
}

int gbsim_vhd_authorize(struct gbsim_transport *tp, uint8_t intf_id,
			int bundle_id, bool authorized)
{
	struct gbsim_vhd *vhd = tp->priv;
	struct {
		struct gb_vhd_event_hdr hdr;
		struct gb_vhd_authorize a;
	} GB_PACKED ev = {
		.hdr = { .type = GB_VHD_AUTHORIZE, .len = sizeof(ev.a) },
		.a = {
			.scope = bundle_id < 0 ? GB_VHD_AUTH_DEFAULT :
						 GB_VHD_AUTH_BUNDLE,
			.intf_id = bundle_id < 0 ? 0 : intf_id,
			.bundle_id = bundle_id < 0 ? 0 : (uint8_t)bundle_id,
			.authorized = authorized,
		},
	};
	int ret;

	if (!tp->authorize || tp->fd < 0)
		return -EOPNOTSUPP;
	if (vhd && vhd->wlen)
		gbsim_vhd_flush_held(tp);	/* in order */
	/* Written at once, not queued: the answer is the point */
	ret = gbsim_vhd_write(tp, &ev, sizeof(ev));
	return ret == 1 ? -EAGAIN : ret;
}

const struct gbsim_transport_ops gbsim_vhd_transport = {
	.name	= "vhd",
	.open	= gbsim_vhd_open,
	.send	= gbsim_vhd_send,
	.strobe	= gbsim_vhd_strobe,
	.close	= gbsim_vhd_close,
	.backlog = gbsim_vhd_backlog,
};
