// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware Management (0x18), module side.
 *
 * INTERFACE_FW_VERSION answers the running firmware's tag and version.
 * LOAD_AND_VALIDATE_FW is answered at once; the module then downloads
 * the file of the tag over its Firmware Download connection
 * (proto-fw-download.c) and reports LOADED_FW with the same request id:
 * validated and the loaded version when the download worked, failed when
 * not.  BACKEND_FW_VERSION knows one backend; BACKEND_FW_UPDATE downloads
 * the tag's file the same way and reports BACKEND_FW_UPDATED (success,
 * fail_find or fail_fetch).  A successful load makes the loaded version
 * the interface firmware's.
 *
 * $GBSIM_FW_MGMT (or "@FILE"), comma-separated key=value, all optional:
 *   tag=T, major=N, minor=N      the running firmware (s2loader 0.1)
 *   load_major=N, load_minor=N   version of what a load brings (1.2)
 *   load_status=N                LOADED_FW status instead of the real one
 *   backend=T, backend_major=N, backend_minor=N   the backend (backend 3.4)
 *   update_status=N              BACKEND_FW_UPDATED status instead
 *   silent=1                     never send the event (the AP times out)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/firmware.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"
#include "proto-fw.h"

struct gbsim_fwm_cfg {
	char		tag[GB_FIRMWARE_TAG_MAX_SIZE];
	uint16_t	major, minor;
	uint16_t	load_major, load_minor;
	int		load_status;	/* -1: the real one */
	char		backend[GB_FIRMWARE_TAG_MAX_SIZE];
	uint16_t	backend_major, backend_minor;
	int		update_status;	/* -1: the real one */
	bool		silent;
};

/* conn->priv */
struct gbsim_fwm {
	struct gbsim_fwm_cfg cfg;
};

/* What finishing a request needs, whatever became of the connection */
struct gbsim_fwm_job {
	uint16_t	hd_cport;	/* management's */
	uint8_t		intf_id;
	unsigned int	module_seq;
	uint8_t		request_id;
	bool		backend;	/* update, not load */
};

static void gbsim_fwm_tag(char *dst, const char *src)
{
	memset(dst, 0, GB_FIRMWARE_TAG_MAX_SIZE);
	snprintf(dst, GB_FIRMWARE_TAG_MAX_SIZE, "%s", src);
}

static void gbsim_fwm_parse(struct gbsim_fwm_cfg *cfg)
{
	char *copy, *tok, *save = NULL;

	gbsim_fwm_tag(cfg->tag, "s2loader");
	cfg->major = 0;
	cfg->minor = 1;
	cfg->load_major = 1;
	cfg->load_minor = 2;
	cfg->load_status = -1;
	gbsim_fwm_tag(cfg->backend, "backend");
	cfg->backend_major = 3;
	cfg->backend_minor = 4;
	cfg->update_status = -1;

	copy = gbsim_proto_settings("GBSIM_FW_MGMT");
	if (!copy)
		return;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v = 0;

		if (!eq) {
			gbsim_log_warn("GBSIM_FW_MGMT: '%s' is not key=value", tok);
			continue;
		}
		*eq++ = '\0';
		if (!strcmp(tok, "tag")) {
			gbsim_fwm_tag(cfg->tag, eq);
			continue;
		}
		if (!strcmp(tok, "backend")) {
			gbsim_fwm_tag(cfg->backend, eq);
			continue;
		}
		if (gbsim_parse_uint(eq, 0xffff, &v)) {
			gbsim_log_warn("GBSIM_FW_MGMT: bad value '%s' for %s", eq, tok);
			continue;
		}
		if (!strcmp(tok, "major"))
			cfg->major = (uint16_t)v;
		else if (!strcmp(tok, "minor"))
			cfg->minor = (uint16_t)v;
		else if (!strcmp(tok, "load_major"))
			cfg->load_major = (uint16_t)v;
		else if (!strcmp(tok, "load_minor"))
			cfg->load_minor = (uint16_t)v;
		else if (!strcmp(tok, "load_status") && v <= 0xff)
			cfg->load_status = (int)v;
		else if (!strcmp(tok, "backend_major"))
			cfg->backend_major = (uint16_t)v;
		else if (!strcmp(tok, "backend_minor"))
			cfg->backend_minor = (uint16_t)v;
		else if (!strcmp(tok, "update_status") && v <= 0xff)
			cfg->update_status = (int)v;
		else if (!strcmp(tok, "silent"))
			cfg->silent = v != 0;
		else
			gbsim_log_warn("GBSIM_FW_MGMT: unknown key '%s'", tok);
	}
	free(copy);
}

/* The management connection of the job, if it is still the same */
static struct gbsim_fwm *gbsim_fwm_job_conn(struct gbsim *sim,
					    const struct gbsim_fwm_job *job)
{
	struct gbsim_conn *conn = sim->conns[job->hd_cport];

	if (!conn || conn->protocol != GREYBUS_PROTOCOL_FW_MANAGEMENT ||
	    conn->intf_id != job->intf_id ||
	    conn->module_seq != job->module_seq || gbsim_conn_stale(sim, conn))
		return NULL;
	return conn->priv;
}

static void gbsim_fwm_done(struct gbsim *sim, void *ctx,
			   enum gbsim_fwd_result result, uint32_t size,
			   uint32_t crc)
{
	struct gbsim_fwm_job *job = ctx;
	struct gbsim_fwm *fwm = gbsim_fwm_job_conn(sim, job);
	uint8_t req[6];

	(void)size; (void)crc;
	if (!fwm) {
		gbsim_log_info("fw-mgmt %u: connection gone before request %u finished",
			       job->intf_id, job->request_id);
		goto out;
	}
	if (fwm->cfg.silent) {
		gbsim_log_info("fw-mgmt %u: request %u done, not telling the AP",
			       job->intf_id, job->request_id);
		goto out;
	}

	req[0] = job->request_id;
	if (job->backend) {
		if (fwm->cfg.update_status >= 0)
			req[1] = (uint8_t)fwm->cfg.update_status;
		else if (result == GBSIM_FWD_OK)
			req[1] = GB_FW_BACKEND_FW_STATUS_SUCCESS;
		else if (result == GBSIM_FWD_FIND_FAILED)
			req[1] = GB_FW_BACKEND_FW_STATUS_FAIL_FIND;
		else
			req[1] = GB_FW_BACKEND_FW_STATUS_FAIL_FETCH;
		gbsim_log_info("fw-mgmt %u: backend update %u status %u",
			       job->intf_id, job->request_id, req[1]);
		gbsim_send_request(sim, job->hd_cport,
				   GB_FW_MGMT_TYPE_BACKEND_FW_UPDATED, req, 2,
				   GBSIM_REQUEST_TIMEOUT_MS, NULL, NULL);
		goto out;
	}

	if (fwm->cfg.load_status >= 0)
		req[1] = (uint8_t)fwm->cfg.load_status;
	else
		req[1] = result == GBSIM_FWD_OK ? GB_FW_LOAD_STATUS_VALIDATED :
						  GB_FW_LOAD_STATUS_FAILED;
	gbsim_put_le16(req + 2, fwm->cfg.load_major);
	gbsim_put_le16(req + 4, fwm->cfg.load_minor);
	if (req[1] == GB_FW_LOAD_STATUS_VALIDATED ||
	    req[1] == GB_FW_LOAD_STATUS_UNVALIDATED) {
		fwm->cfg.major = fwm->cfg.load_major;
		fwm->cfg.minor = fwm->cfg.load_minor;
	}
	gbsim_log_info("fw-mgmt %u: load %u status %u version %u.%u",
		       job->intf_id, job->request_id, req[1],
		       fwm->cfg.load_major, fwm->cfg.load_minor);
	gbsim_send_request(sim, job->hd_cport, GB_FW_MGMT_TYPE_LOADED_FW, req,
			   sizeof(req), GBSIM_REQUEST_TIMEOUT_MS, NULL, NULL);
out:
	free(job);
}

/* Start the download of a load or update; the answer goes out first */
static int gbsim_fwm_start(struct gbsim_op *op, uint8_t request_id,
			   const uint8_t *tag, bool backend)
{
	struct gbsim_fwm_job *job = calloc(1, sizeof(*job));
	char name[GB_FIRMWARE_TAG_MAX_SIZE + 1];

	if (!job)
		return GB_OP_NO_MEMORY;
	memcpy(name, tag, GB_FIRMWARE_TAG_MAX_SIZE);
	name[GB_FIRMWARE_TAG_MAX_SIZE] = '\0';
	job->hd_cport = op->hd_cport;
	job->intf_id = op->conn->intf_id;
	job->module_seq = op->conn->module_seq;
	job->request_id = request_id;
	job->backend = backend;
	gbsim_log_info("fw-mgmt %u: %s %u of '%s'", job->intf_id,
		       backend ? "backend update" : "load", request_id, name);
	/*
	 * The download's first request is sent before this answer, which
	 * the AP takes independently (it waits for the event anyway).
	 */
	if (gbsim_fwd_start(op->sim, job->intf_id, name, gbsim_fwm_done, job)) {
		free(job);
		return GB_OP_INVALID_STATE;
	}
	op->rsp_len = 0;
	return GB_OP_SUCCESS;
}

static int gbsim_fwm_request(struct gbsim_op *op)
{
	struct gbsim_fwm *fwm = op->conn->priv;

	switch (op->type) {
	case GB_FW_MGMT_TYPE_INTERFACE_FW_VERSION:
		if (!gbsim_op_len_is(op, 0) || !gbsim_op_rsp_fits(op, 14))
			return GB_OP_INVALID;
		memcpy(op->rsp, fwm->cfg.tag, GB_FIRMWARE_TAG_MAX_SIZE);
		gbsim_put_le16(op->rsp + 10, fwm->cfg.major);
		gbsim_put_le16(op->rsp + 12, fwm->cfg.minor);
		op->rsp_len = 14;
		return GB_OP_SUCCESS;
	case GB_FW_MGMT_TYPE_LOAD_AND_VALIDATE_FW:
		if (!gbsim_op_len_is(op, 12))
			return GB_OP_INVALID;
		if (op->req[1] != GB_FW_LOAD_METHOD_UNIPRO) {
			gbsim_log_info("fw-mgmt %u: load method %u not supported",
				       op->conn->intf_id, op->req[1]);
			return GB_OP_INVALID;
		}
		return gbsim_fwm_start(op, op->req[0], op->req + 2, false);
	case GB_FW_MGMT_TYPE_BACKEND_FW_VERSION:
		if (!gbsim_op_len_is(op, 10) || !gbsim_op_rsp_fits(op, 5))
			return GB_OP_INVALID;
		if (!strncmp((const char *)op->req, fwm->cfg.backend,
			     GB_FIRMWARE_TAG_MAX_SIZE)) {
			gbsim_put_le16(op->rsp, fwm->cfg.backend_major);
			gbsim_put_le16(op->rsp + 2, fwm->cfg.backend_minor);
			op->rsp[4] = GB_FW_BACKEND_VERSION_STATUS_SUCCESS;
		} else {
			memset(op->rsp, 0, 4);
			op->rsp[4] = GB_FW_BACKEND_VERSION_STATUS_NOT_AVAILABLE;
		}
		op->rsp_len = 5;
		return GB_OP_SUCCESS;
	case GB_FW_MGMT_TYPE_BACKEND_FW_UPDATE:
		if (!gbsim_op_len_is(op, 11))
			return GB_OP_INVALID;
		return gbsim_fwm_start(op, op->req[0], op->req + 1, true);
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

static int gbsim_fwm_conn_init(struct gbsim_conn *conn)
{
	struct gbsim_fwm *fwm = calloc(1, sizeof(*fwm));

	if (!fwm)
		return -1;
	gbsim_fwm_parse(&fwm->cfg);
	conn->priv = fwm;
	return 0;
}

static void gbsim_fwm_conn_fini(struct gbsim_conn *conn)
{
	free(conn->priv);
	conn->priv = NULL;
}

static struct gbsim_proto gbsim_proto_fw_mgmt = {
	.id		= GREYBUS_PROTOCOL_FW_MANAGEMENT,
	.name		= "fw_mgmt",
	.request	= gbsim_fwm_request,
	.conn_init	= gbsim_fwm_conn_init,
	.conn_fini	= gbsim_fwm_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_fw_mgmt);
