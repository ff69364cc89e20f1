// SPDX-License-Identifier: GPL-2.0
/*
 * Building an interface's bundles from its manifest.
 *
 * The blob is untrusted.  gb_manifest_check() validates all of it first
 * (rules in greybus/manifest_check.h); only then are the descriptors
 * indexed on intf->manifest_descs and turned into the control device's
 * strings and one bundle per bundle descriptor that has CPorts.  Bundle
 * 0, the legacy control bundle, and its CPorts are ignored, and so are
 * descriptors of unknown type.  The walk still bounds every access by
 * itself, so a checker bug cannot make it read past the blob.
 */
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <uapi/greybus/manifest.h>
#include <greybus/manifest_check.h>

#include "internal.h"

/* One descriptor of the blob being parsed, on intf->manifest_descs */
struct gb_manifest_desc {
	struct list_head		links;
	enum greybus_descriptor_type	type;
	const struct greybus_descriptor	*desc;
	size_t				size;	/* whole descriptor */
};

static void gb_manifest_release_descs(struct gb_interface *intf)
{
	struct gb_manifest_desc *md, *tmp;

	list_for_each_entry_safe(md, tmp, &intf->manifest_descs, links) {
		list_del(&md->links);
		kfree(md);
	}
}

static int gb_manifest_index_descs(struct gb_interface *intf,
				   const u8 *data, size_t size)
{
	const struct greybus_descriptor_header *header;
	struct gb_manifest_desc *md;
	size_t offset = sizeof(struct greybus_manifest_header);
	size_t desc_size;

	while (offset < size) {
		if (size - offset < sizeof(*header))
			return -EINVAL;
		header = (const void *)(data + offset);
		desc_size = le16_to_cpu(header->size);
		if (desc_size < sizeof(*header) || desc_size > size - offset)
			return -EINVAL;

		switch (header->type) {
		case GREYBUS_TYPE_INTERFACE:
		case GREYBUS_TYPE_STRING:
		case GREYBUS_TYPE_BUNDLE:
		case GREYBUS_TYPE_CPORT:
			md = kzalloc(sizeof(*md), GFP_KERNEL);
			if (!md)
				return -ENOMEM;
			md->type = header->type;
			md->desc = (const void *)header;
			md->size = desc_size;
			list_add_tail(&md->links, &intf->manifest_descs);
			break;
		default:
			/* Unknown type: skipped (the checker counted it) */
			break;
		}

		offset += desc_size;
	}

	return 0;
}

static const struct gb_manifest_desc *
gb_manifest_find(struct gb_interface *intf, enum greybus_descriptor_type type,
		 const struct gb_manifest_desc *after)
{
	const struct gb_manifest_desc *md;

	md = after ? list_next_entry(after, links) :
		     list_first_entry(&intf->manifest_descs,
				      struct gb_manifest_desc, links);

	list_for_each_entry_from(md, &intf->manifest_descs, links) {
		if (md->type == type)
			return md;
	}

	return NULL;
}

/* Interface, bundle and cport descriptors: is the body all there? */
static bool gb_manifest_desc_fits(const struct gb_manifest_desc *md,
				  size_t body_size)
{
	return md->size >= sizeof(struct greybus_descriptor_header) + body_size;
}

/* A copy of string @id, "" for id 0; NULL if absent or out of memory */
static char *gb_manifest_string(struct gb_interface *intf, u8 id)
{
	const struct greybus_descriptor_string *string;
	const struct gb_manifest_desc *md = NULL;
	size_t room;

	if (!id)
		return kstrdup("", GFP_KERNEL);

	while ((md = gb_manifest_find(intf, GREYBUS_TYPE_STRING, md))) {
		if (!gb_manifest_desc_fits(md, sizeof(*string)))
			continue;
		string = &md->desc->string;
		if (string->id != id)
			continue;

		room = md->size - sizeof(struct greybus_descriptor_header) -
		       sizeof(*string);
		if (string->length > room)
			return NULL;

		return kmemdup_nul(string->string, string->length, GFP_KERNEL);
	}

	return NULL;
}

static int gb_manifest_parse_interface(struct gb_interface *intf)
{
	const struct greybus_descriptor_interface *desc;
	struct gb_control *control = intf->control;
	const struct gb_manifest_desc *md;

	md = gb_manifest_find(intf, GREYBUS_TYPE_INTERFACE, NULL);
	if (!md || !gb_manifest_desc_fits(md, sizeof(*desc)) || !control)
		return -EINVAL;
	desc = &md->desc->interface;

	control->vendor_string = gb_manifest_string(intf,
						    desc->vendor_stringid);
	if (!control->vendor_string)
		goto err_free_strings;

	control->product_string = gb_manifest_string(intf,
						     desc->product_stringid);
	if (!control->product_string)
		goto err_free_strings;

	intf->features = desc->features;

	return 0;

err_free_strings:
	kfree(control->vendor_string);
	control->vendor_string = NULL;
	return -EINVAL;
}

/* Fills @bundle->cport_desc with the bundle's CPorts, in manifest order */
static int gb_manifest_parse_cports(struct gb_interface *intf,
				    struct gb_bundle *bundle, size_t count)
{
	const struct greybus_descriptor_cport *desc;
	const struct gb_manifest_desc *md = NULL;
	size_t i = 0;

	bundle->cport_desc = kcalloc(count, sizeof(*bundle->cport_desc),
				     GFP_KERNEL);
	if (!bundle->cport_desc)
		return -ENOMEM;

	while ((md = gb_manifest_find(intf, GREYBUS_TYPE_CPORT, md)) &&
	       i < count) {
		if (!gb_manifest_desc_fits(md, sizeof(*desc)))
			continue;
		desc = &md->desc->cport;
		if (desc->bundle == bundle->id)
			bundle->cport_desc[i++] = *desc;
	}
	bundle->num_cports = i;

	return 0;
}

static size_t gb_manifest_count_cports(struct gb_interface *intf, u8 bundle_id)
{
	const struct gb_manifest_desc *md = NULL;
	size_t count = 0;

	while ((md = gb_manifest_find(intf, GREYBUS_TYPE_CPORT, md))) {
		if (gb_manifest_desc_fits(md, sizeof(md->desc->cport)) &&
		    md->desc->cport.bundle == bundle_id)
			count++;
	}

	return count;
}

static void gb_manifest_destroy_bundles(struct gb_interface *intf)
{
	struct gb_bundle *bundle, *tmp;

	list_for_each_entry_safe(bundle, tmp, &intf->bundles, links)
		gb_bundle_destroy(bundle);
}

static int gb_manifest_parse_bundles(struct gb_interface *intf)
{
	const struct greybus_descriptor_bundle *desc;
	const struct gb_manifest_desc *md = NULL;
	struct gb_bundle *bundle;
	unsigned int count = 0;
	size_t num_cports;
	int ret;

	while ((md = gb_manifest_find(intf, GREYBUS_TYPE_BUNDLE, md))) {
		if (!gb_manifest_desc_fits(md, sizeof(*desc)))
			continue;
		desc = &md->desc->bundle;

		/* The control bundle is implicit, a declared one is ignored */
		if (desc->id == GREYBUS_CONTROL_BUNDLE_ID)
			continue;
		if (desc->class == GREYBUS_CLASS_CONTROL) {
			ret = -EINVAL;
			goto err_destroy_bundles;
		}

		num_cports = gb_manifest_count_cports(intf, desc->id);
		if (!num_cports) {
			dev_dbg(&intf->dev, "bundle %u has no cports, ignored\n",
				desc->id);
			continue;
		}

		bundle = gb_bundle_create(intf, desc->id, desc->class);
		if (!bundle) {
			ret = -ENOMEM;
			goto err_destroy_bundles;
		}

		ret = gb_manifest_parse_cports(intf, bundle, num_cports);
		if (ret)
			goto err_destroy_bundles;

		count++;
	}

	if (!count) {
		ret = -EINVAL;
		goto err_destroy_bundles;
	}

	return 0;

err_destroy_bundles:
	gb_manifest_destroy_bundles(intf);
	return ret;
}

int gb_manifest_parse(struct gb_interface *intf, const void *data,
		      size_t size)
{
	struct gb_manifest_report report;
	int ret;

	ret = gb_manifest_check(data, size, &report);
	if (ret) {
		dev_err_ratelimited(&intf->dev,
				    "invalid manifest: %s (offset %u)\n",
				    gb_manifest_strerror(report.error),
				    report.offset);
		return -EINVAL;
	}
	if (report.unknown_descs)
		dev_dbg(&intf->dev,
			"manifest: %u descriptors of unknown type skipped, first at offset %u\n",
			report.unknown_descs, report.first_unknown_offset);

	ret = gb_manifest_index_descs(intf, data, size);
	if (ret)
		goto err_release_descs;

	ret = gb_manifest_parse_interface(intf);
	if (ret)
		goto err_release_descs;

	ret = gb_manifest_parse_bundles(intf);
	if (ret)
		goto err_free_strings;

	gb_manifest_release_descs(intf);

	return 0;

err_free_strings:
	kfree(intf->control->vendor_string);
	intf->control->vendor_string = NULL;
	kfree(intf->control->product_string);
	intf->control->product_string = NULL;
err_release_descs:
	gb_manifest_release_descs(intf);
	if (ret == -EINVAL)
		dev_err_ratelimited(&intf->dev,
				    "manifest rejected by the parser\n");
	return ret;
}
