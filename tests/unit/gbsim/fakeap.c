// SPDX-License-Identifier: GPL-2.0
/*
 * fakeap: a host-side test of gbsim without the kernel.  It plays the
 * AP side of gb-vhd over a SOCK_SEQPACKET socket pair (one event per
 * message, like the character device) and drives gbsim through the
 * sequence greybus.ko uses: bring-up, activation, enumeration, a test
 * protocol echo, hostile messages, teardown, eject, network reset and
 * unplug.  Output is TAP.
 *
 * Usage: fakeap GBSIM MANIFEST_DIR LOGFILE
 *   MANIFEST_DIR holds test-vendor.mnfs (bundle 1 class 0xff, cport 1
 *   protocol 0xff) and two-bundle.mnfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uapi/greybus/control.h>
#include <uapi/greybus/greybus.h>
#include <uapi/greybus/svc.h>
#include <uapi/greybus/vhd.h>

#include "vhd_peer.h"

/* ctl_test.c: the control socket, on a gbsim of its own */
int fakeap_ctl_tests(const char *gbsim, const char *mdir, const char *log);

static uint16_t ap_next_id[64];

/* A message gbsim sent (RECV), as header + payload */
struct msg {
	uint16_t cport;
	struct gb_operation_msg_hdr hdr;
	uint8_t payload[65536];
	size_t len;	/* payload bytes */
};

/* Wait for the next message from gbsim; false on timeout */
static bool recv_msg(struct msg *m, int timeout_ms)
{
	static uint8_t buf[GB_VHD_EVENT_SIZE_MAX];
	struct gb_vhd_message vm;
	size_t len;
	long type;

	for (;;) {
		type = ev_read(buf, &len, timeout_ms);
		if (type <= 0)
			return false;
		if (type != GB_VHD_RECV) {
			printf("# unexpected event type 0x%lx from gbsim\n", type);
			continue;
		}
		break;
	}
	memcpy(&vm, buf, sizeof(vm));
	m->cport = vm.cport_id;
	memcpy(&m->hdr, buf + sizeof(vm), sizeof(m->hdr));
	m->len = len - sizeof(vm) - sizeof(m->hdr);
	memcpy(m->payload, buf + sizeof(vm) + sizeof(m->hdr), m->len);
	if (m->hdr.size != len - sizeof(vm))
		bail("gbsim sent a message whose header size is wrong");
	return true;
}

/* Send an AP request and wait for its response */
static bool ap_request(uint16_t cport, uint8_t type, const void *payload,
		       size_t len, struct msg *rsp)
{
	uint8_t buf[65536];
	struct gb_operation_msg_hdr hdr = {
		.size = (uint16_t)(sizeof(hdr) + len),
		.operation_id = ++ap_next_id[cport],
		.type = type,
	};

	memcpy(buf, &hdr, sizeof(hdr));
	if (len)
		memcpy(buf + sizeof(hdr), payload, len);
	ap_send(cport, buf, sizeof(hdr) + len);
	if (!recv_msg(rsp, 2000))
		return false;
	return rsp->cport == cport && rsp->hdr.operation_id == hdr.operation_id &&
	       rsp->hdr.type == (type | GB_MSG_TYPE_RESPONSE);
}

/* Expect a request from gbsim on cport 0 of type @type; answer it */
static bool expect_svc_request(uint8_t type, struct msg *req)
{
	struct gb_operation_msg_hdr rsp;

	if (!recv_msg(req, 3000))
		return false;
	if (req->cport != 0 || req->hdr.type != type)
		return false;
	rsp = (struct gb_operation_msg_hdr){
		.size = sizeof(rsp),
		.operation_id = req->hdr.operation_id,
		.type = type | GB_MSG_TYPE_RESPONSE,
	};
	if (type == GB_REQUEST_TYPE_PROTOCOL_VERSION) {
		uint8_t buf[10];

		rsp.size = 10;
		memcpy(buf, &rsp, sizeof(rsp));
		buf[8] = 0;
		buf[9] = 1;
		ap_send(0, buf, sizeof(buf));
	} else {
		ap_send(0, &rsp, sizeof(rsp));
	}
	return true;
}

static bool svc_ok(uint8_t type, const void *p, size_t len, struct msg *rsp)
{
	return ap_request(0, type, p, len, rsp) && rsp->hdr.result == GB_OP_SUCCESS;
}

static uint32_t dme_get(uint8_t intf, uint16_t attr, uint16_t *result)
{
	struct gb_svc_dme_peer_get_request req = { intf, attr, 0 };
	struct gb_svc_dme_peer_get_response r;
	struct msg rsp;

	if (!svc_ok(GB_SVC_TYPE_DME_PEER_GET, &req, sizeof(req), &rsp) ||
	    rsp.len != sizeof(r)) {
		*result = 0xffff;
		return 0;
	}
	memcpy(&r, rsp.payload, sizeof(r));
	*result = r.result_code;
	return r.attr_value;
}

/* Activation and enable of one interface, as the core does it */
static void activate_intf(uint8_t intf, uint8_t dev_id, uint32_t vid,
			  uint32_t pid, uint64_t serial)
{
	struct gb_svc_intf_request ireq = { intf };
	struct msg rsp;
	uint16_t rc;
	uint32_t v;

	ok(svc_ok(GB_SVC_TYPE_INTF_VSYS_ENABLE, &ireq, 1, &rsp) &&
	   rsp.len == 1 && rsp.payload[0] == 0, "intf %u vsys enable", intf);
	ok(svc_ok(GB_SVC_TYPE_INTF_REFCLK_ENABLE, &ireq, 1, &rsp) &&
	   rsp.len == 1 && rsp.payload[0] == 0, "intf %u refclk enable", intf);
	ok(svc_ok(GB_SVC_TYPE_INTF_UNIPRO_ENABLE, &ireq, 1, &rsp) &&
	   rsp.len == 1 && rsp.payload[0] == 0, "intf %u unipro enable", intf);
	ok(svc_ok(GB_SVC_TYPE_INTF_ACTIVATE, &ireq, 1, &rsp) && rsp.len == 2 &&
	   rsp.payload[0] == 0 && rsp.payload[1] == GB_SVC_INTF_TYPE_GREYBUS,
	   "intf %u activate: greybus", intf);

	v = dme_get(intf, GB_DME_DDBL1_MANUFACTURERID, &rc);
	ok(rc == 0 && v == 0x0126, "intf %u ddbl1 manufacturer 0x%x", intf, v);
	v = dme_get(intf, GB_DME_DDBL1_PRODUCTID, &rc);
	ok(rc == 0 && v == 0x1002, "intf %u ddbl1 product 0x%x", intf, v);
	v = dme_get(intf, GB_DME_ARA_VID, &rc);
	ok(rc == 0 && v == vid, "intf %u vendor id 0x%x", intf, v);
	v = dme_get(intf, GB_DME_ARA_PID, &rc);
	ok(rc == 0 && v == pid, "intf %u product id 0x%x", intf, v);
	v = dme_get(intf, GB_DME_ARA_SN0, &rc);
	ok(rc == 0 && v == (uint32_t)serial, "intf %u serial low 0x%x", intf, v);
	v = dme_get(intf, GB_DME_ARA_SN1, &rc);
	ok(rc == 0 && v == (uint32_t)(serial >> 32), "intf %u serial high 0x%x",
	   intf, v);

	{
		struct gb_svc_intf_device_id_request r = { intf, dev_id };

		ok(svc_ok(GB_SVC_TYPE_INTF_DEVICE_ID, &r, sizeof(r), &rsp) &&
		   rsp.len == 0, "intf %u device id %u", intf, dev_id);
	}
	{
		struct gb_svc_route_create_request r = { 0, 1, intf, dev_id };

		ok(svc_ok(GB_SVC_TYPE_ROUTE_CREATE, &r, sizeof(r), &rsp) &&
		   rsp.len == 0, "intf %u route create", intf);
	}
	v = dme_get(intf, GB_DME_ARA_INIT_STATUS, &rc);
	ok(rc == 0 && v == 0x04000000, "intf %u init status 0x%08x", intf, v);
	{
		struct gb_svc_dme_peer_set_request r = {
			intf, GB_DME_ARA_INIT_STATUS, 0, 0
		};

		ok(svc_ok(GB_SVC_TYPE_DME_PEER_SET, &r, sizeof(r), &rsp) &&
		   rsp.len == 2 && rsp.payload[0] == 0 && rsp.payload[1] == 0,
		   "intf %u init status cleared", intf);
	}
}

static bool conn_create(uint16_t hd_cport, uint8_t intf, uint16_t cport)
{
	struct gb_svc_conn_create_request r = {
		.intf1_id = 0, .cport1_id = hd_cport, .intf2_id = intf,
		.cport2_id = cport, .tc = 0, .flags = GB_SVC_CONN_CSV_N,
	};
	struct msg rsp;

	cport_event(GB_VHD_CPORT_ENABLE, hd_cport, GB_SVC_CONN_CSV_N);
	return svc_ok(GB_SVC_TYPE_CONN_CREATE, &r, sizeof(r), &rsp) && !rsp.len;
}

static bool conn_destroy(uint16_t hd_cport, uint8_t intf, uint16_t cport)
{
	struct gb_svc_conn_destroy_request r = {
		.intf1_id = 0, .cport1_id = hd_cport, .intf2_id = intf,
		.cport2_id = cport,
	};
	struct msg rsp;
	bool good = svc_ok(GB_SVC_TYPE_CONN_DESTROY, &r, sizeof(r), &rsp);

	cport_event(GB_VHD_CPORT_DISABLE, hd_cport, 0);
	return good;
}

static bool ctrl_ok(uint16_t hd_cport, uint8_t type, const void *p,
		    size_t len, struct msg *rsp)
{
	return ap_request(hd_cport, type, p, len, rsp) &&
	       rsp->hdr.result == GB_OP_SUCCESS;
}

static bool no_message(int timeout_ms)
{
	struct msg m;

	return !recv_msg(&m, timeout_ms);
}

/* First line after line @after that contains @needle, or -1 */
static int log_line_of(const char *log, const char *needle, int after)
{
	char line[2048];
	FILE *f = fopen(log, "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (n > after && strstr(line, needle)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	return -1;
}

int main(int argc, char **argv)
{
	static struct msg rsp, req;
	char mod2[4096], mod4[4096], capture[4096];
	const char *log;
	uint8_t buf[GB_VHD_EVENT_SIZE_MAX];
	int sv[2], status;
	size_t len;
	pid_t pid;
	long type;

	if (argc != 4) {
		fprintf(stderr, "usage: fakeap GBSIM MANIFEST_DIR LOGFILE\n");
		return 2;
	}
	log = argv[3];
	snprintf(mod2, sizeof(mod2), "2:%s/test-vendor.mnfs,vid=0x11223344,pid=0x55667788,serial=0x0102030405060708",
		 argv[2]);
	snprintf(mod4, sizeof(mod4), "4:%s/two-bundle.mnfs", argv[2]);
	/* gbmon.sh reads what gbsim saw of the whole run */
	snprintf(capture, sizeof(capture), "%s.pcapng", log);

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		bail("socketpair");
	pid = fork();
	if (pid == 0) {
		char fdarg[16];

		close(sv[0]);
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		execl(argv[1], argv[1], "--device-fd", fdarg, "--log", log,
		      "--capture", capture, "--cports", "16", "-m", mod2, "-m", mod4, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	vhd_sock = sv[0];
	vhd_peer_name = "gbsim";
	printf("TAP version 13\n");

	/* CREATE -> CREATED, then the SVC connection is enabled */
	type = ev_read(buf, &len, 3000);
	{
		struct gb_vhd_create c;

		memcpy(&c, buf, sizeof(c));
		ok(type == GB_VHD_CREATE && len == sizeof(c) &&
		   c.version == GB_VHD_VERSION_BATCH && c.num_cports == 16 &&
		   c.mtu == 2048 && c.flags == 0, "CREATE first (%u cports, mtu %u)",
		   c.num_cports, c.mtu);
	}
	{
		struct gb_vhd_created c = { .bus_id = 1 };

		ev_write(GB_VHD_CREATED, &c, sizeof(c));
		cport_event(GB_VHD_CPORT_ENABLE, 0, 0);
	}

	ok(expect_svc_request(GB_REQUEST_TYPE_PROTOCOL_VERSION, &req) &&
	   req.len == 2 && req.payload[0] == 0 && req.payload[1] == 1,
	   "svc version 0.1");
	ok(expect_svc_request(GB_SVC_TYPE_SVC_HELLO, &req) && req.len == 3 &&
	   req.payload[0] == 0x55 && req.payload[1] == 0x47 && req.payload[2] == 0,
	   "svc hello endo 0x4755 ap intf 0");
	ok(expect_svc_request(GB_SVC_TYPE_MODULE_INSERTED, &req) && req.len == 4 &&
	   req.payload[0] == 2 && req.payload[1] == 1, "module inserted 2");
	ok(expect_svc_request(GB_SVC_TYPE_MODULE_INSERTED, &req) && req.len == 4 &&
	   req.payload[0] == 4 && req.payload[1] == 1, "module inserted 4");

	/* what the SVC refuses */
	ok(ap_request(0, 0x55, NULL, 0, &rsp) &&
	   rsp.hdr.result == GB_OP_PROTOCOL_BAD, "unknown svc type: protocol_bad");
	{
		struct gb_svc_intf_request r = { 9 };

		ok(ap_request(0, GB_SVC_TYPE_INTF_ACTIVATE, &r, 1, &rsp) &&
		   rsp.hdr.result == 0 && rsp.payload[0] == GB_SVC_INTF_NOT_DETECTED,
		   "activate of an empty slot: not detected");
		ok(ap_request(0, GB_SVC_TYPE_INTF_ACTIVATE, &r, 0, &rsp) &&
		   rsp.hdr.result == GB_OP_INVALID, "short activate: invalid");
	}
	ok(!conn_create(3, 2, 0), "conn create before activation refused");
	cport_event(GB_VHD_CPORT_DISABLE, 3, 0);
	ok(svc_ok(GB_SVC_TYPE_PING, NULL, 0, &rsp) && !rsp.len, "ping");

	activate_intf(2, 2, 0x11223344, 0x55667788, 0x0102030405060708ULL);
	ok(conn_create(1, 2, 0), "control connection cport 1 <-> 2:0");
	{
		uint8_t v[2] = { 0, 1 };
		uint16_t size;

		ok(ctrl_ok(1, GB_CONTROL_TYPE_VERSION, v, 2, &rsp) && rsp.len == 2 &&
		   rsp.payload[0] == 0 && rsp.payload[1] == 1, "control version");
		ok(ctrl_ok(1, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0, &rsp) &&
		   rsp.len == 2, "manifest size");
		memcpy(&size, rsp.payload, 2);
		ok(ctrl_ok(1, GB_CONTROL_TYPE_GET_MANIFEST, NULL, 0, &rsp) &&
		   rsp.len == size && size >= 4 &&
		   (rsp.payload[0] | rsp.payload[1] << 8) == size,
		   "manifest of %u bytes", size);
	}
	{
		uint16_t c = 1;
		uint8_t b = 1;

		ok(!ctrl_ok(1, GB_CONTROL_TYPE_CONNECTED, &c, 2, &rsp) &&
		   rsp.hdr.result == GB_OP_INVALID,
		   "connected before the SVC connection: invalid");
		ok(conn_create(2, 2, 1), "test connection cport 2 <-> 2:1");
		ok(ctrl_ok(1, GB_CONTROL_TYPE_CONNECTED, &c, 2, &rsp) && !rsp.len,
		   "control connected 1");
		ok(ctrl_ok(1, GB_CONTROL_TYPE_BUNDLE_ACTIVATE, &b, 1, &rsp) &&
		   rsp.len == 1 && rsp.payload[0] == 0, "bundle 1 activate");
		b = 7;
		ok(ctrl_ok(1, GB_CONTROL_TYPE_BUNDLE_ACTIVATE, &b, 1, &rsp) &&
		   rsp.len == 1 && rsp.payload[0] == GB_CONTROL_BUNDLE_PM_INVAL,
		   "bundle 7 activate: inval");
		ok(ap_request(1, 0x42, NULL, 0, &rsp) &&
		   rsp.hdr.result == GB_OP_PROTOCOL_BAD, "unknown control type");
	}
	ok(ctrl_ok(2, 0x02, "ping", 4, &rsp) && rsp.len == 4 &&
	   !memcmp(rsp.payload, "ping", 4), "test echo of \"ping\"");
	ok(ap_request(2, 0x03, "x", 1, &rsp) &&
	   rsp.hdr.result == GB_OP_PROTOCOL_BAD, "unknown test type: protocol_bad");

	/* hostile messages: no answer, no crash */
	ap_send(2, "\x01\x02\x03", 3);
	{
		uint8_t bad[12] = { 40, 0, 9, 9, 2, 0, 0, 0, 'a', 'b', 'c', 'd' };

		ap_send(2, bad, sizeof(bad));	/* size says 40 */
	}
	{
		struct gb_operation_msg_hdr h = { 8, 77, 0x02, 0, { 0, 0 } };

		ap_send(9, &h, sizeof(h));	/* no connection there */
		ap_send(200, &h, sizeof(h));	/* beyond the cports */
		h.type = 0x82;
		ap_send(2, &h, sizeof(h));	/* response nobody asked for */
	}
	ok(no_message(300), "hostile messages are dropped");
	ok(ctrl_ok(2, 0x02, "again", 5, &rsp) && rsp.len == 5,
	   "still echoing afterwards");

	/* bundle suspend refuses traffic until resume */
	{
		uint8_t b = 1;

		ok(ctrl_ok(1, GB_CONTROL_TYPE_BUNDLE_SUSPEND, &b, 1, &rsp) &&
		   rsp.payload[0] == 0, "bundle suspend");
		ok(ap_request(2, 0x02, "z", 1, &rsp) &&
		   rsp.hdr.result == GB_OP_INVALID_STATE,
		   "echo to a suspended bundle refused");
		ok(ctrl_ok(1, GB_CONTROL_TYPE_BUNDLE_RESUME, &b, 1, &rsp) &&
		   rsp.payload[0] == 0, "bundle resume");
	}

	/* teardown of the test connection, as the core does it */
	{
		uint16_t c = 1;
		uint8_t phase = 1;

		ok(ctrl_ok(1, GB_CONTROL_TYPE_DISCONNECTING, &c, 2, &rsp),
		   "control disconnecting");
		ok(ctrl_ok(2, GB_REQUEST_TYPE_CPORT_SHUTDOWN, &phase, 1, &rsp),
		   "cport shutdown phase 1");
		phase = 2;
		ok(ctrl_ok(2, GB_REQUEST_TYPE_CPORT_SHUTDOWN, &phase, 1, &rsp),
		   "cport shutdown phase 2");
		ok(ctrl_ok(1, GB_CONTROL_TYPE_DISCONNECTED, &c, 2, &rsp),
		   "control disconnected");
		ok(conn_destroy(2, 2, 1), "conn destroy 2");
		ok(!conn_destroy(2, 2, 1), "second conn destroy refused");
	}

	/* eject interface 2: answer, then module removed */
	{
		struct gb_svc_intf_eject_request r = { 2 };

		ok(svc_ok(GB_SVC_TYPE_INTF_EJECT, &r, 1, &rsp), "intf eject 2");
		ok(expect_svc_request(GB_SVC_TYPE_MODULE_REMOVED, &req) &&
		   req.len == 1 && req.payload[0] == 2, "module removed 2");
		ok(conn_destroy(1, 2, 0), "control conn of a gone module destroyed");
	}
	/*
	 * Module 2 left with its route and device id 2: an AP that frees the
	 * id before it destroys the route (or without one: an enumeration
	 * that failed before the route) may give it to another interface
	 */
	{
		struct gb_svc_intf_device_id_request r = { 4, 2 };

		ok(svc_ok(GB_SVC_TYPE_INTF_DEVICE_ID, &r, sizeof(r), &rsp),
		   "device id 2 of the gone module given to interface 4");
	}

	/* network reset: hello again, the remaining module re-inserted */
	ev_write(GB_VHD_RESET, NULL, 0);
	ok(expect_svc_request(GB_REQUEST_TYPE_PROTOCOL_VERSION, &req),
	   "reset: version");
	ok(expect_svc_request(GB_SVC_TYPE_SVC_HELLO, &req), "reset: hello");
	ok(expect_svc_request(GB_SVC_TYPE_MODULE_INSERTED, &req) &&
	   req.payload[0] == 4, "reset: module inserted 4");
	activate_intf(4, 3, 1, 1, 0x4742534d00000004ULL);

	/* unplug */
	kill(pid, SIGTERM);
	type = ev_read(buf, &len, 3000);
	ok(type == -1, "gbsim closed the device on SIGTERM");
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "gbsim exit status 0");

	{
		static const char *const order[] = {
			"svc.svc_hello req", "svc.module_inserted req",
			"svc.intf_vsys_enable req", "svc.intf_refclk_enable req",
			"svc.intf_unipro_enable req", "svc.intf_activate req",
			"svc.conn_create req", "control.version req",
			"control.get_manifest_size req", "control.get_manifest req",
			"control.connected req", "control.bundle_activate req",
			"test.echo req", "test.echo rsp",
		};
		int last = 0, n;

		for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
			n = log_line_of(log, order[i], last);
			ok(n > last, "log: '%s' at line %d", order[i], n);
			if (n > 0)
				last = n;
		}
	}

	{
		char ctl_log[4096];

		snprintf(ctl_log, sizeof(ctl_log), "%s.ctl", log);
		if (fakeap_ctl_tests(argv[1], argv[2], ctl_log))
			failures++;
	}

	printf("1..%u\n", tests);
	return failures ? 1 : 0;
}
