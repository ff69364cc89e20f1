// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator object and the transport's upcalls: messages from the AP
 * are checked here once (length, header size) and handed to the SVC
 * (bridge CPort 0) or to the connection they arrived on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "transport.h"

/* Start the SVC this long after CREATED if gb-vhd reports no enable of
 * CPort 0 (the SVC connection) by then. */
#define GBSIM_SVC_START_GRACE_MS	200

int gbsim_init(struct gbsim *sim, const struct gbsim_config *cfg,
	       struct gbsim_loop *loop)
{
	memset(sim, 0, sizeof(*sim));
	sim->cfg = cfg;
	sim->loop = loop;
	sim->num_cports = cfg->num_cports;
	sim->mtu = cfg->mtu;
	sim->endo_id = cfg->endo_id;
	sim->ap_intf_id = cfg->ap_intf_id;
	sim->svc_state = GBSIM_SVC_DOWN;
	sim->conns = calloc(sim->num_cports, sizeof(*sim->conns));
	sim->cport_enabled = calloc(sim->num_cports, sizeof(*sim->cport_enabled));
	sim->next_op_id = calloc(sim->num_cports, sizeof(*sim->next_op_id));
	sim->rsp_buf = malloc(GB_OPERATION_MSG_SIZE_MAX);
	if (!sim->conns || !sim->cport_enabled || !sim->next_op_id ||
	    !sim->rsp_buf) {
		gbsim_fini(sim);
		return -ENOMEM;
	}
	if (cfg->extra && cfg->extra->init)
		cfg->extra->init(sim);
	return 0;
}

void gbsim_fini(struct gbsim *sim)
{
	if (sim->cfg && sim->cfg->extra && sim->cfg->extra->fini)
		sim->cfg->extra->fini(sim);
	if (sim->conns) {
		gbsim_cancel_requests(sim, -1);
		gbsim_conns_purge(sim, -1);
	}
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		if (sim->modules[id])
			gbsim_module_destroy(sim->modules[id]);
		sim->modules[id] = NULL;
		sim->intfs[id] = NULL;
	}
	if (sim->svc_start_timer)
		gbsim_loop_cancel_timer(sim->loop, sim->svc_start_timer);
	free(sim->conns);
	free(sim->cport_enabled);
	free(sim->next_op_id);
	free(sim->rsp_buf);
	sim->conns = NULL;
	sim->cport_enabled = NULL;
	sim->next_op_id = NULL;
	sim->rsp_buf = NULL;
}

static void gbsim_svc_start_late(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim *sim = ctx;

	(void)loop;
	sim->svc_start_timer = 0;
	if (sim->svc_state == GBSIM_SVC_DOWN) {
		gbsim_log_info("no enable of cport 0 reported: starting the SVC anyway");
		gbsim_svc_start(sim);
	}
}

void gbsim_host_created(struct gbsim *sim, uint32_t bus_id)
{
	if (sim->host_created) {
		gbsim_log_error("vhd: second CREATED (bus %u) ignored", bus_id);
		return;
	}
	sim->host_created = true;
	sim->bus_id = bus_id;
	gbsim_log_info("host device greybus%u created (%u cports, mtu %u)",
		       bus_id, sim->num_cports, sim->mtu);
	if (sim->cport_enabled[GB_SVC_CPORT_ID])
		gbsim_svc_start(sim);
	else
		sim->svc_start_timer = gbsim_loop_add_timer(sim->loop,
				GBSIM_SVC_START_GRACE_MS, gbsim_svc_start_late, sim);
}

void gbsim_host_message(struct gbsim *sim, uint16_t cport, const uint8_t *msg,
			size_t len)
{
	struct gb_operation_msg_hdr hdr;
	size_t size;

	if (cport >= sim->num_cports) {
		gbsim_log_error("vhd: message on cport %u, beyond the %u cports: dropped",
				cport, sim->num_cports);
		return;
	}
	if (len < sizeof(hdr)) {
		gbsim_log_msg(GBSIM_AP_TO_MOD, cport, -1, -1, -1, msg, len,
			      "dropped");
		gbsim_log_error("cport %u: short message of %zu bytes: dropped",
				cport, len);
		return;
	}
	memcpy(&hdr, msg, sizeof(hdr));
	size = le16toh(hdr.size);
	if (size < sizeof(hdr) || size > len) {
		gbsim_log_from_ap(sim, cport, msg, len, "dropped: bad size");
		gbsim_log_error("cport %u: header size %zu but %zu bytes received: dropped",
				cport, size, len);
		return;
	}
	if (size < len) {
		gbsim_log_warn("cport %u: %zu bytes after the %zu the header announces: ignored",
			       cport, len - size, size);
		len = size;
	}

	if (cport == GB_SVC_CPORT_ID)
		gbsim_svc_request(sim, msg, len);
	else
		gbsim_conn_message(sim, cport, msg, len);
}

void gbsim_host_cport_event(struct gbsim *sim, const char *what,
			    uint16_t cport, uint32_t arg)
{
	if (cport >= sim->num_cports) {
		gbsim_log_error("vhd: %s of cport %u, beyond the %u cports", what,
				cport, sim->num_cports);
		return;
	}
	if (!strcmp(what, "enable"))
		gbsim_log_event("cport %u %s flags=0x%x", cport, what, arg);
	else if (!strcmp(what, "quiesce"))
		gbsim_log_event("cport %u %s peer_space=%u", cport, what, arg);
	else if (!strcmp(what, "shutdown"))
		gbsim_log_event("cport %u %s phase=%u", cport, what, arg);
	else
		gbsim_log_event("cport %u %s", cport, what);

	if (!strcmp(what, "enable")) {
		sim->cport_enabled[cport] = true;
		if (cport == GB_SVC_CPORT_ID && sim->host_created)
			gbsim_svc_start(sim);
	} else if (!strcmp(what, "disable")) {
		sim->cport_enabled[cport] = false;
	}
}

void gbsim_host_reset(struct gbsim *sim)
{
	gbsim_log_event("host reset requested");
	gbsim_svc_reset(sim);
}

void gbsim_host_lost(struct gbsim *sim, int err)
{
	gbsim_log_error("host device lost: %s", strerror(-err));
	sim->host_created = false;
	gbsim_loop_stop(sim->loop, 1);
}
