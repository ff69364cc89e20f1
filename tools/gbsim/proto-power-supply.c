// SPDX-License-Identifier: GPL-2.0
/*
 * The Power Supply protocol (0x08), module side: one battery.
 *
 * Its properties: status (discharging), capacity (%), voltage_now (uV,
 * follows the capacity), temp (0.1 degC) and capacity_alert_min, the
 * only writable one.  The charge drains on its own when asked to:
 *
 *   GBSIM_POWER_SUPPLY="capacity=N,period_ms=N,step=N"
 *
 *   capacity=N    the charge at start (0..100, default 80)
 *   period_ms=N   every N ms (default 0: never) the charge drops by
 *                 step (default 1) and the model sends an EVENT (UPDATE)
 *                 for the battery, as a fuel gauge would
 *
 * Each change is logged ("battery capacity=N"), and so is every
 * property write.
 *
 * Lies, for the AP's checks; in the same variable or at run time with
 * `gbsim ctl psy set KEY=VALUE...` (`psy set defaults` undoes them),
 * they change the answers given from then on:
 *
 *   supplies=N      GET_SUPPLIES says N supplies (1; only supply 0
 *                   exists, the others' requests are refused)
 *   props=N         GET_DESCRIPTION announces N properties (5)
 *   desc_count=N    GET_PROP_DESCRIPTORS's count field says N (what it
 *                   sends)
 *   desc_entries=N  GET_PROP_DESCRIPTORS sends N descriptors (5; past
 *                   the battery's own, unknown property 0xff)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/power_supply.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"

#define GBSIM_PSY_ENV		"GBSIM_POWER_SUPPLY"
#define GBSIM_PSY_EVENT_TIMEOUT	2000	/* ms */

static const struct {
	uint8_t	prop;
	uint8_t	writable;
} gbsim_psy_props[] = {
	{ GB_POWER_SUPPLY_PROP_STATUS, 0 },
	{ GB_POWER_SUPPLY_PROP_CAPACITY, 0 },
	{ GB_POWER_SUPPLY_PROP_VOLTAGE_NOW, 0 },
	{ GB_POWER_SUPPLY_PROP_TEMP, 0 },
	{ GB_POWER_SUPPLY_PROP_CAPACITY_ALERT_MIN, 1 },
};
#define GBSIM_PSY_NPROPS	(sizeof(gbsim_psy_props) / sizeof(gbsim_psy_props[0]))

#define GBSIM_PSY_LIES_DEFAULT {			\
	.supplies = 1,					\
	.props = GBSIM_PSY_NPROPS,			\
	.desc_count = -1,				\
	.desc_entries = GBSIM_PSY_NPROPS,		\
}

static struct {
	unsigned int	capacity;
	unsigned int	period_ms;
	unsigned int	step;
	bool		read;
	struct gbsim_psy_lies {
		unsigned int	supplies;
		unsigned int	props;
		int		desc_count;	/* -1: the entries sent */
		unsigned int	desc_entries;
	} lie;
} gbsim_psy_knobs = {
	.capacity = 80, .step = 1, .lie = GBSIM_PSY_LIES_DEFAULT,
};

/* conn->priv */
struct gbsim_psy {
	struct gbsim_conn	*conn;
	unsigned int		capacity;
	int32_t			alert_min;
	uint64_t		timer;
};

/* One of the lies above (or "defaults"); false if @tok is not one */
static bool gbsim_psy_lie(const char *tok)
{
	struct gbsim_psy_lies *lie = &gbsim_psy_knobs.lie;
	uint64_t v;

	if (!strcmp(tok, "defaults"))
		*lie = (struct gbsim_psy_lies)GBSIM_PSY_LIES_DEFAULT;
	else if (gbsim_knob_num(tok, "supplies", 255, &v))
		lie->supplies = v;
	else if (gbsim_knob_num(tok, "props", 255, &v))
		lie->props = v;
	else if (gbsim_knob_num(tok, "desc_count", 255, &v))
		lie->desc_count = v;
	else if (gbsim_knob_num(tok, "desc_entries", 255, &v))
		lie->desc_entries = v;
	else
		return false;
	return true;
}

/* One KEY=VALUE of GBSIM_POWER_SUPPLY; false if it is not one */
static bool gbsim_psy_knob(const char *tok)
{
	uint64_t v;

	if (gbsim_knob_num(tok, "capacity", 100, &v))
		gbsim_psy_knobs.capacity = v;
	else if (gbsim_knob_num(tok, "period_ms", 600000, &v))
		gbsim_psy_knobs.period_ms = v;
	else if (gbsim_knob_num(tok, "step", 100, &v))
		gbsim_psy_knobs.step = v;
	else
		return gbsim_psy_lie(tok);
	return true;
}

static void gbsim_psy_read_knobs(void)
{
	gbsim_knobs_from_env(GBSIM_PSY_ENV, gbsim_psy_knob,
			     &gbsim_psy_knobs.read);
}

static int32_t gbsim_psy_value(const struct gbsim_psy *ps, uint8_t prop)
{
	switch (prop) {
	case GB_POWER_SUPPLY_PROP_STATUS:
		return GB_POWER_SUPPLY_STATUS_DISCHARGING;
	case GB_POWER_SUPPLY_PROP_CAPACITY:
		return ps->capacity;
	case GB_POWER_SUPPLY_PROP_VOLTAGE_NOW:
		return 3400000 + 8000 * ps->capacity;
	case GB_POWER_SUPPLY_PROP_TEMP:
		return 250;
	default:
		return ps->alert_min;
	}
}

static int gbsim_psy_find(uint8_t prop)
{
	size_t i;

	for (i = 0; i < GBSIM_PSY_NPROPS; i++)
		if (gbsim_psy_props[i].prop == prop)
			return i;
	return -1;
}

static void gbsim_psy_tick(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_psy *ps = ctx;
	uint8_t event[2] = { 0, GB_POWER_SUPPLY_UPDATE };

	ps->capacity = ps->capacity > gbsim_psy_knobs.step ?
		       ps->capacity - gbsim_psy_knobs.step : 0;
	gbsim_log_info("cport %u: battery capacity=%u", ps->conn->hd_cport,
		       ps->capacity);
	gbsim_send_request(ps->conn->sim, ps->conn->hd_cport,
			   GB_POWER_SUPPLY_TYPE_EVENT, event, sizeof(event),
			   GBSIM_PSY_EVENT_TIMEOUT, NULL, NULL);
	ps->timer = gbsim_loop_add_timer(loop, gbsim_psy_knobs.period_ms,
					 gbsim_psy_tick, ps);
}

static int gbsim_psy_conn_init(struct gbsim_conn *conn)
{
	struct gbsim_psy *ps;

	gbsim_psy_read_knobs();
	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return -1;
	ps->conn = conn;
	ps->capacity = gbsim_psy_knobs.capacity;
	ps->alert_min = 10;
	conn->priv = ps;
	if (gbsim_psy_knobs.period_ms)
		ps->timer = gbsim_loop_add_timer(conn->sim->loop,
						 gbsim_psy_knobs.period_ms,
						 gbsim_psy_tick, ps);
	return 0;
}

static void gbsim_psy_conn_fini(struct gbsim_conn *conn)
{
	struct gbsim_psy *ps = conn->priv;

	if (!ps)
		return;
	if (ps->timer)
		gbsim_loop_cancel_timer(conn->sim->loop, ps->timer);
	free(ps);
	conn->priv = NULL;
}

static int gbsim_psy_request(struct gbsim_op *op)
{
	const struct gbsim_psy_lies *lie = &gbsim_psy_knobs.lie;
	struct gbsim_psy *ps = op->conn->priv;
	size_t i, n;
	int idx;

	switch (op->type) {
	case GB_POWER_SUPPLY_TYPE_GET_SUPPLIES:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		op->rsp[0] = lie->supplies;
		op->rsp_len = 1;
		return GB_OP_SUCCESS;
	case GB_POWER_SUPPLY_TYPE_GET_DESCRIPTION:
		if (!gbsim_op_len_is(op, 1) || op->req[0] != 0)
			return GB_OP_INVALID;
		if (!gbsim_op_rsp_fits(op, 99))
			return GB_OP_OVERFLOW;
		memset(op->rsp, 0, 99);
		memcpy(op->rsp, "Greybus Sim", 11);
		memcpy(op->rsp + 32, "Sim Battery", 11);
		memcpy(op->rsp + 64, "0001", 4);
		gbsim_put_le16(op->rsp + 96, GB_POWER_SUPPLY_BATTERY_TYPE);
		op->rsp[98] = lie->props;
		op->rsp_len = 99;
		return GB_OP_SUCCESS;
	case GB_POWER_SUPPLY_TYPE_GET_PROP_DESCRIPTORS:
		if (!gbsim_op_len_is(op, 1) || op->req[0] != 0)
			return GB_OP_INVALID;
		n = lie->desc_entries;
		if (!gbsim_op_rsp_fits(op, 1 + 2 * n))
			return GB_OP_OVERFLOW;
		op->rsp[0] = lie->desc_count < 0 ? n : (size_t)lie->desc_count;
		for (i = 0; i < n; i++) {
			bool own = i < GBSIM_PSY_NPROPS;

			op->rsp[1 + 2 * i] = own ? gbsim_psy_props[i].prop : 0xff;
			op->rsp[2 + 2 * i] = own ? gbsim_psy_props[i].writable : 0;
		}
		op->rsp_len = 1 + 2 * n;
		return GB_OP_SUCCESS;
	case GB_POWER_SUPPLY_TYPE_GET_PROPERTY:
		if (!gbsim_op_len_is(op, 2) || op->req[0] != 0 ||
		    gbsim_psy_find(op->req[1]) < 0)
			return GB_OP_INVALID;
		gbsim_put_le32(op->rsp, (uint32_t)gbsim_psy_value(ps, op->req[1]));
		op->rsp_len = 4;
		return GB_OP_SUCCESS;
	case GB_POWER_SUPPLY_TYPE_SET_PROPERTY:
		if (!gbsim_op_len_is(op, 6) || op->req[0] != 0)
			return GB_OP_INVALID;
		idx = gbsim_psy_find(op->req[1]);
		if (idx < 0 || !gbsim_psy_props[idx].writable)
			return GB_OP_INVALID;
		ps->alert_min = (int32_t)gbsim_get_le32(op->req + 2);
		gbsim_log_info("cport %u: battery property 0x%02x set to %d",
			       op->hd_cport, op->req[1], ps->alert_min);
		return GB_OP_SUCCESS;
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

/* "psy set KEY=VALUE...": the lies, for the answers from now on */
int gbsim_cmd_psy(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out)
{
	(void)sim;
	gbsim_psy_read_knobs();
	return gbsim_ctl_set_knobs(out, argc, argv, "psy",
				   "supplies, props, desc_count, desc_entries, defaults",
				   gbsim_psy_lie);
}

static struct gbsim_proto gbsim_proto_power_supply = {
	.id		= GREYBUS_PROTOCOL_POWER_SUPPLY,
	.name		= "power_supply",
	.request	= gbsim_psy_request,
	.conn_init	= gbsim_psy_conn_init,
	.conn_fini	= gbsim_psy_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_power_supply);
