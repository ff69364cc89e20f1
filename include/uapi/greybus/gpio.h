/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * GPIO protocol (bridged PHY): a module's GPIO lines, addressed by index,
 * and the interrupts they raise.  LINE_COUNT answers the highest index,
 * not the count.  IRQ_EVENT is the module's request, unidirectional.
 */
#ifndef _UAPI_GREYBUS_GPIO_H
#define _UAPI_GREYBUS_GPIO_H

#include "greybus.h"

#define GB_GPIO_TYPE_LINE_COUNT			0x02
#define GB_GPIO_TYPE_ACTIVATE			0x03
#define GB_GPIO_TYPE_DEACTIVATE			0x04
#define GB_GPIO_TYPE_GET_DIRECTION		0x05
#define GB_GPIO_TYPE_DIRECTION_IN		0x06
#define GB_GPIO_TYPE_DIRECTION_OUT		0x07
#define GB_GPIO_TYPE_GET_VALUE			0x08
#define GB_GPIO_TYPE_SET_VALUE			0x09
#define GB_GPIO_TYPE_SET_DEBOUNCE		0x0a
#define GB_GPIO_TYPE_IRQ_TYPE			0x0b
#define GB_GPIO_TYPE_IRQ_MASK			0x0c
#define GB_GPIO_TYPE_IRQ_UNMASK			0x0d
#define GB_GPIO_TYPE_IRQ_EVENT			0x0e

#define GB_GPIO_DIRECTION_OUT			0x00
#define GB_GPIO_DIRECTION_IN			0x01

#define GB_GPIO_IRQ_TYPE_NONE			0x00
#define GB_GPIO_IRQ_TYPE_EDGE_RISING		0x01
#define GB_GPIO_IRQ_TYPE_EDGE_FALLING		0x02
#define GB_GPIO_IRQ_TYPE_EDGE_BOTH		0x03
#define GB_GPIO_IRQ_TYPE_LEVEL_HIGH		0x04
#define GB_GPIO_IRQ_TYPE_LEVEL_LOW		0x08

struct gb_gpio_line_count_response {
	__u8	count;		/* number of lines minus one */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_gpio_line_count_response, 1);

/*
 * activate, deactivate, get direction, direction in, get value,
 * irq mask, irq unmask, and the module's irq event
 */
struct gb_gpio_which_request {
	__u8	which;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_gpio_which_request, 1);

struct gb_gpio_get_direction_response {
	__u8	direction;	/* GB_GPIO_DIRECTION_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_gpio_get_direction_response, 1);

struct gb_gpio_direction_out_request {
	__u8	which;
	__u8	value;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_gpio_direction_out_request, 2);

struct gb_gpio_get_value_response {
	__u8	value;		/* 0 or 1 */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_gpio_get_value_response, 1);

struct gb_gpio_set_value_request {
	__u8	which;
	__u8	value;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_gpio_set_value_request, 2);

struct gb_gpio_set_debounce_request {
	__u8	which;
	__le16	usec;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_gpio_set_debounce_request, 3);

struct gb_gpio_irq_type_request {
	__u8	which;
	__u8	type;		/* GB_GPIO_IRQ_TYPE_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_gpio_irq_type_request, 2);

#endif /* _UAPI_GREYBUS_GPIO_H */
