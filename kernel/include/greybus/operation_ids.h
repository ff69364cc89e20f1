/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The set of outgoing operation ids a connection has in flight.
 *
 * Ids run 1..U16_MAX and are handed out cyclically (the next one after the
 * last used that is not in flight), so a late response rarely meets a new
 * operation under the same id.  Each id in flight points at its operation,
 * so that a response finds it in a fixed number of steps whatever is in
 * flight.  Two places hold them:
 *
 * - the near slots, GB_OPERATION_ID_NEAR of them inside the set itself:
 *   an id goes to slot id % GB_OPERATION_ID_NEAR when that slot is free.
 *   Ids handed out in turn fill different slots, so a connection with
 *   fewer than GB_OPERATION_ID_NEAR operations at a time (every control
 *   connection, a synchronous driver) never allocates anything (with
 *   that many, one id a cycle: the wrap past 0 shifts the ids by a slot);
 * - the map, for an id whose slot is taken: a bitmap of the whole id space
 *   cut into chunks that exist only while they hold an id in flight or
 *   the last id handed out, and for each GB_OPERATION_ID_LEAF_SLOTS ids of
 *   a chunk's range a leaf of that many pointers, allocated under the same
 *   rule.  A connection with many operations at a time allocates a leaf
 *   once per GB_OPERATION_ID_LEAF_SLOTS sends that reach the map, and a
 *   chunk once per GB_OPERATION_ID_CHUNK_BITS.  Its owner may drop what
 *   the map keeps for the last id once nothing in it is in flight
 *   (gb_operation_ids_shrink()): the connection's time-out scan does, when
 *   it finds no operation left, so that an idle connection keeps no map.
 *
 * An id is in flight when its near slot holds it or its bit is set in the
 * map, never both.
 */
#ifndef __GREYBUS_OPERATION_IDS_H
#define __GREYBUS_OPERATION_IDS_H

#include <linux/limits.h>
#include <linux/types.h>

/* Outgoing ids a connection may have in flight: 1..U16_MAX */
#define GB_OPERATION_IDS		(U16_MAX + 1)
#define GB_OPERATION_ID_NEAR		8
#define GB_OPERATION_ID_CHUNK_BITS	8192
#define GB_OPERATION_ID_CHUNKS \
	(GB_OPERATION_IDS / GB_OPERATION_ID_CHUNK_BITS)
#define GB_OPERATION_ID_LEAF_SLOTS	64
#define GB_OPERATION_ID_LEAVES \
	(GB_OPERATION_ID_CHUNK_BITS / GB_OPERATION_ID_LEAF_SLOTS)

/* Steps of one gb_operation_ids_lookup(): near slot, chunk, leaf, slot */
#define GB_OPERATION_ID_LOOKUP_STEPS	4

struct gb_operation_ids_chunk;

/**
 * struct gb_operation_ids - ids in flight on one connection
 * @near: the entry of the id in each near slot, or NULL where it is free
 * @chunk: the map's GB_OPERATION_ID_CHUNK_BITS ids each (their bitmap and
 *	leaves), or NULL where none is in flight
 * @near_id: the id in each near slot whose @near entry is not NULL
 * @used: the number of ids in flight in each chunk
 * @lookup_steps: the steps all gb_operation_ids_lookup() calls took, for
 *	the test that shows that a lookup does not walk
 *
 * Zeroed memory is an empty set.  The owner serialises all calls.  168
 * bytes on 64-bit, as large as the map alone was with 4096-id chunks.
 */
struct gb_operation_ids {
	void				*near[GB_OPERATION_ID_NEAR];
	struct gb_operation_ids_chunk	*chunk[GB_OPERATION_ID_CHUNKS];
	u16				near_id[GB_OPERATION_ID_NEAR];
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
