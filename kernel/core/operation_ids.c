// SPDX-License-Identifier: GPL-2.0
/*
 * The set of outgoing operation ids in flight on a connection: a bitmap of
 * the whole id space whose chunks are allocated while they are in use.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/slab.h>

#include <greybus/operation.h>
#include <greybus/operation_ids.h>

#define GB_ID_CHUNK(id)		((id) / GB_OPERATION_ID_CHUNK_BITS)
#define GB_ID_BIT(id)		((id) % GB_OPERATION_ID_CHUNK_BITS)

/* The first id at or after @from (a bit of chunk @c) not in flight */
static unsigned int gb_operation_ids_free_in(const struct gb_operation_ids *ids,
					     unsigned int c, unsigned int from)
{
	if (!ids->chunk[c])
		return from;

	return find_next_zero_bit(ids->chunk[c], GB_OPERATION_ID_CHUNK_BITS,
				  from);
}

/**
 * gb_operation_ids_pick() - the outgoing id to use after another one
 * @ids: the ids in flight
 * @last: the last id used, or GB_OPERATION_ID_NONE
 *
 * Looks from the id after @last in the order of gb_operation_id_next() for
 * one not in flight; GB_OPERATION_ID_NONE is never given.  A chunk absent
 * is free throughout, so the cost is at most one scan of each chunk
 * present, whatever is in flight.  Changes nothing.
 *
 * Return: the id, or -EBUSY if all U16_MAX ids are in flight.
 */
int gb_operation_ids_pick(const struct gb_operation_ids *ids, u16 last)
{
	unsigned int id = gb_operation_id_next(last);
	unsigned int c = GB_ID_CHUNK(id);
	unsigned int bit = GB_ID_BIT(id);
	unsigned int n;

	/* One more than the chunks: the start chunk again, below @bit */
	for (n = 0; n <= GB_OPERATION_ID_CHUNKS; n++) {
		unsigned int found = gb_operation_ids_free_in(ids, c, bit);

		/* Bit 0 of chunk 0 is GB_OPERATION_ID_NONE, not an id */
		if (found == 0 && c == 0)
			found = gb_operation_ids_free_in(ids, 0, 1);
		if (found < GB_OPERATION_ID_CHUNK_BITS)
			return c * GB_OPERATION_ID_CHUNK_BITS + found;
		c = (c + 1) % GB_OPERATION_ID_CHUNKS;
		bit = 0;
	}

	return -EBUSY;
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_pick, GREYBUS);

/**
 * gb_operation_ids_test() - whether an id is in flight
 * @ids: the ids in flight
 * @id: the id
 *
 * Return: true if @id is in @ids.
 */
bool gb_operation_ids_test(const struct gb_operation_ids *ids, u16 id)
{
	const unsigned long *chunk = ids->chunk[GB_ID_CHUNK(id)];

	return chunk && test_bit(GB_ID_BIT(id), chunk);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_test, GREYBUS);

/* Frees chunk @c if nothing in it is in flight and @last is not in it */
static void gb_operation_ids_trim(struct gb_operation_ids *ids,
				  unsigned int c, u16 last)
{
	if (ids->used[c] || !ids->chunk[c] || c == GB_ID_CHUNK(last))
		return;
	kfree(ids->chunk[c]);
	ids->chunk[c] = NULL;
}

/**
 * gb_operation_ids_set() - put an id in flight
 * @ids: the ids in flight
 * @id: an id not in flight, from gb_operation_ids_pick()
 * @last: the last id used before @id
 * @gfp: for the chunk of @id, if it has none yet
 *
 * Also frees the chunk of @last if @id leaves it and nothing in it is in
 * flight: the chunk kept for the next ids is the one of @id.
 *
 * Return: 0, or -ENOMEM (@ids unchanged).
 */
int gb_operation_ids_set(struct gb_operation_ids *ids, u16 id, u16 last,
			 gfp_t gfp)
{
	unsigned int c = GB_ID_CHUNK(id);

	if (!ids->chunk[c]) {
		ids->chunk[c] = bitmap_zalloc(GB_OPERATION_ID_CHUNK_BITS, gfp);
		if (!ids->chunk[c])
			return -ENOMEM;
	}
	__set_bit(GB_ID_BIT(id), ids->chunk[c]);
	ids->used[c]++;
	gb_operation_ids_trim(ids, GB_ID_CHUNK(last), id);

	return 0;
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_set, GREYBUS);

/**
 * gb_operation_ids_clear() - take an id out of flight
 * @ids: the ids in flight
 * @id: an id in flight
 * @last: the last id handed out; its chunk is kept even if empty
 */
void gb_operation_ids_clear(struct gb_operation_ids *ids, u16 id, u16 last)
{
	unsigned int c = GB_ID_CHUNK(id);

	__clear_bit(GB_ID_BIT(id), ids->chunk[c]);
	ids->used[c]--;
	gb_operation_ids_trim(ids, c, last);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_clear, GREYBUS);

/**
 * gb_operation_ids_chunks() - the chunks @ids holds
 * @ids: the ids in flight
 *
 * Return: the number of chunks allocated, for tests and debugfs.
 */
unsigned int gb_operation_ids_chunks(const struct gb_operation_ids *ids)
{
	unsigned int c, n = 0;

	for (c = 0; c < GB_OPERATION_ID_CHUNKS; c++)
		n += !!ids->chunk[c];

	return n;
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_chunks, GREYBUS);

/**
 * gb_operation_ids_destroy() - free what @ids holds
 * @ids: the ids in flight, then empty
 *
 * Only frees memory: may be called in atomic context.
 */
void gb_operation_ids_destroy(struct gb_operation_ids *ids)
{
	unsigned int c;

	for (c = 0; c < GB_OPERATION_ID_CHUNKS; c++) {
		bitmap_free(ids->chunk[c]);
		ids->chunk[c] = NULL;
		ids->used[c] = 0;
	}
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_destroy, GREYBUS);
