/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every fuzz target shares: a property check that turns a broken
 * invariant into a crash, which libFuzzer then reports and keeps.
 */
#ifndef GB_FUZZ_H
#define GB_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_ASSERT(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: property violated: %s\n",\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

#endif /* GB_FUZZ_H */
