/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus manifest validation, shared by greybus.ko and the userspace
 * tools (tools/lib builds kernel/core/manifest_check.c through a small
 * compatibility shim).  One implementation means the kernel and mnfc can
 * never disagree on what a valid manifest is.
 *
 * A manifest that passes gb_manifest_check() is guaranteed to have:
 *  - a header whose size equals the blob length and whose major version
 *    is one we speak (0);
 *  - descriptors that tile the blob exactly, each a non-zero multiple of
 *    4 bytes and at least as large as its type needs (larger is fine:
 *    trailing bytes are to be ignored);
 *  - string descriptors whose text fits inside them, with unique ids that
 *    are never 0;
 *  - unique bundle ids, none 0xff (reserved); bundle 0, if declared, has
 *    class control and no other bundle has class control;
 *  - unique cport ids in 0..4095; cport 0, if declared, is in bundle 0 with
 *    protocol control; every cport's bundle is declared (bundle 0, the
 *    control bundle, always counts as declared);
 *  - exactly one interface descriptor, whose non-zero string ids resolve
 *    and differ from each other (Linux uses each string once);
 *  - at least one bundle other than bundle 0 that has a cport.
 * The rules on bundle 0xff and on a shared vendor/product string are
 * checked after every other, so a manifest failing only those is
 * otherwise well formed.
 * Descriptors of unknown type are skipped and counted, not rejected.
 * Bundles without cports are accepted; a parser is expected to skip them.
 */
#ifndef __GREYBUS_MANIFEST_CHECK_H
#define __GREYBUS_MANIFEST_CHECK_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kcompat.h"
#endif

/**
 * enum gb_manifest_error - the first rule a manifest breaks
 * @GB_MNF_OK: none, the manifest is valid
 * @GB_MNF_EMPTY: a zero-length blob
 * @GB_MNF_SHORT_HEADER: shorter than the 4-byte header
 * @GB_MNF_SIZE_MISMATCH: the header's size is not the blob's length
 * @GB_MNF_BAD_VERSION: a major version we do not speak (> 0)
 * @GB_MNF_DESC_SHORT: less than 4 bytes left for a descriptor header
 * @GB_MNF_DESC_ZERO_SIZE: a descriptor of size 0
 * @GB_MNF_DESC_PAST_END: a descriptor's size runs past the end
 * @GB_MNF_DESC_TOO_SMALL: a descriptor smaller than its type needs
 * @GB_MNF_DESC_UNALIGNED: a descriptor size not a multiple of 4
 * @GB_MNF_STRING_OVERFLOW: a string's length does not fit its descriptor
 * @GB_MNF_STRING_ID_ZERO: a string with id 0
 * @GB_MNF_DUP_STRING: two strings with the same id
 * @GB_MNF_DUP_BUNDLE: two bundles with the same id
 * @GB_MNF_DUP_CPORT: two CPorts with the same id
 * @GB_MNF_CPORT_ID_RANGE: a CPort id above 4095
 * @GB_MNF_CPORT_NO_BUNDLE: a CPort's bundle is not declared
 * @GB_MNF_BUNDLE0_CLASS: bundle 0 with a class other than control
 * @GB_MNF_CPORT0_OUTSIDE_CONTROL: CPort 0 outside bundle 0 or with a
 *	protocol other than control
 * @GB_MNF_CONTROL_CLASS_BUNDLE: a bundle other than 0 with class control
 * @GB_MNF_NO_INTERFACE: no interface descriptor
 * @GB_MNF_MULTIPLE_INTERFACES: more than one interface descriptor
 * @GB_MNF_MISSING_STRING: the interface names a string that is absent
 * @GB_MNF_NO_BUNDLES: no bundle other than bundle 0 with a CPort
 * @GB_MNF_BUNDLE_ID_RESERVED: a bundle with id 0xff, which Linux reserves
 * @GB_MNF_SHARED_STRING: the interface names one string for both vendor
 *	and product
 * @GB_MNF_ERROR_COUNT: the number of values above
 */
enum gb_manifest_error {
	GB_MNF_OK = 0,
	GB_MNF_EMPTY,
	GB_MNF_SHORT_HEADER,
	GB_MNF_SIZE_MISMATCH,
	GB_MNF_BAD_VERSION,
	GB_MNF_DESC_SHORT,
	GB_MNF_DESC_ZERO_SIZE,
	GB_MNF_DESC_PAST_END,
	GB_MNF_DESC_TOO_SMALL,
	GB_MNF_DESC_UNALIGNED,
	GB_MNF_STRING_OVERFLOW,
	GB_MNF_STRING_ID_ZERO,
	GB_MNF_DUP_STRING,
	GB_MNF_DUP_BUNDLE,
	GB_MNF_DUP_CPORT,
	GB_MNF_CPORT_ID_RANGE,
	GB_MNF_CPORT_NO_BUNDLE,
	GB_MNF_BUNDLE0_CLASS,
	GB_MNF_CPORT0_OUTSIDE_CONTROL,
	GB_MNF_CONTROL_CLASS_BUNDLE,
	GB_MNF_NO_INTERFACE,
	GB_MNF_MULTIPLE_INTERFACES,
	GB_MNF_MISSING_STRING,
	GB_MNF_NO_BUNDLES,
	GB_MNF_BUNDLE_ID_RESERVED,
	GB_MNF_SHARED_STRING,
	GB_MNF_ERROR_COUNT
};

/**
 * struct gb_manifest_report - what gb_manifest_check() found
 * @error: the first error found, GB_MNF_OK if the manifest is valid
 * @offset: where the error is, see below
 * @unknown_descs: the number of descriptors of unknown type
 * @first_unknown_offset: the offset of the first of them, 0 if none
 *
 * @offset is the byte offset, from the start of the blob, of the header
 * or descriptor the error is about: the second occurrence for
 * duplicates, the second interface descriptor for
 * GB_MNF_MULTIPLE_INTERFACES, the interface descriptor for
 * GB_MNF_MISSING_STRING and GB_MNF_SHARED_STRING, the first bundle 0xff
 * for GB_MNF_BUNDLE_ID_RESERVED, the cport descriptor for
 * GB_MNF_CPORT_NO_BUNDLE, and 0 for errors about the blob as a whole (EMPTY, SHORT_HEADER,
 * SIZE_MISMATCH, BAD_VERSION, NO_INTERFACE, NO_BUNDLES).
 *
 * Unknown descriptor types are not errors; they are counted, so that the
 * caller can warn.
 */
struct gb_manifest_report {
	enum gb_manifest_error error;
	u32 offset;
	u32 unknown_descs;
	u32 first_unknown_offset;
};

/*
 * Validates a whole manifest blob.  Returns 0 if it is valid, else -EINVAL
 * with @report->error and @report->offset set.  Never reads outside
 * [@blob, @blob + @size), allocates nothing and may be called in any
 * context.  @report may be NULL when only the verdict matters.
 */
int gb_manifest_check(const void *blob, size_t size,
		      struct gb_manifest_report *report);

/* A short English phrase, e.g. "cport's bundle is not declared" */
const char *gb_manifest_strerror(enum gb_manifest_error error);

#endif /* __GREYBUS_MANIFEST_CHECK_H */
