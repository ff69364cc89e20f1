// SPDX-License-Identifier: GPL-2.0
/*
 * The set of outgoing operation ids in flight on a connection: a few near
 * slots inside the set, and for the ids whose slot is taken a bitmap of
 * the whole id space whose chunks are allocated while they are in use,
 * with for each id a pointer to its operation in leaves of the chunks
 * allocated under the same rule (operation_ids.h).
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <greybus/operation.h>
#include <greybus/operation_ids.h>

#define GB_ID_CHUNK(id)		((id) / GB_OPERATION_ID_CHUNK_BITS)
#define GB_ID_BIT(id)		((id) % GB_OPERATION_ID_CHUNK_BITS)
#define GB_ID_LEAF(id)		(GB_ID_BIT(id) / GB_OPERATION_ID_LEAF_SLOTS)
#define GB_ID_SLOT(id)		((id) % GB_OPERATION_ID_LEAF_SLOTS)
#define GB_ID_NEAR(id)		((id) % GB_OPERATION_ID_NEAR)

/**
 * struct gb_operation_ids_chunk - GB_OPERATION_ID_CHUNK_BITS ids
 * @in_flight: a bit set for each id in flight
 * @leaf: for each GB_OPERATION_ID_LEAF_SLOTS ids, NULL or their entries:
 *	an id's slot holds its entry exactly while its bit is set
 *
 * 2 KiB: one allocation of the smallest slab that holds it.
 */
struct gb_operation_ids_chunk {
	DECLARE_BITMAP(in_flight, GB_OPERATION_ID_CHUNK_BITS);
	void		**leaf[GB_OPERATION_ID_LEAVES];
};

/* Whether @id is in flight in its near slot */
static bool gb_operation_ids_near_has(const struct gb_operation_ids *ids,
				      u16 id)
{
	unsigned int s = GB_ID_NEAR(id);

	return ids->near[s] && ids->near_id[s] == id;
}

/* The first id at or after @from (a bit of chunk @c) not in the map */
static unsigned int gb_operation_ids_free_in(const struct gb_operation_ids *ids,
					     unsigned int c, unsigned int from)
{
	if (!ids->chunk[c])
		return from;

	return find_next_zero_bit(ids->chunk[c]->in_flight,
				  GB_OPERATION_ID_CHUNK_BITS, from);
}

/*
 * The first id after @last, in the order of gb_operation_id_next(), whose
 * bit is clear in the map; @last itself is the last one looked at.  A
 * chunk absent is clear throughout, so the cost is at most one scan of
 * each chunk present.  Return: the id, or -EBUSY if the map holds all.
 */
static int gb_operation_ids_pick_map(const struct gb_operation_ids *ids,
				     u16 last)
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

/**
 * gb_operation_ids_pick() - the outgoing id to use after another one
 * @ids: the ids in flight
 * @last: the last id used, or GB_OPERATION_ID_NONE
 *
 * Looks from the id after @last in the order of gb_operation_id_next() for
 * one not in flight; GB_OPERATION_ID_NONE is never given.  The map's
 * search gives the first id whose bit is clear; if a near slot holds it,
 * the search goes on after it.  Each of the GB_OPERATION_ID_NEAR ids in
 * near slots stops it at most once before it comes round to the first of
 * them again, so the cost is at most GB_OPERATION_ID_NEAR + 1 searches of
 * the map, whatever is in flight.  Changes nothing.
 *
 * Return: the id, or -EBUSY if all U16_MAX ids are in flight.
 */
int gb_operation_ids_pick(const struct gb_operation_ids *ids, u16 last)
{
	int id = last;
	unsigned int n;

	for (n = 0; n <= GB_OPERATION_ID_NEAR; n++) {
		id = gb_operation_ids_pick_map(ids, id);
		if (id < 0 || !gb_operation_ids_near_has(ids, id))
			return id;
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
	const struct gb_operation_ids_chunk *chunk = ids->chunk[GB_ID_CHUNK(id)];

	if (gb_operation_ids_near_has(ids, id))
		return true;

	return chunk && test_bit(GB_ID_BIT(id), chunk->in_flight);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_test, GREYBUS);

/**
 * gb_operation_ids_lookup() - the entry of an id in flight
 * @ids: the ids in flight
 * @id: any id, GB_OPERATION_ID_NONE and ids not in flight included
 *
 * GB_OPERATION_ID_LOOKUP_STEPS steps, whatever is in flight: no walk.
 * Adds them to @ids->lookup_steps.
 *
 * Return: the entry gb_operation_ids_set() gave @id, or NULL if @id is
 * not in flight.
 */
void *gb_operation_ids_lookup(struct gb_operation_ids *ids, u16 id)
{
	const struct gb_operation_ids_chunk *chunk = ids->chunk[GB_ID_CHUNK(id)];
	void **leaf;

	ids->lookup_steps += GB_OPERATION_ID_LOOKUP_STEPS;
	if (gb_operation_ids_near_has(ids, id))
		return ids->near[GB_ID_NEAR(id)];
	if (!chunk)
		return NULL;
	leaf = chunk->leaf[GB_ID_LEAF(id)];
	if (!leaf)
		return NULL;

	return leaf[GB_ID_SLOT(id)];
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_lookup, GREYBUS);

/* Whether any id of leaf @l of @chunk is in flight */
static bool gb_operation_ids_leaf_used(const struct gb_operation_ids_chunk *chunk,
				       unsigned int l)
{
	unsigned int first = l * GB_OPERATION_ID_LEAF_SLOTS;
	unsigned int end = first + GB_OPERATION_ID_LEAF_SLOTS;

	return find_next_bit(chunk->in_flight, end, first) < end;
}

/* Frees the leaf of @id if nothing in it is in the map and @last is not */
static void gb_operation_ids_trim_leaf(struct gb_operation_ids *ids, u16 id,
				       u16 last)
{
	struct gb_operation_ids_chunk *chunk = ids->chunk[GB_ID_CHUNK(id)];
	unsigned int l = GB_ID_LEAF(id);

	if (!chunk || !chunk->leaf[l] ||
	    id / GB_OPERATION_ID_LEAF_SLOTS == last / GB_OPERATION_ID_LEAF_SLOTS ||
	    gb_operation_ids_leaf_used(chunk, l))
		return;
	kfree(chunk->leaf[l]);
	chunk->leaf[l] = NULL;
}

static void gb_operation_ids_chunk_free(struct gb_operation_ids_chunk *chunk)
{
	unsigned int l;

	if (!chunk)
		return;
	for (l = 0; l < GB_OPERATION_ID_LEAVES; l++)
		kfree(chunk->leaf[l]);
	kfree(chunk);
}

/* Frees chunk @c if nothing in it is in the map and @last is not in it */
static void gb_operation_ids_trim(struct gb_operation_ids *ids,
				  unsigned int c, u16 last)
{
	if (ids->used[c] || !ids->chunk[c] || c == GB_ID_CHUNK(last))
		return;
	gb_operation_ids_chunk_free(ids->chunk[c]);
	ids->chunk[c] = NULL;
}

/**
 * gb_operation_ids_set() - put an id in flight
 * @ids: the ids in flight
 * @id: an id not in flight, from gb_operation_ids_pick()
 * @last: the last id used before @id
 * @entry: what gb_operation_ids_lookup() gives for @id until it is
 *	cleared, not NULL
 * @gfp: for the chunk and leaf of @id, if it goes to the map and they do
 *	not exist yet
 *
 * @id goes to its near slot if that is free (nothing allocated), else to
 * the map.  Also frees the map's leaf and chunk of @last if @id leaves
 * them and nothing in them is in flight: those kept for the next ids are
 * the ones of @id.
 *
 * Return: 0, or -ENOMEM (@ids unchanged).
 */
int gb_operation_ids_set(struct gb_operation_ids *ids, u16 id, u16 last,
			 void *entry, gfp_t gfp)
{
	unsigned int s = GB_ID_NEAR(id);
	unsigned int c = GB_ID_CHUNK(id);
	unsigned int l = GB_ID_LEAF(id);
	struct gb_operation_ids_chunk *chunk = ids->chunk[c];

	if (!ids->near[s]) {
		ids->near[s] = entry;
		ids->near_id[s] = id;
		goto trim;
	}
	if (!chunk) {
		chunk = kzalloc(sizeof(*chunk), gfp);
		if (!chunk)
			return -ENOMEM;
		ids->chunk[c] = chunk;
	}
	if (!chunk->leaf[l]) {
		chunk->leaf[l] = kcalloc(GB_OPERATION_ID_LEAF_SLOTS,
					 sizeof(*chunk->leaf[l]), gfp);
		if (!chunk->leaf[l]) {
			/* Only if we allocated it and @last is elsewhere */
			gb_operation_ids_trim(ids, c, last);
			return -ENOMEM;
		}
	}
	__set_bit(GB_ID_BIT(id), chunk->in_flight);
	chunk->leaf[l][GB_ID_SLOT(id)] = entry;
	ids->used[c]++;
trim:
	gb_operation_ids_trim_leaf(ids, last, id);
	gb_operation_ids_trim(ids, GB_ID_CHUNK(last), id);

	return 0;
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_set, GREYBUS);

/**
 * gb_operation_ids_clear() - take an id out of flight
 * @ids: the ids in flight
 * @id: an id in flight
 * @last: the last id handed out; its leaf and chunk are kept even if empty
 *
 * From here gb_operation_ids_lookup() gives NULL for @id.
 */
void gb_operation_ids_clear(struct gb_operation_ids *ids, u16 id, u16 last)
{
	unsigned int c = GB_ID_CHUNK(id);
	struct gb_operation_ids_chunk *chunk = ids->chunk[c];

	/* The map is as it was: nothing in it to free */
	if (gb_operation_ids_near_has(ids, id)) {
		ids->near[GB_ID_NEAR(id)] = NULL;
		return;
	}
	__clear_bit(GB_ID_BIT(id), chunk->in_flight);
	chunk->leaf[GB_ID_LEAF(id)][GB_ID_SLOT(id)] = NULL;
	ids->used[c]--;
	gb_operation_ids_trim_leaf(ids, id, last);
	gb_operation_ids_trim(ids, c, last);
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_clear, GREYBUS);

/**
 * gb_operation_ids_shrink() - free the chunks an idle set keeps for later
 * @ids: the ids in flight
 *
 * Frees every chunk of the map with no id in flight, with its leaves, the
 * chunk of the last id handed out included: a connection with nothing in
 * flight for a while then holds no map at all.  The next id that goes to
 * the map allocates its chunk and leaf again; the order of the ids does
 * not change (it follows the caller's last id, not the chunks).
 *
 * Only frees memory: may be called in atomic context.
 */
void gb_operation_ids_shrink(struct gb_operation_ids *ids)
{
	unsigned int c;

	for (c = 0; c < GB_OPERATION_ID_CHUNKS; c++) {
		if (ids->used[c] || !ids->chunk[c])
			continue;
		gb_operation_ids_chunk_free(ids->chunk[c]);
		ids->chunk[c] = NULL;
	}
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_shrink, GREYBUS);

/**
 * gb_operation_ids_chunks() - the chunks @ids holds
 * @ids: the ids in flight
 *
 * Return: the number of the map's chunks allocated, for tests and
 * debugfs.
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
		gb_operation_ids_chunk_free(ids->chunk[c]);
		ids->chunk[c] = NULL;
		ids->used[c] = 0;
	}
	memset(ids->near, 0, sizeof(ids->near));
}
EXPORT_SYMBOL_NS_GPL(gb_operation_ids_destroy, GREYBUS);
