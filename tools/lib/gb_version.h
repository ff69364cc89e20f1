/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The version every tool prints, from dist/version at build time: only
 * gb_version.c is compiled with it, so a new commit rebuilds one object.
 */
#ifndef GB_VERSION_H
#define GB_VERSION_H

/* "0.2.0" on a tagged release, "0.2.0+git20261206.3.9d34bd1" between */
extern const char gb_version[];
/* the commit's full hash, "unknown" when built without git */
extern const char gb_commit[];

/*
 * gb_print_version() - the --version text of every tool, on stdout:
 * "PROG (greybus tools) VERSION" then "commit HASH".  help2man takes the
 * man page's version from the first line.
 */
void gb_print_version(const char *prog);

#endif
