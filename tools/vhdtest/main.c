// SPDX-License-Identifier: GPL-2.0
/*
 * vhdtest: checks and measures the gb-vhd character device from userspace.
 *
 *   vhdtest create   create a host device, print its bus id, hold it
 *   vhdtest echo     raw ECHO_REQUEST/ECHO_REPLY round-trip latency
 *   vhdtest abuse    every kind of malformed event, then random mutations
 *   vhdtest check    read/write/poll semantics, as TAP
 *   vhdtest stress   concurrent create/destroy/echo/read/close
 *   vhdtest fuzz     random and edge-case traffic on several files, model-checked
 *   vhdtest batch    version 3's batched read() and write(), as TAP
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "vhdtest.h"
#include "gb_version.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} vhdtest_cmds[] = {
	{ "create", vhdtest_cmd_create,
	  "create a host device, print its bus id, hold it until SIGTERM" },
	{ "echo", vhdtest_cmd_echo,
	  "measure the raw echo round trip (min/median/p99 us)" },
	{ "abuse", vhdtest_cmd_abuse,
	  "write malformed events; each must fail with EINVAL" },
	{ "check", vhdtest_cmd_check,
	  "check read/write/poll semantics (TAP output)" },
	{ "stress", vhdtest_cmd_stress,
	  "race create/destroy/echo/read/close from several threads" },
	{ "fuzz", vhdtest_cmd_fuzz,
	  "random and edge-case events on several files, then use it" },
	{ "batch", vhdtest_cmd_batch,
	  "check batched read/write of a version 3 host (TAP output)" },
};

#define VHDTEST_NCMDS (sizeof(vhdtest_cmds) / sizeof(vhdtest_cmds[0]))

static void vhdtest_usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage: %s [--device PATH] [-v] COMMAND [OPTIONS]\n"
		"       %s COMMAND --help\n\n"
		"Exercise the Greybus vhd character device (default %s).\n\n"
		"Commands:\n",
		VHDTEST_NAME, VHDTEST_NAME, VHDTEST_DEVICE);
	for (i = 0; i < VHDTEST_NCMDS; i++)
		fprintf(out, "  %-8s %s\n", vhdtest_cmds[i].name,
			vhdtest_cmds[i].summary);
	fprintf(out,
		"\nOptions:\n"
		"  -d, --device PATH  character device to open\n"
		"  -v, --verbose      describe every event (repeat for more)\n"
		"  -h, --help         this text\n"
		"  -V, --version      print the version\n\n"
		"Exit status: 0 success, 1 a check failed, 2 bad usage, 3 could not run.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device",	required_argument,	NULL, 'd' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 },
	};
	size_t i;
	int c;

	/* Stop at the subcommand: its options are its own. */
	while ((c = getopt_long(argc, argv, "+d:vhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			vhdtest_opts.device = optarg;
			break;
		case 'v':
			vhdtest_opts.verbose++;
			break;
		case 'h':
			vhdtest_usage(stdout);
			return VHDTEST_EXIT_OK;
		case 'V':
			printf("%s %s (vhd ABI %u)\n", VHDTEST_NAME,
			       gb_version, GB_VHD_VERSION);
			return VHDTEST_EXIT_OK;
		default:
			vhdtest_usage(stderr);
			return VHDTEST_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		vhdtest_usage(stderr);
		return VHDTEST_EXIT_USAGE;
	}

	for (i = 0; i < VHDTEST_NCMDS; i++) {
		if (!strcmp(argv[optind], vhdtest_cmds[i].name)) {
			argc -= optind;
			argv += optind;
			optind = 1;
			return vhdtest_cmds[i].run(argc, argv);
		}
	}
	vhdtest_err(0, "unknown command '%s' (try --help)", argv[optind]);
	return VHDTEST_EXIT_USAGE;
}
