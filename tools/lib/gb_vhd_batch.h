/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gb-vhd's batched I/O (a version 3 host, include/uapi/greybus/vhd.h):
 * events packed back-to-back in one buffer, each a struct
 * gb_vhd_event_hdr and hdr.len bytes of payload.  Packing what a write()
 * carries and walking what a read() returned, with no I/O, so the
 * framing is tested on its own (tests/unit/vhd_batch_test.c).  gbsim's
 * and gbnet's vhd transport (svc/vhd.c) is the user.
 */
#ifndef GB_VHD_BATCH_H
#define GB_VHD_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/vhd.h>

/* The bytes of the whole event at @buf (@len bytes), 0 if not whole */
size_t gb_vhd_event_len(const uint8_t *buf, size_t len);

/*
 * The next event of @buf (@len bytes) from *@off: fills @hdr, points
 * @payload at its hdr.len bytes and moves *@off past it.  1: an event;
 * 0: *@off is at the end; -EBADMSG: what is left is not a whole event
 * (*@off does not move).
 */
int gb_vhd_batch_next(const uint8_t *buf, size_t len, size_t *off,
		      struct gb_vhd_event_hdr *hdr, const uint8_t **payload);

/*
 * Append one event of @type to @buf (@room bytes free), its payload made
 * of @head (@head_len bytes) then @body (@body_len bytes; either may be
 * empty).  Returns the bytes appended, 0 if it does not fit or is larger
 * than one event may be (GB_VHD_EVENT_SIZE_MAX).
 */
size_t gb_vhd_batch_put(uint8_t *buf, size_t room, uint32_t type,
			const void *head, size_t head_len,
			const void *body, size_t body_len);

#endif /* GB_VHD_BATCH_H */
