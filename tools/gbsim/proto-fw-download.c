// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware Download (0x17), module side.  The AP never asks anything on
 * it; the module finds a file by tag, fetches it in chunks of 1000 bytes
 * (checking each chunk's length) and releases it, when management
 * (proto-fw-mgmt.c) wants a file, and logs
 * "fw-download N: 'TAG' SIZE bytes crc32 CRC in K chunks".
 * A case can also send its own requests: `gbsim ctl request
 * IFID:CPORT fw_download.fetch_firmware HEX`.
 *
 * Knobs, read once from the environment:
 *
 *   GBSIM_FW_DOWNLOAD="gap_ms=N,late_every=N,late_ms=N,refind=0|1,pair=0|1"
 *
 *   gap_ms=N   wait N ms after each chunk before fetching the next
 *              (default 0: at once)
 *   late_every=N, late_ms=M
 *              every Nth gap lasts M ms instead (default: none), so that
 *              an AP timer shorter than M surely fires now and then
 *   refind=1   when a fetch is refused (the AP gave the file up), find
 *              the file again and go on from the same offset; logs
 *              "fw-download N: 'TAG' found again K times" at the end
 *   pair=1     find the file twice (two ids) and send each fetch as two
 *              requests back to back, the same chunk from the second id
 *              and then from the first, so that the AP handles one
 *              right after the other; a second id the AP let go is found
 *              again (with refind=1)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/firmware.h>

#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"
#include "proto-fw.h"

#define GBSIM_FWD_CHUNK		1000
#define GBSIM_FWD_IMAGE_MAX	(16u << 20)
#define GBSIM_FWD_ENV		"GBSIM_FW_DOWNLOAD"
#define GBSIM_FWD_GAP_MAX	60000
#define GBSIM_FWD_REFIND_MAX	1000000

static struct {
	bool		read;
	unsigned int	gap_ms;
	unsigned int	late_every, late_ms;
	bool		refind;
	bool		pair;
} gbsim_fwd_knobs;

/* One KEY=VALUE of GBSIM_FW_DOWNLOAD; false if it is not one */
static bool gbsim_fwd_knob(const char *tok)
{
	uint64_t v;

	if (gbsim_knob_num(tok, "gap_ms", GBSIM_FWD_GAP_MAX, &v))
		gbsim_fwd_knobs.gap_ms = (unsigned int)v;
	else if (gbsim_knob_num(tok, "late_every", GBSIM_FWD_GAP_MAX, &v))
		gbsim_fwd_knobs.late_every = (unsigned int)v;
	else if (gbsim_knob_num(tok, "late_ms", GBSIM_FWD_GAP_MAX, &v))
		gbsim_fwd_knobs.late_ms = (unsigned int)v;
	else if (gbsim_knob_num(tok, "refind", 1, &v))
		gbsim_fwd_knobs.refind = v;
	else if (gbsim_knob_num(tok, "pair", 1, &v))
		gbsim_fwd_knobs.pair = v;
	else
		return false;
	return true;
}

struct gbsim_fwd {
	struct gbsim	*sim;
	uint16_t	hd_cport;
	uint8_t		intf_id;
	char		tag[GB_FIRMWARE_TAG_MAX_SIZE];
	uint8_t		id;
	uint8_t		id2;		/* pair=1: the second id */
	bool		finding_id2, id2_lost;
	uint32_t	size, offset, want;
	unsigned int	chunks;
	unsigned int	refinds;	/* FINDs after the first */
	uint64_t	gap_timer;
	uint8_t		*image;
	gbsim_fwd_done	done;
	void		*ctx;
};

uint32_t gbsim_fw_crc32(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xffffffffu;

	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

static void gbsim_fwd_finish(struct gbsim_fwd *fwd,
			     enum gbsim_fwd_result result)
{
	uint32_t crc = 0;

	if (result == GBSIM_FWD_OK) {
		crc = gbsim_fw_crc32(fwd->image, fwd->size);
		gbsim_log_info("fw-download %u: '%s' %u bytes crc32 %08x in %u chunks",
			       fwd->intf_id, fwd->tag, fwd->size, crc,
			       fwd->chunks);
	}
	if (fwd->refinds)
		gbsim_log_info("fw-download %u: '%s' found again %u times",
			       fwd->intf_id, fwd->tag, fwd->refinds);
	fwd->done(fwd->sim, fwd->ctx, result, fwd->size, crc);
	free(fwd->image);
	free(fwd);
}

static void gbsim_fwd_release_cb(struct gbsim *sim, void *ctx, int err,
				 uint8_t result, const uint8_t *payload,
				 size_t len)
{
	struct gbsim_fwd *fwd = ctx;

	(void)sim; (void)payload; (void)len;
	if (err || result != GB_OP_SUCCESS)
		gbsim_log_info("fw-download %u: release of id %u refused (err %d result 0x%02x)",
			       fwd->intf_id, fwd->id, err, result);
	gbsim_fwd_finish(fwd, GBSIM_FWD_OK);
}

static int gbsim_fwd_fetch(struct gbsim_fwd *fwd);
static int gbsim_fwd_find(struct gbsim_fwd *fwd);

/* The second id's fetch or release: only whether the AP still has it */
static void gbsim_fwd_fetch2_cb(struct gbsim *sim, void *ctx, int err,
				uint8_t result, const uint8_t *payload,
				size_t len)
{
	struct gbsim_fwd *fwd = ctx;

	(void)sim; (void)payload; (void)len;
	if (err || result != GB_OP_SUCCESS)
		fwd->id2_lost = true;
}

static void gbsim_fwd_gap_done(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_fwd *fwd = ctx;

	(void)loop;
	fwd->gap_timer = 0;
	if (gbsim_fwd_fetch(fwd))
		gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
}

/* The next chunk, at once or after gap_ms (late_ms every late_every) */
static int gbsim_fwd_next(struct gbsim_fwd *fwd)
{
	unsigned int ms = gbsim_fwd_knobs.gap_ms;

	if (gbsim_fwd_knobs.late_every &&
	    fwd->chunks % gbsim_fwd_knobs.late_every == 0)
		ms = gbsim_fwd_knobs.late_ms;
	if (!ms)
		return gbsim_fwd_fetch(fwd);
	fwd->gap_timer = gbsim_loop_add_timer(fwd->sim->loop, ms,
					      gbsim_fwd_gap_done, fwd);
	return !fwd->gap_timer;
}

static void gbsim_fwd_fetch_cb(struct gbsim *sim, void *ctx, int err,
			       uint8_t result, const uint8_t *payload,
			       size_t len)
{
	struct gbsim_fwd *fwd = ctx;
	uint8_t id = fwd->id;

	if (!err && result != GB_OP_SUCCESS && gbsim_fwd_knobs.refind &&
	    fwd->refinds < GBSIM_FWD_REFIND_MAX) {
		/* The AP let the file go: ask for it again */
		fwd->refinds++;
		if (gbsim_fwd_find(fwd))
			gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
		return;
	}
	if (err || result != GB_OP_SUCCESS) {
		gbsim_log_info("fw-download %u: fetch offset=%u size=%u refused (err %d result 0x%02x)",
			       fwd->intf_id, fwd->offset, fwd->want, err, result);
		gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
		return;
	}
	if (len != fwd->want) {
		gbsim_log_error("fw-download %u: fetch offset=%u size=%u answered with %zu bytes",
				fwd->intf_id, fwd->offset, fwd->want, len);
		gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
		return;
	}
	memcpy(fwd->image + fwd->offset, payload, len);
	fwd->offset += (uint32_t)len;
	fwd->chunks++;
	if (fwd->id2_lost && fwd->offset < fwd->size &&
	    fwd->refinds < GBSIM_FWD_REFIND_MAX) {
		fwd->id2_lost = false;
		fwd->finding_id2 = true;
		fwd->refinds++;
		if (gbsim_fwd_find(fwd))
			gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
		return;
	}
	if (fwd->offset < fwd->size) {
		if (gbsim_fwd_next(fwd))
			gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
		return;
	}
	if (fwd->id2 && !fwd->id2_lost)
		gbsim_send_request(sim, fwd->hd_cport,
				   GB_FW_DOWNLOAD_TYPE_RELEASE_FIRMWARE,
				   &fwd->id2, 1, GBSIM_REQUEST_TIMEOUT_MS,
				   gbsim_fwd_fetch2_cb, fwd);
	if (gbsim_send_request(sim, fwd->hd_cport,
			       GB_FW_DOWNLOAD_TYPE_RELEASE_FIRMWARE, &id, 1,
			       GBSIM_REQUEST_TIMEOUT_MS, gbsim_fwd_release_cb,
			       fwd) < 0)
		gbsim_fwd_finish(fwd, GBSIM_FWD_OK);
}

static int gbsim_fwd_fetch(struct gbsim_fwd *fwd)
{
	uint8_t req[9];

	fwd->want = fwd->size - fwd->offset;
	if (fwd->want > GBSIM_FWD_CHUNK)
		fwd->want = GBSIM_FWD_CHUNK;
	gbsim_put_le32(req + 1, fwd->offset);
	gbsim_put_le32(req + 5, fwd->want);
	/* Answered in order: this one's callback runs before the other's */
	req[0] = fwd->id2;
	if (fwd->id2 &&
	    gbsim_send_request(fwd->sim, fwd->hd_cport,
			       GB_FW_DOWNLOAD_TYPE_FETCH_FIRMWARE, req,
			       sizeof(req), GBSIM_REQUEST_TIMEOUT_MS,
			       gbsim_fwd_fetch2_cb, fwd) < 0)
		return 1;
	req[0] = fwd->id;
	return gbsim_send_request(fwd->sim, fwd->hd_cport,
				  GB_FW_DOWNLOAD_TYPE_FETCH_FIRMWARE, req,
				  sizeof(req), GBSIM_REQUEST_TIMEOUT_MS,
				  gbsim_fwd_fetch_cb, fwd) < 0;
}

static void gbsim_fwd_find_cb(struct gbsim *sim, void *ctx, int err,
			      uint8_t result, const uint8_t *payload,
			      size_t len)
{
	struct gbsim_fwd *fwd = ctx;

	(void)sim;
	if (err || result != GB_OP_SUCCESS || len != 5) {
		gbsim_log_info("fw-download %u: find '%s' refused (err %d result 0x%02x, %zu bytes)",
			       fwd->intf_id, fwd->tag, err, result, len);
		gbsim_fwd_finish(fwd, GBSIM_FWD_FIND_FAILED);
		return;
	}
	if (fwd->finding_id2) {
		fwd->finding_id2 = false;
		fwd->id2 = payload[0];
		if (gbsim_fwd_next(fwd))
			gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
		return;
	}
	fwd->id = payload[0];
	if (fwd->image) {
		/* Found again: the same file, from where the last fetch was */
		if (gbsim_get_le32(payload + 1) != fwd->size || gbsim_fwd_fetch(fwd)) {
			gbsim_log_error("fw-download %u: '%s' found again with %u bytes, had %u",
					fwd->intf_id, fwd->tag,
					gbsim_get_le32(payload + 1), fwd->size);
			gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
		}
		return;
	}
	fwd->size = gbsim_get_le32(payload + 1);
	gbsim_log_info("fw-download %u: '%s' is id %u, %u bytes", fwd->intf_id,
		       fwd->tag, fwd->id, fwd->size);
	if (!fwd->size || fwd->size > GBSIM_FWD_IMAGE_MAX ||
	    !(fwd->image = malloc(fwd->size))) {
		gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
		return;
	}
	fwd->finding_id2 = gbsim_fwd_knobs.pair;
	if (fwd->finding_id2 ? gbsim_fwd_find(fwd) : gbsim_fwd_fetch(fwd))
		gbsim_fwd_finish(fwd, GBSIM_FWD_FETCH_FAILED);
}

static int gbsim_fwd_find(struct gbsim_fwd *fwd)
{
	return gbsim_send_request(fwd->sim, fwd->hd_cport,
				  GB_FW_DOWNLOAD_TYPE_FIND_FIRMWARE, fwd->tag,
				  sizeof(fwd->tag), GBSIM_REQUEST_TIMEOUT_MS,
				  gbsim_fwd_find_cb, fwd) < 0;
}

int gbsim_fwd_start(struct gbsim *sim, uint8_t intf_id, const char *tag,
		    gbsim_fwd_done done, void *ctx)
{
	struct gbsim_conn *conn = NULL;
	struct gbsim_fwd *fwd;

	gbsim_knobs_from_env(GBSIM_FWD_ENV, gbsim_fwd_knob,
			     &gbsim_fwd_knobs.read);
	for (unsigned int c = 1; c < sim->num_cports; c++) {
		struct gbsim_conn *cc = sim->conns[c];

		if (cc && cc->intf_id == intf_id &&
		    cc->protocol == GREYBUS_PROTOCOL_FW_DOWNLOAD &&
		    !gbsim_conn_stale(sim, cc)) {
			conn = cc;
			break;
		}
	}
	if (!conn) {
		gbsim_log_info("fw-download %u: no download connection", intf_id);
		return -ENOENT;
	}
	fwd = calloc(1, sizeof(*fwd));
	if (!fwd)
		return -ENOMEM;
	fwd->sim = sim;
	fwd->hd_cport = conn->hd_cport;
	fwd->intf_id = intf_id;
	snprintf(fwd->tag, sizeof(fwd->tag), "%s", tag);
	fwd->done = done;
	fwd->ctx = ctx;
	if (gbsim_fwd_find(fwd)) {
		free(fwd);
		return -EIO;
	}
	return 0;
}

static struct gbsim_proto gbsim_proto_fw_download = {
	.id		= GREYBUS_PROTOCOL_FW_DOWNLOAD,
	.name		= "fw_download",
};
GBSIM_PROTO_REGISTER(gbsim_proto_fw_download);
