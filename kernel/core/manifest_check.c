// SPDX-License-Identifier: GPL-2.0
/*
 * Greybus manifest validation: every rule the core relies on before it
 * walks a manifest to build bundles and connections (the rules are listed
 * in greybus/manifest_check.h).
 *
 * This file is compiled twice: into greybus.ko, and into the tools'
 * libgb.a through tools/lib/manifest_check_user.c, which supplies the few
 * kernel helpers used here.  Keep it that way: no allocation, no logging,
 * no locking, nothing from the kernel beyond what kcompat.h can mirror.
 *
 * The manifest comes from the module and is untrusted.  Every read is
 * preceded by a bounds check against the blob length; descriptors are
 * accessed through packed structures, so no alignment is assumed.
 */
#ifdef __KERNEL__
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#include <greybus/manifest_check.h>
#else
#include "kcompat.h"
#include "../include/greybus/manifest_check.h"
#endif

#include <uapi/greybus/manifest.h>

#define GB_MNF_U8_IDS		(U8_MAX + 1)
#define GB_MNF_CPORT_IDS	(GB_CPORT_ID_MAX + 1)

/* Smallest string descriptor: header, length and id, no text */
#define GB_MNF_STRING_DESC_MIN	\
	(sizeof(struct greybus_descriptor_header) + \
	 sizeof(struct greybus_descriptor_string))

/*
 * Ids seen so far.  About 600 bytes, so it lives on the caller's stack
 * rather than in an allocation: validation then cannot fail for memory
 * and can run in any context.
 */
struct gb_manifest_state {
	DECLARE_BITMAP(string_ids, GB_MNF_U8_IDS);
	DECLARE_BITMAP(bundle_ids, GB_MNF_U8_IDS);
	DECLARE_BITMAP(cport_ids, GB_MNF_CPORT_IDS);
	unsigned int interfaces;
	u32 interface_offset;
	u8 vendor_stringid;
	u8 product_stringid;
	bool reserved_bundle;
	u32 reserved_bundle_offset;
};

static int gb_manifest_fail(struct gb_manifest_report *report,
			    enum gb_manifest_error error, size_t offset)
{
	report->error = error;
	report->offset = offset;
	return -EINVAL;
}

static enum gb_manifest_error
gb_manifest_check_interface(const struct greybus_descriptor *desc,
			    size_t desc_size, size_t offset,
			    struct gb_manifest_state *state)
{
	if (desc_size < GREYBUS_DESC_INTERFACE_SIZE)
		return GB_MNF_DESC_TOO_SMALL;
	if (state->interfaces++)
		return GB_MNF_MULTIPLE_INTERFACES;

	state->interface_offset = offset;
	state->vendor_stringid = desc->interface.vendor_stringid;
	state->product_stringid = desc->interface.product_stringid;
	return GB_MNF_OK;
}

static enum gb_manifest_error
gb_manifest_check_string(const struct greybus_descriptor *desc,
			 size_t desc_size, struct gb_manifest_state *state)
{
	if (desc_size < GB_MNF_STRING_DESC_MIN)
		return GB_MNF_DESC_TOO_SMALL;
	if (GB_MNF_STRING_DESC_MIN + desc->string.length > desc_size)
		return GB_MNF_STRING_OVERFLOW;
	if (desc->string.id == 0)
		return GB_MNF_STRING_ID_ZERO;
	if (__test_and_set_bit(desc->string.id, state->string_ids))
		return GB_MNF_DUP_STRING;
	return GB_MNF_OK;
}

static enum gb_manifest_error
gb_manifest_check_bundle(const struct greybus_descriptor *desc,
			 size_t desc_size, size_t offset,
			 struct gb_manifest_state *state)
{
	u8 id, class;

	if (desc_size < GREYBUS_DESC_BUNDLE_SIZE)
		return GB_MNF_DESC_TOO_SMALL;

	id = desc->bundle.id;
	class = desc->bundle.class;
	if (id == GREYBUS_CONTROL_BUNDLE_ID && class != GREYBUS_CLASS_CONTROL)
		return GB_MNF_BUNDLE0_CLASS;
	if (id != GREYBUS_CONTROL_BUNDLE_ID && class == GREYBUS_CLASS_CONTROL)
		return GB_MNF_CONTROL_CLASS_BUNDLE;
	if (id == GREYBUS_BUNDLE_ID_NONE && !state->reserved_bundle) {
		state->reserved_bundle = true;
		state->reserved_bundle_offset = offset;
	}
	if (__test_and_set_bit(id, state->bundle_ids))
		return GB_MNF_DUP_BUNDLE;
	return GB_MNF_OK;
}

static enum gb_manifest_error
gb_manifest_check_cport(const struct greybus_descriptor *desc,
			size_t desc_size, struct gb_manifest_state *state)
{
	u16 id;

	if (desc_size < GREYBUS_DESC_CPORT_SIZE)
		return GB_MNF_DESC_TOO_SMALL;

	id = le16_to_cpu(desc->cport.id);
	if (id > GB_CPORT_ID_MAX)
		return GB_MNF_CPORT_ID_RANGE;
	if (id == GREYBUS_CONTROL_CPORT_ID &&
	    (desc->cport.bundle != GREYBUS_CONTROL_BUNDLE_ID ||
	     desc->cport.protocol_id != GREYBUS_PROTOCOL_CONTROL))
		return GB_MNF_CPORT0_OUTSIDE_CONTROL;
	if (__test_and_set_bit(id, state->cport_ids))
		return GB_MNF_DUP_CPORT;
	return GB_MNF_OK;
}

/*
 * First pass: the framing of every descriptor and the rules that need only
 * the descriptors seen so far.  On success the descriptors are known to
 * tile [header, size) exactly.
 */
static int gb_manifest_check_descs(const u8 *blob, size_t size,
				   struct gb_manifest_state *state,
				   struct gb_manifest_report *report)
{
	size_t offset = sizeof(struct greybus_manifest_header);

	while (offset < size) {
		const struct greybus_descriptor *desc;
		enum gb_manifest_error error;
		size_t desc_size;

		if (size - offset < sizeof(desc->header))
			return gb_manifest_fail(report, GB_MNF_DESC_SHORT,
						offset);

		desc = (const struct greybus_descriptor *)(blob + offset);
		desc_size = le16_to_cpu(desc->header.size);
		if (desc_size == 0)
			return gb_manifest_fail(report, GB_MNF_DESC_ZERO_SIZE,
						offset);
		if (desc_size > size - offset)
			return gb_manifest_fail(report, GB_MNF_DESC_PAST_END,
						offset);
		if (desc_size < sizeof(desc->header))
			return gb_manifest_fail(report, GB_MNF_DESC_TOO_SMALL,
						offset);
		if (!IS_ALIGNED(desc_size, 4))
			return gb_manifest_fail(report, GB_MNF_DESC_UNALIGNED,
						offset);

		switch (desc->header.type) {
		case GREYBUS_TYPE_INTERFACE:
			error = gb_manifest_check_interface(desc, desc_size,
							    offset, state);
			break;
		case GREYBUS_TYPE_STRING:
			error = gb_manifest_check_string(desc, desc_size,
							 state);
			break;
		case GREYBUS_TYPE_BUNDLE:
			error = gb_manifest_check_bundle(desc, desc_size,
							 offset, state);
			break;
		case GREYBUS_TYPE_CPORT:
			error = gb_manifest_check_cport(desc, desc_size,
							state);
			break;
		default:
			/* The specification lets a reader skip these. */
			if (!report->unknown_descs++)
				report->first_unknown_offset = offset;
			error = GB_MNF_OK;
			break;
		}
		if (error != GB_MNF_OK)
			return gb_manifest_fail(report, error, offset);

		offset += desc_size;
	}

	return 0;
}

/*
 * Second pass, over descriptors the first pass proved well framed: every
 * cport must name a declared bundle (bundles may follow their cports in
 * the blob), and some bundle other than the control bundle must own one.
 */
static int gb_manifest_check_cport_bundles(const u8 *blob, size_t size,
					   struct gb_manifest_state *state,
					   struct gb_manifest_report *report)
{
	size_t offset = sizeof(struct greybus_manifest_header);
	bool usable = false;

	while (offset < size) {
		const struct greybus_descriptor *desc;
		u8 bundle;

		desc = (const struct greybus_descriptor *)(blob + offset);
		if (desc->header.type == GREYBUS_TYPE_CPORT) {
			bundle = desc->cport.bundle;
			if (bundle != GREYBUS_CONTROL_BUNDLE_ID) {
				if (!test_bit(bundle, state->bundle_ids))
					return gb_manifest_fail(report,
							GB_MNF_CPORT_NO_BUNDLE,
							offset);
				usable = true;
			}
		}
		offset += le16_to_cpu(desc->header.size);
	}

	if (!state->interfaces)
		return gb_manifest_fail(report, GB_MNF_NO_INTERFACE, 0);
	if ((state->vendor_stringid &&
	     !test_bit(state->vendor_stringid, state->string_ids)) ||
	    (state->product_stringid &&
	     !test_bit(state->product_stringid, state->string_ids)))
		return gb_manifest_fail(report, GB_MNF_MISSING_STRING,
					state->interface_offset);
	if (!usable)
		return gb_manifest_fail(report, GB_MNF_NO_BUNDLES, 0);

	/*
	 * Two rules of Linux's own parser, checked last so that a manifest
	 * refused for them is otherwise valid (mnfc still compiles and
	 * decompiles such manifests).  Linux uses each string descriptor
	 * once, so a module naming one string for both vendor and product
	 * fails there; and it reserves bundle id 255 to mean "no bundle".
	 */
	if (state->vendor_stringid &&
	    state->vendor_stringid == state->product_stringid)
		return gb_manifest_fail(report, GB_MNF_SHARED_STRING,
					state->interface_offset);
	if (state->reserved_bundle)
		return gb_manifest_fail(report, GB_MNF_BUNDLE_ID_RESERVED,
					state->reserved_bundle_offset);

	return 0;
}

/**
 * gb_manifest_check() - validate a whole manifest blob
 * @blob: the manifest, untrusted
 * @size: its length in bytes
 * @report: what was found, or NULL when only the verdict matters
 *
 * Checks every rule listed at the top of manifest_check.h; the first
 * rule broken is reported.  Descriptors of unknown type are counted in
 * @report, not rejected.  Never reads outside @blob and allocates
 * nothing.
 *
 * Context: Any context.
 * Return: 0 if the manifest is valid; -EINVAL otherwise, with
 * @report->error and @report->offset saying what and where.
 */
int gb_manifest_check(const void *blob, size_t size,
		      struct gb_manifest_report *report)
{
	const struct greybus_manifest_header *header = blob;
	struct gb_manifest_report scratch;
	struct gb_manifest_state state;
	int ret;

	if (!report)
		report = &scratch;
	memset(report, 0, sizeof(*report));

	if (size == 0)
		return gb_manifest_fail(report, GB_MNF_EMPTY, 0);
	if (size < sizeof(*header))
		return gb_manifest_fail(report, GB_MNF_SHORT_HEADER, 0);
	if (le16_to_cpu(header->size) != size)
		return gb_manifest_fail(report, GB_MNF_SIZE_MISMATCH, 0);
	if (header->version_major > GREYBUS_VERSION_MAJOR)
		return gb_manifest_fail(report, GB_MNF_BAD_VERSION, 0);

	memset(&state, 0, sizeof(state));
	ret = gb_manifest_check_descs(blob, size, &state, report);
	if (ret)
		return ret;

	return gb_manifest_check_cport_bundles(blob, size, &state, report);
}
EXPORT_SYMBOL_NS_GPL(gb_manifest_check, GREYBUS);

static const char *const gb_manifest_error_names[GB_MNF_ERROR_COUNT] = {
	[GB_MNF_OK]			= "manifest is valid",
	[GB_MNF_EMPTY]			= "manifest is empty",
	[GB_MNF_SHORT_HEADER]		= "manifest is shorter than its header",
	[GB_MNF_SIZE_MISMATCH]		= "header size does not match the manifest length",
	[GB_MNF_BAD_VERSION]		= "manifest version is not supported",
	[GB_MNF_DESC_SHORT]		= "descriptor header is truncated",
	[GB_MNF_DESC_ZERO_SIZE]		= "descriptor size is zero",
	[GB_MNF_DESC_PAST_END]		= "descriptor runs past the end of the manifest",
	[GB_MNF_DESC_TOO_SMALL]		= "descriptor is too small for its type",
	[GB_MNF_DESC_UNALIGNED]		= "descriptor size is not a multiple of 4",
	[GB_MNF_STRING_OVERFLOW]	= "string does not fit its descriptor",
	[GB_MNF_STRING_ID_ZERO]		= "string id is 0",
	[GB_MNF_DUP_STRING]		= "string id is declared twice",
	[GB_MNF_DUP_BUNDLE]		= "bundle id is declared twice",
	[GB_MNF_DUP_CPORT]		= "cport id is declared twice",
	[GB_MNF_CPORT_ID_RANGE]		= "cport id is above 4095",
	[GB_MNF_CPORT_NO_BUNDLE]	= "cport's bundle is not declared",
	[GB_MNF_BUNDLE0_CLASS]		= "bundle 0 has a class other than control",
	[GB_MNF_CPORT0_OUTSIDE_CONTROL]	= "cport 0 is outside the control bundle",
	[GB_MNF_CONTROL_CLASS_BUNDLE]	= "control class on a bundle other than 0",
	[GB_MNF_NO_INTERFACE]		= "no interface descriptor",
	[GB_MNF_MULTIPLE_INTERFACES]	= "more than one interface descriptor",
	[GB_MNF_MISSING_STRING]		= "interface refers to an absent string",
	[GB_MNF_NO_BUNDLES]		= "no bundle other than the control bundle has a cport",
	[GB_MNF_BUNDLE_ID_RESERVED]	= "bundle id 255 is reserved",
	[GB_MNF_SHARED_STRING]		= "vendor and product name the same string",
};

/**
 * gb_manifest_strerror() - describe a manifest error
 * @error: a value of @report->error from gb_manifest_check()
 *
 * Context: Any context.
 * Return: a short static English phrase, e.g. "cport's bundle is not
 * declared"; "unknown manifest error" for a value out of range.
 */
const char *gb_manifest_strerror(enum gb_manifest_error error)
{
	if ((unsigned int)error >= ARRAY_SIZE(gb_manifest_error_names) ||
	    !gb_manifest_error_names[error])
		return "unknown manifest error";
	return gb_manifest_error_names[error];
}
EXPORT_SYMBOL_NS_GPL(gb_manifest_strerror, GREYBUS);
