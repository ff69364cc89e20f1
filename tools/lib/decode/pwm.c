// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the pwm protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-pwm.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/pwm.h>

#include "gb_decode.h"

static void gb_pwm_describe(uint8_t type, bool response, const uint8_t *p,
			       size_t len, struct gb_buf *out)
{
	if (response) {
		if (type == GB_PWM_TYPE_PWM_COUNT && len >= 1)
			gb_buf_printf(out, " count=%u", p[0]);
		return;
	}
	if (type < GB_PWM_TYPE_ACTIVATE || type > GB_PWM_TYPE_DISABLE || !len)
		return;
	gb_buf_printf(out, " which=%u", p[0]);
	if (type == GB_PWM_TYPE_CONFIG && len >= 9)
		gb_buf_printf(out, " duty=%u period=%u",
				 gb_get_le32(p + 1), gb_get_le32(p + 5));
	if (type == GB_PWM_TYPE_POLARITY && len >= 2)
		gb_buf_printf(out, " polarity=%u", p[1]);
}

static const char *const gb_pwm_ops[] = {
	[GB_PWM_TYPE_PWM_COUNT]		= "pwm_count",
	[GB_PWM_TYPE_ACTIVATE]		= "activate",
	[GB_PWM_TYPE_DEACTIVATE]	= "deactivate",
	[GB_PWM_TYPE_CONFIG]		= "config",
	[GB_PWM_TYPE_POLARITY]		= "polarity",
	[GB_PWM_TYPE_ENABLE]		= "enable",
	[GB_PWM_TYPE_DISABLE]		= "disable",
};

static const char *gb_pwm_op_name(uint8_t type)
{
	if (type < sizeof(gb_pwm_ops) / sizeof(gb_pwm_ops[0]))
		return gb_pwm_ops[type];
	return NULL;
}

const struct gb_decoder gb_decoder_pwm = {
	.id		= GREYBUS_PROTOCOL_PWM,
	.name		= "pwm",
	.op_name	= gb_pwm_op_name,
	.describe	= gb_pwm_describe,
};
