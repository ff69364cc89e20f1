// SPDX-License-Identifier: GPL-2.0
/*
 * The Bootrom protocol (0x15), module side: a boot ROM that downloads
 * its next stage from the AP and reboots into it.
 *
 * After the AP's AP_READY the model asks FIRMWARE_SIZE (stage 2), then
 * GET_FIRMWARE chunk by chunk, checks every chunk's length, and logs
 * "bootrom N: downloaded SIZE bytes crc32 CRC in N chunks" (CRC as
 * crc32(1) prints it).  It then sends READY_TO_BOOT and, once the AP has answered,
 * "reboots": the module is unplugged and plugged in again with the
 * manifest and ids that $GBSIM_BOOTROM names, so the AP sees a new
 * module_inserted for the same slot.
 *
 * $GBSIM_BOOTROM is a comma-separated list of key=value (all optional):
 *   next=PATH     manifest of the firmware booted (none: stays as it is)
 *   vid=N, pid=N  the ids after the reboot (default: unchanged)
 *   chunk=N       bytes per GET_FIRMWARE (default 1000)
 *   overrun=N     the last GET_FIRMWARE asks N bytes past the end
 *   stop=N        go silent after N chunks
 *   delay=MS      wait MS between two requests
 *   stage=N       the stage asked for (default 2)
 *   status=N      READY_TO_BOOT status (default 1, insecure)
 * Bad keys are logged and ignored.  "@FILE" reads the list from FILE,
 * anew for each connection, so that a case can change the behaviour
 * between two modules it inserts into one gbsim.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/bootrom.h>

#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"

#define GBSIM_BR_IMAGE_MAX	(16u << 20)	/* what we agree to store */

struct gbsim_br_cfg {
	char		*next;
	uint32_t	vid, pid;
	bool		vid_set, pid_set;
	uint32_t	chunk;
	uint32_t	overrun;
	uint32_t	stop;
	bool		stop_set;
	uint32_t	delay_ms;
	uint8_t		stage;
	uint8_t		status;
};

/* conn->priv of a bootrom connection */
struct gbsim_br {
	struct gbsim_conn *conn;
	struct gbsim_br_cfg cfg;
	uint64_t	timer;		/* the next step, 0 = none */
	uint32_t	size;		/* of the file, from FIRMWARE_SIZE */
	uint32_t	offset;		/* next byte to fetch */
	uint32_t	want;		/* size of the fetch in flight */
	unsigned int	chunks;
	uint8_t		*image;
};

/* What a reboot needs once the connection may be gone */
struct gbsim_br_reboot {
	struct gbsim	*sim;
	uint8_t		intf_id;
	unsigned int	module_seq;
	char		*next;
	uint32_t	vid, pid, ddbl1_mfr, ddbl1_prod;
};

/* CRC-32 as zlib and busybox crc32(1) compute it */
static uint32_t gbsim_br_crc32(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xffffffffu;

	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

static void gbsim_br_parse(struct gbsim_br_cfg *cfg)
{
	char *copy, *tok, *save = NULL;

	cfg->chunk = 1000;
	cfg->stage = GB_BOOTROM_BOOT_STAGE_TWO;
	cfg->status = GB_BOOTROM_BOOT_STATUS_INSECURE;
	copy = gbsim_proto_settings("GBSIM_BOOTROM");
	if (!copy)
		return;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v = 0;

		if (!eq) {
			gbsim_log_warn("GBSIM_BOOTROM: '%s' is not key=value", tok);
			continue;
		}
		*eq++ = '\0';
		if (!strcmp(tok, "next")) {
			free(cfg->next);
			cfg->next = strdup(eq);
			continue;
		}
		if (gbsim_parse_uint(eq, UINT32_MAX, &v)) {
			gbsim_log_warn("GBSIM_BOOTROM: bad value '%s' for %s", eq, tok);
			continue;
		}
		if (!strcmp(tok, "vid")) {
			cfg->vid = (uint32_t)v;
			cfg->vid_set = true;
		} else if (!strcmp(tok, "pid")) {
			cfg->pid = (uint32_t)v;
			cfg->pid_set = true;
		} else if (!strcmp(tok, "chunk") && v) {
			cfg->chunk = (uint32_t)v;
		} else if (!strcmp(tok, "overrun")) {
			cfg->overrun = (uint32_t)v;
		} else if (!strcmp(tok, "stop")) {
			cfg->stop = (uint32_t)v;
			cfg->stop_set = true;
		} else if (!strcmp(tok, "delay")) {
			cfg->delay_ms = (uint32_t)v;
		} else if (!strcmp(tok, "stage") && v <= 0xff) {
			cfg->stage = (uint8_t)v;
		} else if (!strcmp(tok, "status") && v <= 0xff) {
			cfg->status = (uint8_t)v;
		} else {
			gbsim_log_warn("GBSIM_BOOTROM: unknown key '%s'", tok);
		}
	}
	free(copy);
}

static void gbsim_br_step(struct gbsim_br *br, gbsim_timer_cb cb)
{
	struct gbsim *sim = br->conn->sim;

	br->timer = gbsim_loop_add_timer(sim->loop, br->cfg.delay_ms, cb, br);
}

/* Sends nothing for a module that has left: the AP has yet to notice */
static bool gbsim_br_gone(struct gbsim_br *br)
{
	if (!gbsim_conn_stale(br->conn->sim, br->conn))
		return false;
	gbsim_log_info("cport %u: bootrom: module gone, download stopped",
		       br->conn->hd_cport);
	return true;
}

static void gbsim_br_reboot_fire(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_br_reboot *rb = ctx;
	struct gbsim *sim = rb->sim;
	struct gbsim_intf *intf = sim->intfs[rb->intf_id];
	struct gbsim_module_cfg *mc;
	struct gbsim_module *m;
	char ifid[8], vid[24], pid[24], mfr[24], prod[24];
	char *kvs[] = { vid, pid, mfr, prod };
	char err[512];

	(void)loop;
	if (!intf || intf->module->seq != rb->module_seq ||
	    intf->module->id != rb->intf_id) {
		gbsim_log_info("bootrom %u: module gone before its reboot",
			       rb->intf_id);
		goto out;
	}
	snprintf(ifid, sizeof(ifid), "%u", rb->intf_id);
	snprintf(vid, sizeof(vid), "vid=0x%08x", rb->vid);
	snprintf(pid, sizeof(pid), "pid=0x%08x", rb->pid);
	snprintf(mfr, sizeof(mfr), "ddbl1_mfr=0x%08x", rb->ddbl1_mfr);
	snprintf(prod, sizeof(prod), "ddbl1_prod=0x%08x", rb->ddbl1_prod);
	mc = gbsim_module_cfg_build(NULL, ifid, rb->next, kvs, 4, err,
				    sizeof(err));
	if (!mc) {
		gbsim_log_error("bootrom %u: reboot: %s", rb->intf_id, err);
		goto out;
	}
	m = gbsim_module_create(mc, err, sizeof(err));
	gbsim_module_cfg_free(mc);
	if (!m) {
		gbsim_log_error("bootrom %u: reboot: %s", rb->intf_id, err);
		goto out;
	}
	gbsim_module_remove(sim, rb->intf_id, "rebooting into its new firmware");
	if (gbsim_module_insert(sim, m, err, sizeof(err))) {
		gbsim_log_error("bootrom %u: reboot: %s", rb->intf_id, err);
		gbsim_module_destroy(m);
		goto out;
	}
	gbsim_log_info("bootrom %u: rebooted as %s vid=0x%08x pid=0x%08x",
		       rb->intf_id, rb->next, rb->vid, rb->pid);
out:
	free(rb->next);
	free(rb);
}

static void gbsim_br_schedule_reboot(struct gbsim_br *br)
{
	struct gbsim *sim = br->conn->sim;
	struct gbsim_intf *intf = sim->intfs[br->conn->intf_id];
	struct gbsim_br_reboot *rb;

	if (!br->cfg.next) {
		gbsim_log_info("bootrom %u: no next manifest: staying as it is",
			       br->conn->intf_id);
		return;
	}
	rb = calloc(1, sizeof(*rb));
	if (!rb || !intf || !(rb->next = strdup(br->cfg.next))) {
		free(rb);
		gbsim_log_error("bootrom %u: cannot reboot", br->conn->intf_id);
		return;
	}
	rb->sim = sim;
	rb->intf_id = br->conn->intf_id;
	rb->module_seq = intf->module->seq;
	rb->vid = br->cfg.vid_set ? br->cfg.vid : intf->vid;
	rb->pid = br->cfg.pid_set ? br->cfg.pid : intf->pid;
	rb->ddbl1_mfr = intf->ddbl1_mfr;
	rb->ddbl1_prod = intf->ddbl1_prod;
	/* Not from the response callback: the AP sees the answer first */
	if (!gbsim_loop_add_timer(sim->loop, 100, gbsim_br_reboot_fire, rb)) {
		free(rb->next);
		free(rb);
	}
}

static void gbsim_br_ready_cb(struct gbsim *sim, void *ctx, int err,
			      uint8_t result, const uint8_t *payload,
			      size_t len)
{
	struct gbsim_br *br = ctx;

	(void)sim; (void)payload; (void)len;
	if (err || result != GB_OP_SUCCESS) {
		gbsim_log_info("bootrom %u: ready_to_boot refused (err %d result 0x%02x)",
			       br->conn->intf_id, err, result);
		return;
	}
	gbsim_br_schedule_reboot(br);
}

static void gbsim_br_fetch(struct gbsim_loop *loop, void *ctx);

static void gbsim_br_fetch_cb(struct gbsim *sim, void *ctx, int err,
			      uint8_t result, const uint8_t *payload,
			      size_t len)
{
	struct gbsim_br *br = ctx;
	uint8_t status;

	(void)sim;
	if (err || result != GB_OP_SUCCESS) {
		gbsim_log_info("bootrom %u: get_firmware offset=%u size=%u refused (err %d result 0x%02x)",
			       br->conn->intf_id, br->offset, br->want, err,
			       result);
		return;
	}
	if (len != br->want || br->offset + len > br->size) {
		gbsim_log_error("bootrom %u: get_firmware offset=%u size=%u answered with %zu bytes",
				br->conn->intf_id, br->offset, br->want, len);
		return;
	}
	memcpy(br->image + br->offset, payload, len);
	br->offset += (uint32_t)len;
	br->chunks++;
	if (br->offset < br->size) {
		gbsim_br_step(br, gbsim_br_fetch);
		return;
	}

	gbsim_log_info("bootrom %u: downloaded %u bytes crc32 %08x in %u chunks",
		       br->conn->intf_id, br->size,
		       gbsim_br_crc32(br->image, br->size), br->chunks);
	status = br->cfg.status;
	gbsim_send_request(br->conn->sim, br->conn->hd_cport,
			   GB_BOOTROM_TYPE_READY_TO_BOOT, &status, 1,
			   GBSIM_REQUEST_TIMEOUT_MS, gbsim_br_ready_cb, br);
}

static void gbsim_br_fetch(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_br *br = ctx;
	uint8_t req[8];

	(void)loop;
	br->timer = 0;
	if (gbsim_br_gone(br))
		return;
	if (br->cfg.stop_set && br->chunks >= br->cfg.stop) {
		gbsim_log_info("bootrom %u: going silent after %u chunks",
			       br->conn->intf_id, br->chunks);
		return;
	}
	br->want = br->size - br->offset;
	if (br->want > br->cfg.chunk)
		br->want = br->cfg.chunk;
	else
		br->want += br->cfg.overrun;	/* the last one */
	gbsim_put_le32(req, br->offset);
	gbsim_put_le32(req + 4, br->want);
	gbsim_send_request(br->conn->sim, br->conn->hd_cport,
			   GB_BOOTROM_TYPE_GET_FIRMWARE, req, sizeof(req),
			   GBSIM_REQUEST_TIMEOUT_MS, gbsim_br_fetch_cb, br);
}

static void gbsim_br_size_cb(struct gbsim *sim, void *ctx, int err,
			     uint8_t result, const uint8_t *payload,
			     size_t len)
{
	struct gbsim_br *br = ctx;

	(void)sim;
	if (err || result != GB_OP_SUCCESS) {
		gbsim_log_info("bootrom %u: firmware_size refused (err %d result 0x%02x)",
			       br->conn->intf_id, err, result);
		return;
	}
	if (len != 4) {
		gbsim_log_error("bootrom %u: firmware_size answered with %zu bytes",
				br->conn->intf_id, len);
		return;
	}
	br->size = gbsim_get_le32(payload);
	gbsim_log_info("bootrom %u: firmware size %u", br->conn->intf_id,
		       br->size);
	if (!br->size || br->size > GBSIM_BR_IMAGE_MAX) {
		gbsim_log_error("bootrom %u: firmware of %u bytes refused",
				br->conn->intf_id, br->size);
		return;
	}
	free(br->image);
	br->image = malloc(br->size);
	if (!br->image) {
		gbsim_log_error("bootrom %u: out of memory", br->conn->intf_id);
		return;
	}
	br->offset = 0;
	br->chunks = 0;
	gbsim_br_step(br, gbsim_br_fetch);
}

static void gbsim_br_start(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_br *br = ctx;

	(void)loop;
	br->timer = 0;
	if (gbsim_br_gone(br))
		return;
	gbsim_send_request(br->conn->sim, br->conn->hd_cport,
			   GB_BOOTROM_TYPE_FIRMWARE_SIZE, &br->cfg.stage, 1,
			   GBSIM_REQUEST_TIMEOUT_MS, gbsim_br_size_cb, br);
}

static int gbsim_br_request(struct gbsim_op *op)
{
	struct gbsim_br *br = op->conn->priv;

	switch (op->type) {
	case GB_BOOTROM_TYPE_VERSION:
		if (!gbsim_op_len_is(op, 2))
			return GB_OP_INVALID;
		op->rsp[0] = GB_BOOTROM_VERSION_MAJOR;
		op->rsp[1] = GB_BOOTROM_VERSION_MINOR;
		op->rsp_len = 2;
		return GB_OP_SUCCESS;
	case GB_BOOTROM_TYPE_AP_READY:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		if (br->timer)
			gbsim_loop_cancel_timer(op->sim->loop, br->timer);
		/* After the response, which the core sends on return */
		br->timer = gbsim_loop_add_timer(op->sim->loop, 0,
						 gbsim_br_start, br);
		op->rsp_len = 0;
		return GB_OP_SUCCESS;
	case GB_BOOTROM_TYPE_GET_VID_PID:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		gbsim_put_le32(op->rsp, op->intf->vid);
		gbsim_put_le32(op->rsp + 4, op->intf->pid);
		op->rsp_len = 8;
		return GB_OP_SUCCESS;
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

static int gbsim_br_conn_init(struct gbsim_conn *conn)
{
	struct gbsim_br *br = calloc(1, sizeof(*br));

	if (!br)
		return -1;
	br->conn = conn;
	gbsim_br_parse(&br->cfg);
	conn->priv = br;
	return 0;
}

static void gbsim_br_conn_fini(struct gbsim_conn *conn)
{
	struct gbsim_br *br = conn->priv;

	if (!br)
		return;
	if (br->timer)
		gbsim_loop_cancel_timer(conn->sim->loop, br->timer);
	free(br->cfg.next);
	free(br->image);
	free(br);
	conn->priv = NULL;
}

static struct gbsim_proto gbsim_proto_bootrom = {
	.id		= GREYBUS_PROTOCOL_BOOTROM,
	.name		= "bootrom",
	.request	= gbsim_br_request,
	.conn_init	= gbsim_br_conn_init,
	.conn_fini	= gbsim_br_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_bootrom);
