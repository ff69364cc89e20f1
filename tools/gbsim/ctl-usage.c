// SPDX-License-Identifier: GPL-2.0
/*
 * `gbsim ctl -h`: the commands of gbsim's control socket, for the shared
 * client (ctl-client.c).
 */
#include <stdio.h>

#include "ctl.h"

static void gbsim_ctl_usage(FILE *out)
{
	fprintf(out,
"Usage: gbsim ctl [-s PATH] [-w SECONDS] COMMAND [ARGS...]\n"
"Script a running gbsim through its control socket (gbsim --ctl PATH).\n"
"\n"
"  -s PATH      the socket (default: $%s)\n"
"  -w SECONDS   wait up to SECONDS for the socket to accept\n"
"  -V, --version  the version, as the tool's own --version\n"
"\n"
"Commands:\n", GBSIM_CTL_ENV);
	gbsim_ctl_print_commands(out);
	fprintf(out,
"\n"
"Exit status: 0 done, 1 the command failed, 2 usage error or no socket.\n"
"See docs/gbsim.md.\n");
}

int gbsim_ctl_main(int argc, char **argv)
{
	static const struct gbsim_ctl_client_info who = {
		.prog	= "gbsim",
		.env	= GBSIM_CTL_ENV,
		.usage	= gbsim_ctl_usage,
	};

	return gbsim_ctl_client(&who, argc, argv);
}
