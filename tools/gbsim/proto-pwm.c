// SPDX-License-Identifier: GPL-2.0
/*
 * The PWM protocol (0x09), module side: GBSIM_PWM_COUNT outputs whose
 * state (active, duty, period, polarity, enabled) is kept per connection
 * and logged as one INFO line after every change, so a test reads what the
 * AP asked for from the log:
 *
 *   INFO    pwm cport 5 pwm 0: active=1 enabled=1 duty=250000 period=1000000 polarity=normal
 *
 * Requests for an output past the last are refused with "invalid", as
 * are a duty cycle longer than the period and an unknown polarity.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/pwm.h>

#include <gb_msg.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_PWM_COUNT		2

struct gbsim_pwm_state {
	bool		active;
	bool		enabled;
	uint8_t		polarity;
	uint32_t	duty;
	uint32_t	period;
};

/* conn->priv */
struct gbsim_pwm_conn {
	struct gbsim_pwm_state pwm[GBSIM_PWM_COUNT];
};

static void gbsim_pwm_log_state(const struct gbsim_op *op, unsigned int which)
{
	const struct gbsim_pwm_state *s =
		&((struct gbsim_pwm_conn *)op->conn->priv)->pwm[which];

	gbsim_log_info("pwm cport %u pwm %u: active=%d enabled=%d duty=%u period=%u polarity=%s",
		       op->hd_cport, which, s->active, s->enabled, s->duty,
		       s->period,
		       s->polarity == GB_PWM_POLARITY_INVERSED ? "inversed" :
		       "normal");
}

/* The output a request names, or NULL (logged) */
static struct gbsim_pwm_state *gbsim_pwm_which(struct gbsim_op *op,
					       size_t len)
{
	struct gbsim_pwm_conn *pc = op->conn->priv;
	uint8_t which;

	if (!gbsim_op_len_is(op, len))
		return NULL;
	which = op->req[0];
	if (which >= GBSIM_PWM_COUNT) {
		gbsim_log_error("pwm cport %u: %s id=0x%04x: no pwm %u (%u of them)",
				op->hd_cport, gb_op_name(GREYBUS_PROTOCOL_PWM, op->type),
				op->id, which, GBSIM_PWM_COUNT);
		return NULL;
	}
	return &pc->pwm[which];
}

static int gbsim_pwm_request(struct gbsim_op *op)
{
	struct gbsim_pwm_state *s;
	uint32_t duty, period;
	char name[96];

	op->rsp_len = 0;
	if (op->type == GB_PWM_TYPE_PWM_COUNT) {
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		op->rsp[0] = GBSIM_PWM_COUNT - 1;
		op->rsp_len = 1;
		return GB_OP_SUCCESS;
	}

	switch (op->type) {
	case GB_PWM_TYPE_ACTIVATE:
	case GB_PWM_TYPE_DEACTIVATE:
	case GB_PWM_TYPE_ENABLE:
	case GB_PWM_TYPE_DISABLE:
		s = gbsim_pwm_which(op, sizeof(struct gb_pwm_which_request));
		if (!s)
			return GB_OP_INVALID;
		if (op->type == GB_PWM_TYPE_ACTIVATE)
			s->active = true;
		else if (op->type == GB_PWM_TYPE_DEACTIVATE)
			s->active = false;
		else
			s->enabled = op->type == GB_PWM_TYPE_ENABLE;
		break;
	case GB_PWM_TYPE_CONFIG:
		s = gbsim_pwm_which(op, sizeof(struct gb_pwm_config_request));
		if (!s)
			return GB_OP_INVALID;
		duty = gbsim_get_le32(op->req + 1);
		period = gbsim_get_le32(op->req + 5);
		if (duty > period) {
			gbsim_log_error("pwm cport %u: config id=0x%04x: duty %u > period %u",
					op->hd_cport, op->id, duty, period);
			return GB_OP_INVALID;
		}
		s->duty = duty;
		s->period = period;
		break;
	case GB_PWM_TYPE_POLARITY:
		s = gbsim_pwm_which(op, sizeof(struct gb_pwm_polarity_request));
		if (!s)
			return GB_OP_INVALID;
		if (op->req[1] > GB_PWM_POLARITY_INVERSED) {
			gbsim_log_error("pwm cport %u: polarity id=0x%04x: bad polarity %u",
					op->hd_cport, op->id, op->req[1]);
			return GB_OP_INVALID;
		}
		s->polarity = op->req[1];
		break;
	default:
		gb_op_fullname(GREYBUS_PROTOCOL_PWM, op->type, name,
				  sizeof(name));
		gbsim_log_warn("cport %u: %s id=0x%04x: unknown pwm operation",
			       op->hd_cport, name, op->id);
		return GB_OP_PROTOCOL_BAD;
	}
	gbsim_pwm_log_state(op, op->req[0]);
	return GB_OP_SUCCESS;
}

static int gbsim_pwm_conn_init(struct gbsim_conn *conn)
{
	conn->priv = calloc(1, sizeof(struct gbsim_pwm_conn));
	return conn->priv ? 0 : -ENOMEM;
}

static void gbsim_pwm_conn_fini(struct gbsim_conn *conn)
{
	free(conn->priv);
	conn->priv = NULL;
}

static struct gbsim_proto gbsim_proto_pwm = {
	.id		= GREYBUS_PROTOCOL_PWM,
	.name		= "pwm",
	.request	= gbsim_pwm_request,
	.conn_init	= gbsim_pwm_conn_init,
	.conn_fini	= gbsim_pwm_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_pwm);
