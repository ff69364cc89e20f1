// SPDX-License-Identifier: GPL-2.0
/*
 * Protocol 0x10, the vibrator: a motor switched by ON and OFF, both
 * without payload (the AP times the pulse).  The log says when the
 * motor starts and stops and how long it ran, which is what the cases
 * check; a repeated ON or OFF is accepted and changes nothing.
 */
#include <stdlib.h>
#include <time.h>

#include <uapi/greybus/vibrator.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

struct gbsim_vibrator {
	bool		on;
	struct timespec	since;
};

static long gbsim_vibrator_ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000L +
	       (now.tv_nsec - t->tv_nsec) / 1000000L;
}

static int gbsim_vibrator_request(struct gbsim_op *op)
{
	struct gbsim_vibrator *vib = op->conn->priv;

	switch (op->type) {
	case GB_VIBRATOR_TYPE_ON:
	case GB_VIBRATOR_TYPE_OFF:
		break;
	default:
		return GB_OP_PROTOCOL_BAD;
	}
	if (!gbsim_op_len_is(op, 0))
		return GB_OP_INVALID;

	if (op->type == GB_VIBRATOR_TYPE_ON && !vib->on) {
		vib->on = true;
		clock_gettime(CLOCK_MONOTONIC, &vib->since);
		gbsim_log_info("vibrator %u: motor on", op->intf->id);
	} else if (op->type == GB_VIBRATOR_TYPE_OFF && vib->on) {
		vib->on = false;
		gbsim_log_info("vibrator %u: motor off after %ld ms",
			       op->intf->id, gbsim_vibrator_ms_since(&vib->since));
	}
	op->rsp_len = 0;
	return GB_OP_SUCCESS;
}

static int gbsim_vibrator_conn_init(struct gbsim_conn *conn)
{
	conn->priv = calloc(1, sizeof(struct gbsim_vibrator));
	return conn->priv ? 0 : -1;
}

static void gbsim_vibrator_conn_fini(struct gbsim_conn *conn)
{
	struct gbsim_vibrator *vib = conn->priv;

	if (vib && vib->on)
		gbsim_log_info("vibrator: connection closed with the motor on");
	free(vib);
	conn->priv = NULL;
}

static struct gbsim_proto gbsim_proto_vibrator = {
	.id		= GREYBUS_PROTOCOL_VIBRATOR,
	.name		= "vibrator",
	.request	= gbsim_vibrator_request,
	.conn_init	= gbsim_vibrator_conn_init,
	.conn_fini	= gbsim_vibrator_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_vibrator);
