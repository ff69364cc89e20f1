// SPDX-License-Identifier: GPL-2.0
/*
 * The bulk endpoint threads of the ES2 transport (es2-pump.h).  Stopping
 * cancels the thread wherever it blocks: every call of the threads that
 * can block is a cancellation point (a read or write on the endpoint,
 * the queue's wait, the back-off's sleep, the socket's send), and no
 * other call may block (the descriptor's ioctl is made non-blocking).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>

#include "es2-pump.h"

#define GBSIM_ES2_QUEUE_MAX	4096

struct gbsim_es2_item {
	struct gbsim_es2_item *next;
	size_t		len;
	uint8_t		data[];
};

/* A disabled endpoint fails at once until the host configures us again. */
static void gbsim_es2_backoff(void)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/*
 * A transfer that fills its last packet needs a zero-length packet to
 * end it, unless it fills the AP's whole buffer (p->size).  The packet
 * size is the one of the speed the host chose.
 *
 * The descriptor is asked through p->desc_fd, a non-blocking file: on
 * a blocking one, functionfs waits in the ioctl until the host enables
 * the endpoint again, which after an unplug is never, and an ioctl is
 * no cancellation point, so gbsim_es2_pump_stop() would wait forever
 * for a thread that the cancel reached just before the call.  Disabled
 * (EAGAIN) means the host is gone and needs no zero-length packet.
 */
static bool gbsim_es2_needs_zlp(struct gbsim_es2_pump *p, size_t len)
{
	struct usb_endpoint_descriptor desc;
	unsigned int maxp;

	if (!len || len >= p->size)
		return false;
	if (ioctl(p->desc_fd, FUNCTIONFS_ENDPOINT_DESC, &desc) < 0)
		return false;
	maxp = desc.wMaxPacketSize & 0x7ff;
	return maxp && len % maxp == 0;
}

static void gbsim_es2_unlock(void *arg)
{
	pthread_mutex_unlock(arg);
}

static void *gbsim_es2_writer(void *arg)
{
	struct gbsim_es2_pump *p = arg;
	struct gbsim_es2_item *it;
	ssize_t n;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		pthread_cleanup_push(gbsim_es2_unlock, &p->lock);
		while (!p->head)
			pthread_cond_wait(&p->cond, &p->lock);
		it = p->head;
		p->head = it->next;
		if (!p->head)
			p->tail = NULL;
		p->queued--;
		pthread_cleanup_pop(1);

		pthread_cleanup_push(free, it);
		do {
			n = write(p->ep, it->data, it->len);
		} while (n < 0 && errno == EINTR);
		if (n != (ssize_t)it->len)
			__atomic_add_fetch(&p->failed, 1, __ATOMIC_RELAXED);
		else if (gbsim_es2_needs_zlp(p, it->len))
			while (write(p->ep, it->data, 0) < 0 && errno == EINTR)
				;
		pthread_cleanup_pop(1);
	}
	return NULL;
}

int gbsim_es2_writer_start(struct gbsim_es2_pump *p, int ep, int desc_fd,
			   size_t size)
{
	int ret;

	memset(p, 0, sizeof(*p));
	p->ep = ep;
	p->desc_fd = desc_fd;
	p->size = size;
	p->sock = -1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	ret = pthread_create(&p->thread, NULL, gbsim_es2_writer, p);
	if (ret)
		return -ret;
	p->running = true;
	return 0;
}

int gbsim_es2_writer_queue(struct gbsim_es2_pump *p, const void *data,
			   size_t len)
{
	struct gbsim_es2_item *it;

	it = malloc(sizeof(*it) + len);
	if (!it)
		return -ENOMEM;
	it->next = NULL;
	it->len = len;
	memcpy(it->data, data, len);

	pthread_mutex_lock(&p->lock);
	if (p->queued >= GBSIM_ES2_QUEUE_MAX) {
		pthread_mutex_unlock(&p->lock);
		free(it);
		return -ENOBUFS;
	}
	if (p->tail)
		p->tail->next = it;
	else
		p->head = it;
	p->tail = it;
	p->queued++;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static void *gbsim_es2_reader(void *arg)
{
	struct gbsim_es2_pump *p = arg;
	uint8_t *buf = malloc(p->size);
	ssize_t n;

	if (!buf)
		return NULL;
	pthread_cleanup_push(free, buf);
	for (;;) {
		n = read(p->ep, buf, p->size);
		if (n == 0 || (n < 0 && errno == EINTR))
			continue;	/* a zero-length packet ends nothing here */
		if (n < 0) {
			gbsim_es2_backoff();
			continue;
		}
		/* blocks when the loop falls behind: back-pressure on the AP */
		while (send(p->sock, buf, (size_t)n, 0) < 0 && errno == EINTR)
			;
	}
	pthread_cleanup_pop(1);
	return NULL;
}

int gbsim_es2_reader_start(struct gbsim_es2_pump *p, int ep, size_t size)
{
	int sv[2], ret;

	memset(p, 0, sizeof(*p));
	p->ep = ep;
	p->desc_fd = -1;
	p->size = size;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	p->sock = sv[1];
	ret = pthread_create(&p->thread, NULL, gbsim_es2_reader, p);
	if (ret) {
		close(sv[0]);
		close(sv[1]);
		p->sock = -1;
		return -ret;
	}
	p->running = true;
	return sv[0];
}

void gbsim_es2_pump_stop(struct gbsim_es2_pump *p)
{
	struct gbsim_es2_item *it;

	if (p->running) {
		pthread_cancel(p->thread);
		pthread_join(p->thread, NULL);
		p->running = false;
	}
	if (p->sock >= 0) {
		close(p->sock);
		p->sock = -1;
	}
	while ((it = p->head)) {
		p->head = it->next;
		free(it);
	}
	p->tail = NULL;
	p->queued = 0;
}
