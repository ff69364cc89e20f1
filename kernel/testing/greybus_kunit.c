// SPDX-License-Identifier: GPL-2.0
/*
 * greybus_kunit: KUnit tests for the parts of greybus.ko that need no
 * device, connection or host driver to run:
 *  - greybus-manifest: gb_manifest_check() on blobs built here, one per
 *    rule of greybus/manifest_check.h, and gb_manifest_strerror();
 *  - greybus-operation-id: the outgoing id step, gb_operation_id_next(),
 *    including the wrap from 0xffff to 1 (0 means unidirectional), and
 *    the set of ids in flight, struct gb_operation_ids: the pick, and the
 *    memory it keeps;
 *  - greybus-result-codes: gb_operation_status_to_errno() and
 *    gb_operation_errno_to_status();
 *  - greybus-message-size: gb_message_framing_check(), the rule
 *    greybus_data_rcvd() applies to a received buffer, and
 *    gb_operation_get_payload_size_max();
 *  - greybus-timesync-clock: the FrameTime arithmetic behind the
 *    conversion API (19.2 MHz ticks <-> ns, readings moved through an
 *    anchor), and the API's answer on a host without TimeSync.
 *
 * Built only against a kernel with CONFIG_KUNIT; the tests run when the
 * module loads and report in KTAP on the kernel log.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <uapi/greybus/greybus.h>
#include <uapi/greybus/manifest.h>
#include <greybus/greybus.h>
#include <greybus/manifest_check.h>

/* --- manifests ---------------------------------------------------------- */

/* A manifest under construction; big enough for every blob below */
struct gb_kt_blob {
	u8 data[256];
	size_t size;
};

static void gb_kt_start(struct gb_kt_blob *b)
{
	struct greybus_manifest_header *header = (void *)b->data;

	memset(b, 0, sizeof(*b));
	header->version_major = GREYBUS_VERSION_MAJOR;
	header->version_minor = GREYBUS_VERSION_MINOR;
	b->size = sizeof(*header);
}

/*
 * Appends a descriptor header claiming @size bytes and @size zeroed bytes
 * in all (at least the 4 of its header are written); returns the
 * descriptor for the caller to fill in.
 */
static struct greybus_descriptor *gb_kt_desc(struct kunit *test,
					     struct gb_kt_blob *b, u8 type,
					     u16 size)
{
	struct greybus_descriptor *desc = (void *)(b->data + b->size);

	KUNIT_ASSERT_LE(test, b->size + max_t(size_t, size, 4),
			sizeof(b->data));
	desc->header.size = cpu_to_le16(size);
	desc->header.type = type;
	b->size += size;
	return desc;
}

static void gb_kt_interface(struct kunit *test, struct gb_kt_blob *b,
			    u8 vendor, u8 product)
{
	struct greybus_descriptor *desc;

	desc = gb_kt_desc(test, b, GREYBUS_TYPE_INTERFACE,
			  GREYBUS_DESC_INTERFACE_SIZE);
	desc->interface.vendor_stringid = vendor;
	desc->interface.product_stringid = product;
}

static void gb_kt_string(struct kunit *test, struct gb_kt_blob *b, u8 id,
			 const char *text)
{
	struct greybus_descriptor *desc;
	size_t len = strlen(text);

	desc = gb_kt_desc(test, b, GREYBUS_TYPE_STRING,
			  GREYBUS_DESC_STRING_SIZE(len));
	desc->string.length = len;
	desc->string.id = id;
	memcpy(desc->string.string, text, len);
}

static void gb_kt_bundle(struct kunit *test, struct gb_kt_blob *b, u8 id,
			 u8 class)
{
	struct greybus_descriptor *desc;

	desc = gb_kt_desc(test, b, GREYBUS_TYPE_BUNDLE,
			  GREYBUS_DESC_BUNDLE_SIZE);
	desc->bundle.id = id;
	desc->bundle.class = class;
}

static void gb_kt_cport(struct kunit *test, struct gb_kt_blob *b, u16 id,
			u8 bundle, u8 protocol)
{
	struct greybus_descriptor *desc;

	desc = gb_kt_desc(test, b, GREYBUS_TYPE_CPORT,
			  GREYBUS_DESC_CPORT_SIZE);
	desc->cport.id = cpu_to_le16(id);
	desc->cport.bundle = bundle;
	desc->cport.protocol_id = protocol;
}

/* Interface naming strings 1 and 2, both present, and a GPIO bundle 1 */
static void gb_kt_valid(struct kunit *test, struct gb_kt_blob *b)
{
	gb_kt_start(b);
	gb_kt_interface(test, b, 1, 2);
	gb_kt_string(test, b, 1, "Acme");
	gb_kt_string(test, b, 2, "Blinker");
	gb_kt_bundle(test, b, 1, GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_cport(test, b, 1, 1, GREYBUS_PROTOCOL_GPIO);
}

/*
 * Checks the first @size bytes of @b, its header size set to @size.  The
 * blob is copied into an allocation of exactly that size, so KASAN
 * reports any read past its end.
 */
static int gb_kt_check_n(struct kunit *test, struct gb_kt_blob *b,
			 size_t size, struct gb_manifest_report *report)
{
	struct greybus_manifest_header *header = (void *)b->data;
	void *copy;

	if (size >= sizeof(header->size))
		header->size = cpu_to_le16(size);
	copy = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, copy);
	memcpy(copy, b->data, size);

	return gb_manifest_check(copy, size, report);
}

static int gb_kt_check(struct kunit *test, struct gb_kt_blob *b,
		       struct gb_manifest_report *report)
{
	return gb_kt_check_n(test, b, b->size, report);
}

/* @b must be refused with @error at @offset */
static void gb_kt_refused(struct kunit *test, struct gb_kt_blob *b,
			  enum gb_manifest_error error, u32 offset)
{
	struct gb_manifest_report report;

	KUNIT_EXPECT_EQ(test, gb_kt_check(test, b, &report), -EINVAL);
	KUNIT_EXPECT_EQ(test, report.error, error);
	KUNIT_EXPECT_EQ(test, report.offset, offset);
}

static void gb_kt_mnf_valid(struct kunit *test)
{
	struct gb_manifest_report report;
	struct gb_kt_blob b;

	gb_kt_valid(test, &b);
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, &report), 0);
	KUNIT_EXPECT_EQ(test, report.error, GB_MNF_OK);
	KUNIT_EXPECT_EQ(test, report.unknown_descs, 0U);
	/* Only the verdict wanted */
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, NULL), 0);
}

static void gb_kt_mnf_blob_framing(struct kunit *test)
{
	struct greybus_manifest_header *header;
	struct gb_manifest_report report;
	struct gb_kt_blob b;

	gb_kt_valid(test, &b);
	KUNIT_EXPECT_EQ(test, gb_kt_check_n(test, &b, 0, &report), -EINVAL);
	KUNIT_EXPECT_EQ(test, report.error, GB_MNF_EMPTY);
	KUNIT_EXPECT_EQ(test, gb_kt_check_n(test, &b, 3, &report), -EINVAL);
	KUNIT_EXPECT_EQ(test, report.error, GB_MNF_SHORT_HEADER);
	/* Refused without a report too */
	KUNIT_EXPECT_EQ(test, gb_kt_check_n(test, &b, 3, NULL), -EINVAL);

	/* Header size one byte more than the blob */
	header = (void *)b.data;
	memset(&report, 0, sizeof(report));
	header->size = cpu_to_le16(b.size + 1);
	KUNIT_EXPECT_EQ(test, gb_manifest_check(b.data, b.size, &report),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, report.error, GB_MNF_SIZE_MISMATCH);
	KUNIT_EXPECT_EQ(test, report.offset, 0U);
}

static void gb_kt_mnf_version(struct kunit *test)
{
	struct greybus_manifest_header *header;
	struct gb_kt_blob b;

	gb_kt_valid(test, &b);
	header = (void *)b.data;
	/* Minor versions do not matter */
	header->version_minor = 0xff;
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, NULL), 0);

	header->version_major = GREYBUS_VERSION_MAJOR + 1;
	gb_kt_refused(test, &b, GB_MNF_BAD_VERSION, 0);
}

static void gb_kt_mnf_desc_framing(struct kunit *test)
{
	struct gb_kt_blob b;
	size_t at;

	/* Two bytes left after the last descriptor */
	gb_kt_valid(test, &b);
	at = b.size;
	b.size += 2;
	gb_kt_refused(test, &b, GB_MNF_DESC_SHORT, at);

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_desc(test, &b, GREYBUS_TYPE_STRING, 0);
	b.size += 4;	/* the zero-sized header itself */
	gb_kt_refused(test, &b, GB_MNF_DESC_ZERO_SIZE, at);

	/* A cport claiming 12 bytes with 8 left */
	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_cport(test, &b, 2, 1, GREYBUS_PROTOCOL_GPIO);
	((struct greybus_descriptor *)(b.data + at))->header.size =
		cpu_to_le16(12);
	gb_kt_refused(test, &b, GB_MNF_DESC_PAST_END, at);
}

static void gb_kt_mnf_desc_size(struct kunit *test)
{
	struct gb_kt_blob b;
	size_t at;

	/* Smaller than a descriptor header */
	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_desc(test, &b, 0x42, 2);
	b.size += 2;
	gb_kt_refused(test, &b, GB_MNF_DESC_TOO_SMALL, at);

	/* A bundle of 4 bytes: a header and no body */
	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_desc(test, &b, GREYBUS_TYPE_BUNDLE, 4);
	gb_kt_refused(test, &b, GB_MNF_DESC_TOO_SMALL, at);

	/* 6 bytes of an unknown type: sizes are multiples of 4 */
	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_desc(test, &b, 0x42, 6);
	gb_kt_refused(test, &b, GB_MNF_DESC_UNALIGNED, at);
}

static void gb_kt_mnf_larger_desc(struct kunit *test)
{
	struct greybus_descriptor *desc;
	struct gb_kt_blob b;

	/* Trailing bytes in a descriptor are to be ignored */
	gb_kt_valid(test, &b);
	desc = gb_kt_desc(test, &b, GREYBUS_TYPE_BUNDLE, 12);
	desc->bundle.id = 2;
	desc->bundle.class = GREYBUS_CLASS_BRIDGED_PHY;
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, NULL), 0);
}

static void gb_kt_mnf_unknown_desc(struct kunit *test)
{
	struct gb_manifest_report report;
	struct gb_kt_blob b;
	size_t at;

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_desc(test, &b, 0x42, 8);
	gb_kt_desc(test, &b, 0xff, 4);
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, &report), 0);
	KUNIT_EXPECT_EQ(test, report.unknown_descs, 2U);
	KUNIT_EXPECT_EQ(test, report.first_unknown_offset, at);
}

static void gb_kt_mnf_string_rules(struct kunit *test)
{
	struct gb_kt_blob b;
	size_t at;

	/* Length 5 in a descriptor with room for 2 */
	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_string(test, &b, 3, "ab");
	b.data[at + 4] = 5;
	gb_kt_refused(test, &b, GB_MNF_STRING_OVERFLOW, at);

	/* Exactly filling it is fine */
	gb_kt_valid(test, &b);
	gb_kt_string(test, &b, 3, "abcdef");
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, NULL), 0);

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_string(test, &b, 0, "zero");
	gb_kt_refused(test, &b, GB_MNF_STRING_ID_ZERO, at);

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_string(test, &b, 2, "again");
	gb_kt_refused(test, &b, GB_MNF_DUP_STRING, at);
}

static void gb_kt_mnf_bundle_rules(struct kunit *test)
{
	struct gb_kt_blob b;
	size_t at;

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_bundle(test, &b, 1, GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_refused(test, &b, GB_MNF_DUP_BUNDLE, at);

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_bundle(test, &b, GREYBUS_CONTROL_BUNDLE_ID,
		     GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_refused(test, &b, GB_MNF_BUNDLE0_CLASS, at);

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_bundle(test, &b, 7, GREYBUS_CLASS_CONTROL);
	gb_kt_refused(test, &b, GB_MNF_CONTROL_CLASS_BUNDLE, at);

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_bundle(test, &b, GREYBUS_BUNDLE_ID_NONE,
		     GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_refused(test, &b, GB_MNF_BUNDLE_ID_RESERVED, at);
}

static void gb_kt_mnf_control_bundle(struct kunit *test)
{
	struct gb_kt_blob b;

	/* The legacy control bundle and cport, declared: accepted */
	gb_kt_valid(test, &b);
	gb_kt_bundle(test, &b, GREYBUS_CONTROL_BUNDLE_ID,
		     GREYBUS_CLASS_CONTROL);
	gb_kt_cport(test, &b, GREYBUS_CONTROL_CPORT_ID,
		    GREYBUS_CONTROL_BUNDLE_ID, GREYBUS_PROTOCOL_CONTROL);
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, NULL), 0);
}

static void gb_kt_mnf_cport_rules(struct kunit *test)
{
	struct gb_kt_blob b;
	size_t at;

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_cport(test, &b, 1, 1, GREYBUS_PROTOCOL_GPIO);
	gb_kt_refused(test, &b, GB_MNF_DUP_CPORT, at);

	/* 4095 is the last valid id, 4096 the first invalid one */
	gb_kt_valid(test, &b);
	gb_kt_cport(test, &b, GB_CPORT_ID_MAX, 1, GREYBUS_PROTOCOL_GPIO);
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, NULL), 0);
	at = b.size;
	gb_kt_cport(test, &b, GB_CPORT_ID_MAX + 1, 1, GREYBUS_PROTOCOL_GPIO);
	gb_kt_refused(test, &b, GB_MNF_CPORT_ID_RANGE, at);

	/* Cport 0 belongs to bundle 0, with protocol control */
	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_cport(test, &b, GREYBUS_CONTROL_CPORT_ID, 1,
		    GREYBUS_PROTOCOL_CONTROL);
	gb_kt_refused(test, &b, GB_MNF_CPORT0_OUTSIDE_CONTROL, at);

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_cport(test, &b, GREYBUS_CONTROL_CPORT_ID,
		    GREYBUS_CONTROL_BUNDLE_ID, GREYBUS_PROTOCOL_GPIO);
	gb_kt_refused(test, &b, GB_MNF_CPORT0_OUTSIDE_CONTROL, at);
}

static void gb_kt_mnf_cport_bundle(struct kunit *test)
{
	struct gb_kt_blob b;
	size_t at;

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_cport(test, &b, 2, 9, GREYBUS_PROTOCOL_GPIO);
	gb_kt_refused(test, &b, GB_MNF_CPORT_NO_BUNDLE, at);

	/* A bundle may follow its cports */
	gb_kt_start(&b);
	gb_kt_cport(test, &b, 5, 3, GREYBUS_PROTOCOL_GPIO);
	gb_kt_interface(test, &b, 0, 0);
	gb_kt_bundle(test, &b, 3, GREYBUS_CLASS_BRIDGED_PHY);
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, NULL), 0);
}

static void gb_kt_mnf_interface_rules(struct kunit *test)
{
	struct gb_kt_blob b;
	size_t at;

	gb_kt_start(&b);
	gb_kt_bundle(test, &b, 1, GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_cport(test, &b, 1, 1, GREYBUS_PROTOCOL_GPIO);
	gb_kt_refused(test, &b, GB_MNF_NO_INTERFACE, 0);

	gb_kt_valid(test, &b);
	at = b.size;
	gb_kt_interface(test, &b, 1, 2);
	gb_kt_refused(test, &b, GB_MNF_MULTIPLE_INTERFACES, at);
}

static void gb_kt_mnf_missing_string(struct kunit *test)
{
	struct gb_kt_blob b;
	size_t at;

	/* Product string 3 is nowhere; the error points at the interface */
	gb_kt_start(&b);
	gb_kt_string(test, &b, 1, "Acme");
	at = b.size;
	gb_kt_interface(test, &b, 1, 3);
	gb_kt_bundle(test, &b, 1, GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_cport(test, &b, 1, 1, GREYBUS_PROTOCOL_GPIO);
	gb_kt_refused(test, &b, GB_MNF_MISSING_STRING, at);

	/* String id 0 means "no string" */
	gb_kt_start(&b);
	gb_kt_interface(test, &b, 0, 0);
	gb_kt_bundle(test, &b, 1, GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_cport(test, &b, 1, 1, GREYBUS_PROTOCOL_GPIO);
	KUNIT_EXPECT_EQ(test, gb_kt_check(test, &b, NULL), 0);

	/* Vendor and product may not share a string */
	gb_kt_start(&b);
	gb_kt_string(test, &b, 1, "Acme");
	at = b.size;
	gb_kt_interface(test, &b, 1, 1);
	gb_kt_bundle(test, &b, 1, GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_cport(test, &b, 1, 1, GREYBUS_PROTOCOL_GPIO);
	gb_kt_refused(test, &b, GB_MNF_SHARED_STRING, at);
}

static void gb_kt_mnf_no_bundles(struct kunit *test)
{
	struct gb_kt_blob b;

	/* A bundle without cports does not count */
	gb_kt_start(&b);
	gb_kt_interface(test, &b, 0, 0);
	gb_kt_bundle(test, &b, 1, GREYBUS_CLASS_BRIDGED_PHY);
	gb_kt_refused(test, &b, GB_MNF_NO_BUNDLES, 0);

	/* Nor does the control bundle's cport */
	gb_kt_bundle(test, &b, GREYBUS_CONTROL_BUNDLE_ID,
		     GREYBUS_CLASS_CONTROL);
	gb_kt_cport(test, &b, GREYBUS_CONTROL_CPORT_ID,
		    GREYBUS_CONTROL_BUNDLE_ID, GREYBUS_PROTOCOL_CONTROL);
	gb_kt_refused(test, &b, GB_MNF_NO_BUNDLES, 0);
}

static void gb_kt_mnf_strerror(struct kunit *test)
{
	const char *seen[GB_MNF_ERROR_COUNT];
	const char *unknown;
	unsigned int i, j;

	unknown = gb_manifest_strerror(GB_MNF_ERROR_COUNT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, unknown);
	KUNIT_EXPECT_STREQ(test, gb_manifest_strerror((enum gb_manifest_error)-1), unknown);

	/* Every error has a phrase of its own */
	for (i = 0; i < GB_MNF_ERROR_COUNT; i++) {
		seen[i] = gb_manifest_strerror(i);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, seen[i]);
		KUNIT_EXPECT_GT(test, strlen(seen[i]), 0UL);
		KUNIT_EXPECT_STRNEQ(test, seen[i], unknown);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, seen[i], seen[j]);
	}
}

static struct kunit_case gb_kt_manifest_cases[] = {
	KUNIT_CASE(gb_kt_mnf_valid),
	KUNIT_CASE(gb_kt_mnf_blob_framing),
	KUNIT_CASE(gb_kt_mnf_version),
	KUNIT_CASE(gb_kt_mnf_desc_framing),
	KUNIT_CASE(gb_kt_mnf_desc_size),
	KUNIT_CASE(gb_kt_mnf_larger_desc),
	KUNIT_CASE(gb_kt_mnf_unknown_desc),
	KUNIT_CASE(gb_kt_mnf_string_rules),
	KUNIT_CASE(gb_kt_mnf_bundle_rules),
	KUNIT_CASE(gb_kt_mnf_control_bundle),
	KUNIT_CASE(gb_kt_mnf_cport_rules),
	KUNIT_CASE(gb_kt_mnf_cport_bundle),
	KUNIT_CASE(gb_kt_mnf_interface_rules),
	KUNIT_CASE(gb_kt_mnf_missing_string),
	KUNIT_CASE(gb_kt_mnf_no_bundles),
	KUNIT_CASE(gb_kt_mnf_strerror),
	{}
};

static struct kunit_suite gb_kt_manifest_suite = {
	.name = "greybus-manifest",
	.test_cases = gb_kt_manifest_cases,
};

/* --- operation ids ------------------------------------------------------ */

static void gb_kt_id_step(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gb_operation_id_next(1), 2);
	KUNIT_EXPECT_EQ(test, gb_operation_id_next(0x1234), 0x1235);
	KUNIT_EXPECT_EQ(test, gb_operation_id_next(0xfffe), 0xffff);
}

static void gb_kt_id_wrap(struct kunit *test)
{
	/* 0xffff is followed by 1, not by 0 (unidirectional) */
	KUNIT_EXPECT_EQ(test, gb_operation_id_next(U16_MAX), 1);
	KUNIT_EXPECT_NE(test, gb_operation_id_next(U16_MAX),
			GB_OPERATION_ID_NONE);
}

static void gb_kt_id_first(struct kunit *test)
{
	/* A new connection's cycle starts at 0: its first id is 1 */
	KUNIT_EXPECT_EQ(test, gb_operation_id_next(GB_OPERATION_ID_NONE), 1);
}

static void gb_kt_id_cycle(struct kunit *test)
{
	unsigned long *seen;
	unsigned int i;
	u16 id = 0;

	seen = kunit_kzalloc(test, BITS_TO_LONGS(U16_MAX + 1) *
			     sizeof(unsigned long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, seen);

	/* 65535 steps visit every id but 0 exactly once, then start over */
	for (i = 0; i < U16_MAX; i++) {
		id = gb_operation_id_next(id);
		if (id == GB_OPERATION_ID_NONE || test_bit(id, seen)) {
			KUNIT_FAIL(test, "step %u gave id 0x%04x again", i, id);
			return;
		}
		__set_bit(id, seen);
	}
	KUNIT_EXPECT_EQ(test, id, U16_MAX);
	KUNIT_EXPECT_EQ(test, bitmap_weight(seen, U16_MAX + 1),
			(unsigned int)U16_MAX);
	KUNIT_EXPECT_FALSE(test, test_bit(GB_OPERATION_ID_NONE, seen));
	KUNIT_EXPECT_EQ(test, gb_operation_id_next(id), 1);
}

/* Each test's set of ids in flight, freed whatever the test's outcome */
static int gb_kt_ids_init(struct kunit *test)
{
	struct gb_operation_ids *ids = kzalloc(sizeof(*ids), GFP_KERNEL);

	test->priv = ids;

	return ids ? 0 : -ENOMEM;
}

static void gb_kt_ids_exit(struct kunit *test)
{
	gb_operation_ids_destroy(test->priv);
	kfree(test->priv);
}

/* Puts @n ids from @from in flight, as sends one after the other do */
static void gb_kt_ids_set(struct kunit *test, unsigned int from,
			  unsigned int n)
{
	struct gb_operation_ids *ids = test->priv;
	unsigned int id;

	for (id = from; id < from + n; id++)
		KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, id, id, ids,
							   GFP_KERNEL), 0);
}

static void gb_kt_ids_clear(struct kunit *test, unsigned int id)
{
	gb_operation_ids_clear(test->priv, id, id);
}

/* The rule the pick keeps: next, next, ... until one not in flight */
static int gb_kt_id_pick_slow(const struct gb_operation_ids *ids, u16 last)
{
	unsigned int tries;
	u16 id = last;

	for (tries = 0; tries < U16_MAX; tries++) {
		id = gb_operation_id_next(id);
		if (!gb_operation_ids_test(ids, id))
			return id;
	}

	return -EBUSY;
}

static void gb_kt_id_pick_free(struct kunit *test)
{
	struct gb_operation_ids *ids = test->priv;

	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 0), 1);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 0x1234), 0x1235);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 0xfffe), 0xffff);
	/* after 0xffff comes 1, never 0 */
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, U16_MAX), 1);
	/* nothing in flight holds no memory */
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 0U);
}

static void gb_kt_id_pick_skips(struct kunit *test)
{
	struct gb_operation_ids *ids = test->priv;
	unsigned int id;

	gb_kt_ids_set(test, 5, 3);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 4), 8);
	/* across a word boundary */
	gb_kt_ids_set(test, 60, 10);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 59), 70);
	/* across a chunk boundary */
	gb_kt_ids_set(test, GB_OPERATION_ID_CHUNK_BITS - 2, 4);
	id = gb_operation_ids_pick(ids, GB_OPERATION_ID_CHUNK_BITS - 3);
	KUNIT_EXPECT_EQ(test, id, GB_OPERATION_ID_CHUNK_BITS + 2);
	/* across the wrap: 0xfff0..0xffff and 1..2 in flight */
	gb_kt_ids_set(test, 0xfff0, 16);
	gb_kt_ids_set(test, 1, 2);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 0xffef), 3);
	/* the id before @last is found last */
	for (id = 1; id <= U16_MAX; id++)
		if (!gb_operation_ids_test(ids, id))
			gb_kt_ids_set(test, id, 1);
	gb_kt_ids_clear(test, 0x100);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 0x100), 0x100);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 0x101), 0x100);
	/* 0 is not an id */
	gb_kt_ids_set(test, 0x100, 1);
	KUNIT_EXPECT_FALSE(test, gb_operation_ids_test(ids, 0));
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 0x80), -EBUSY);
}

/* A full window: 65535 ids in flight, each one once, then -EBUSY */
static void gb_kt_id_pick_window(struct kunit *test)
{
	struct gb_operation_ids *ids = test->priv;
	unsigned int i, n = 0;
	int id = 0x7000;
	u16 last;

	/* some in flight already, from an earlier round */
	gb_kt_ids_set(test, 0x7100, 0x100);
	gb_kt_ids_set(test, 0x10, 0x10);
	for (i = 0; i < U16_MAX - 0x110; i++) {
		last = id;
		id = gb_operation_ids_pick(ids, last);
		if (id <= 0 || gb_operation_ids_test(ids, id)) {
			KUNIT_FAIL(test, "pick %u gave %d", i, id);
			return;
		}
		KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, id, last, ids,
							   GFP_KERNEL), 0);
	}
	for (i = 0; i <= U16_MAX; i++)
		n += gb_operation_ids_test(ids, i);
	KUNIT_EXPECT_EQ(test, n, (unsigned int)U16_MAX);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids),
			(unsigned int)GB_OPERATION_ID_CHUNKS);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, id), -EBUSY);
	/* one answered: it is the only one to give */
	gb_operation_ids_clear(ids, 0x7123, id);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, id), 0x7123);
}

/* Random windows: the same id as the one-step-at-a-time rule */
static void gb_kt_id_pick_rule(struct kunit *test)
{
	struct gb_operation_ids *ids = test->priv;
	unsigned int round, i, n;
	u32 x = 0x2545f491;
	u16 last;

	for (round = 0; round < 200; round++) {
		gb_operation_ids_destroy(ids);
		/* a run of ids in flight after a random start, and strays */
		x = x * 1664525 + 1013904223;
		last = x >> 16;
		n = min_t(unsigned int, x % 4096,
			  GB_OPERATION_IDS - 1 - gb_operation_id_next(last));
		gb_kt_ids_set(test, gb_operation_id_next(last), n);
		for (i = 0; i < 64; i++) {
			x = x * 1664525 + 1013904223;
			if ((x >> 16) && !gb_operation_ids_test(ids, x >> 16))
				gb_kt_ids_set(test, x >> 16, 1);
		}
		KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, last),
				gb_kt_id_pick_slow(ids, last));
	}
}

/*
 * @depth operations at a time through three cycles of the ids, each
 * answered when the @depth-th after it is sent: the most chunks the map
 * held at once.
 */
static unsigned int gb_kt_ids_run(struct kunit *test, unsigned int depth,
				  u16 *last)
{
	struct gb_operation_ids *ids = test->priv;
	unsigned int i, max = 0;
	u16 ring[32];
	int id;

	if (WARN_ON(depth > ARRAY_SIZE(ring)))
		return UINT_MAX;
	for (i = 0; i < 3 * GB_OPERATION_IDS; i++) {
		if (i >= depth)
			gb_operation_ids_clear(ids, ring[i % depth], *last);
		id = gb_operation_ids_pick(ids, *last);
		KUNIT_ASSERT_GT(test, id, 0);
		KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, id, *last, ids,
							   GFP_KERNEL), 0);
		*last = id;
		ring[i % depth] = id;
		max = max(max, gb_operation_ids_chunks(ids));
	}
	for (i = 0; i < depth; i++)
		gb_operation_ids_clear(ids, ring[i], *last);

	return max;
}

/*
 * Fewer than GB_OPERATION_ID_NEAR operations at a time never allocate:
 * ids handed out in turn fill different near slots.  With that many, the
 * wrap past 0 shifts the ids by one slot (65535 is not a multiple of it):
 * one id a cycle goes to the map.  32 at a time keep at most the chunks
 * of the ids in flight and of the last id, and once all are answered at
 * most the chunk of the last id.
 */
static void gb_kt_id_chunks(struct kunit *test)
{
	struct gb_operation_ids *ids = test->priv;
	u16 last = 0;

	KUNIT_EXPECT_EQ(test, gb_kt_ids_run(test, 1, &last), 0U);
	KUNIT_EXPECT_EQ(test, gb_kt_ids_run(test, GB_OPERATION_ID_NEAR - 1,
					    &last), 0U);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 0U);
	KUNIT_EXPECT_EQ(test, gb_kt_ids_run(test, GB_OPERATION_ID_NEAR, &last),
			1U);
	KUNIT_EXPECT_LE(test, gb_operation_ids_chunks(ids), 1U);

	KUNIT_EXPECT_LE(test, gb_kt_ids_run(test, 32, &last), 2U);
	KUNIT_EXPECT_LE(test, gb_operation_ids_chunks(ids), 1U);
}

/*
 * An id whose near slot is taken goes to the map; a near slot freed takes
 * the next id that falls on it; each id gives back its own entry.
 */
static void gb_kt_id_near(struct kunit *test)
{
	struct gb_operation_ids *ids = test->priv;
	const unsigned int n = GB_OPERATION_ID_NEAR;
	u8 mark[2 * GB_OPERATION_ID_NEAR + 2];

	gb_kt_ids_set(test, 1, n);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 0U);
	/* the map is empty; the pick passes over the near slots' ids */
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, 0), n + 1);

	KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, n + 1, n, &mark[n + 1],
						   GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 1U);
	KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, n + 1),
			    (void *)&mark[n + 1]);
	KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, 1), (void *)ids);

	/* 1 answered: n + 1, on the same slot, is still found in the map */
	gb_operation_ids_clear(ids, 1, n + 1);
	KUNIT_EXPECT_FALSE(test, gb_operation_ids_test(ids, 1));
	KUNIT_EXPECT_NULL(test, gb_operation_ids_lookup(ids, 1));
	KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, n + 1),
			    (void *)&mark[n + 1]);

	/* 2n + 1 takes the free slot; the map does not change */
	KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, 2 * n + 1, n + 1,
						   &mark[2 * n + 1],
						   GFP_KERNEL), 0);
	KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, 2 * n + 1),
			    (void *)&mark[2 * n + 1]);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 1U);

	/* the map's id answered, the last one near: the map can go */
	gb_operation_ids_clear(ids, n + 1, 2 * n + 1);
	KUNIT_EXPECT_NULL(test, gb_operation_ids_lookup(ids, n + 1));
	KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, 2 * n + 1),
			    (void *)&mark[2 * n + 1]);
	gb_operation_ids_shrink(ids);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 0U);
	KUNIT_EXPECT_TRUE(test, gb_operation_ids_test(ids, 2 * n + 1));
}

/*
 * Shrinking frees every chunk without an id in flight, the last id's
 * too, keeps those with one, and the next ids follow the last one as
 * before.  Ids from 0x8000 hold the near slots, so that the ids of the
 * test go to the map.
 */
static void gb_kt_id_shrink(struct kunit *test)
{
	struct gb_operation_ids *ids = test->priv;
	u16 stay = 2 * GB_OPERATION_ID_CHUNK_BITS + 5, last = 0x1234;

	gb_kt_ids_set(test, 0x8000, GB_OPERATION_ID_NEAR);
	KUNIT_ASSERT_EQ(test, gb_operation_ids_chunks(ids), 0U);

	KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, stay, 0, ids,
						   GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, last, stay, ids,
						   GFP_KERNEL), 0);
	gb_operation_ids_clear(ids, last, last);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 2U);

	gb_operation_ids_shrink(ids);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 1U);
	KUNIT_EXPECT_TRUE(test, gb_operation_ids_test(ids, stay));
	KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, stay),
			    (void *)ids);

	gb_operation_ids_clear(ids, stay, last);
	gb_operation_ids_shrink(ids);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 0U);

	/* The next id is the one after the last, its chunk made again */
	KUNIT_EXPECT_EQ(test, gb_operation_ids_pick(ids, last), last + 1);
	KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, last + 1, last, ids,
						   GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 1U);
	KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, last + 1),
			    (void *)ids);
	gb_operation_ids_clear(ids, last + 1, last + 1);
}

/* Each id in flight gives back its entry, in a fixed number of steps */
static void gb_kt_id_lookup(struct kunit *test)
{
	struct gb_operation_ids *ids = test->priv;
	const unsigned int n = GB_OPERATION_ID_CHUNK_BITS;
	unsigned long steps;
	unsigned int id;
	u8 *mark;

	mark = kunit_kzalloc(test, GB_OPERATION_IDS, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mark);

	for (id = 1; id <= n; id++)
		KUNIT_ASSERT_EQ(test, gb_operation_ids_set(ids, id, id - 1,
							   &mark[id],
							   GFP_KERNEL), 0);

	steps = ids->lookup_steps;
	for (id = n; id >= 1; id--)
		KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, id),
				    (void *)&mark[id]);
	KUNIT_EXPECT_EQ(test, ids->lookup_steps - steps,
			(unsigned long)n * GB_OPERATION_ID_LOOKUP_STEPS);

	KUNIT_EXPECT_NULL(test, gb_operation_ids_lookup(ids,
							GB_OPERATION_ID_NONE));
	KUNIT_EXPECT_NULL(test, gb_operation_ids_lookup(ids, n + 1));
	KUNIT_EXPECT_NULL(test, gb_operation_ids_lookup(ids, U16_MAX));

	/* Cleared ids give nothing, even where their leaf stays */
	for (id = 2; id <= n; id += 2)
		gb_operation_ids_clear(ids, id, n);
	for (id = 1; id <= n; id++)
		KUNIT_EXPECT_PTR_EQ(test, gb_operation_ids_lookup(ids, id),
				    id % 2 ? (void *)&mark[id] : NULL);
	for (id = 1; id <= n; id += 2)
		gb_operation_ids_clear(ids, id, n);
	KUNIT_EXPECT_NULL(test, gb_operation_ids_lookup(ids, 1));
	KUNIT_EXPECT_EQ(test, gb_operation_ids_chunks(ids), 1U);
}

static struct kunit_case gb_kt_id_cases[] = {
	KUNIT_CASE(gb_kt_id_step),
	KUNIT_CASE(gb_kt_id_wrap),
	KUNIT_CASE(gb_kt_id_first),
	KUNIT_CASE(gb_kt_id_cycle),
	KUNIT_CASE(gb_kt_id_pick_free),
	KUNIT_CASE(gb_kt_id_pick_skips),
	KUNIT_CASE(gb_kt_id_pick_window),
	KUNIT_CASE(gb_kt_id_pick_rule),
	KUNIT_CASE(gb_kt_id_chunks),
	KUNIT_CASE(gb_kt_id_near),
	KUNIT_CASE(gb_kt_id_lookup),
	KUNIT_CASE(gb_kt_id_shrink),
	{}
};

static struct kunit_suite gb_kt_id_suite = {
	.name = "greybus-operation-id",
	.init = gb_kt_ids_init,
	.exit = gb_kt_ids_exit,
	.test_cases = gb_kt_id_cases,
};

/* --- result codes ------------------------------------------------------- */

/* The pairs both directions agree on (protocol-reference 1.2) */
static const struct {
	u8 status;
	int errno;
} gb_kt_codes[] = {
	{ GB_OP_SUCCESS,	0 },
	{ GB_OP_INTERRUPTED,	-EINTR },
	{ GB_OP_TIMEOUT,	-ETIMEDOUT },
	{ GB_OP_NO_MEMORY,	-ENOMEM },
	{ GB_OP_PROTOCOL_BAD,	-EPROTONOSUPPORT },
	{ GB_OP_OVERFLOW,	-EMSGSIZE },
	{ GB_OP_INVALID,	-EINVAL },
	{ GB_OP_RETRY,		-EAGAIN },
	{ GB_OP_NONEXISTENT,	-ENODEV },
	{ GB_OP_MALFUNCTION,	-EILSEQ },
};

static void gb_kt_status_to_errno(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gb_kt_codes); i++)
		KUNIT_EXPECT_EQ(test,
				gb_operation_status_to_errno(gb_kt_codes[i].status),
				gb_kt_codes[i].errno);
}

static void gb_kt_errno_to_status(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gb_kt_codes); i++)
		KUNIT_EXPECT_EQ(test,
				gb_operation_errno_to_status(gb_kt_codes[i].errno),
				gb_kt_codes[i].status);
}

static void gb_kt_status_unlisted(struct kunit *test)
{
	unsigned int status;

	/* Invalid-state (spec only), reserved and unknown-error: -EIO */
	KUNIT_EXPECT_EQ(test, gb_operation_status_to_errno(GB_OP_INVALID_STATE),
			-EIO);
	KUNIT_EXPECT_EQ(test, gb_operation_status_to_errno(GB_OP_UNKNOWN_ERROR),
			-EIO);
	for (status = GB_OP_INVALID_STATE + 1; status < GB_OP_UNKNOWN_ERROR;
	     status++)
		KUNIT_EXPECT_EQ(test, gb_operation_status_to_errno(status), -EIO);
}

static void gb_kt_errno_unlisted(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gb_operation_errno_to_status(-EIO),
			GB_OP_UNKNOWN_ERROR);
	KUNIT_EXPECT_EQ(test, gb_operation_errno_to_status(-EPERM),
			GB_OP_UNKNOWN_ERROR);
	KUNIT_EXPECT_EQ(test, gb_operation_errno_to_status(-ESHUTDOWN),
			GB_OP_UNKNOWN_ERROR);
	/* Not an errno at all: positive values are not success */
	KUNIT_EXPECT_EQ(test, gb_operation_errno_to_status(EINVAL),
			GB_OP_UNKNOWN_ERROR);
}

static void gb_kt_status_round_trip(struct kunit *test)
{
	unsigned int status;
	int errno;

	/*
	 * What a responder sends back for the errno a status became is the
	 * status itself, or unknown-error for those that became -EIO.
	 */
	for (status = 0; status <= U8_MAX; status++) {
		errno = gb_operation_status_to_errno(status);
		KUNIT_EXPECT_LE(test, errno, 0);
		if (errno == -EIO)
			KUNIT_EXPECT_EQ(test,
					gb_operation_errno_to_status(errno),
					GB_OP_UNKNOWN_ERROR);
		else
			KUNIT_EXPECT_EQ(test,
					gb_operation_errno_to_status(errno),
					status);
	}
}

static struct kunit_case gb_kt_code_cases[] = {
	KUNIT_CASE(gb_kt_status_to_errno),
	KUNIT_CASE(gb_kt_errno_to_status),
	KUNIT_CASE(gb_kt_status_unlisted),
	KUNIT_CASE(gb_kt_errno_unlisted),
	KUNIT_CASE(gb_kt_status_round_trip),
	{}
};

static struct kunit_suite gb_kt_code_suite = {
	.name = "greybus-result-codes",
	.test_cases = gb_kt_code_cases,
};

/* --- message sizes ------------------------------------------------------ */

#define GB_KT_HDR	sizeof(struct gb_operation_msg_hdr)

/*
 * gb_message_framing_check() on @length bytes whose header says @size;
 * exactly @length bytes are allocated, so KASAN sees a read past them.
 */
static enum gb_message_framing gb_kt_framing(struct kunit *test,
					     size_t length, u16 size,
					     size_t size_max)
{
	struct gb_operation_msg_hdr header = {
		.size = cpu_to_le16(size),
		.type = 0x02,
	};
	u8 *buf;

	buf = kunit_kzalloc(test, length, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memcpy(buf, &header, min(length, GB_KT_HDR));

	return gb_message_framing_check(buf, length, size_max);
}

static void gb_kt_msg_short(struct kunit *test)
{
	size_t length;

	/* Fewer bytes than a header: refused whatever they contain */
	for (length = 1; length < GB_KT_HDR; length++)
		KUNIT_EXPECT_EQ(test, gb_kt_framing(test, length, length, 2048),
				GB_MSG_FRAMING_SHORT);
}

static void gb_kt_msg_header_only(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, GB_KT_HDR, GB_KT_HDR, 2048),
			GB_MSG_FRAMING_OK);
}

static void gb_kt_msg_size_below_header(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, 16, 0, 2048),
			GB_MSG_FRAMING_BAD_SIZE);
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, 16, GB_KT_HDR - 1, 2048),
			GB_MSG_FRAMING_BAD_SIZE);
}

static void gb_kt_msg_size_past_received(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, 16, 17, 2048),
			GB_MSG_FRAMING_BAD_SIZE);
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, GB_KT_HDR, 0xffff, 2048),
			GB_MSG_FRAMING_BAD_SIZE);
}

static void gb_kt_msg_trailing_bytes(struct kunit *test)
{
	/* Bytes after the header's size are not part of the message */
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, 64, 12, 2048),
			GB_MSG_FRAMING_OK);
	/* ... and do not count against the maximum */
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, 64, 12, 12),
			GB_MSG_FRAMING_OK);
}

static void gb_kt_msg_size_max(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, 2048, 2048, 2048),
			GB_MSG_FRAMING_OK);
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, 2049, 2049, 2048),
			GB_MSG_FRAMING_TOO_BIG);
	/* A message no bigger than the buffer: the largest wire size */
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, GB_OPERATION_MSG_SIZE_MAX,
					    GB_OPERATION_MSG_SIZE_MAX,
					    GB_OPERATION_MSG_SIZE_MAX),
			GB_MSG_FRAMING_OK);
}

static void gb_kt_msg_bad_size_first(struct kunit *test)
{
	/* Both wrong: the size is reported, not the maximum */
	KUNIT_EXPECT_EQ(test, gb_kt_framing(test, 16, 4096, 2048),
			GB_MSG_FRAMING_BAD_SIZE);
}

static void gb_kt_msg_payload_max(struct kunit *test)
{
	struct gb_connection *connection;
	struct gb_host_device *hd;

	hd = kunit_kzalloc(test, sizeof(*hd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hd);
	connection = kunit_kzalloc(test, sizeof(*connection), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, connection);
	connection->hd = hd;

	/* The header comes out of the host's buffer */
	hd->buffer_size_max = 2048;
	KUNIT_EXPECT_EQ(test, gb_operation_get_payload_size_max(connection),
			(size_t)2048 - GB_KT_HDR);
	hd->buffer_size_max = GB_OPERATION_MSG_SIZE_MAX;
	KUNIT_EXPECT_EQ(test, gb_operation_get_payload_size_max(connection),
			(size_t)GB_OPERATION_MSG_SIZE_MAX - GB_KT_HDR);
}

static struct kunit_case gb_kt_msg_cases[] = {
	KUNIT_CASE(gb_kt_msg_short),
	KUNIT_CASE(gb_kt_msg_header_only),
	KUNIT_CASE(gb_kt_msg_size_below_header),
	KUNIT_CASE(gb_kt_msg_size_past_received),
	KUNIT_CASE(gb_kt_msg_trailing_bytes),
	KUNIT_CASE(gb_kt_msg_size_max),
	KUNIT_CASE(gb_kt_msg_bad_size_first),
	KUNIT_CASE(gb_kt_msg_payload_max),
	{}
};

static struct kunit_suite gb_kt_msg_suite = {
	.name = "greybus-message-size",
	.test_cases = gb_kt_msg_cases,
};

/* --- TimeSync clock arithmetic ------------------------------------------ */

#define GB_KT_TICKS_PER_SEC	19200000ULL
/* An anchor as a run leaves it: some uptime, the SVC's count ahead */
#define GB_KT_ANCHOR_NS		(123ULL * NSEC_PER_SEC + 456789)
#define GB_KT_ANCHOR_FT		(987654321ULL)

static void gb_kt_ts_units(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, GB_TIMESYNC_REFCLK_HZ, GB_KT_TICKS_PER_SEC);
	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ticks(NSEC_PER_SEC),
			GB_KT_TICKS_PER_SEC);
	KUNIT_EXPECT_EQ(test, gb_timesync_ticks_to_ns(GB_KT_TICKS_PER_SEC),
			(u64)NSEC_PER_SEC);
	/* 12 ticks are exactly 625 ns; one tick is 52.083 ns */
	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ticks(625), 12ULL);
	KUNIT_EXPECT_EQ(test, gb_timesync_ticks_to_ns(12), 625ULL);
	KUNIT_EXPECT_EQ(test, gb_timesync_ticks_to_ns(1), 52ULL);
	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ticks(52), 0ULL);
	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ticks(53), 1ULL);
	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ticks(0), 0ULL);
}

/* Ten years of uptime and the 64-bit edge: no overflow on the way */
static void gb_kt_ts_large(struct kunit *test)
{
	u64 ten_years_ns = 3650ULL * 86400 * NSEC_PER_SEC;
	u64 ticks;

	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ticks(ten_years_ns),
			3650ULL * 86400 * GB_KT_TICKS_PER_SEC);
	KUNIT_EXPECT_EQ(test,
			gb_timesync_ticks_to_ns(3650ULL * 86400 * GB_KT_TICKS_PER_SEC),
			ten_years_ns);
	/* U64_MAX ns is 2^64 / 52.08 ticks: below U64_MAX, exact to a tick */
	ticks = gb_timesync_ns_to_ticks(U64_MAX);
	KUNIT_EXPECT_EQ(test, ticks, div_u64(U64_MAX, 625) * 12 +
			div_u64((U64_MAX - div_u64(U64_MAX, 625) * 625) * 12, 625));
}

/* Each way loses at most one unit of the finer or coarser clock */
static void gb_kt_ts_round_trip(struct kunit *test)
{
	static const u64 ns[] = {
		0, 1, 51, 52, 53, 624, 625, 626, 999999999, 1000000000,
		GB_KT_ANCHOR_NS, 86400ULL * NSEC_PER_SEC + 7,
	};
	unsigned int i;
	u64 back, t;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		back = gb_timesync_ticks_to_ns(gb_timesync_ns_to_ticks(ns[i]));
		KUNIT_EXPECT_LE_MSG(test, back, ns[i], "ns %llu", ns[i]);
		KUNIT_EXPECT_LT_MSG(test, ns[i] - back, 53ULL, "ns %llu", ns[i]);

		t = ns[i];	/* the same numbers as tick counts */
		back = gb_timesync_ns_to_ticks(gb_timesync_ticks_to_ns(t));
		KUNIT_EXPECT_LE_MSG(test, back, t, "ticks %llu", t);
		KUNIT_EXPECT_LE_MSG(test, t - back, 1ULL, "ticks %llu", t);
	}
}

static void gb_kt_ts_anchor(struct kunit *test)
{
	const u64 a_ns = GB_KT_ANCHOR_NS, a_ft = GB_KT_ANCHOR_FT;

	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ft(a_ns, a_ns, a_ft), a_ft);
	KUNIT_EXPECT_EQ(test, gb_timesync_ft_to_ns(a_ft, a_ft, a_ns), a_ns);
	/* A second either side of the anchor is 19.2 M ticks either side */
	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ft(a_ns + NSEC_PER_SEC, a_ns, a_ft),
			a_ft + GB_KT_TICKS_PER_SEC);
	KUNIT_EXPECT_EQ(test, gb_timesync_ns_to_ft(a_ns - NSEC_PER_SEC, a_ns, a_ft),
			a_ft - GB_KT_TICKS_PER_SEC);
	KUNIT_EXPECT_EQ(test,
			gb_timesync_ft_to_ns(a_ft + GB_KT_TICKS_PER_SEC, a_ft, a_ns),
			a_ns + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test,
			gb_timesync_ft_to_ns(a_ft - GB_KT_TICKS_PER_SEC, a_ft, a_ns),
			a_ns - NSEC_PER_SEC);
	/* A FrameTime counter far ahead of the AP's clock changes nothing */
	KUNIT_EXPECT_EQ(test,
			gb_timesync_ns_to_ft(a_ns + 625, a_ns, U64_MAX / 2),
			U64_MAX / 2 + 12);
}

/* Readings in order stay in order across the anchor, both ways */
static void gb_kt_ts_monotonic(struct kunit *test)
{
	const u64 a_ns = GB_KT_ANCHOR_NS, a_ft = GB_KT_ANCHOR_FT;
	u64 x, prev_ft = 0, prev_ns = 0, ft, ns;

	for (x = a_ns - 2000; x <= a_ns + 2000; x++) {
		ft = gb_timesync_ns_to_ft(x, a_ns, a_ft);
		if (x > a_ns - 2000 && ft < prev_ft) {
			KUNIT_FAIL(test, "ns %llu gave FrameTime %llu < %llu",
				   x, ft, prev_ft);
			return;
		}
		prev_ft = ft;
	}
	for (x = a_ft - 100; x <= a_ft + 100; x++) {
		ns = gb_timesync_ft_to_ns(x, a_ft, a_ns);
		if (x > a_ft - 100 && ns <= prev_ns) {
			KUNIT_FAIL(test, "FrameTime %llu gave ns %llu <= %llu",
				   x, ns, prev_ns);
			return;
		}
		prev_ns = ns;
	}
}

/* A host device without TimeSync (or none) has no FrameTime to give */
static void gb_kt_ts_no_timesync(struct kunit *test)
{
	struct timespec64 ts64;
	u64 ft = 42;
	ktime_t kt = 7;

	KUNIT_EXPECT_EQ(test, gb_timesync_from_ktime(NULL, ktime_get(), &ft),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, gb_timesync_to_ktime(NULL, 1, &kt), -ENODEV);
	KUNIT_EXPECT_EQ(test, gb_timesync_to_timespec(NULL, 1, &ts64), -ENODEV);
	/* and leaves the caller's variables alone */
	KUNIT_EXPECT_EQ(test, ft, 42ULL);
	KUNIT_EXPECT_EQ(test, kt, (ktime_t)7);
}

static struct kunit_case gb_kt_ts_cases[] = {
	KUNIT_CASE(gb_kt_ts_units),
	KUNIT_CASE(gb_kt_ts_large),
	KUNIT_CASE(gb_kt_ts_round_trip),
	KUNIT_CASE(gb_kt_ts_anchor),
	KUNIT_CASE(gb_kt_ts_monotonic),
	KUNIT_CASE(gb_kt_ts_no_timesync),
	{}
};

static struct kunit_suite gb_kt_ts_suite = {
	.name = "greybus-timesync-clock",
	.test_cases = gb_kt_ts_cases,
};

kunit_test_suites(&gb_kt_manifest_suite, &gb_kt_id_suite, &gb_kt_code_suite,
		  &gb_kt_msg_suite, &gb_kt_ts_suite);

MODULE_DESCRIPTION("KUnit tests of the Greybus core's pure parts");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
