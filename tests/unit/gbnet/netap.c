// SPDX-License-Identifier: GPL-2.0
/*
 * netap: a host-side test of gbnet without the kernel and without a real
 * node.  It plays the AP side of gb-vhd over a SOCK_SEQPACKET socket pair
 * (as tests/unit/gbsim/fakeap.c does for gbsim) and a Greybus node on a
 * TCP socket of 127.0.0.1, and checks what gbnet does in between: SVC
 * bring-up, module inserted when the node connects, messages carried
 * both ways with the node's CPort id, and every kind of bad input from
 * the node (a CPort no connection reaches, sizes over the MTU and under
 * a header, a message begun and never finished) ending in module
 * removed, a reconnect, and the same interface id again.  Output is TAP.
 *
 * Usage: netap GBNET MANIFEST_DIR LOGFILE
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uapi/greybus/control.h>
#include <uapi/greybus/greybus.h>
#include <uapi/greybus/svc.h>
#include <uapi/greybus/vhd.h>

#include "vhd_peer.h"

static int lfd = -1;		/* the node's listening socket */
static int nfd = -1;		/* the node's connection */
static uint16_t ap_id;

/* ---- the AP ----------------------------------------------------------- */

struct msg {
	uint16_t cport;
	uint8_t	bytes[4096];	/* header + payload */
	size_t	len;
};

static uint8_t msg_type(const struct msg *m)
{
	return m->bytes[4];
}

static uint16_t msg_id(const struct msg *m)
{
	return (uint16_t)(m->bytes[2] | m->bytes[3] << 8);
}

/* The next message gbnet hands the AP; false on timeout */
static bool ap_recv(struct msg *m, int timeout_ms)
{
	static uint8_t buf[GB_VHD_EVENT_SIZE_MAX];
	struct gb_vhd_message vm;
	size_t len;
	long type;

	do {
		type = ev_read(buf, &len, timeout_ms);
		if (type <= 0)
			return false;
	} while (type != GB_VHD_RECV);
	memcpy(&vm, buf, sizeof(vm));
	m->cport = vm.cport_id;
	m->len = len - sizeof(vm);
	if (m->len > sizeof(m->bytes) || m->len < 8)
		bail("bad message length from gbnet");
	memcpy(m->bytes, buf + sizeof(vm), m->len);
	return true;
}

static size_t build(uint8_t *out, uint16_t id, uint8_t type, uint8_t result,
		    const void *payload, size_t len)
{
	struct gb_operation_msg_hdr h = {
		.size = (uint16_t)(sizeof(h) + len),
		.operation_id = id,
		.type = type,
		.result = result,
	};

	memcpy(out, &h, sizeof(h));
	if (len)
		memcpy(out + sizeof(h), payload, len);
	return sizeof(h) + len;
}

/* An SVC request from gbnet of @type on CPort 0, answered with success */
static bool svc_expect(uint8_t type, struct msg *req)
{
	uint8_t rsp[16], ver[2] = { 0, 1 };
	size_t n;

	if (!ap_recv(req, 5000) || req->cport != 0 || msg_type(req) != type)
		return false;
	n = build(rsp, msg_id(req), type | GB_MSG_TYPE_RESPONSE, 0, ver,
		  type == GB_REQUEST_TYPE_PROTOCOL_VERSION ? 2 : 0);
	ap_send(0, rsp, n);
	return true;
}

/* The AP asks the SVC; the response's payload in @rsp */
static bool svc_ask(uint8_t type, const void *p, size_t len, struct msg *rsp)
{
	uint8_t req[64];
	size_t n = build(req, ++ap_id, type, 0, p, len);

	ap_send(0, req, n);
	return ap_recv(rsp, 3000) && rsp->cport == 0 &&
	       msg_type(rsp) == (type | GB_MSG_TYPE_RESPONSE) &&
	       msg_id(rsp) == ap_id && rsp->bytes[5] == GB_OP_SUCCESS;
}

static uint32_t dme_get(uint8_t intf, uint16_t attr)
{
	struct gb_svc_dme_peer_get_request r = { intf, attr, 0 };
	struct msg rsp;
	uint32_t v;

	if (!svc_ask(GB_SVC_TYPE_DME_PEER_GET, &r, sizeof(r), &rsp) ||
	    rsp.len != 8 + 6)
		return 0xdeadbeef;
	memcpy(&v, rsp.bytes + 10, sizeof(v));
	return v;
}

/* What the core does with a new interface, up to its control connection */
static bool bring_up(uint8_t intf, uint16_t hd_cport)
{
	struct gb_svc_intf_request i = { intf };
	struct gb_svc_intf_device_id_request d = { intf, intf };
	struct gb_svc_route_create_request r = { 1, 1, intf, intf };
	struct gb_svc_conn_create_request c = {
		.intf1_id = 1, .cport1_id = hd_cport,
		.intf2_id = intf, .cport2_id = 0,
	};
	struct msg rsp;

	if (!svc_ask(GB_SVC_TYPE_INTF_VSYS_ENABLE, &i, 1, &rsp) ||
	    !svc_ask(GB_SVC_TYPE_INTF_REFCLK_ENABLE, &i, 1, &rsp) ||
	    !svc_ask(GB_SVC_TYPE_INTF_UNIPRO_ENABLE, &i, 1, &rsp) ||
	    !svc_ask(GB_SVC_TYPE_INTF_ACTIVATE, &i, 1, &rsp) ||
	    rsp.bytes[9] != GB_SVC_INTF_TYPE_GREYBUS ||
	    !svc_ask(GB_SVC_TYPE_INTF_DEVICE_ID, &d, sizeof(d), &rsp) ||
	    !svc_ask(GB_SVC_TYPE_ROUTE_CREATE, &r, sizeof(r), &rsp))
		return false;
	cport_event(GB_VHD_CPORT_ENABLE, hd_cport, 0);
	return svc_ask(GB_SVC_TYPE_CONN_CREATE, &c, sizeof(c), &rsp);
}

/* ---- the node --------------------------------------------------------- */

static bool node_accept(int timeout_ms)
{
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return false;
	nfd = accept(lfd, NULL, NULL);
	return nfd >= 0;
}

static void node_write(const void *p, size_t n)
{
	if (write(nfd, p, n) != (ssize_t)n)
		bail("node write failed");
}

static void node_frame(uint16_t cport, const uint8_t *msg, size_t len)
{
	uint8_t buf[4096];

	buf[0] = (uint8_t)cport;
	buf[1] = (uint8_t)(cport >> 8);
	memcpy(buf + 2, msg, len);
	node_write(buf, len + 2);
}

/* Read exactly n bytes the node was sent; false on timeout or EOF */
static bool node_read(uint8_t *buf, size_t n, int timeout_ms)
{
	struct pollfd pfd = { .fd = nfd, .events = POLLIN };
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return false;
		r = read(nfd, buf + got, n - got);
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* gbnet closed the node's connection (within timeout_ms) */
static bool node_closed(int timeout_ms)
{
	struct pollfd pfd = { .fd = nfd, .events = POLLIN };
	uint8_t b[256];
	bool closed = false;

	while (poll(&pfd, 1, timeout_ms) > 0) {
		ssize_t r = read(nfd, b, sizeof(b));

		if (r <= 0) {
			closed = true;
			break;
		}
	}
	close(nfd);
	nfd = -1;
	return closed;
}

/* gbnet keeps the node's connection for @ms (nothing read is an EOF) */
static bool node_open(int ms)
{
	struct pollfd pfd = { .fd = nfd, .events = POLLIN };
	uint8_t b;

	if (poll(&pfd, 1, ms) <= 0)
		return true;
	return recv(nfd, &b, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
}

/* One frame the node was sent: its CPort and message; false on timeout */
static bool node_msg(uint16_t *cport, uint8_t *msg, size_t *len, int timeout_ms)
{
	uint8_t pre[4];

	if (!node_read(pre, 4, timeout_ms))
		return false;
	*cport = (uint16_t)(pre[0] | pre[1] << 8);
	*len = (size_t)(pre[2] | pre[3] << 8);
	if (*len < 8 || *len > 4096)
		return false;
	memcpy(msg, pre + 2, 2);
	return node_read(msg + 2, *len - 2, timeout_ms);
}

/* The node answers request @id of @type on its cport 0 */
static void node_answer(uint16_t id, uint8_t type)
{
	uint8_t rsp[8];
	size_t n = build(rsp, id, type | GB_MSG_TYPE_RESPONSE, 0, NULL, 0);

	node_frame(0, rsp, n);
}

/* The node connects (again): module inserted at @intf, brought up */
static void node_up(const char *why, uint8_t intf)
{
	struct msg req;

	ok(node_accept(5000), "%s: gbnet connects to the node", why);
	ok(svc_expect(GB_SVC_TYPE_MODULE_INSERTED, &req) && req.len == 12 &&
	   req.bytes[8] == intf && req.bytes[9] == 1,
	   "%s: module inserted at interface %u", why, intf);
	ok(bring_up(intf, 1), "%s: interface %u activated, control connection", why,
	   intf);
}

/* The node misbehaves: gbnet drops it and takes the module out */
static void node_dropped(const char *why, uint8_t intf, int timeout_ms)
{
	struct msg req;

	ok(node_closed(timeout_ms), "%s: gbnet closes the connection", why);
	ok(svc_expect(GB_SVC_TYPE_MODULE_REMOVED, &req) && req.len == 9 &&
	   req.bytes[8] == intf, "%s: module %u removed", why, intf);
	cport_event(GB_VHD_CPORT_DISABLE, 1, 0);
	{
		struct gb_svc_conn_destroy_request d = {
			.intf1_id = 1, .cport1_id = 1, .intf2_id = intf,
		};
		struct msg rsp;

		svc_ask(GB_SVC_TYPE_CONN_DESTROY, &d, sizeof(d), &rsp);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t salen = sizeof(sa);
	uint8_t buf[GB_VHD_EVENT_SIZE_MAX], m[64], ver[2] = { 0, 1 };
	char node[64];
	struct msg got, req;
	int sv[2], status;
	size_t len, n;
	pid_t pid;
	long type;

	if (argc != 4) {
		fprintf(stderr, "usage: netap GBNET MANIFEST_DIR LOGFILE\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sa, &salen))
		bail("node socket");
	snprintf(node, sizeof(node), "127.0.0.1:%u", ntohs(sa.sin_port));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		bail("socketpair");
	pid = fork();
	if (pid == 0) {
		char fdarg[16], capture[4096];

		close(sv[0]);
		close(lfd);
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		/* gbmon.sh reads what gbnet saw */
		snprintf(capture, sizeof(capture), "%s.pcapng", argv[3]);
		execl(argv[1], argv[1], "--device-fd", fdarg, "--log", argv[3],
		      "--capture", capture, "--cports", "16", "--mtu", "256", "--frame-timeout", "300",
		      "--node-mtu", "128", "--node-inflight", "2",
		      "--backoff-max", "300", "--node", node, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	vhd_sock = sv[0];
	vhd_peer_name = "gbnet";
	printf("TAP version 13\n");

	type = ev_read(buf, &len, 5000);
	{
		struct gb_vhd_create c;

		memcpy(&c, buf, sizeof(c));
		ok(type == GB_VHD_CREATE && c.num_cports == 16 && c.mtu == 256,
		   "gbnet: CREATE (%u cports, mtu %u)", c.num_cports, c.mtu);
	}
	{
		struct gb_vhd_created c = { .bus_id = 1 };

		ev_write(GB_VHD_CREATED, &c, sizeof(c));
		cport_event(GB_VHD_CPORT_ENABLE, 0, 0);
	}
	ok(svc_expect(GB_REQUEST_TYPE_PROTOCOL_VERSION, &req), "gbnet: svc version");
	ok(svc_expect(GB_SVC_TYPE_SVC_HELLO, &req) && req.len == 11 &&
	   req.bytes[8] == 0x55 && req.bytes[9] == 0x47 && req.bytes[10] == 1,
	   "gbnet: svc hello, endo 0x4755, AP interface 1");

	node_up("gbnet: first connection", 2);
	ok(dme_get(2, GB_DME_ARA_SN0) == 2 &&
	   dme_get(2, GB_DME_ARA_SN1) == 0x47424e54,
	   "gbnet: serial GBNT + interface id");

	/* AP -> node: the node's CPort id, the message as it is */
	n = build(m, 7, GB_CONTROL_TYPE_VERSION, 0, ver, 2);
	ap_send(1, m, n);
	ok(node_read(buf, 2 + n, 3000) && buf[0] == 0 && buf[1] == 0 &&
	   !memcmp(buf + 2, m, n), "gbnet: AP request reaches the node on its cport 0");
	/* node -> AP: on the bridge CPort connected to it */
	n = build(m, 7, GB_CONTROL_TYPE_VERSION | GB_MSG_TYPE_RESPONSE, 0, ver, 2);
	node_frame(0, m, n);
	ok(ap_recv(&got, 3000) && got.cport == 1 && got.len == n &&
	   !memcmp(got.bytes, m, n), "gbnet: node response reaches the AP on cport 1");
	/* two frames in one write, and one split over two writes */
	n = build(m, 0, 0x7e, 0, NULL, 0);
	{
		uint8_t two[40];

		two[0] = 0;
		two[1] = 0;
		memcpy(two + 2, m, n);
		memcpy(two + 2 + n, two, 2 + n);
		node_write(two, 2 * (2 + n));
		ok(ap_recv(&got, 3000) && ap_recv(&got, 3000) && got.cport == 1,
		   "gbnet: two frames in one segment");
		node_write(two, 5);
		usleep(50000);
		node_write(two + 5, 2 + n - 5);
		ok(ap_recv(&got, 3000) && got.cport == 1 && got.len == n,
		   "gbnet: a frame in two segments");
	}

	/*
	 * Whole frames streamed for longer than the frame timeout (300 ms),
	 * every write ending mid-frame (18 bytes, then 12 at a time: 12-byte
	 * frames, so the buffer is never empty): each frame is whole within
	 * 40 ms, so nothing is late and the node stays.
	 */
	{
		uint8_t stream[24], two[2];
		unsigned int sent = 0, got_n = 0;

		memset(two, 0, sizeof(two));
		n = build(m, 0, 0x7e, 0, two, 2);	/* 10 bytes: 12 framed */
		stream[0] = 0;
		stream[1] = 0;
		memcpy(stream + 2, m, n);
		memcpy(stream + 12, stream, 12);
		node_write(stream, 18);
		sent = 1;
		for (int i = 0; i < 60; i++) {
			usleep(20000);
			/* bytes 6..11 of a frame, then 0..5 of the next */
			node_write(stream + 6, 12);
			sent++;
			while (ap_recv(&got, 0))
				got_n++;
		}
		/* the half frame left: finish it */
		node_write(stream + 6, 6);
		sent++;
		while (got_n < sent && ap_recv(&got, 2000))
			got_n++;
		ok(got_n == sent && node_open(300),
		   "gbnet: frames streamed across reads: %u of %u delivered, node kept", got_n,
		   sent);
	}

	/* a CPort no connection reaches */
	node_frame(9, m, n);
	node_dropped("bad cport", 2, 3000);
	node_up("after bad cport", 2);

	/* a size over the MTU, refused from its header on */
	{
		uint8_t big[4] = { 0, 0, 0x01, 0x01 };	/* size 257 > mtu 256 */

		node_write(big, sizeof(big));
	}
	node_dropped("size over the mtu", 2, 3000);
	node_up("after size over the mtu", 2);

	/* a size under a header */
	{
		uint8_t small[10] = { 0, 0, 7, 0 };

		node_write(small, sizeof(small));
	}
	node_dropped("size under a header", 2, 3000);
	node_up("after size under a header", 2);

	/* a message begun, never finished: dropped after the frame timeout */
	node_write(m, 5);
	node_dropped("half a message", 2, 3000);
	node_up("after half a message", 2);

	/* a node that closes mid-message, then comes back */
	node_write(m, 3);
	close(nfd);
	nfd = -1;
	ok(svc_expect(GB_SVC_TYPE_MODULE_REMOVED, &req) && req.bytes[8] == 2,
	   "closed mid-message: module 2 removed");
	cport_event(GB_VHD_CPORT_DISABLE, 1, 0);
	node_up("after a close", 2);

	/*
	 * The node's MTU (--node-mtu 128): a larger request never reaches
	 * the node and is answered GB_OP_OVERFLOW at once.
	 */
	{
		uint8_t big[200] = { 0 }, nm[4096], req[256];
		uint16_t ncport;
		size_t nlen;

		n = build(req, 0x21, 0x02, 0, big, sizeof(big) - 8);
		ap_send(1, req, n);
		ok(ap_recv(&got, 3000) && got.cport == 1 && msg_id(&got) == 0x21 &&
		   msg_type(&got) == 0x82 && got.bytes[5] == GB_OP_OVERFLOW,
		   "gbnet: node mtu: a 200-byte request answered GB_OP_OVERFLOW");
		ok(!node_msg(&ncport, nm, &nlen, 300),
		   "gbnet: node mtu: the request did not reach the node");
	}
	/*
	 * Requests in flight (--node-inflight 2): the third waits for an
	 * answer; past the queue (64) a request is answered GB_OP_RETRY.
	 */
	{
		uint8_t nm[4096];
		uint16_t ncport, ids[80];
		unsigned int seen = 0, answered = 0, retry = 0;
		size_t nlen;
		bool order = true;

		for (uint16_t id = 0x31; id <= 0x34; id++) {
			n = build(m, id, 0x02, 0, NULL, 0);
			ap_send(1, m, n);
		}
		/* the two the window takes, however slow the machine; then none */
		while (seen < 2 && node_msg(&ncport, nm, &nlen, 3000))
			ids[seen++] = (uint16_t)(nm[2] | nm[3] << 8);
		while (seen >= 2 && seen < 4 && node_msg(&ncport, nm, &nlen, 300))
			ids[seen++] = (uint16_t)(nm[2] | nm[3] << 8);
		ok(seen == 2 && ids[0] == 0x31 && ids[1] == 0x32,
		   "gbnet: node inflight: 2 of 4 requests sent (%u)", seen);
		node_answer(0x31, 0x02);
		ok(node_msg(&ncport, nm, &nlen, 3000) && nm[2] == 0x33 &&
		   !node_msg(&ncport, nm, &nlen, 300),
		   "gbnet: node inflight: an answer lets the third go, only it");
		node_answer(0x32, 0x02);
		node_answer(0x33, 0x02);
		ok(node_msg(&ncport, nm, &nlen, 3000) && nm[2] == 0x34,
		   "gbnet: node inflight: then the fourth");
		node_answer(0x34, 0x02);
		for (int i = 0; i < 4; i++)
			if (ap_recv(&got, 3000) && msg_type(&got) == 0x82 &&
			    got.bytes[5] == GB_OP_SUCCESS)
				answered++;
		ok(answered == 4, "gbnet: node inflight: the AP got the 4 answers (%u)",
		   answered);

		/* 2 in flight + 64 queued + 1 refused */
		for (uint16_t id = 0x100; id < 0x100 + 67; id++) {
			n = build(m, id, 0x02, 0, NULL, 0);
			ap_send(1, m, n);
		}
		ok(ap_recv(&got, 3000) && msg_id(&got) == 0x100 + 66 &&
		   got.bytes[5] == GB_OP_RETRY,
		   "gbnet: node inflight: past the queue, GB_OP_RETRY");
		/* the node answers everything it gets, in order */
		seen = 0;
		while (seen < 66 && node_msg(&ncport, nm, &nlen, 3000)) {
			uint16_t id = (uint16_t)(nm[2] | nm[3] << 8);

			if (id != 0x100 + seen)
				order = false;
			node_answer(id, 0x02);
			seen++;
		}
		for (answered = 0; answered < 66 && ap_recv(&got, 3000); answered++)
			if (got.bytes[5] != GB_OP_SUCCESS)
				retry++;
		ok(seen == 66 && order && answered == 66 && !retry,
		   "gbnet: node inflight: the 66 others went out in order and were answered (%u, %u)",
		   seen, answered);
	}

	/*
	 * Back-pressure: the AP reads nothing while the node sends 6000
	 * messages, more than gbnet's queue to the AP holds (4096 events)
	 * plus the socket's buffer.  gbnet stops reading the node at the
	 * queue's high mark instead of refusing messages: once the AP reads
	 * again, every one of them arrives, and the node is still up.
	 */
	{
		enum { FLOOD = 6000, PER_WRITE = 100 };
		unsigned int got_n = 0, other = 0;
		uint8_t frame[12], chunk[12 * PER_WRITE], two[2] = { 0, 0 };
		pid_t writer;
		int wst;

		n = build(m, 0, 0x7e, 0, two, 2);
		frame[0] = 0;
		frame[1] = 0;
		memcpy(frame + 2, m, n);
		for (int i = 0; i < PER_WRITE; i++)
			memcpy(chunk + 12 * i, frame, 12);
		writer = fork();
		if (writer == 0) {
			for (int i = 0; i < FLOOD / PER_WRITE; i++)
				if (write(nfd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
					_exit(1);
			_exit(0);
		}
		/* the writer blocks once gbnet stops reading: give it time */
		for (int i = 0; i < 30; i++) {
			usleep(100000);
			if (waitpid(writer, &wst, WNOHANG) == writer) {
				writer = 0;
				break;
			}
		}
		while (got_n < FLOOD && ap_recv(&got, 5000)) {
			if (got.cport == 1 && got.len == n)
				got_n++;
			else
				other++;
			if (writer && waitpid(writer, &wst, WNOHANG) == writer)
				writer = 0;
		}
		if (writer)
			waitpid(writer, &wst, 0);
		ok(got_n == FLOOD && other == 0 && node_open(300),
		   "gbnet: back-pressure: %u of %u messages reached the AP (%u others), node kept",
		   got_n, FLOOD, other);
	}

	kill(pid, SIGTERM);
	ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0, "gbnet: exits 0 on SIGTERM");
	do
		type = ev_read(buf, &len, 1000);
	while (type > 0);
	ok(type == -1, "gbnet: the device is closed");
	printf("1..%u\n", tests);
	return failures ? 1 : 0;
}
