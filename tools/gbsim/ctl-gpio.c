// SPDX-License-Identifier: GPL-2.0
/*
 * The "gpio" control command: the outside world of a GPIO model.
 *
 *   gpio IFID:CPORT LINE 0|1   put a level on an input line; an unmasked
 *                              interrupt of a matching type fires
 */
#include <errno.h>
#include <string.h>

#include "ctl.h"
#include "gbsim.h"
#include "proto-gpio.h"

int gbsim_cmd_gpio(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out)
{
	uint16_t hd_cport;
	int protocol, ret;
	uint64_t line;

	if (argc != 4 || (strcmp(argv[3], "0") && strcmp(argv[3], "1")))
		return gbsim_ctl_fail(out, "usage: gpio IFID:CPORT LINE 0|1");
	if (gbsim_ctl_target(sim, argv[1], out, &hd_cport, &protocol))
		return -1;
	if (protocol != GREYBUS_PROTOCOL_GPIO || !sim->conns[hd_cport])
		return gbsim_ctl_fail(out, "'%s' is not a gpio connection",
				      argv[1]);
	if (gbsim_parse_uint(argv[2], GBSIM_GPIO_LINES - 1, &line))
		return gbsim_ctl_fail(out, "bad line '%.16s' (0..%u)", argv[2],
				      GBSIM_GPIO_LINES - 1);
	ret = gbsim_gpio_drive(sim->conns[hd_cport], (unsigned int)line,
			       argv[3][0] == '1');
	if (ret)
		return gbsim_ctl_fail(out, "gpio: %s", strerror(-ret));
	return 0;
}
