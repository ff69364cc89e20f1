// SPDX-License-Identifier: GPL-2.0
/*
 * gb-vhd events back-to-back in one buffer (gb_vhd_batch.h).
 */
#include <errno.h>
#include <string.h>

#include "gb_vhd_batch.h"

size_t gb_vhd_event_len(const uint8_t *buf, size_t len)
{
	struct gb_vhd_event_hdr hdr;

	if (len < sizeof(hdr))
		return 0;
	memcpy(&hdr, buf, sizeof(hdr));
	if (hdr.len > len - sizeof(hdr))
		return 0;
	return sizeof(hdr) + hdr.len;
}

int gb_vhd_batch_next(const uint8_t *buf, size_t len, size_t *off,
		      struct gb_vhd_event_hdr *hdr, const uint8_t **payload)
{
	size_t n;

	if (*off >= len)
		return 0;
	n = gb_vhd_event_len(buf + *off, len - *off);
	if (!n)
		return -EBADMSG;
	memcpy(hdr, buf + *off, sizeof(*hdr));
	*payload = buf + *off + sizeof(*hdr);
	*off += n;
	return 1;
}

size_t gb_vhd_batch_put(uint8_t *buf, size_t room, uint32_t type,
			const void *head, size_t head_len,
			const void *body, size_t body_len)
{
	struct gb_vhd_event_hdr hdr = { .type = type };
	size_t size = sizeof(hdr) + head_len + body_len;

	if (head_len > GB_VHD_EVENT_SIZE_MAX || body_len > GB_VHD_EVENT_SIZE_MAX ||
	    size > GB_VHD_EVENT_SIZE_MAX || size > room)
		return 0;
	hdr.len = (uint32_t)(head_len + body_len);
	memcpy(buf, &hdr, sizeof(hdr));
	if (head_len)
		memcpy(buf + sizeof(hdr), head, head_len);
	if (body_len)
		memcpy(buf + sizeof(hdr) + head_len, body, body_len);
	return size;
}
