/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tools' command lines share: a usage error is one line naming
 * the reason and where to look, "PROG: REASON; try 'PROG --help'", with
 * exit status 2; and a path given on the command line is checked for
 * what it must be (a directory, a character device, ...) before the tool
 * opens it.
 */
#ifndef GB_CLI_H
#define GB_CLI_H

#include <stdarg.h>

#define GB_EXIT_USAGE	2

/* gb_usage_error() - "PROG: REASON; try 'PROG --help'" on stderr, exit 2 */
void gb_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * gb_usage_report() - the same message, without exiting: returns
 * GB_EXIT_USAGE for a tool that has something to free first
 */
int gb_usage_report(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * gb_getopt_report() - gb_getopt_error()'s message, without exiting:
 * returns GB_EXIT_USAGE
 */
int gb_getopt_report(const char *prog, int c, char *const argv[]);

/*
 * gb_getopt_error() - the usage error for what getopt_long() returned as
 * C ('?' or ':'), run with opterr = 0 and an optstring starting with ':'
 * (or "+:"): "unknown option '-x'", "unknown option '--foo'" or "option
 * '--foo' needs an argument".
 */
void gb_getopt_error(const char *prog, int c, char *const argv[])
	__attribute__((noreturn));

enum gb_path_kind {
	GB_PATH_DIR,		/* a directory */
	GB_PATH_CHRDEV,		/* a character device (a tty, a misc device) */
	GB_PATH_FILE,		/* anything to read but a directory */
};

/*
 * gb_path_mismatch() - why PATH is not of KIND, as "not a directory",
 * "not a character device", "a directory": NULL when it is, or when it
 * does not exist (opening it then says so, as it always did).  Follows
 * symbolic links, as opening does; opens nothing.
 */
const char *gb_path_mismatch(const char *path, enum gb_path_kind kind);

#endif
