// SPDX-License-Identifier: GPL-2.0
/*
 * TimeSync as the SVC and the interfaces play it.
 *
 * Every clock here is CLOCK_MONOTONIC, the AP's own clock (gbsim runs in
 * the same machine), counted in FrameTime ticks of 19.2 MHz.  The SVC's
 * FrameTime is that plus an offset, which SVC timesync enable sets so
 * that the first strobe of the series falls on the frame_time the AP
 * asked for.  Each interface keeps a counter of its own (a different
 * offset per interface) that it corrects with the SVC's FrameTimes
 * (authoritative).  A strobe is a moment: the SVC notes its FrameTime,
 * each interface whose wake pin the SVC drives notes its own, and the
 * bridge is told (the transport's strobe operation), so the AP notes its
 * clock.
 *
 * Faults (ctl "timesync"): drop the next N series (the SVC answers but
 * nobody sees a strobe), delay a series, fail the next N authoritative
 * requests, delay the ping's answer.  Each series is logged as
 * "timesync series N", which tests count.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <uapi/greybus/control.h>
#include <uapi/greybus/svc.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "proto.h"
#include "transport.h"

#define GBSIM_TS_SVC_BASE	1000000000LL	/* before the first enable */
#define GBSIM_TS_INTF_BASE	7777777LL	/* times the interface id */
#define GBSIM_TS_DELAY_MAX_US	10000

static uint64_t gbsim_ts_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* 19.2 MHz: ns * 12 / 625, without overflow for centuries of uptime */
static uint64_t gbsim_ts_ticks(uint64_t ns)
{
	return ns / 625 * 12 + ns % 625 * 12 / 625;
}

static uint64_t gbsim_ts_svc_ft(struct gbsim *sim, uint64_t ns)
{
	return gbsim_ts_ticks(ns) + (uint64_t)sim->ts.base;
}

static uint64_t gbsim_ts_intf_local(const struct gbsim_intf *intf, uint64_t ns)
{
	return gbsim_ts_ticks(ns) + (uint64_t)(GBSIM_TS_INTF_BASE * intf->id);
}

static uint64_t gbsim_ts_get_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

void gbsim_timesync_init(struct gbsim *sim)
{
	memset(&sim->ts, 0, sizeof(sim->ts));
	sim->ts.base = GBSIM_TS_SVC_BASE;
}

/* Interfaces whose wake pin the SVC drives and that are armed */
static bool gbsim_ts_listens(struct gbsim *sim, struct gbsim_intf *intf)
{
	return intf->id < 32 && (sim->ts.strobe_mask & (1u << intf->id)) &&
	       intf->active && !intf->hibernated;
}

/* One strobe at time ns: everybody latches, the bridge is told */
static void gbsim_ts_strobe(struct gbsim *sim, uint64_t ns)
{
	int ret = -ENOTSUP;

	if (sim->tp->ops->strobe)
		ret = sim->tp->ops->strobe(sim->tp, ns);
	if (ret)
		gbsim_log_error("timesync: strobe not delivered to the bridge: %s",
				strerror(-ret));
}

static void gbsim_ts_busy_wait(uint64_t until_ns)
{
	while (gbsim_ts_now_ns() < until_ns)
		;
}

static void gbsim_ts_sleep_us(unsigned int us)
{
	struct timespec t = {
		.tv_sec = us / 1000000,
		.tv_nsec = (long)(us % 1000000) * 1000,
	};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static int gbsim_ts_svc_enable(struct gbsim_op *op)
{
	struct gbsim *sim = op->sim;
	struct gbsim_svc_timesync *ts = &sim->ts;
	struct gb_timesync_enable_request req;
	uint64_t t0, ns, delay_ns;
	unsigned int n;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	if (req.count < 1 || req.count > GB_TIMESYNC_MAX_STROBES) {
		gbsim_log_error("svc: timesync enable refused: %u strobes",
				req.count);
		return GB_OP_INVALID;
	}
	/* The SVC's strobe timer: at most 10 ms between strobes */
	if (le32toh(req.strobe_delay) > GBSIM_TS_DELAY_MAX_US) {
		gbsim_log_error("svc: timesync enable refused: strobe delay %u us",
				le32toh(req.strobe_delay));
		return GB_OP_INVALID;
	}
	delay_ns = (uint64_t)le32toh(req.strobe_delay) * 1000;
	n = ++ts->series;
	ts->enabled = true;
	ts->count = req.count;
	memset(ts->strobe_ft, 0, sizeof(ts->strobe_ft));
	gbsim_log_event("timesync series %u: %u strobes %u us apart, frame_time %llu, mask 0x%08x",
			n, req.count, le32toh(req.strobe_delay),
			(unsigned long long)le64toh(req.frame_time),
			ts->strobe_mask);
	if (ts->drop) {
		ts->drop--;
		gbsim_log_event("timesync series %u dropped (told to)", n);
		return GB_OP_SUCCESS;
	}
	if (ts->late_us)
		gbsim_ts_sleep_us(ts->late_us);

	t0 = gbsim_ts_now_ns();
	ts->base = (int64_t)(le64toh(req.frame_time) - gbsim_ts_ticks(t0));
	for (unsigned int k = 0; k < req.count; k++) {
		if (k)
			gbsim_ts_busy_wait(t0 + k * delay_ns);
		ns = k ? gbsim_ts_now_ns() : t0;
		ts->strobe_ft[k] = gbsim_ts_svc_ft(sim, ns);
		for (unsigned int i = 0; i < GBSIM_INTF_MAX; i++) {
			struct gbsim_intf *intf = sim->intfs[i];

			if (!intf || !intf->ts.enabled || !gbsim_ts_listens(sim, intf) ||
			    intf->ts.latched >= intf->ts.count)
				continue;
			intf->ts.latch[intf->ts.latched++] =
				gbsim_ts_intf_local(intf, ns);
		}
		gbsim_ts_strobe(sim, ns);
	}
	return GB_OP_SUCCESS;
}

static int gbsim_ts_svc_authoritative(struct gbsim_op *op)
{
	struct gbsim_svc_timesync *ts = &op->sim->ts;

	if (!gbsim_op_len_is(op, 0))
		return GB_OP_INVALID;
	if (ts->fail_auth) {
		ts->fail_auth--;
		gbsim_log_event("timesync authoritative failed (told to)");
		return GB_OP_UNKNOWN_ERROR;
	}
	if (!ts->enabled) {
		gbsim_log_error("svc: timesync authoritative refused: not enabled");
		return GB_OP_INVALID;
	}
	for (unsigned int k = 0; k < GB_TIMESYNC_MAX_STROBES; k++)
		gbsim_put_le64(op->rsp + 8 * k, ts->strobe_ft[k]);
	op->rsp_len = sizeof(struct gb_timesync_authoritative);
	return GB_OP_SUCCESS;
}

/* The ping strobe: the interfaces note their corrected FrameTime */
static int gbsim_ts_svc_ping(struct gbsim_op *op)
{
	struct gbsim *sim = op->sim;
	uint64_t ns;

	if (!gbsim_op_len_is(op, 0))
		return GB_OP_INVALID;
	ns = gbsim_ts_now_ns();
	for (unsigned int i = 0; i < GBSIM_INTF_MAX; i++) {
		struct gbsim_intf *intf = sim->intfs[i];

		if (intf && intf->ts.synced && gbsim_ts_listens(sim, intf))
			intf->ts.last_event = gbsim_ts_intf_local(intf, ns) +
					      (uint64_t)intf->ts.adjust;
	}
	gbsim_ts_strobe(sim, ns);
	sim->ts.pings++;
	if (sim->ts.ping_delay_ms)
		gbsim_ts_sleep_us(sim->ts.ping_delay_ms * 1000);
	gbsim_put_le64(op->rsp, gbsim_ts_svc_ft(sim, ns));
	op->rsp_len = sizeof(struct gb_timesync_frame_time);
	return GB_OP_SUCCESS;
}

int gbsim_timesync_svc(struct gbsim_op *op)
{
	struct gbsim_svc_timesync *ts = &op->sim->ts;

	switch (op->type) {
	case GB_SVC_TYPE_TIMESYNC_WAKE_PINS_ACQUIRE:
		if (!gbsim_op_len_is(op, 4))
			return GB_OP_INVALID;
		ts->strobe_mask = gbsim_get_le32(op->req);
		ts->pins = true;
		return GB_OP_SUCCESS;
	case GB_SVC_TYPE_TIMESYNC_WAKE_PINS_RELEASE:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		ts->strobe_mask = 0;
		ts->pins = false;
		return GB_OP_SUCCESS;
	case GB_SVC_TYPE_TIMESYNC_ENABLE:
		return gbsim_ts_svc_enable(op);
	case GB_SVC_TYPE_TIMESYNC_DISABLE:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		ts->enabled = false;
		return GB_OP_SUCCESS;
	case GB_SVC_TYPE_TIMESYNC_AUTHORITATIVE:
		return gbsim_ts_svc_authoritative(op);
	case GB_SVC_TYPE_TIMESYNC_PING:
		return gbsim_ts_svc_ping(op);
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

/* Control: the interface's side */

static bool gbsim_ts_has_feature(const struct gbsim_intf *intf)
{
	/* The interface descriptor's features byte: offset 6 of its body */
	const uint8_t *p = intf->manifest, *end = p + intf->manifest_len;

	if (intf->manifest_len < 4)
		return false;
	for (p += 4; p + 4 <= end;) {
		uint16_t size = gbsim_get_le16(p);

		if (size < 4 || p + size > end)
			return false;
		if (p[2] == GREYBUS_TYPE_INTERFACE && size >= 7)
			return p[6] & GREYBUS_INTERFACE_FEATURE_TIMESYNC;
		p += size;
	}
	return false;
}

static int gbsim_ts_refuse(struct gbsim_op *op, const char *why)
{
	char name[64];

	gb_op_fullname(GREYBUS_PROTOCOL_CONTROL, op->type, name, sizeof(name));
	gbsim_log_error("intf %u: %s id=0x%04x refused: %s", op->intf->id, name,
			op->id, why);
	return GB_OP_INVALID;
}

int gbsim_timesync_control(struct gbsim_op *op)
{
	struct gbsim_intf *intf = op->intf;
	struct gbsim_intf_timesync *ts = &intf->ts;
	struct gb_timesync_enable_request req;
	unsigned int k;

	if (!gbsim_ts_has_feature(intf))
		return gbsim_ts_refuse(op, "no TimeSync in the manifest");

	switch (op->type) {
	case GB_CONTROL_TYPE_TIMESYNC_ENABLE:
		if (!gbsim_op_len_is(op, sizeof(req)))
			return GB_OP_INVALID;
		memcpy(&req, op->req, sizeof(req));
		if (req.count < 1 || req.count > GB_TIMESYNC_MAX_STROBES)
			return gbsim_ts_refuse(op, "strobe count out of range");
		ts->enabled = true;
		ts->synced = false;
		ts->count = req.count;
		ts->latched = 0;
		return GB_OP_SUCCESS;
	case GB_CONTROL_TYPE_TIMESYNC_DISABLE:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		ts->enabled = false;
		ts->synced = false;
		return GB_OP_SUCCESS;
	case GB_CONTROL_TYPE_TIMESYNC_AUTHORITATIVE:
		if (!gbsim_op_len_is(op, sizeof(struct gb_timesync_authoritative)))
			return GB_OP_INVALID;
		if (!ts->enabled)
			return gbsim_ts_refuse(op, "timesync not enabled");
		if (ts->latched < ts->count)
			return gbsim_ts_refuse(op, "not every strobe latched");
		k = ts->count - 1;
		ts->adjust = (int64_t)(gbsim_ts_get_le64(op->req + 8 * k) -
				       ts->latch[k]);
		ts->synced = true;
		ts->last_event = 0;
		return GB_OP_SUCCESS;
	case GB_CONTROL_TYPE_TIMESYNC_GET_LAST_EVENT:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		if (!ts->synced)
			return gbsim_ts_refuse(op, "not synchronised");
		gbsim_put_le64(op->rsp, ts->last_event);
		op->rsp_len = sizeof(struct gb_timesync_frame_time);
		return GB_OP_SUCCESS;
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

/* The "timesync" control command */

static void gbsim_ts_show(struct gbsim *sim, struct gbsim_ctl_out *out)
{
	struct gbsim_svc_timesync *ts = &sim->ts;

	gbsim_ctl_printf(out, "svc enabled=%d pins=%d mask=0x%08x series=%u pings=%u drop=%u late_us=%u fail_auth=%u ping_delay_ms=%u\n",
			 ts->enabled, ts->pins, ts->strobe_mask, ts->series,
			 ts->pings, ts->drop, ts->late_us, ts->fail_auth,
			 ts->ping_delay_ms);
	for (unsigned int i = 0; i < GBSIM_INTF_MAX; i++) {
		struct gbsim_intf *intf = sim->intfs[i];

		if (!intf || !gbsim_ts_has_feature(intf))
			continue;
		gbsim_ctl_printf(out, "intf %u enabled=%d synced=%d latched=%u adjust=%lld\n",
				 intf->id, intf->ts.enabled, intf->ts.synced,
				 intf->ts.latched, (long long)intf->ts.adjust);
	}
}

int gbsim_cmd_timesync(struct gbsim *sim, int argc, char **argv,
		       struct gbsim_ctl_out *out)
{
	struct gbsim_svc_timesync *ts = &sim->ts;
	uint64_t v;

	if (argc == 1) {
		gbsim_ts_show(sim, out);
		return 0;
	}
	if (argc != 3 || gbsim_parse_uint(argv[2], 100000000, &v))
		return gbsim_ctl_fail(out, "usage: timesync [drop N|late US|fail-auth N|ping-delay MS]");
	if (!strcmp(argv[1], "drop"))
		ts->drop = (unsigned int)v;
	else if (!strcmp(argv[1], "late"))
		ts->late_us = (unsigned int)v;
	else if (!strcmp(argv[1], "fail-auth"))
		ts->fail_auth = (unsigned int)v;
	else if (!strcmp(argv[1], "ping-delay"))
		ts->ping_delay_ms = (unsigned int)v;
	else
		return gbsim_ctl_fail(out, "unknown timesync fault '%.16s'", argv[1]);
	return 0;
}
