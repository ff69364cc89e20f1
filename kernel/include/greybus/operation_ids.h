/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The set of outgoing operation ids a connection has in flight.
 *
 * Ids run 1..U16_MAX and are handed out cyclically (the next one after the
 * last used that is not in flight), so a late response rarely meets a new
 * operation under the same id.  The set is a bitmap of the whole id space
 * cut into chunks that exist only while they hold an id in flight or the
 * last id handed out: a connection with a few operations at a time keeps
 * one chunk, not the whole 8 KiB map, and a chunk is allocated once per
 * GB_OPERATION_ID_CHUNK_BITS ids handed out.
 *
 * Each id in flight also points at its operation, so that a response finds
 * it in a fixed number of steps whatever is in flight: a chunk holds, for
 * each GB_OPERATION_ID_LEAF_SLOTS ids of its range, a leaf of that many
 * pointers, allocated under the same rule as chunks (while it holds an id
 * in flight or the last id handed out).  A connection with a few
 * operations at a time thus allocates a leaf once per
 * GB_OPERATION_ID_LEAF_SLOTS sends and nothing per send.  Its owner may
 * also drop the chunk of the last id once nothing is in flight
 * (gb_operation_ids_shrink()): the connection's time-out scan does, when
 * it finds no operation left, so that an idle connection keeps no map.
 */
#ifndef __GREYBUS_OPERATION_IDS_H
#define __GREYBUS_OPERATION_IDS_H

#include <linux/limits.h>
#include <linux/types.h>

/* Outgoing ids a connection may have in flight: 1..U16_MAX */
#define GB_OPERATION_IDS		(U16_MAX + 1)
#define GB_OPERATION_ID_CHUNK_BITS	4096
#define GB_OPERATION_ID_CHUNKS \
	(GB_OPERATION_IDS / GB_OPERATION_ID_CHUNK_BITS)
#define GB_OPERATION_ID_LEAF_SLOTS	64
#define GB_OPERATION_ID_LEAVES \
	(GB_OPERATION_ID_CHUNK_BITS / GB_OPERATION_ID_LEAF_SLOTS)

/* Steps of one gb_operation_ids_lookup(): chunk, leaf, slot */
#define GB_OPERATION_ID_LOOKUP_STEPS	3

struct gb_operation_ids_chunk;

/**
 * struct gb_operation_ids - ids in flight on one connection
 * @chunk: GB_OPERATION_ID_CHUNK_BITS ids each (their bitmap and leaves),
 *	or NULL where none is in flight
 * @used: the number of ids in flight in each chunk
 * @lookup_steps: the steps all gb_operation_ids_lookup() calls took, for
 *	the test that shows that a lookup does not walk
 *
 * Zeroed memory is an empty set.  The owner serialises all calls.
 */
struct gb_operation_ids {
	struct gb_operation_ids_chunk	*chunk[GB_OPERATION_ID_CHUNKS];
	u16				used[GB_OPERATION_ID_CHUNKS];
	unsigned long			lookup_steps;
};

int gb_operation_ids_pick(const struct gb_operation_ids *ids, u16 last);
bool gb_operation_ids_test(const struct gb_operation_ids *ids, u16 id);
int gb_operation_ids_set(struct gb_operation_ids *ids, u16 id, u16 last,
			 void *entry, gfp_t gfp);
void *gb_operation_ids_lookup(struct gb_operation_ids *ids, u16 id);
void gb_operation_ids_clear(struct gb_operation_ids *ids, u16 id, u16 last);
void gb_operation_ids_shrink(struct gb_operation_ids *ids);
unsigned int gb_operation_ids_chunks(const struct gb_operation_ids *ids);
void gb_operation_ids_destroy(struct gb_operation_ids *ids);

#endif /* __GREYBUS_OPERATION_IDS_H */
