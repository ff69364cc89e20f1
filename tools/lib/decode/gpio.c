// SPDX-License-Identifier: GPL-2.0
/*
 * Decoder of the gpio protocol: operation names and key fields, for
 * gbsim's log and gbmon (moved from tools/gbsim/proto-gpio.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/gpio.h>

#include "gb_decode.h"

static void gb_gpio_describe(uint8_t type, bool response,
				const uint8_t *p, size_t len,
				struct gb_buf *out)
{
	if (response) {
		if (type == GB_GPIO_TYPE_LINE_COUNT && len >= 1)
			gb_buf_printf(out, " count=%u", p[0]);
		else if (type == GB_GPIO_TYPE_GET_DIRECTION && len >= 1)
			gb_buf_printf(out, " direction=%u", p[0]);
		else if (type == GB_GPIO_TYPE_GET_VALUE && len >= 1)
			gb_buf_printf(out, " value=%u", p[0]);
		return;
	}
	if (type < GB_GPIO_TYPE_ACTIVATE || type > GB_GPIO_TYPE_IRQ_EVENT ||
	    !len)
		return;
	gb_buf_printf(out, " which=%u", p[0]);
	if ((type == GB_GPIO_TYPE_DIRECTION_OUT ||
	     type == GB_GPIO_TYPE_SET_VALUE) && len >= 2)
		gb_buf_printf(out, " value=%u", p[1]);
	if (type == GB_GPIO_TYPE_IRQ_TYPE && len >= 2)
		gb_buf_printf(out, " type=%u", p[1]);
	if (type == GB_GPIO_TYPE_SET_DEBOUNCE && len >= 3)
		gb_buf_printf(out, " usec=%u", gb_get_le16(p + 1));
}

static const char *const gb_gpio_ops[] = {
	[GB_GPIO_TYPE_LINE_COUNT]	= "line_count",
	[GB_GPIO_TYPE_ACTIVATE]		= "activate",
	[GB_GPIO_TYPE_DEACTIVATE]	= "deactivate",
	[GB_GPIO_TYPE_GET_DIRECTION]	= "get_direction",
	[GB_GPIO_TYPE_DIRECTION_IN]	= "direction_in",
	[GB_GPIO_TYPE_DIRECTION_OUT]	= "direction_out",
	[GB_GPIO_TYPE_GET_VALUE]	= "get_value",
	[GB_GPIO_TYPE_SET_VALUE]	= "set_value",
	[GB_GPIO_TYPE_SET_DEBOUNCE]	= "set_debounce",
	[GB_GPIO_TYPE_IRQ_TYPE]		= "irq_type",
	[GB_GPIO_TYPE_IRQ_MASK]		= "irq_mask",
	[GB_GPIO_TYPE_IRQ_UNMASK]	= "irq_unmask",
	[GB_GPIO_TYPE_IRQ_EVENT]	= "irq_event",
};

static const char *gb_gpio_op_name(uint8_t type)
{
	if (type < sizeof(gb_gpio_ops) / sizeof(gb_gpio_ops[0]))
		return gb_gpio_ops[type];
	return NULL;
}

const struct gb_decoder gb_decoder_gpio = {
	.id		= GREYBUS_PROTOCOL_GPIO,
	.name		= "gpio",
	.op_name	= gb_gpio_op_name,
	.describe	= gb_gpio_describe,
};
