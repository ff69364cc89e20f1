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

/**
 * struct gb_operation_ids - ids in flight on one connection
 * @chunk: bitmaps of GB_OPERATION_ID_CHUNK_BITS ids each, or NULL where
 *	none is in flight
 * @used: the number of bits set in each chunk
 *
 * Zeroed memory is an empty set.  The owner serialises all calls.
 */
struct gb_operation_ids {
	unsigned long	*chunk[GB_OPERATION_ID_CHUNKS];
	u16		used[GB_OPERATION_ID_CHUNKS];
};

int gb_operation_ids_pick(const struct gb_operation_ids *ids, u16 last);
bool gb_operation_ids_test(const struct gb_operation_ids *ids, u16 id);
int gb_operation_ids_set(struct gb_operation_ids *ids, u16 id, u16 last,
			 gfp_t gfp);
void gb_operation_ids_clear(struct gb_operation_ids *ids, u16 id, u16 last);
unsigned int gb_operation_ids_chunks(const struct gb_operation_ids *ids);
void gb_operation_ids_destroy(struct gb_operation_ids *ids);

#endif /* __GREYBUS_OPERATION_IDS_H */
