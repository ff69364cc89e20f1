/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The firmware-management bundle's models share one thing: management
 * (proto-fw-mgmt.c) makes the module download a file over the Firmware
 * Download connection of the same interface (proto-fw-download.c).
 */
#ifndef GBSIM_PROTO_FW_H
#define GBSIM_PROTO_FW_H

#include <stdint.h>

#include "gbsim.h"

/* How a download ended */
enum gbsim_fwd_result {
	GBSIM_FWD_OK,
	GBSIM_FWD_FIND_FAILED,	/* FIND_FIRMWARE refused */
	GBSIM_FWD_FETCH_FAILED,	/* a FETCH refused or wrong */
};

typedef void (*gbsim_fwd_done)(struct gbsim *sim, void *ctx,
			       enum gbsim_fwd_result result, uint32_t size,
			       uint32_t crc);

/*
 * Find, fetch and release the file of tag over interface intf_id's
 * download connection.  done is called exactly once, later, unless this
 * fails (-ENOENT: no download connection; -ENOMEM).
 */
int gbsim_fwd_start(struct gbsim *sim, uint8_t intf_id, const char *tag,
		    gbsim_fwd_done done, void *ctx);

/* CRC-32 as zlib and busybox crc32(1) compute it */
uint32_t gbsim_fw_crc32(const uint8_t *p, size_t len);

#endif /* GBSIM_PROTO_FW_H */
