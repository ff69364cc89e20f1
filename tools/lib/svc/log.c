// SPDX-License-Identifier: GPL-2.0
/*
 * The message log.  Every line is built whole in memory and written with
 * one write() to each sink, so a test reading the file while gbsim runs
 * never sees half a line, and nothing waits in a stdio buffer.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gb_msg.h>
#include <gb_pcapng.h>

#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"

#define GBSIM_LOG_LINE_MAX	1024
#define GBSIM_LOG_DATA_MAX	64	/* payload bytes shown with -vv */

/* The name problems on stderr start with (gbsim_log_set_prog()) */
static const char *gbsim_log_prog = "gbsim";

void gbsim_log_set_prog(const char *prog)
{
	gbsim_log_prog = prog;
}

static int gbsim_log_fd = -1;
static int gbsim_log_verbose;

/*
 * The last GBSIM_LOG_KEEP lines, whatever the sinks, for the control
 * socket's "log" command; ring[] holds malloc'ed lines (newline included),
 * the oldest at ring_first.
 */
static char *gbsim_log_ring[GBSIM_LOG_KEEP];
static size_t gbsim_log_ring_first, gbsim_log_ring_count;
static gbsim_log_tap_fn gbsim_log_tap;
static void *gbsim_log_tap_ctx;

static void gbsim_log_keep(const char *line, size_t len)
{
	size_t slot;
	char *copy = malloc(len + 1);

	if (!copy)
		return;	/* the log in memory is best effort */
	memcpy(copy, line, len);
	copy[len] = '\0';
	if (gbsim_log_ring_count < GBSIM_LOG_KEEP) {
		slot = (gbsim_log_ring_first + gbsim_log_ring_count++) %
		       GBSIM_LOG_KEEP;
	} else {
		slot = gbsim_log_ring_first;
		gbsim_log_ring_first = (slot + 1) % GBSIM_LOG_KEEP;
		free(gbsim_log_ring[slot]);
	}
	gbsim_log_ring[slot] = copy;
}

size_t gbsim_log_kept(void)
{
	return gbsim_log_ring_count;
}

const char *gbsim_log_kept_line(size_t i)
{
	if (i >= gbsim_log_ring_count)
		return NULL;
	return gbsim_log_ring[(gbsim_log_ring_first + i) % GBSIM_LOG_KEEP];
}

void gbsim_log_set_tap(gbsim_log_tap_fn fn, void *ctx)
{
	gbsim_log_tap = fn;
	gbsim_log_tap_ctx = ctx;
}

static struct gb_pcapng_writer gbsim_log_pcap;
static bool gbsim_log_pcap_open;

int gbsim_log_capture(const char *path, char *err, size_t errlen)
{
	int ret = gb_pcapng_create(&gbsim_log_pcap, path, gbsim_log_prog);

	if (ret) {
		snprintf(err, errlen, "cannot write capture %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	gbsim_log_pcap_open = true;
	return 0;
}

/*
 * One message into the capture.  Bus id 0: this side does not know the
 * AP's number for it.  A write error is reported once and ends the
 * capture; it never stops the simulator.
 */
static void gbsim_log_capture_msg(enum gbsim_dir dir, uint16_t hd_cport,
				  int intf_id, int intf_cport, int protocol,
				  const uint8_t *msg, size_t len)
{
	struct gb_mon_hdr hdr;

	if (!gbsim_log_pcap_open)
		return;
	gb_pcapng_msg_hdr(&hdr, gbsim_now_ns(), 0, hd_cport,
			  intf_id < 0 ? GB_MON_ID_NONE : (uint8_t)intf_id,
			  intf_cport < 0 ? GB_MON_CPORT_NONE : (uint16_t)intf_cport,
			  protocol < 0 ? 0xff : (uint8_t)protocol,
			  dir == GBSIM_SVC_TO_AP || dir == GBSIM_MOD_TO_AP,
			  msg, len);
	if (gb_pcapng_write(&gbsim_log_pcap, &hdr, msg) ||
	    gb_pcapng_flush(&gbsim_log_pcap)) {
		gbsim_log_pcap_open = false;
		gbsim_log_error("capture: %s; no more messages are captured",
				strerror(gbsim_log_pcap.error));
	}
}

int gbsim_log_open(const char *path, int verbose, char *err, size_t errlen)
{
	gbsim_log_verbose = verbose;
	if (!path)
		return 0;
	gbsim_log_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
			    O_CLOEXEC, 0644);
	if (gbsim_log_fd < 0) {
		snprintf(err, errlen, "cannot open log file %s: %s", path,
			 strerror(errno));
		return -errno;
	}
	return 0;
}

void gbsim_log_close(void)
{
	gb_pcapng_close(&gbsim_log_pcap);	/* errors were reported */
	gbsim_log_pcap_open = false;
	if (gbsim_log_fd >= 0)
		close(gbsim_log_fd);
	gbsim_log_fd = -1;
	for (size_t i = 0; i < gbsim_log_ring_count; i++)
		free(gbsim_log_ring[(gbsim_log_ring_first + i) % GBSIM_LOG_KEEP]);
	gbsim_log_ring_first = gbsim_log_ring_count = 0;
	gbsim_log_tap = NULL;
}

int gbsim_log_verbosity(void)
{
	return gbsim_log_verbose;
}

static void gbsim_write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;	/* a log must never stop the simulator */
		p += n;
		len -= (size_t)n;
	}
}

/* Emit one line: "[ seconds.micros] TAG     body" */
static void gbsim_log_line(const char *tag, const char *body, bool problem)
{
	char line[GBSIM_LOG_LINE_MAX + 64];
	uint64_t ns = gbsim_now_ns();
	int n;

	n = snprintf(line, sizeof(line), "[%5llu.%06llu] %-7s %s\n",
		     (unsigned long long)(ns / 1000000000ULL),
		     (unsigned long long)(ns % 1000000000ULL / 1000ULL),
		     tag, body);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line)) {
		n = sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	if (gbsim_log_fd >= 0)
		gbsim_write_all(gbsim_log_fd, line, (size_t)n);
	gbsim_log_keep(line, (size_t)n);
	if (gbsim_log_tap)
		gbsim_log_tap(line, (size_t)n, gbsim_log_tap_ctx);
	if (gbsim_log_verbose) {
		gbsim_write_all(STDERR_FILENO, line, (size_t)n);
	} else if (problem) {
		char msg[GBSIM_LOG_LINE_MAX + 16];

		n = snprintf(msg, sizeof(msg), "%s: %s\n", gbsim_log_prog,
			     body);
		if (n > 0)
			gbsim_write_all(STDERR_FILENO, msg,
					(size_t)n < sizeof(msg) ? (size_t)n :
					sizeof(msg) - 1);
	}
}

static void gbsim_log_vtag(const char *tag, bool problem, const char *fmt,
			   va_list ap)
{
	char body[GBSIM_LOG_LINE_MAX];

	vsnprintf(body, sizeof(body), fmt, ap);
	gbsim_log_line(tag, body, problem);
}

#define GBSIM_LOG_FN(fn, tag, problem)				\
	void fn(const char *fmt, ...)				\
	{							\
		va_list ap;					\
								\
		va_start(ap, fmt);				\
		gbsim_log_vtag(tag, problem, fmt, ap);		\
		va_end(ap);					\
	}

GBSIM_LOG_FN(gbsim_log_event, "EVENT", false)
GBSIM_LOG_FN(gbsim_log_info, "INFO", false)
GBSIM_LOG_FN(gbsim_log_warn, "WARN", true)
GBSIM_LOG_FN(gbsim_log_error, "ERROR", true)

const char *gbsim_result_name(uint8_t result)
{
	const char *name = gb_result_name(result);

	return name == gb_name_unknown ? NULL : name;
}

static const char *const gbsim_dir_tags[] = {
	[GBSIM_AP_TO_SVC] = "AP>SVC",
	[GBSIM_SVC_TO_AP] = "SVC>AP",
	[GBSIM_AP_TO_MOD] = "AP>MOD",
	[GBSIM_MOD_TO_AP] = "MOD>AP",
};

void gbsim_log_msg(enum gbsim_dir dir, uint16_t hd_cport, int intf_id,
		   int intf_cport, int protocol, const uint8_t *msg,
		   size_t len, const char *note)
{
	char body[GBSIM_LOG_LINE_MAX];
	struct gb_buf b = { .p = body, .max = sizeof(body) };
	struct gb_operation_msg_hdr hdr;
	const uint8_t *payload;
	size_t plen, before;
	bool response;
	char name[96];

	if (!note || strcmp(note, "dropped by hook"))
		gbsim_log_capture_msg(dir, hd_cport, intf_id, intf_cport,
				      protocol, msg, len);
	body[0] = '\0';
	gb_buf_printf(&b, "cport %u", hd_cport);
	if (intf_id >= 0)
		gb_buf_printf(&b, " intf %d:%d", intf_id, intf_cport);

	if (len < sizeof(hdr)) {
		gb_buf_printf(&b, " short message of %zu bytes", len);
		goto out;
	}
	memcpy(&hdr, msg, sizeof(hdr));
	response = hdr.type & GB_MSG_TYPE_RESPONSE;
	if (protocol < 0)
		snprintf(name, sizeof(name), "unknown.type_0x%02x",
			 hdr.type & GB_MSG_TYPE_MASK);
	else
		gb_op_fullname((uint8_t)protocol, hdr.type, name,
				  sizeof(name));
	gb_buf_printf(&b, " %s %s id=0x%04x", name, response ? "rsp" : "req",
			 le16toh(hdr.operation_id));
	if (response || hdr.result) {
		const char *r = gbsim_result_name(hdr.result);

		if (r)
			gb_buf_printf(&b, " result=%s", r);
		else
			gb_buf_printf(&b, " result=0x%02x", hdr.result);
	}
	if (le16toh(hdr.size) != len)
		gb_buf_printf(&b, " hdr_size=%u", le16toh(hdr.size));

	payload = msg + sizeof(hdr);
	plen = len - sizeof(hdr);
	before = b.len;
	gb_decode_payload(&b, protocol, hdr.type, hdr.result, payload, plen);
	if (plen && (b.len == before || gbsim_log_verbose > 1))
		gb_buf_printf(&b, " len=%zu", plen);
	if (plen && gbsim_log_verbose > 1) {
		size_t n = plen < GBSIM_LOG_DATA_MAX ? plen : GBSIM_LOG_DATA_MAX;

		gb_buf_printf(&b, " hex=");
		for (size_t i = 0; i < n; i++)
			gb_buf_printf(&b, "%02x", payload[i]);
		if (n < plen)
			gb_buf_printf(&b, "...");
	}
out:
	if (note)
		gb_buf_printf(&b, " %s", note);
	gbsim_log_line(gbsim_dir_tags[dir], body, false);
}
