/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AP's side of gb-vhd for the unit-test programs that run gbsim or
 * gbnet without the kernel: one SOCK_SEQPACKET socket stands for the
 * character device, and TAP lines numbered by the program itself.  The
 * peer is answered CREATED whatever version it asks for, so gbsim and
 * gbnet take it for a version 3 host (batched I/O): one packet from them
 * may carry several events back-to-back, which ev_read() returns one by
 * one; each packet to them carries one event, as a batched read may.  Included by one file
 * of each program, which sets vhd_sock.
 */
#ifndef GB_TEST_VHD_PEER_H
#define GB_TEST_VHD_PEER_H

#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uapi/greybus/vhd.h>

static int vhd_sock = -1;		/* the AP's end of the socket pair */
static const char *vhd_peer_name = "the peer";	/* for bail-out lines */
static unsigned int tests, failures;

static void ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!cond)
		failures++;
	printf("%s %u - ", cond ? "ok" : "not ok", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void bail(const char *why)
{
	printf("Bail out! %s\n", why);
	exit(1);
}

static void ev_bail(const char *what)
{
	char why[128];

	snprintf(why, sizeof(why), "%s %s", what, vhd_peer_name);
	bail(why);
}

/* One event to the peer: header, then @len bytes of @payload */
static void ev_write(uint32_t type, const void *payload, size_t len)
{
	uint8_t buf[GB_VHD_EVENT_SIZE_MAX];
	struct gb_vhd_event_hdr hdr = { .type = type, .len = (uint32_t)len };

	if (len > sizeof(buf) - sizeof(hdr))
		ev_bail("event too large for");
	memcpy(buf, &hdr, sizeof(hdr));
	if (len)
		memcpy(buf + sizeof(hdr), payload, len);
	if (write(vhd_sock, buf, sizeof(hdr) + len) != (ssize_t)(sizeof(hdr) + len))
		ev_bail("write failed to");
}

/* What the last packet from the peer held that ev_read() has not returned */
static uint8_t ev_packet[256 * 1024];
static size_t ev_packet_len, ev_packet_off;

/* The next event from the peer: its type, 0 on timeout, -1 at EOF */
static long ev_read(uint8_t *payload, size_t *len, int timeout_ms)
{
	struct pollfd pfd = { .fd = vhd_sock, .events = POLLIN };
	struct gb_vhd_event_hdr hdr;
	size_t left;
	ssize_t n;

	if (ev_packet_off >= ev_packet_len) {
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return 0;
		n = read(vhd_sock, ev_packet, sizeof(ev_packet));
		if (n <= 0)
			return -1;
		ev_packet_len = (size_t)n;
		ev_packet_off = 0;
	}
	left = ev_packet_len - ev_packet_off;
	if (left < sizeof(hdr))
		ev_bail("short event from");
	memcpy(&hdr, ev_packet + ev_packet_off, sizeof(hdr));
	if (hdr.len > left - sizeof(hdr) ||
	    hdr.len > GB_VHD_EVENT_SIZE_MAX - sizeof(hdr))
		ev_bail("event length mismatch from");
	memcpy(payload, ev_packet + ev_packet_off + sizeof(hdr), hdr.len);
	ev_packet_off += sizeof(hdr) + hdr.len;
	*len = hdr.len;
	return hdr.type;
}

/* A Greybus message from the AP on bridge CPort @cport (a SEND event) */
static void ap_send(uint16_t cport, const void *msg, size_t len)
{
	uint8_t buf[GB_VHD_EVENT_SIZE_MAX];
	struct gb_vhd_message m = { .cport_id = cport };

	if (len > sizeof(buf) - sizeof(m))
		ev_bail("message too large for");
	memcpy(buf, &m, sizeof(m));
	if (len)
		memcpy(buf + sizeof(m), msg, len);
	ev_write(GB_VHD_SEND, buf, sizeof(m) + len);
}

/* A CPort event (enable, disable, ...) with its argument */
static void cport_event(uint32_t type, uint16_t cport, uint32_t arg)
{
	struct gb_vhd_cport c = { .cport_id = cport, .arg = arg };

	ev_write(type, &c, sizeof(c));
}

#endif /* GB_TEST_VHD_PEER_H */
