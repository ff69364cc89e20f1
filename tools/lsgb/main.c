// SPDX-License-Identifier: GPL-2.0
/*
 * lsgb: list the Greybus devices, like "lsusb -t".  See docs/lsgb.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_cli.h"
#include "lsgb.h"
#include "gb_version.h"

static void lsgb_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [-v] [-j] [--sysfs DIR] [--debugfs DIR]\n\n"
		"List the Greybus host devices, SVCs, modules, interfaces, bundles and\n"
		"connections the kernel shows in sysfs, as a tree.\n\n"
		"Options:\n"
		"  -v, --verbose      also every attribute of every device, and the\n"
		"                     connections' counters\n"
		"  -j, --json         print JSON instead of text\n"
		"  -s, --sysfs DIR    where sysfs is (default /sys); debugfs then\n"
		"                     defaults to DIR/kernel/debug\n"
		"  -d, --debugfs DIR  where debugfs is (default /sys/kernel/debug)\n"
		"  -h, --help         this text\n"
		"  -V, --version      print the version\n\n"
		"Connections come from DEBUGFS/greybus/greybusN/connections, which only\n"
		"root can read; without it the tree has no connections.\n\n"
		"Exit status: 0 success, 1 no Greybus in sysfs (or unreadable), 2 bad usage.\n",
		LSGB_NAME);
}

/* A note on stderr for each host device whose connections are not shown */
static void lsgb_note_conns(const struct lsgb_tree *tree)
{
	const struct lsgb_dev *host;
	size_t i;

	for (i = 0; i < tree->root.nchildren; i++) {
		host = tree->root.children[i];
		if (host->kind != LSGB_HOST || host->conns_read ||
		    !host->conns_path)
			continue;
		fprintf(stderr,
			"%s: connections of %s not shown: %s: %s%s\n",
			LSGB_NAME, host->name, host->conns_path,
			strerror(host->conns_err),
			host->conns_err == EACCES || host->conns_err == ENOENT ?
			" (debugfs needs root and must be mounted)" : "");
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "sysfs",	required_argument,	NULL, 's' },
		{ "debugfs",	required_argument,	NULL, 'd' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 },
	};
	struct lsgb_opts opts = { 0 };
	const char *sysfs = "/sys", *debugfs = NULL;
	struct lsgb_tree tree;
	char *dbg = NULL;
	const char *why;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vjs:d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			opts.verbose++;
			break;
		case 'j':
			opts.json = true;
			break;
		case 's':
			sysfs = optarg;
			break;
		case 'd':
			debugfs = optarg;
			break;
		case 'h':
			lsgb_usage(stdout);
			return LSGB_EXIT_OK;
		case 'V':
			gb_print_version(LSGB_NAME);
			return LSGB_EXIT_OK;
		default:
			gb_getopt_error(LSGB_NAME, c, argv);
		}
	}
	if (optind != argc)
		gb_usage_error(LSGB_NAME, "unexpected argument '%s'", argv[optind]);
	if (!*sysfs || (debugfs && !*debugfs))
		gb_usage_error(LSGB_NAME, "empty directory name");
	/* a file given for a directory: said before anything is read */
	why = gb_path_mismatch(sysfs, GB_PATH_DIR);
	if (why)
		gb_usage_error(LSGB_NAME, "--sysfs '%s': %s", sysfs, why);
	why = debugfs ? gb_path_mismatch(debugfs, GB_PATH_DIR) : NULL;
	if (why)
		gb_usage_error(LSGB_NAME, "--debugfs '%s': %s", debugfs, why);
	if (!debugfs)
		debugfs = dbg = lsgb_xasprintf("%s/kernel/debug", sysfs);

	ret = lsgb_read(&tree, sysfs, debugfs);
	if (ret == LSGB_EXIT_OK) {
		if (opts.json)
			lsgb_print_json(stdout, &tree, &opts);
		else
			lsgb_print_text(stdout, &tree, &opts);
		lsgb_note_conns(&tree);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "%s: writing the output: %s\n",
				LSGB_NAME, strerror(errno));
			ret = LSGB_EXIT_ERROR;
		}
	}
	lsgb_free(&tree);
	free(dbg);
	return ret;
}
