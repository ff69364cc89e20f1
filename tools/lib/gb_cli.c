// SPDX-License-Identifier: GPL-2.0
/* Usage errors and path checks of the tools' command lines (gb_cli.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "gb_cli.h"

void gb_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; try '%s --help'\n", prog);
	exit(GB_EXIT_USAGE);
}

void gb_getopt_error(const char *prog, int c, char *const argv[])
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		gb_usage_error(prog, "option '%s' needs an argument", arg);
	/* a short option inside a cluster (-qz): name the letter alone */
	if (optopt)
		gb_usage_error(prog, "unknown option '-%c'", optopt);
	gb_usage_error(prog, "unknown option '%s'", arg);
}

const char *gb_path_mismatch(const char *path, enum gb_path_kind kind)
{
	struct stat st;

	if (stat(path, &st))
		return NULL;
	switch (kind) {
	case GB_PATH_DIR:
		return S_ISDIR(st.st_mode) ? NULL : "not a directory";
	case GB_PATH_CHRDEV:
		return S_ISCHR(st.st_mode) ? NULL : "not a character device";
	case GB_PATH_FILE:
		return S_ISDIR(st.st_mode) ? "a directory" : NULL;
	}
	return NULL;
}
