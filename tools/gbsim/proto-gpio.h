/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GPIO model's outside world (proto-gpio.c), for the control
 * command "gpio" (ctl-gpio.c).
 */
#ifndef GBSIM_PROTO_GPIO_H
#define GBSIM_PROTO_GPIO_H

#include <stdbool.h>

#include "gbsim.h"

#define GBSIM_GPIO_LINES	8

/*
 * Put @level on line @which of a GPIO connection, and send IRQ_EVENT if
 * that fires the line's interrupt.  -EPROTOTYPE: not a GPIO connection;
 * -ERANGE: no such line; else what sending returned.
 */
int gbsim_gpio_drive(struct gbsim_conn *conn, unsigned int which, bool level);

#endif /* GBSIM_PROTO_GPIO_H */
