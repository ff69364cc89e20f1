/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * PWM protocol (bridged PHY): a module's PWM outputs, addressed by index.
 * Times are nanoseconds; PWM_COUNT answers the highest index, not the count.
 */
#ifndef _UAPI_GREYBUS_PWM_H
#define _UAPI_GREYBUS_PWM_H

#include "greybus.h"

#define GB_PWM_TYPE_PWM_COUNT			0x02
#define GB_PWM_TYPE_ACTIVATE			0x03
#define GB_PWM_TYPE_DEACTIVATE			0x04
#define GB_PWM_TYPE_CONFIG			0x05
#define GB_PWM_TYPE_POLARITY			0x06
#define GB_PWM_TYPE_ENABLE			0x07
#define GB_PWM_TYPE_DISABLE			0x08

#define GB_PWM_POLARITY_NORMAL			0x00
#define GB_PWM_POLARITY_INVERSED		0x01

struct gb_pwm_count_response {
	__u8	count;		/* number of PWMs minus one */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_pwm_count_response, 1);

/* activate, deactivate, enable and disable */
struct gb_pwm_which_request {
	__u8	which;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_pwm_which_request, 1);

struct gb_pwm_config_request {
	__u8	which;
	__le32	duty;
	__le32	period;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_pwm_config_request, 9);

struct gb_pwm_polarity_request {
	__u8	which;
	__u8	polarity;	/* GB_PWM_POLARITY_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_pwm_polarity_request, 2);

#endif /* _UAPI_GREYBUS_PWM_H */
