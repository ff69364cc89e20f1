// SPDX-License-Identifier: GPL-2.0
/* The tools' --version text (gb_version.h); GB_VERSION and GB_COMMIT come
 * from tools/Makefile, which asks dist/version. */
#include <stdio.h>

#include "gb_version.h"

const char gb_version[] = GB_VERSION;
const char gb_commit[] = GB_COMMIT;

void gb_print_version(const char *prog)
{
	printf("%s (greybus tools) %s\ncommit %s\n", prog, gb_version, gb_commit);
}
