// SPDX-License-Identifier: GPL-2.0
/* Usage errors and path checks of the tools' command lines (gb_cli.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "gb_cli.h"

static int gb_usage_vreport(const char *prog, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "; try '%s --help'\n", prog);
	return GB_EXIT_USAGE;
}

int gb_usage_report(const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gb_usage_vreport(prog, fmt, ap);
	va_end(ap);
	return GB_EXIT_USAGE;
}

void gb_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gb_usage_vreport(prog, fmt, ap);
	va_end(ap);
	exit(GB_EXIT_USAGE);
}

int gb_getopt_report(const char *prog, int c, char *const argv[])
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		return gb_usage_report(prog, "option '%s' needs an argument", arg);
	/* a short option inside a cluster (-qz): name the letter alone */
	if (optopt)
		return gb_usage_report(prog, "unknown option '-%c'", optopt);
	return gb_usage_report(prog, "unknown option '%s'", arg);
}

void gb_getopt_error(const char *prog, int c, char *const argv[])
{
	exit(gb_getopt_report(prog, c, argv));
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
