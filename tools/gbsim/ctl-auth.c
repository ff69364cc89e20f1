// SPDX-License-Identifier: GPL-2.0
/*
 * gbsim ctl authorize: gb-vhd's AUTHORIZE request (docs/vhd.md), as the
 * process holding the host device, for hosts created with
 * --authorized-default (ABI version 2).  The kernel's answer is the
 * command's: "no such bundle" (ENODEV), or the write's error.
 */
#include <errno.h>
#include <string.h>

#include "ctl.h"
#include "gbsim.h"
#include "transport.h"

int gbsim_cmd_authorize(struct gbsim *sim, int argc, char **argv,
			struct gbsim_ctl_out *out)
{
	uint64_t intf = 0, bundle = 0;
	const char *val = argv[argc - 1];
	bool dflt = argc == 3 && !strcmp(argv[1], "default");
	int ret;

	if ((argc != 3 && argc != 4) || (argc == 3 && !dflt) ||
	    (strcmp(val, "0") && strcmp(val, "1")))
		return gbsim_ctl_fail(out, "usage: authorize IFID BUNDLE 0|1 | authorize default 0|1");
	if (!dflt && (gbsim_parse_uint(argv[1], 255, &intf) ||
		      gbsim_parse_uint(argv[2], 255, &bundle)))
		return gbsim_ctl_fail(out, "bad interface or bundle id (0..255)");
	if (!sim->tp || !sim->tp->authorize)
		return gbsim_ctl_fail(out, "authorize: needs a vhd host made with --authorized-default");
	ret = gbsim_vhd_authorize(sim->tp, (uint8_t)intf,
				  dflt ? -1 : (int)bundle, val[0] == '1');
	if (ret == -ENODEV)
		return gbsim_ctl_fail(out, "authorize: no bundle %u.%u on this host",
				      (unsigned int)intf, (unsigned int)bundle);
	if (ret)
		return gbsim_ctl_fail(out, "authorize: %s", strerror(-ret));
	return 0;
}
