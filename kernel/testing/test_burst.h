/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gb-test-protocol's reverse burst: many pings in flight on one
 * connection, answered newest-first.
 */
#ifndef __GB_TEST_BURST_H
#define __GB_TEST_BURST_H

#include <linux/types.h>

struct gb_connection;

/* The most pings a burst puts in flight at once */
#define GB_TEST_BURST_MAX	4096

/**
 * struct gb_test_burst_result - what a burst saw
 * @sent: pings that went out
 * @completed: of those, the ones whose callback ran
 * @ok: of those, the ones that completed with 0 and the echoed payload
 * @lookup_steps: steps the core's response lookup took for the answers
 * @answer_ns: the guest's time to hand the answers to the core, for
 *	information only (nothing asserts a duration)
 * @error: the first error, 0 if none
 */
struct gb_test_burst_result {
	unsigned int	sent;
	unsigned int	completed;
	unsigned int	ok;
	unsigned long	lookup_steps;
	u64		answer_ns;
	int		error;
};

void gb_test_burst_run(struct gb_connection *connection, unsigned int n,
		       struct gb_test_burst_result *result);

#endif /* __GB_TEST_BURST_H */
