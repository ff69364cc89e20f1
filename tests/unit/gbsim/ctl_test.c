// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket, without a kernel: a second gbsim behind a socket
 * pair, driven by `gbsim ctl` commands while this file plays a minimal
 * AP (bring-up, activation, one control connection).  Checks insert
 * before and after the SVC is up, list, status, remove, eject, bad
 * commands, send, request, raw manifests, every fault action, the GPIO
 * model behind "gpio", log and log -f; then, on gbsims of their own, the
 * audio topologies: built in, compiled from GBSIM_AUDIO_TOPOLOGY, and a
 * malformed one refused.  Called from fakeap.c's main(); prints TAP lines.
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
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uapi/greybus/audio.h>
#include <uapi/greybus/control.h>
#include <uapi/greybus/gpio.h>
#include <uapi/greybus/greybus.h>
#include <uapi/greybus/svc.h>
#include <uapi/greybus/vhd.h>

#include "gb_topo.h"

int fakeap_ctl_tests(const char *gbsim, const char *mdir, const char *log);

static int ap = -1;
static unsigned int ntests, nfailed;
static const char *gbsim_bin, *ctl_path, *gbsim_log;
static uint16_t next_id[32];

static void t_ok(bool cond, const char *fmt, ...)
{
	va_list va;

	ntests++;
	if (!cond)
		nfailed++;
	printf("%s - ctl: ", cond ? "ok" : "not ok");
	va_start(va, fmt);
	vprintf(fmt, va);
	va_end(va);
	printf("\n");
	fflush(stdout);
}

/* ---- the AP end of gb-vhd ---------------------------------------------- */

static void ev_put(uint32_t type, const void *p, size_t len)
{
	uint8_t buf[GB_VHD_EVENT_SIZE_MAX];
	struct gb_vhd_event_hdr h = { .type = type, .len = (uint32_t)len };

	memcpy(buf, &h, sizeof(h));
	if (len)
		memcpy(buf + sizeof(h), p, len);
	if (write(ap, buf, sizeof(h) + len) != (ssize_t)(sizeof(h) + len))
		printf("# write to gbsim failed\n");
}

struct rx {
	uint16_t cport;
	uint8_t raw[GB_VHD_EVENT_SIZE_MAX];
	size_t len;		/* whole message */
	uint16_t id;
	uint8_t type, result;
	const uint8_t *payload;
	size_t plen;
};

/* Next RECV from gbsim; false on timeout */
/*
 * gbsim takes the socket for a version 3 host (batched I/O): a packet
 * from it may carry several events back-to-back, taken here one by one
 */
static bool rx_get(struct rx *m, int timeout_ms)
{
	static uint8_t pkt[256 * 1024];
	static size_t pkt_len, pkt_off;
	struct pollfd pfd = { .fd = ap, .events = POLLIN };
	struct gb_vhd_event_hdr h;
	struct gb_vhd_message vm;
	const uint8_t *ev;
	ssize_t n;

	for (;;) {
		if (pkt_off >= pkt_len) {
			if (poll(&pfd, 1, timeout_ms) <= 0)
				return false;
			n = read(ap, pkt, sizeof(pkt));
			if (n <= 0)
				return false;
			pkt_len = (size_t)n;
			pkt_off = 0;
		}
		ev = pkt + pkt_off;
		if (pkt_len - pkt_off < sizeof(h))
			return false;
		memcpy(&h, ev, sizeof(h));
		if (h.len > pkt_len - pkt_off - sizeof(h) ||
		    h.len > GB_VHD_EVENT_SIZE_MAX - sizeof(h))
			return false;
		pkt_off += sizeof(h) + h.len;
		if (h.type == GB_VHD_RECV && h.len >= sizeof(vm))
			break;
	}
	memcpy(&vm, ev + sizeof(h), sizeof(vm));
	m->cport = vm.cport_id;
	m->len = h.len - sizeof(vm);
	memcpy(m->raw, ev + sizeof(h) + sizeof(vm), m->len);
	m->id = m->len >= 8 ? (uint16_t)(m->raw[2] | m->raw[3] << 8) : 0;
	m->type = m->len >= 8 ? m->raw[4] : 0;
	m->result = m->len >= 8 ? m->raw[5] : 0;
	m->payload = m->raw + 8;
	m->plen = m->len >= 8 ? m->len - 8 : 0;
	return true;
}

static void tx(uint16_t cport, uint16_t id, uint8_t type, const void *p,
	       size_t len)
{
	uint8_t buf[4 + 8 + 2048];
	struct gb_vhd_message vm = { .cport_id = cport };
	struct gb_operation_msg_hdr h = {
		.size = (uint16_t)(8 + len), .operation_id = id, .type = type,
	};

	memcpy(buf, &vm, sizeof(vm));
	memcpy(buf + 4, &h, sizeof(h));
	if (len)
		memcpy(buf + 12, p, len);
	ev_put(GB_VHD_SEND, buf, 12 + len);
}

static uint16_t ap_send(uint16_t cport, uint8_t type, const void *p,
			size_t len)
{
	uint16_t id = ++next_id[cport];

	tx(cport, id, type, p, len);
	return id;
}

/* An AP request and its answer (false: none, or not the matching one) */
static bool ap_call(uint16_t cport, uint8_t type, const void *p, size_t len,
		    struct rx *rsp)
{
	uint16_t id = ap_send(cport, type, p, len);

	return rx_get(rsp, 2000) && rsp->cport == cport && rsp->id == id &&
	       rsp->type == (type | GB_MSG_TYPE_RESPONSE);
}

/* Expect gbsim's SVC request of this type and answer it with success */
static bool svc_expect(uint8_t type, struct rx *req)
{
	static const uint8_t version[2] = { 0, 1 };

	if (!rx_get(req, 3000) || req->cport != 0 || req->type != type)
		return false;
	tx(0, req->id, type | GB_MSG_TYPE_RESPONSE,
	   type == GB_REQUEST_TYPE_PROTOCOL_VERSION ? version : NULL,
	   type == GB_REQUEST_TYPE_PROTOCOL_VERSION ? 2 : 0);
	return true;
}

static bool quiet(int ms)
{
	struct rx m;

	return !rx_get(&m, ms);
}

static bool activate(uint8_t intf, uint8_t dev_id)
{
	struct gb_svc_intf_device_id_request did = { intf, dev_id };
	struct gb_svc_route_create_request route = { 0, 1, intf, dev_id };
	static const uint8_t steps[] = {
		GB_SVC_TYPE_INTF_VSYS_ENABLE, GB_SVC_TYPE_INTF_REFCLK_ENABLE,
		GB_SVC_TYPE_INTF_UNIPRO_ENABLE, GB_SVC_TYPE_INTF_ACTIVATE,
	};
	struct rx r;

	for (size_t i = 0; i < sizeof(steps); i++)
		if (!ap_call(0, steps[i], &intf, 1, &r) || r.result)
			return false;
	return ap_call(0, GB_SVC_TYPE_INTF_DEVICE_ID, &did, sizeof(did), &r) &&
	       !r.result &&
	       ap_call(0, GB_SVC_TYPE_ROUTE_CREATE, &route, sizeof(route), &r) &&
	       !r.result;
}

static bool connect_cport(uint16_t hd_cport, uint8_t intf, uint16_t cport)
{
	struct gb_svc_conn_create_request c = {
		.intf1_id = 0, .cport1_id = hd_cport, .intf2_id = intf,
		.cport2_id = cport, .flags = GB_SVC_CONN_CSV_N,
	};
	struct gb_vhd_cport e = { .cport_id = hd_cport };
	struct rx r;

	ev_put(GB_VHD_CPORT_ENABLE, &e, sizeof(e));
	return ap_call(0, GB_SVC_TYPE_CONN_CREATE, &c, sizeof(c), &r) &&
	       !r.result;
}

/* ---- the client ----------------------------------------------------- */

static char out_buf[1 << 20], err_buf[4096];

/* Read fd to its end; keep what fits */
static void slurp(int fd, char *buf, size_t max)
{
	char scratch[4096];
	size_t len = 0;
	ssize_t n;

	while (len + 1 < max && (n = read(fd, buf + len, max - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	while (read(fd, scratch, sizeof(scratch)) > 0)
		;
}

/* gbsim ctl -s PATH WORDS...; its exit status, output in out_buf/err_buf */
static int ctl_argv(const char *sock, char **words)
{
	char *argv[64] = { (char *)gbsim_bin, "ctl", "-s", (char *)sock };
	int o[2], e[2], status, n = 4;
	pid_t pid;

	for (int i = 0; words[i] && n < 63; i++)
		argv[n++] = words[i];
	argv[n] = NULL;
	if (pipe(o) || pipe(e))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(o[1], 1);
		dup2(e[1], 2);
		close(o[0]);
		close(e[0]);
		execv(gbsim_bin, argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	slurp(o[0], out_buf, sizeof(out_buf));
	slurp(e[0], err_buf, sizeof(err_buf));
	close(o[0]);
	close(e[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* ctl("insert 4 /x.mnfs"): words split at blanks */
static int ctl(const char *fmt, ...)
{
	char line[4096], *words[64], *save = NULL;
	int n = 0;
	va_list va;

	va_start(va, fmt);
	vsnprintf(line, sizeof(line), fmt, va);
	va_end(va);
	for (char *w = strtok_r(line, " ", &save); w && n < 63;
	     w = strtok_r(NULL, " ", &save))
		words[n++] = w;
	words[n] = NULL;
	return ctl_argv(ctl_path, words);
}

static bool file_has(const char *path, const char *needle)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return strstr(buf, needle) != NULL;
}

/* ---- the tests ------------------------------------------------------ */

static void bad_commands(void)
{
	static const char *const bad[] = {
		"bogus", "insert", "insert 300 /x", "insert 4 /nonexistent.mnfs",
		"insert 2 /nonexistent.mnfs vid=oops", "remove", "remove 99",
		"remove 1x", "eject 3 4", "send 1", "send 1 zz", "send 1 abc",
		"send 1 00 count=0", "request 2:1 0x02", "request 9 0x02",
		"request svc nosuch.op", "request svc control.version",
		"request svc 0x80", "request svc ping id=70000", "log -x",
		"status now", "list all", "fault", "fault add", "fault add bogus",
		"fault add drop twice", "fault add delay", "fault add short=x",
		"fault add type=get_manifest drop", "fault add result=nope",
		"fault add intf=300 drop", "fault add proto=nope drop",
		"fault del 99", "fault del x", "fault list x",
		"spi", "spi set", "spi get num_cs=1", "spi set nope=1",
		"spi set num_cs=256", "spi set bpw_mask=0x100000000",
		"spi set num_cs=1x",
		"es2", "es2 set", "es2 set nope=1", "es2 set arpc_silent=x",
		"es2 set arpc_silent=1000001",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = ctl("%s", bad[i]);

		t_ok(rc == 1 && !strncmp(err_buf, "gbsim ctl: ", 11) &&
		     !out_buf[0], "'%s' fails: %.*s", bad[i],
		     (int)strcspn(err_buf, "\n"), err_buf);
	}
	t_ok(ctl("status") == 0, "gbsim still answers after bad commands");
	t_ok(ctl_argv("/nonexistent/ctl.sock", (char *[]){ "status", NULL }) == 2 &&
	     strstr(err_buf, "cannot connect"), "no socket: exit 2");
	t_ok(ctl_argv(ctl_path, (char *[]){ NULL }) == 2, "no command: exit 2");
}

/* A raw socket client: words with NULs, then plain text, then garbage */
static void raw_clients(void)
{
	static const char nul_req[] = "status\0";
	static const char text_req[] = " status \n";
	static const char junk[] = "\xff\xfe\x01";
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[256];
	int fd;
	ssize_t n;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", ctl_path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		t_ok(false, "raw client connects");
		return;
	}
	send(fd, nul_req, sizeof(nul_req) - 1, 0);
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	t_ok(n > 1 && buf[0] == 'O' && !strncmp(buf + 1, "svc=", 4),
	     "NUL-separated request, reply kind O");
	send(fd, text_req, sizeof(text_req) - 1, 0);
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	t_ok(n > 1 && buf[0] == 'O' && !strncmp(buf + 1, "svc=", 4),
	     "blank-separated request on the same connection");
	send(fd, junk, sizeof(junk) - 1, 0);
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	t_ok(n > 1 && buf[0] == 'E', "garbage gets an E reply");
	close(fd);
	/* a client that hangs up before reading */
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd >= 0 && !connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		send(fd, "log", 3, 0);
		close(fd);
	}
	t_ok(ctl("status") == 0, "gbsim still answers after raw clients");
}

static void faults(void)
{
	struct rx r, r2;
	uint16_t id;

	t_ok(ctl("fault add intf=2 type=control.get_manifest_size drop") == 0 &&
	     !strcmp(out_buf, "fault 1\n"), "fault add drop: %s", out_buf);
	id = ap_send(1, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0);
	t_ok(quiet(300), "dropped: no answer to id %u", id);
	t_ok(ap_call(1, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0, &r) &&
	     !r.result, "once: the next one is answered");
	t_ok(ctl("faults") == 0 &&
	     !strcmp(out_buf, "fault 1 intf=2 proto=control type=get_manifest_size dir=req drop remaining=0 hits=1\n"),
	     "faults lists it spent: %s", out_buf);

	t_ok(ctl("fault add intf=3 type=control.get_manifest_size drop") == 0,
	     "fault for another interface");
	t_ok(ap_call(1, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0, &r),
	     "interface 2 unaffected by intf=3");

	t_ok(ctl("fault add proto=control type=version result=invalid") == 0,
	     "fault add result=invalid");
	t_ok(ap_call(1, GB_CONTROL_TYPE_VERSION, "\x00\x01", 2, &r) &&
	     r.result == GB_OP_INVALID && !r.plen, "answered invalid, no payload");

	t_ok(ctl("fault add type=control.get_manifest short=3") == 0,
	     "fault add short=3");
	t_ok(ap_call(1, GB_CONTROL_TYPE_GET_MANIFEST, NULL, 0, &r) &&
	     !r.result && r.plen == 3 && r.len == 11 &&
	     (r.raw[0] | r.raw[1] << 8) == 11, "answer cut to 3 bytes");

	t_ok(ctl("fault add intf=2 type=control.get_manifest_size twice") == 0,
	     "fault add twice");
	t_ok(ap_call(1, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0, &r) &&
	     rx_get(&r2, 500) && r2.id == r.id && r2.len == r.len,
	     "answered twice");

	t_ok(ctl("fault add type=control.get_manifest_size delay=300") == 0,
	     "fault add delay=300");
	id = ap_send(1, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0);
	t_ok(quiet(100) && rx_get(&r, 1000) && r.id == id, "answer delayed");

	t_ok(ctl("fault add dir=send type=control.get_manifest_size result=0x42") == 0,
	     "fault add dir=send result=0x42");
	t_ok(ap_call(1, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0, &r) &&
	     r.result == 0x42 && !r.plen, "sent with result 0x42");

	t_ok(ctl("fault add intf=svc drop sticky") == 0, "SVC silenced");
	id = ap_send(0, GB_SVC_TYPE_PING, NULL, 0);
	t_ok(quiet(200), "no answer to ping");
	id = ap_send(0, GB_SVC_TYPE_PING, NULL, 0);
	t_ok(quiet(200), "sticky: still no answer");
	t_ok(ctl("fault list") == 0 &&
	     strstr(out_buf, "intf=svc proto=any type=any dir=req drop remaining=sticky hits=2"),
	     "sticky fault listed with 2 hits");
	t_ok(ctl("fault del 8") == 0, "fault del");
	t_ok(ap_call(0, GB_SVC_TYPE_PING, NULL, 0, &r) && !r.result,
	     "ping answered again");

	t_ok(ctl("fault add dir=send intf=svc type=svc.module_removed count=2 drop") == 0,
	     "fault on gbsim's own requests");
	t_ok(ctl("fault clear") == 0 && ctl("faults") == 0 && !out_buf[0],
	     "fault clear");
	t_ok(ctl("fault add dir=send type=svc.module_inserted drop") == 0 &&
	     !strcmp(out_buf, "fault 10\n"), "ids go on after clear: %s", out_buf);
	t_ok(ctl("fault clear") == 0, "fault clear again");

	t_ok(ctl("fault add type=control.get_manifest_size long=3") == 0,
	     "fault add long=3");
	t_ok(ap_call(1, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0, &r) &&
	     !r.result && r.plen == 5 && r.len == 13 &&
	     (r.raw[0] | r.raw[1] << 8) == 13 && !r.payload[2] &&
	     !r.payload[3] && !r.payload[4], "answer 3 zero bytes longer");
	t_ok(ctl("fault add dir=send type=control.get_manifest_size long=3") == 1,
	     "long=N refused with dir=send");
	t_ok(ctl("fault add type=control.get_manifest_size long=0") == 1,
	     "long=0 refused");
}

/* The GPIO model behind "gpio": line state, and interrupts it raises */
static void gpio_model(const char *mdir)
{
	static const uint8_t rising1[] = { 1, GB_GPIO_IRQ_TYPE_EDGE_RISING };
	static const uint8_t out2[] = { 2, 1 }, badtype[] = { 1, 7 };
	static const uint8_t line1 = 1, line2 = 2;
	struct rx r;

	/* what faults() left: a fault still armed, late answers */
	ctl("fault clear");
	while (rx_get(&r, 300))
		;
	t_ok(ctl("insert 8 %s/gbphy-bridge.mnfs", mdir) == 0 &&
	     svc_expect(GB_SVC_TYPE_MODULE_INSERTED, &r) && r.payload[0] == 8,
	     "gpio: bridge module 8 inserted");
	t_ok(activate(8, 4) && connect_cport(3, 8, 0) && connect_cport(4, 8, 1),
	     "gpio: module 8 active, gpio cport connected");
	t_ok(ap_call(4, GB_GPIO_TYPE_LINE_COUNT, NULL, 0, &r) && !r.result &&
	     r.plen == 1 && r.payload[0] == 7, "gpio: line count answers 7");
	t_ok(ctl("gpio 8:1 8 1") == 1 && ctl("gpio 8:0 1 1") == 1 &&
	     ctl("gpio 8:1 1 2") == 1 && ctl("gpio 8:1 1") == 1,
	     "gpio: bad line, connection, level, usage fail");
	t_ok(ap_call(4, GB_GPIO_TYPE_IRQ_TYPE, rising1, 2, &r) && !r.result &&
	     ap_call(4, GB_GPIO_TYPE_IRQ_UNMASK, &line1, 1, &r) && !r.result,
	     "gpio: irq type rising, unmasked");
	t_ok(ctl("gpio 8:1 1 1") == 0 && rx_get(&r, 1000) && r.cport == 4 &&
	     r.type == GB_GPIO_TYPE_IRQ_EVENT && r.id == 0 && r.plen == 1 &&
	     r.payload[0] == 1, "gpio: rising edge sends a unidirectional irq event");
	t_ok(ctl("gpio 8:1 1 0") == 0 && quiet(200),
	     "gpio: falling edge of a rising irq sends nothing");
	t_ok(ap_call(4, GB_GPIO_TYPE_GET_VALUE, &line1, 1, &r) && !r.result &&
	     r.plen == 1 && r.payload[0] == 0, "gpio: input reads its level");
	t_ok(ap_call(4, GB_GPIO_TYPE_IRQ_MASK, &line1, 1, &r) && !r.result &&
	     ctl("gpio 8:1 1 1") == 0 && quiet(200),
	     "gpio: masked line sends nothing");
	t_ok(ap_call(4, GB_GPIO_TYPE_DIRECTION_OUT, out2, 2, &r) && !r.result &&
	     ap_call(4, GB_GPIO_TYPE_GET_VALUE, &line2, 1, &r) && !r.result &&
	     r.payload[0] == 1, "gpio: output reads its value");
	t_ok(ap_call(4, GB_GPIO_TYPE_IRQ_TYPE, badtype, 2, &r) &&
	     r.result == GB_OP_INVALID, "gpio: unknown irq type refused");
	t_ok(ap_call(4, GB_GPIO_TYPE_GET_VALUE, out2, 2, &r) &&
	     r.result == GB_OP_INVALID, "gpio: get_value of 2 bytes refused");
	quiet(100);
	t_ok(file_has(gbsim_log, "INFO    gpio cport 4 line 2: active=0 dir=out value=1 level=0 irq=masked type=none debounce=0") &&
	     file_has(gbsim_log, "INFO    gpio cport 4 line 1: irq event"),
	     "gpio: state and events logged");
	t_ok(ctl("remove 8") == 0 && svc_expect(GB_SVC_TYPE_MODULE_REMOVED, &r),
	     "gpio: module 8 removed");
}

/* The fuzzer on module 2's control connection (bridge CPort 1) */
/* The fuzzer on module 2's control connection (bridge CPort 1) */
static uint32_t fuzz_run(unsigned int *n, bool *elsewhere)
{
	uint32_t h = 2166136261u;	/* FNV-1a over what arrives */
	struct rx r;

	*n = 0;
	*elsewhere = false;
	while (rx_get(&r, 500)) {
		if (r.cport != 1)
			*elsewhere = true;
		for (size_t i = 0; i < r.len; i++)
			h = (h ^ r.raw[i]) * 16777619u;
		(*n)++;
	}
	return h;
}

static void fuzz_mode(void)
{
	static const char *const bad[] = {
		"fuzz start count=0", "fuzz start rate=101", "fuzz start bogus",
		"fuzz start rate=0 burst=0", "fuzz nope", "fuzz stop now",
		"fuzz start intf=300", "fuzz start interval=0",
	};
	static const uint8_t v01[2] = { 0, 1 };
	unsigned int n1, n2, i, answered = 0;
	bool other1, other2;
	uint32_t h1, h2;
	struct rx r;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		t_ok(ctl("%s", bad[i]) == 1, "'%s' fails", bad[i]);
	t_ok(ctl("fuzz") == 0 && strstr(out_buf, "never started"),
	     "fuzz status before a start: %s", out_buf);
	t_ok(ctl("fuzz start count=1000 interval=10000") == 0 &&
	     ctl("fuzz start") == 1 && ctl("fuzz stop") == 0 &&
	     strstr(out_buf, "fuzz running=0 "),
	     "a second start fails while one runs; fuzz stop");
	t_ok(ctl("fuzz start seed=42 count=40 interval=1 intf=2") == 0 &&
	     !strcmp(out_buf, "seed=0x000000000000002a\n"), "fuzz start: %s",
	     out_buf);
	h1 = fuzz_run(&n1, &other1);
	t_ok(ctl("fuzz") == 0 &&
	     strstr(out_buf, "fuzz running=0 seed=0x000000000000002a count=40 sent=40 mutated=0 unsolicited=40 "),
	     "40 unsolicited messages, then it stops: %.*s",
	     (int)strcspn(out_buf, "\n"), out_buf);
	t_ok(n1 == 40 && !other1, "all 40 on the connection to interface 2 (%u)",
	     n1);
	t_ok(ctl("fuzz start seed=42 count=40 interval=1 intf=2") == 0, "again");
	h2 = fuzz_run(&n2, &other2);
	t_ok(n2 == n1 && h2 == h1, "the same seed sends the same bytes");
	t_ok(ctl("fuzz start seed=43 count=40 interval=1 intf=2") == 0, "seed 43");
	h2 = fuzz_run(&n2, &other2);
	t_ok(h2 != h1, "another seed sends other bytes");

	/* every answer of gbsim mutated, no unsolicited messages */
	t_ok(ctl("fuzz start seed=7 count=20 rate=100 burst=0") == 0,
	     "fuzz start rate=100 burst=0");
	for (i = 0; i < 20; i++) {
		ap_send(1, GB_CONTROL_TYPE_VERSION, v01, 2);
		while (rx_get(&r, 200))
			answered++;
	}
	t_ok(ctl("fuzz") == 0 &&
	     strstr(out_buf, "running=0 seed=0x0000000000000007 count=20 sent=20 mutated=20 unsolicited=0 "),
	     "20 answers mutated: %.*s", (int)strcspn(out_buf, "\n"), out_buf);
	t_ok(answered >= 10, "most mutated answers still sent (%u)", answered);
	/* the AP answering an unsolicited request is no error */
	tx(1, 0x7777, 0x85, NULL, 0);
	quiet(100);
	t_ok(file_has(gbsim_log, "fuzz: answers nothing gbsim is waiting for"),
	     "the answer logged as the fuzzer's");
	t_ok(ctl("fuzz stop") == 0 && strstr(out_buf, "running=0"), "fuzz stop");
	t_ok(ap_call(1, GB_CONTROL_TYPE_VERSION, v01, 2, &r) && !r.result,
	     "answers are clean again");
}

/* ---- audio topologies ------------------------------------------------- */

/*
 * A gbsim of its own with GBSIM_AUDIO_TOPOLOGY=@topo (NULL: unset) and
 * the speaker module at interface 3: the topology it answers GET_TOPOLOGY
 * with, and the value of control @ctl_id (GET_CONTROL).
 */
static bool audio_served(const char *topo, const char *mdir, uint8_t *blob,
			 size_t *len, uint8_t ctl_id, int32_t *value)
{
	uint8_t buf[GB_VHD_EVENT_SIZE_MAX], get[2] = { ctl_id, 0 };
	struct pollfd pfd;
	int sv[2], status, saved = ap;
	char mod[4096], fdarg[16];
	bool ok = false;
	struct rx r;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return false;
	snprintf(mod, sizeof(mod), "3:%s/audio-speaker.mnfs", mdir);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		close(sv[0]);
		dup2(null, 2);
		unsetenv("GBSIM_AUDIO_TOPOLOGY_RAW");
		if (topo)
			setenv("GBSIM_AUDIO_TOPOLOGY", topo, 1);
		else
			unsetenv("GBSIM_AUDIO_TOPOLOGY");
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		execl(gbsim_bin, gbsim_bin, "--device-fd", fdarg, "--cports", "8",
		      "-m", mod, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	ap = sv[0];
	memset(next_id, 0, sizeof(next_id));
	pfd = (struct pollfd){ .fd = ap, .events = POLLIN };
	if (poll(&pfd, 1, 3000) == 1 && read(ap, buf, sizeof(buf)) > 0) {
		struct gb_vhd_created c = { .bus_id = 9 };
		struct gb_vhd_cport e = { .cport_id = 0 };

		ev_put(GB_VHD_CREATED, &c, sizeof(c));
		ev_put(GB_VHD_CPORT_ENABLE, &e, sizeof(e));
		ok = svc_expect(GB_REQUEST_TYPE_PROTOCOL_VERSION, &r) &&
		     svc_expect(GB_SVC_TYPE_SVC_HELLO, &r) &&
		     svc_expect(GB_SVC_TYPE_MODULE_INSERTED, &r) &&
		     activate(3, 2) && connect_cport(1, 3, 1) &&
		     ap_call(1, GB_AUDIO_TYPE_GET_TOPOLOGY_SIZE, NULL, 0, &r) &&
		     !r.result && r.plen == 2;
		*len = ok ? (size_t)(r.payload[0] | r.payload[1] << 8) : 0;
		ok = ok && ap_call(1, GB_AUDIO_TYPE_GET_TOPOLOGY, NULL, 0, &r) &&
		     !r.result && r.plen == *len;
		if (ok)
			memcpy(blob, r.payload, r.plen);
		ok = ok && ap_call(1, GB_AUDIO_TYPE_GET_CONTROL, get, 2, &r) &&
		     !r.result && r.plen == 24;
		if (ok)
			*value = (int32_t)(r.payload[8] | r.payload[9] << 8 |
					   r.payload[10] << 16 |
					   (uint32_t)r.payload[11] << 24);
	}
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	close(ap);
	ap = saved;
	return ok;
}

/* What gb_topo_compile() makes of manifests/NAME for data CPort 2 */
static bool audio_compiled(const char *mdir, const char *name,
			   struct gb_topo *t)
{
	static char src[1 << 16];
	char path[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", mdir, name);
	f = fopen(path, "rb");
	if (!f)
		return false;
	n = fread(src, 1, sizeof(src), f);
	fclose(f);
	return !gb_topo_compile(src, n, name, 2, t, NULL);
}

/* gbsim -d /nonexistent with GBSIM_AUDIO_TOPOLOGY=@topo: status, stderr */
static int audio_start(const char *topo)
{
	int e[2], status;
	pid_t pid;

	if (pipe(e))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(e[1], 2);
		close(e[0]);
		setenv("GBSIM_AUDIO_TOPOLOGY", topo, 1);
		execl(gbsim_bin, gbsim_bin, "-d", "/nonexistent/greybus-vhd",
		      (char *)NULL);
		_exit(127);
	}
	close(e[1]);
	slurp(e[0], err_buf, sizeof(err_buf));
	close(e[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void audio_topologies(const char *mdir)
{
	static uint8_t blob[65536];
	static const char mux[] =
		"[dai 0]\nname = d\nplayback = P\n[widget 1]\nname = w\ntype = mux\n";
	char path[4096], bad[] = "/tmp/gbsim-topo-XXXXXX";
	struct gb_topo t;
	int32_t v = -1;
	size_t len = 0;
	bool ok;
	int fd;

	ok = audio_served(NULL, mdir, blob, &len, 1, &v);
	t_ok(ok && audio_compiled(mdir, "audio-speaker.topo", &t) &&
	     t.len == len && !memcmp(t.blob, blob, len) && v == 50,
	     "audio: the built-in speaker is audio-speaker.topo (%zu bytes, volume %d)",
	     len, v);
	gb_topo_release(&t);
	ok = audio_served("mic", mdir, blob, &len, 0, &v);
	t_ok(ok && audio_compiled(mdir, "audio-mic.topo", &t) &&
	     t.len == len && !memcmp(t.blob, blob, len) && v == 12,
	     "audio: the built-in microphone is audio-mic.topo (%zu bytes, gain %d)",
	     len, v);
	gb_topo_release(&t);
	snprintf(path, sizeof(path), "%s/audio-mic.topo", mdir);
	ok = audio_served(path, mdir, blob, &len, 0, &v);
	t_ok(ok && audio_compiled(mdir, "audio-mic.topo", &t) &&
	     t.len == len && !memcmp(t.blob, blob, len) && v == 12 &&
	     blob[24 + 32] == 2,
	     "audio: GBSIM_AUDIO_TOPOLOGY=audio-mic.topo served on data cport %u, gain %d",
	     len > 57 ? blob[24 + 32] : 0, v);
	gb_topo_release(&t);

	/* a good file gets gbsim as far as the device; a bad one stops it */
	t_ok(audio_start(path) == 1 && !strstr(err_buf, "TOPOLOGY"),
	     "audio: a good topology passes the start: %s", err_buf);
	fd = mkstemp(bad);
	if (fd < 0 || write(fd, mux, sizeof(mux) - 1) != (ssize_t)sizeof(mux) - 1)
		t_ok(false, "audio: bad topology written");
	close(fd);
	snprintf(path, sizeof(path),
		 "gbsim: GBSIM_AUDIO_TOPOLOGY: %s:4: widget 1: a mux needs exactly one control, enumerated (controls = ID)\n",
		 bad);
	t_ok(audio_start(bad) == 2 && !strcmp(err_buf, path),
	     "audio: a malformed topology stops gbsim with status 2: %s", err_buf);
	unlink(bad);
	t_ok(audio_start(bad) == 2 &&
	     strstr(err_buf, "gbsim: GBSIM_AUDIO_TOPOLOGY: cannot read /tmp/gbsim-topo-") &&
	     strstr(err_buf, ": No such file or directory"),
	     "audio: a missing topology stops gbsim with status 2: %s", err_buf);
}

int fakeap_ctl_tests(const char *gbsim, const char *mdir, const char *log)
{
	char dir[] = "/tmp/gbsim-ctl-XXXXXX", sock[64], mod2[4096], rawf[96];
	static const uint8_t raw[] = { 0x07, 0x00, 0x00, 0x01, 0xde, 0xad, 0xbe };
	struct rx r, r2;
	int sv[2], status, fd;
	pid_t pid, fpid;

	gbsim_bin = gbsim;
	gbsim_log = log;
	if (!mkdtemp(dir)) {
		t_ok(false, "mkdtemp");
		return 1;
	}
	snprintf(sock, sizeof(sock), "%s/ctl", dir);
	snprintf(rawf, sizeof(rawf), "%s/raw.mnfb", dir);
	ctl_path = sock;
	fd = open(rawf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, raw, sizeof(raw)) != (ssize_t)sizeof(raw))
		t_ok(false, "raw manifest written");
	close(fd);
	snprintf(mod2, sizeof(mod2), "2:%s/test-vendor.mnfs", mdir);

	/* a client started before gbsim, waiting for its socket */
	fpid = fork();
	if (fpid == 0) {
		char *argv[] = { (char *)gbsim, "ctl", "-s", sock, "-w", "10",
				 "status", NULL };
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execv(gbsim, argv);
		_exit(127);
	}
	usleep(100000);

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return 1;
	pid = fork();
	if (pid == 0) {
		char fdarg[16];

		close(sv[0]);
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		execl(gbsim, gbsim, "--device-fd", fdarg, "--log", log,
		      "--cports", "8", "--ctl", sock, "-m", mod2, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	ap = sv[0];

	{
		uint8_t buf[GB_VHD_EVENT_SIZE_MAX];
		struct pollfd pfd = { .fd = ap, .events = POLLIN };

		t_ok(poll(&pfd, 1, 3000) == 1 && read(ap, buf, sizeof(buf)) > 0,
		     "CREATE from the second gbsim");
	}
	waitpid(fpid, &status, 0);
	t_ok(WIFEXITED(status) && !WEXITSTATUS(status),
	     "-w waits for the socket");
	t_ok(ctl("status") == 0 && !strcmp(out_buf, "svc=down bus=0 modules=1\n"),
	     "status before CREATED: %s", out_buf);
	t_ok(ctl("insert 4 %s/two-bundle.mnfs vid=0x1234 pid=5", mdir) == 0 &&
	     !out_buf[0], "insert before the SVC is up");
	t_ok(ctl("list") == 0 &&
	     strstr(out_buf, "module 4 intfs=1 state=plugged manifest=") &&
	     strstr(out_buf, "two-bundle.mnfs\n  intf 4 active=0 device_id=0 vid=0x00001234 pid=0x00000005\n"),
	     "list: queued module");
	t_ok(quiet(100), "nothing announced before the SVC is up");

	{
		struct gb_vhd_created c = { .bus_id = 7 };
		struct gb_vhd_cport e = { .cport_id = 0 };

		ev_put(GB_VHD_CREATED, &c, sizeof(c));
		ev_put(GB_VHD_CPORT_ENABLE, &e, sizeof(e));
	}
	t_ok(svc_expect(GB_REQUEST_TYPE_PROTOCOL_VERSION, &r), "version");
	t_ok(ctl("insert 6 %s raw", rawf) == 0, "raw insert during bring-up");
	t_ok(svc_expect(GB_SVC_TYPE_SVC_HELLO, &r), "hello");
	t_ok(svc_expect(GB_SVC_TYPE_MODULE_INSERTED, &r) && r.payload[0] == 2,
	     "module inserted 2");
	t_ok(svc_expect(GB_SVC_TYPE_MODULE_INSERTED, &r) && r.payload[0] == 4,
	     "queued module 4 announced next");
	t_ok(svc_expect(GB_SVC_TYPE_MODULE_INSERTED, &r) && r.payload[0] == 6,
	     "raw module 6 announced last");
	t_ok(ctl("status") == 0 && !strcmp(out_buf, "svc=ready bus=7 modules=3\n"),
	     "status when ready: %s", out_buf);
	t_ok(ctl("list") == 0 && strstr(out_buf, "raw.mnfb raw=1\n"),
	     "list marks the raw module");

	bad_commands();
	raw_clients();
	t_ok(ctl("insert 4 %s/two-bundle.mnfs", mdir) == 1 &&
	     strstr(err_buf, "interface 4 is taken by module 4"),
	     "insert at a taken interface: %s", err_buf);
	t_ok(ctl("insert 5 %s/two-bundle.mnfs intfs=2", mdir) == 1 &&
	     strstr(err_buf, "interface 6 is taken"), "overlapping insert");
	t_ok(ctl("remove 4") == 0 && svc_expect(GB_SVC_TYPE_MODULE_REMOVED, &r) &&
	     r.payload[0] == 4, "remove: module removed 4");
	t_ok(ctl("insert 4 %s/two-bundle.mnfs intfs=2", mdir) == 0 &&
	     svc_expect(GB_SVC_TYPE_MODULE_INSERTED, &r) && r.payload[0] == 4 &&
	     r.payload[1] == 2, "re-insert at once, two interfaces");
	t_ok(ctl("eject 4") == 0 && svc_expect(GB_SVC_TYPE_MODULE_REMOVED, &r) &&
	     r.payload[0] == 4, "eject: module removed 4");
	t_ok(file_has(log, "INFO    module 4 ejected"), "log: module 4 ejected");

	/* the raw module serves its bytes as they are */
	t_ok(activate(6, 3) && connect_cport(2, 6, 0), "raw module 6 active");
	t_ok(ap_call(2, GB_CONTROL_TYPE_GET_MANIFEST_SIZE, NULL, 0, &r) &&
	     r.plen == 2 && r.payload[0] == sizeof(raw), "raw manifest size 7");
	t_ok(ap_call(2, GB_CONTROL_TYPE_GET_MANIFEST, NULL, 0, &r) &&
	     r.plen == sizeof(raw) && !memcmp(r.payload, raw, sizeof(raw)),
	     "raw manifest byte for byte");
	t_ok(file_has(log, "intf 6: raw manifest of 7 bytes"),
	     "log: raw manifest warning");

	t_ok(activate(2, 2) && connect_cport(1, 2, 0), "module 2 active");
	t_ok(ctl("list") == 0 &&
	     strstr(out_buf, "  intf 2 active=1 device_id=2 vid=0x00000001"),
	     "list: active with device id");

	/* send: bytes as given */
	t_ok(ctl("send 1 0c:00:34:12 02 00 00 00 de ad be ef") == 0 &&
	     rx_get(&r, 1000) && r.cport == 1 && r.len == 12 && r.id == 0x1234 &&
	     !memcmp(r.payload, "\xde\xad\xbe\xef", 4), "send: message as given");
	t_ok(ctl("send 1 010203 count=3") == 0 && rx_get(&r, 500) && r.len == 3 &&
	     rx_get(&r, 500) && rx_get(&r, 500) && quiet(100),
	     "send count=3: three short messages");
	t_ok(file_has(log, "MOD>AP  cport 1 intf 2:0 short message of 3 bytes injected"),
	     "log: injected");

	/* request: a fresh id, or the one given */
	t_ok(ctl("request 2:0 control.get_manifest_size") == 0 &&
	     rx_get(&r, 1000) && r.cport == 1 && r.type == 0x03 && !r.plen &&
	     !strcmp(out_buf, "id=0x0001\n"), "request on 2:0: %s", out_buf);
	tx(1, r.id, 0x83, "\x10\x00", 2);
	t_ok(ctl("request svc ping id=0x4242") == 0 && rx_get(&r, 1000) &&
	     r.cport == 0 && r.type == GB_SVC_TYPE_PING && r.id == 0x4242,
	     "request as the SVC with id=0x4242");
	tx(0, 0x4242, GB_SVC_TYPE_PING | 0x80, NULL, 0);
	t_ok(ctl("request svc svc.intf_oops 0201 count=2") == 0 &&
	     rx_get(&r, 500) && r.type == 0x2a && r.plen == 2 &&
	     r.payload[0] == 2 && rx_get(&r2, 500) && r2.id != r.id,
	     "request count=2: two ids");
	tx(0, r.id, 0xaa, NULL, 0);
	tx(0, r2.id, 0xaa, NULL, 0);
	quiet(100);
	t_ok(file_has(log, "AP>SVC  cport 0 svc.ping rsp id=0x4242 result=success") &&
	     file_has(log, "AP>MOD  cport 1 intf 2:0 control.get_manifest_size rsp id=0x0001 result=success"),
	     "responses to ctl requests logged");

	faults();
	gpio_model(mdir);
	fuzz_mode();

	/* log and log -f */
	t_ok(ctl("log") == 0 && strstr(out_buf, "INFO    ctl: insert 4 ") &&
	     strstr(out_buf, "svc.svc_hello req"), "log keeps the lines");
	{
		int o[2];
		char *argv[] = { (char *)gbsim, "ctl", "-s", sock, "log", "-f", NULL };

		if (pipe(o))
			return 1;
		fpid = fork();
		if (fpid == 0) {
			dup2(o[1], 1);
			close(o[0]);
			execv(gbsim, argv);
			_exit(127);
		}
		close(o[1]);
		{
			/* connected once the log so far comes out */
			struct pollfd pfd = { .fd = o[0], .events = POLLIN };

			t_ok(poll(&pfd, 1, 10000) == 1, "log -f prints the log so far");
		}
		ctl("remove 2");
		svc_expect(GB_SVC_TYPE_MODULE_REMOVED, &r);
		kill(pid, SIGTERM);
		while (rx_get(&r, 500))
			;
		slurp(o[0], out_buf, sizeof(out_buf));
		close(o[0]);
		waitpid(fpid, &status, 0);
		t_ok(WIFEXITED(status) && !WEXITSTATUS(status) &&
		     strstr(out_buf, "INFO    module 2 unplugged") &&
		     strstr(out_buf, "signal 15: stopping"),
		     "log -f follows until gbsim stops");
	}
	waitpid(pid, &status, 0);
	t_ok(WIFEXITED(status) && !WEXITSTATUS(status), "gbsim exit status 0");
	t_ok(access(sock, F_OK) && errno == ENOENT, "socket removed at exit");
	unlink(rawf);
	rmdir(dir);
	close(ap);
	audio_topologies(mdir);
	return nfailed ? 1 : 0;
}
