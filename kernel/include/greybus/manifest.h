/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turning an interface manifest into bundles (and the control device's
 * strings).
 */
#ifndef __GREYBUS_MANIFEST_H
#define __GREYBUS_MANIFEST_H

#include <linux/types.h>

struct gb_interface;

/*
 * Validates @data (untrusted, @size bytes) with gb_manifest_check() and
 * creates, but does not add, one bundle per usable bundle descriptor.
 * On error nothing is left behind.  Called with intf->mutex held.
 */
int gb_manifest_parse(struct gb_interface *intf, const void *data,
		      size_t size);

#endif /* __GREYBUS_MANIFEST_H */
