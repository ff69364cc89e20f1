// SPDX-License-Identifier: GPL-2.0
/*
 * The SVC: bring-up (version, hello, module inserted) on the bridge's
 * CPort 0, and the answers to everything the AP asks of it: interface
 * power and activation, DME attributes, device ids, routes, connections,
 * power modes, eject, ping.
 *
 * Request-driven: each request is checked against the state of the
 * interface it names, whatever order the AP chooses, and refused (with a
 * logged error) when it makes no sense in that state.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/svc.h>

#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"

#define GBSIM_SVC_VERSION_TRIES	5

/* Simulated power-monitor readings of every interface */
#define GBSIM_INTF_MICROVOLTS	3800000
#define GBSIM_INTF_MICROAMPS	100000

/* UniPro ConfigResultCode for an attribute that does not exist */
#define GBSIM_DME_INVALID_MIB_ATTRIBUTE	0x0001

static void gbsim_svc_send_version(struct gbsim *sim);

/* ------------------------------------------------------------------ */
/* Bring-up: SVC -> AP                                                 */

static bool gbsim_svc_rsp_ok(const char *what, int err, uint8_t result)
{
	if (err == -ESHUTDOWN)
		return false;	/* the network was reset: forget it */
	if (err) {
		gbsim_log_error("svc: %s: %s", what, strerror(-err));
		return false;
	}
	if (result != GB_OP_SUCCESS) {
		const char *r = gbsim_result_name(result);

		gbsim_log_error("svc: %s: the AP answered %s", what,
				r ? r : "an unknown result");
		return false;
	}
	return true;
}

static void gbsim_svc_hello_done(struct gbsim *sim, void *ctx, int err,
				 uint8_t result, const uint8_t *payload,
				 size_t len)
{
	(void)ctx;
	(void)payload;
	if (!gbsim_svc_rsp_ok("hello", err, result)) {
		if (err != -ESHUTDOWN)
			sim->svc_state = GBSIM_SVC_FAILED;
		return;
	}
	if (len)
		gbsim_log_warn("svc: hello response carries %zu unexpected bytes",
			       len);
	sim->svc_state = GBSIM_SVC_READY;
	gbsim_log_info("svc ready: endo 0x%04x, AP interface %u", sim->endo_id,
		       sim->ap_intf_id);
	gbsim_modules_announce(sim);
}

/*
 * --early-insert: every module plugged in goes out before hello, all at
 * once, as the CC1352 firmware does with a static node list
 */
static void gbsim_svc_announce_early(struct gbsim *sim)
{
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		struct gbsim_module *m = sim->modules[id];

		if (!m || m->state != GBSIM_MODULE_PLUGGED)
			continue;
		gbsim_log_info("svc: module %u inserted before hello", id);
		gbsim_svc_module_inserted(sim, m);
	}
}

static void gbsim_svc_version_done(struct gbsim *sim, void *ctx, int err,
				   uint8_t result, const uint8_t *payload,
				   size_t len)
{
	struct gb_svc_hello_request hello = {
		.endo_id = htole16(sim->endo_id),
		.interface_id = sim->ap_intf_id,
	};
	struct gb_protocol_version_response rsp;
	int ret;

	(void)ctx;
	if (err == -ETIMEDOUT && sim->svc_attempts < GBSIM_SVC_VERSION_TRIES) {
		gbsim_log_warn("svc: no answer to version, trying again");
		gbsim_svc_send_version(sim);
		return;
	}
	if (!gbsim_svc_rsp_ok("version", err, result)) {
		if (err != -ESHUTDOWN)
			sim->svc_state = GBSIM_SVC_FAILED;
		return;
	}
	if (len != sizeof(rsp)) {
		gbsim_log_error("svc: version response of %zu bytes, expected %zu",
				len, sizeof(rsp));
		sim->svc_state = GBSIM_SVC_FAILED;
		return;
	}
	memcpy(&rsp, payload, sizeof(rsp));
	if (rsp.major > GB_SVC_VERSION_MAJOR ||
	    (rsp.major == GB_SVC_VERSION_MAJOR && rsp.minor > GB_SVC_VERSION_MINOR))
		gbsim_log_warn("svc: AP answered version %u.%u, above the %u.%u offered",
			       rsp.major, rsp.minor, GB_SVC_VERSION_MAJOR,
			       GB_SVC_VERSION_MINOR);

	if (sim->cfg->early_insert)
		gbsim_svc_announce_early(sim);
	sim->svc_state = GBSIM_SVC_HELLO;
	ret = gbsim_send_request(sim, GB_SVC_CPORT_ID, GB_SVC_TYPE_SVC_HELLO,
				 &hello, sizeof(hello), GBSIM_REQUEST_TIMEOUT_MS,
				 gbsim_svc_hello_done, NULL);
	if (ret) {
		gbsim_log_error("svc: cannot send hello: %s", strerror(-ret));
		sim->svc_state = GBSIM_SVC_FAILED;
	}
}

static void gbsim_svc_send_version(struct gbsim *sim)
{
	struct gb_protocol_version_request req = {
		.major = GB_SVC_VERSION_MAJOR,
		.minor = GB_SVC_VERSION_MINOR,
	};
	int ret;

	sim->svc_state = GBSIM_SVC_VERSION;
	sim->svc_attempts++;
	/* short timeout: the AP may not have been listening yet */
	ret = gbsim_send_request(sim, GB_SVC_CPORT_ID,
				 GB_REQUEST_TYPE_PROTOCOL_VERSION, &req,
				 sizeof(req), 1000, gbsim_svc_version_done,
				 NULL);
	if (ret) {
		gbsim_log_error("svc: cannot send version: %s", strerror(-ret));
		sim->svc_state = GBSIM_SVC_FAILED;
	}
}

void gbsim_svc_start(struct gbsim *sim)
{
	if (sim->svc_state != GBSIM_SVC_DOWN)
		return;
	if (sim->svc_start_timer) {
		gbsim_loop_cancel_timer(sim->loop, sim->svc_start_timer);
		sim->svc_start_timer = 0;
	}
	sim->svc_attempts = 0;
	gbsim_svc_send_version(sim);
}

void gbsim_svc_reset(struct gbsim *sim)
{
	gbsim_log_info("svc: resetting the network");
	sim->svc_state = GBSIM_SVC_FAILED;	/* callbacks below see no SVC */
	gbsim_cancel_requests(sim, -1);
	gbsim_conns_purge(sim, -1);
	memset(sim->routes, 0, sizeof(sim->routes));
	memset(sim->device_ids, 0, sizeof(sim->device_ids));
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		struct gbsim_intf *intf = sim->intfs[id];

		if (intf) {
			gbsim_intf_power_off(sim, intf);
			intf->vsys = intf->refclk = false;
		}
		if (sim->modules[id])
			sim->modules[id]->state = GBSIM_MODULE_PLUGGED;
	}
	sim->svc_state = GBSIM_SVC_DOWN;
	gbsim_svc_start(sim);
}

static void *gbsim_module_ctx(const struct gbsim_module *m)
{
	return (void *)(uintptr_t)(((uintptr_t)m->seq << 8) | m->id);
}

static struct gbsim_module *gbsim_module_from_ctx(struct gbsim *sim, void *ctx)
{
	uintptr_t v = (uintptr_t)ctx;
	struct gbsim_module *m = sim->modules[v & 0xff];

	return m && m->seq == (v >> 8) ? m : NULL;
}

static void gbsim_svc_inserted_done(struct gbsim *sim, void *ctx, int err,
				    uint8_t result, const uint8_t *payload,
				    size_t len)
{
	struct gbsim_module *m = gbsim_module_from_ctx(sim, ctx);
	char what[64];

	(void)payload;
	(void)len;
	snprintf(what, sizeof(what), "module inserted %u",
		 (unsigned int)((uintptr_t)ctx & 0xff));
	if (!gbsim_svc_rsp_ok(what, err, result) && err == -ESHUTDOWN)
		return;
	if (m && m->state == GBSIM_MODULE_INSERTING)
		m->state = GBSIM_MODULE_INSERTED;
	gbsim_modules_announce(sim);
}

int gbsim_svc_module_inserted(struct gbsim *sim, struct gbsim_module *m)
{
	struct gb_svc_module_inserted_request req = {
		.primary_intf_id = m->id,
		.intf_count = m->num_intfs,
		.flags = htole16(0),
	};
	int ret;

	m->state = GBSIM_MODULE_INSERTING;
	ret = gbsim_send_request(sim, GB_SVC_CPORT_ID,
				 GB_SVC_TYPE_MODULE_INSERTED, &req, sizeof(req),
				 GBSIM_REQUEST_TIMEOUT_MS,
				 gbsim_svc_inserted_done, gbsim_module_ctx(m));
	if (ret) {
		gbsim_log_error("svc: cannot send module inserted %u: %s",
				m->id, strerror(-ret));
		m->state = GBSIM_MODULE_PLUGGED;
	}
	return ret;
}

static void gbsim_svc_removed_done(struct gbsim *sim, void *ctx, int err,
				   uint8_t result, const uint8_t *payload,
				   size_t len)
{
	char what[64];

	(void)sim;
	(void)payload;
	(void)len;
	snprintf(what, sizeof(what), "module removed %u",
		 (unsigned int)(uintptr_t)ctx);
	gbsim_svc_rsp_ok(what, err, result);
}

int gbsim_svc_module_removed(struct gbsim *sim, uint8_t id)
{
	struct gb_svc_module_removed_request req = { .primary_intf_id = id };
	int ret;

	ret = gbsim_send_request(sim, GB_SVC_CPORT_ID,
				 GB_SVC_TYPE_MODULE_REMOVED, &req, sizeof(req),
				 GBSIM_REQUEST_TIMEOUT_MS, gbsim_svc_removed_done,
				 (void *)(uintptr_t)id);
	if (ret)
		gbsim_log_error("svc: cannot send module removed %u: %s", id,
				strerror(-ret));
	return ret;
}

/* ------------------------------------------------------------------ */
/* Requests: AP -> SVC                                                 */

/* The interface a request names, or NULL (logged) */
static struct gbsim_intf *gbsim_svc_intf(struct gbsim_op *op, uint8_t intf_id)
{
	struct gbsim_intf *intf = op->sim->intfs[intf_id];
	char name[64];

	if (intf)
		return intf;
	gb_op_fullname(GREYBUS_PROTOCOL_SVC, op->type, name, sizeof(name));
	gbsim_log_error("svc: %s id=0x%04x: no module at interface %u", name,
			op->id, intf_id);
	return NULL;
}

static void gbsim_svc_refuse(struct gbsim_op *op, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void gbsim_svc_refuse(struct gbsim_op *op, const char *fmt, ...)
{
	char name[64], why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	gb_op_fullname(GREYBUS_PROTOCOL_SVC, op->type, name, sizeof(name));
	gbsim_log_error("svc: %s id=0x%04x refused: %s", name, op->id, why);
}

static int gbsim_svc_intf_device_id(struct gbsim_op *op)
{
	struct gb_svc_intf_device_id_request req;
	struct gbsim *sim = op->sim;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	if (!gbsim_svc_intf(op, req.intf_id))
		return GB_OP_INVALID;
	if (req.device_id < GB_SVC_DEVICE_ID_MIN ||
	    req.device_id > GB_SVC_DEVICE_ID_MAX) {
		gbsim_svc_refuse(op, "device id %u out of range %u..%u",
				 req.device_id, GB_SVC_DEVICE_ID_MIN,
				 GB_SVC_DEVICE_ID_MAX);
		return GB_OP_INVALID;
	}
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		if (id != req.intf_id && sim->device_ids[id] == req.device_id) {
			gbsim_svc_refuse(op, "device id %u already given to interface %u",
					 req.device_id, id);
			return GB_OP_INVALID;
		}
	}
	sim->device_ids[req.intf_id] = req.device_id;
	return GB_OP_SUCCESS;
}

static int gbsim_svc_conn_create(struct gbsim_op *op)
{
	struct gb_svc_conn_create_request req;
	struct gbsim *sim = op->sim;
	struct gbsim_conn *conn;
	uint16_t cport1, cport2;
	char err[160];

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	cport1 = le16toh(req.cport1_id);
	cport2 = le16toh(req.cport2_id);
	if (req.intf1_id != sim->ap_intf_id) {
		gbsim_svc_refuse(op, "first end %u:%u is not the AP (interface %u)",
				 req.intf1_id, cport1, sim->ap_intf_id);
		return GB_OP_INVALID;
	}
	if (cport2 > GB_CPORT_ID_MAX) {
		gbsim_svc_refuse(op, "interface cport %u out of range", cport2);
		return GB_OP_INVALID;
	}
	conn = gbsim_conn_create(sim, cport1, req.intf2_id, cport2, req.flags,
				 err, sizeof(err));
	if (!conn) {
		gbsim_svc_refuse(op, "%s", err);
		return GB_OP_INVALID;
	}
	gbsim_log_info("connection: cport %u <-> %u:%u (%s)", cport1,
		       req.intf2_id, cport2, conn->proto->name);
	return GB_OP_SUCCESS;
}

static int gbsim_svc_conn_destroy(struct gbsim_op *op)
{
	struct gb_svc_conn_destroy_request req;
	struct gbsim *sim = op->sim;
	struct gbsim_conn *conn;
	uint16_t cport1, cport2;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	cport1 = le16toh(req.cport1_id);
	cport2 = le16toh(req.cport2_id);
	conn = cport1 < sim->num_cports ? sim->conns[cport1] : NULL;
	if (req.intf1_id != sim->ap_intf_id || !conn ||
	    conn->intf_id != req.intf2_id || conn->intf_cport != cport2) {
		gbsim_svc_refuse(op, "no connection %u:%u <-> %u:%u",
				 req.intf1_id, cport1, req.intf2_id, cport2);
		return GB_OP_INVALID;
	}
	gbsim_conn_destroy(sim, conn);
	gbsim_log_info("connection: cport %u <-> %u:%u destroyed", cport1,
		       req.intf2_id, cport2);
	return GB_OP_SUCCESS;
}

static int gbsim_svc_dme_peer_get(struct gbsim_op *op)
{
	struct gb_svc_dme_peer_get_request req;
	struct gb_svc_dme_peer_get_response rsp = { 0 };
	struct gbsim_intf *intf;
	uint32_t value = 0;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	intf = gbsim_svc_intf(op, req.intf_id);
	if (!intf)
		return GB_OP_INVALID;
	if (!intf->unipro) {
		gbsim_svc_refuse(op, "interface %u has no UniPro link",
				 req.intf_id);
		return GB_OP_INVALID;
	}
	if (gbsim_intf_dme_get(intf, le16toh(req.attr), le16toh(req.selector),
			       &value)) {
		gbsim_log_warn("svc: interface %u has no DME attribute 0x%04x selector %u",
			       req.intf_id, le16toh(req.attr),
			       le16toh(req.selector));
		rsp.result_code = htole16(GBSIM_DME_INVALID_MIB_ATTRIBUTE);
	}
	rsp.attr_value = htole32(value);
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_svc_dme_peer_set(struct gbsim_op *op)
{
	struct gb_svc_dme_peer_set_request req;
	struct gb_svc_dme_peer_set_response rsp = { 0 };
	struct gbsim_intf *intf;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	intf = gbsim_svc_intf(op, req.intf_id);
	if (!intf)
		return GB_OP_INVALID;
	if (!intf->unipro) {
		gbsim_svc_refuse(op, "interface %u has no UniPro link",
				 req.intf_id);
		return GB_OP_INVALID;
	}
	if (gbsim_intf_dme_set(intf, le16toh(req.attr), le16toh(req.selector),
			       le32toh(req.value)))
		rsp.result_code = htole16(GBSIM_DME_INVALID_MIB_ATTRIBUTE);
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_svc_route_create(struct gbsim_op *op)
{
	struct gb_svc_route_create_request req;
	struct gbsim *sim = op->sim;
	uint8_t intf_id, dev_id;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	if (req.intf1_id == sim->ap_intf_id && req.dev1_id == GB_SVC_DEVICE_ID_AP) {
		intf_id = req.intf2_id;
		dev_id = req.dev2_id;
	} else if (req.intf2_id == sim->ap_intf_id &&
		   req.dev2_id == GB_SVC_DEVICE_ID_AP) {
		intf_id = req.intf1_id;
		dev_id = req.dev1_id;
	} else {
		gbsim_svc_refuse(op, "neither end is the AP (interface %u, device %u)",
				 sim->ap_intf_id, GB_SVC_DEVICE_ID_AP);
		return GB_OP_INVALID;
	}
	if (!gbsim_svc_intf(op, intf_id))
		return GB_OP_INVALID;
	if (!sim->device_ids[intf_id]) {
		gbsim_log_warn("svc: route to interface %u before it got a device id",
			       intf_id);
	} else if (sim->device_ids[intf_id] != dev_id) {
		gbsim_svc_refuse(op, "interface %u has device id %u, not %u",
				 intf_id, sim->device_ids[intf_id], dev_id);
		return GB_OP_INVALID;
	}
	sim->routes[intf_id].present = true;
	sim->routes[intf_id].device_id = dev_id;
	return GB_OP_SUCCESS;
}

static int gbsim_svc_route_destroy(struct gbsim_op *op)
{
	struct gb_svc_route_destroy_request req;
	struct gbsim *sim = op->sim;
	uint8_t intf_id;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	intf_id = req.intf1_id == sim->ap_intf_id ? req.intf2_id : req.intf1_id;
	if (!sim->routes[intf_id].present) {
		gbsim_svc_refuse(op, "no route between %u and %u", req.intf1_id,
				 req.intf2_id);
		return GB_OP_INVALID;
	}
	sim->routes[intf_id].present = false;
	sim->device_ids[intf_id] = 0;	/* the AP frees it with the route */
	return GB_OP_SUCCESS;
}

static int gbsim_svc_intf_set_pwrm(struct gbsim_op *op)
{
	struct gb_svc_intf_set_pwrm_request req;
	struct gb_svc_intf_set_pwrm_response rsp;
	struct gbsim_intf *intf = NULL;
	bool hibernate;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	if (req.intf_id != op->sim->ap_intf_id) {
		intf = gbsim_svc_intf(op, req.intf_id);
		if (!intf)
			return GB_OP_INVALID;
	}
	hibernate = req.tx_mode == GB_SVC_UNIPRO_HIBERNATE_MODE &&
		    req.rx_mode == GB_SVC_UNIPRO_HIBERNATE_MODE;
	/*
	 * UniPro reports a completed mode change as PWR_LOCAL, hibernate
	 * entry as PWR_OK; the AP checks for exactly these.
	 */
	rsp.result_code = hibernate ? GB_SVC_SETPWRM_PWR_OK :
				      GB_SVC_SETPWRM_PWR_LOCAL;
	if (intf && hibernate)
		intf->hibernated = true;
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static void gbsim_svc_eject_now(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim *sim = ctx;

	(void)loop;
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		struct gbsim_module *m = sim->modules[id];

		if (m && m->state == GBSIM_MODULE_INSERTED && m->ejecting)
			gbsim_module_remove(sim, (uint8_t)id, "ejected");
	}
}

static int gbsim_svc_intf_eject(struct gbsim_op *op)
{
	struct gb_svc_intf_eject_request req;
	struct gbsim_intf *intf;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	intf = gbsim_svc_intf(op, req.intf_id);
	if (!intf)
		return GB_OP_INVALID;
	/* the latch opens and the module falls out, after this answer */
	gbsim_log_info("svc: ejecting module %u", intf->module->id);
	intf->module->ejecting = true;
	gbsim_loop_add_timer(op->sim->loop, 0, gbsim_svc_eject_now, op->sim);
	return GB_OP_SUCCESS;
}

static int gbsim_svc_rail(struct gbsim_op *op, uint8_t rail_type,
			  uint8_t *result, uint32_t *value)
{
	switch (rail_type) {
	case GB_SVC_PWRMON_TYPE_CURR:
		*value = GBSIM_INTF_MICROAMPS;
		break;
	case GB_SVC_PWRMON_TYPE_VOL:
		*value = GBSIM_INTF_MICROVOLTS;
		break;
	case GB_SVC_PWRMON_TYPE_PWR:
		*value = (uint32_t)((uint64_t)GBSIM_INTF_MICROVOLTS *
				    GBSIM_INTF_MICROAMPS / 1000000);
		break;
	default:
		gbsim_svc_refuse(op, "measurement type %u", rail_type);
		*result = GB_SVC_PWRMON_GET_SAMPLE_INVAL;
		*value = 0;
		return 0;
	}
	*result = GB_SVC_PWRMON_GET_SAMPLE_OK;
	return 0;
}

static int gbsim_svc_pwrmon(struct gbsim_op *op)
{
	struct gb_svc_pwrmon_sample_get_response rsp = { 0 };
	uint32_t value = 0;

	switch (op->type) {
	case GB_SVC_TYPE_PWRMON_RAIL_COUNT_GET:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		op->rsp[0] = 0;	/* no rails of its own */
		op->rsp_len = 1;
		return GB_OP_SUCCESS;
	case GB_SVC_TYPE_PWRMON_RAIL_NAMES_GET:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		op->rsp[0] = GB_SVC_OP_SUCCESS;	/* status, then no names */
		op->rsp_len = 1;
		return GB_OP_SUCCESS;
	case GB_SVC_TYPE_PWRMON_SAMPLE_GET: {
		struct gb_svc_pwrmon_sample_get_request req;

		if (!gbsim_op_len_is(op, sizeof(req)))
			return GB_OP_INVALID;
		memcpy(&req, op->req, sizeof(req));
		gbsim_svc_refuse(op, "no rail %u", req.rail_id);
		rsp.result = GB_SVC_PWRMON_GET_SAMPLE_INVAL;
		break;
	}
	case GB_SVC_TYPE_PWRMON_INTF_SAMPLE_GET: {
		struct gb_svc_pwrmon_intf_sample_get_request req;

		if (!gbsim_op_len_is(op, sizeof(req)))
			return GB_OP_INVALID;
		memcpy(&req, op->req, sizeof(req));
		if (!gbsim_svc_intf(op, req.intf_id)) {
			rsp.result = GB_SVC_PWRMON_GET_SAMPLE_INVAL;
			break;
		}
		gbsim_svc_rail(op, req.measurement_type, &rsp.result, &value);
		break;
	}
	}
	rsp.measurement = htole32(value);
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

/* vsys, refclk and UniPro enable/disable share one layout */
static int gbsim_svc_intf_power(struct gbsim_op *op)
{
	struct gb_svc_intf_request req;
	struct gb_svc_intf_result_response rsp = { GB_SVC_INTF_VSYS_OK };
	struct gbsim_intf *intf;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	intf = gbsim_svc_intf(op, req.intf_id);
	if (!intf) {
		rsp.result_code = GB_SVC_INTF_VSYS_FAIL;	/* = every FAIL */
		goto out;
	}

	switch (op->type) {
	case GB_SVC_TYPE_INTF_VSYS_ENABLE:
		intf->vsys = true;
		break;
	case GB_SVC_TYPE_INTF_VSYS_DISABLE:
		gbsim_intf_power_off(op->sim, intf);
		intf->vsys = false;
		intf->refclk = false;
		break;
	case GB_SVC_TYPE_INTF_REFCLK_ENABLE:
		if (!intf->vsys) {
			gbsim_svc_refuse(op, "interface %u has no V_SYS", intf->id);
			rsp.result_code = GB_SVC_INTF_REFCLK_FAIL;
			break;
		}
		intf->refclk = true;
		break;
	case GB_SVC_TYPE_INTF_REFCLK_DISABLE:
		intf->refclk = false;
		break;
	case GB_SVC_TYPE_INTF_UNIPRO_ENABLE:
		if (!intf->vsys || !intf->refclk) {
			gbsim_svc_refuse(op, "interface %u has no %s", intf->id,
					 intf->vsys ? "REFCLK" : "V_SYS");
			rsp.result_code = GB_SVC_INTF_UNIPRO_FAIL;
			break;
		}
		if (intf->kind == GBSIM_INTF_DUMMY) {
			rsp.result_code = GB_SVC_INTF_UNIPRO_FAIL;
			break;
		}
		intf->unipro = true;
		break;
	case GB_SVC_TYPE_INTF_UNIPRO_DISABLE:
		gbsim_intf_power_off(op->sim, intf);
		break;
	}
out:
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_svc_intf_activate(struct gbsim_op *op)
{
	struct gb_svc_intf_request req;
	struct gb_svc_intf_activate_response rsp = {
		.status = GB_SVC_OP_SUCCESS,
		.intf_type = GB_SVC_INTF_TYPE_UNKNOWN,
	};
	struct gbsim_intf *intf;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	intf = gbsim_svc_intf(op, req.intf_id);
	if (!intf)
		rsp.status = GB_SVC_INTF_NOT_DETECTED;
	else if (!intf->vsys)
		rsp.status = GB_SVC_INTF_NO_V_SYS;
	else if (!intf->refclk)
		rsp.status = GB_SVC_INTF_NO_REFCLK;
	else if (intf->kind == GBSIM_INTF_DUMMY)
		rsp.intf_type = GB_SVC_INTF_TYPE_DUMMY;
	else if (!intf->unipro)
		rsp.status = GB_SVC_INTF_NO_UPRO_LINK;
	else if (intf->kind == GBSIM_INTF_UNIPRO)
		rsp.intf_type = GB_SVC_INTF_TYPE_UNIPRO;
	else
		rsp.intf_type = GB_SVC_INTF_TYPE_GREYBUS;

	if (rsp.status != GB_SVC_OP_SUCCESS)
		gbsim_svc_refuse(op, "interface %u not ready (status %u)",
				 req.intf_id, rsp.status);
	if (rsp.intf_type == GB_SVC_INTF_TYPE_GREYBUS) {
		/* a fresh boot: the module's init status is back */
		gbsim_intf_power_off(op->sim, intf);
		intf->unipro = true;
		intf->active = true;
		gbsim_intf_reset_dme(intf);
	}
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_svc_intf_resume(struct gbsim_op *op)
{
	struct gb_svc_intf_request req;
	struct gb_svc_intf_resume_response rsp = { GB_SVC_OP_SUCCESS };
	struct gbsim_intf *intf;

	if (!gbsim_op_len_is(op, sizeof(req)))
		return GB_OP_INVALID;
	memcpy(&req, op->req, sizeof(req));
	intf = gbsim_svc_intf(op, req.intf_id);
	if (!intf)
		rsp.status = GB_SVC_INTF_NOT_DETECTED;
	else if (!intf->vsys)
		rsp.status = GB_SVC_INTF_NO_V_SYS;
	else if (!intf->active)
		rsp.status = GB_SVC_INTF_NO_UPRO_LINK;
	else
		intf->hibernated = false;
	memcpy(op->rsp, &rsp, sizeof(rsp));
	op->rsp_len = sizeof(rsp);
	return GB_OP_SUCCESS;
}

static int gbsim_svc_handle(struct gbsim_op *op)
{
	switch (op->type) {
	case GB_SVC_TYPE_INTF_DEVICE_ID:
		return gbsim_svc_intf_device_id(op);
	case GB_SVC_TYPE_CONN_CREATE:
		return gbsim_svc_conn_create(op);
	case GB_SVC_TYPE_CONN_DESTROY:
		return gbsim_svc_conn_destroy(op);
	case GB_SVC_TYPE_DME_PEER_GET:
		return gbsim_svc_dme_peer_get(op);
	case GB_SVC_TYPE_DME_PEER_SET:
		return gbsim_svc_dme_peer_set(op);
	case GB_SVC_TYPE_ROUTE_CREATE:
		return gbsim_svc_route_create(op);
	case GB_SVC_TYPE_ROUTE_DESTROY:
		return gbsim_svc_route_destroy(op);
	case GB_SVC_TYPE_INTF_SET_PWRM:
		return gbsim_svc_intf_set_pwrm(op);
	case GB_SVC_TYPE_INTF_EJECT:
		return gbsim_svc_intf_eject(op);
	case GB_SVC_TYPE_PING:
		return gbsim_op_len_is(op, 0) ? GB_OP_SUCCESS : GB_OP_INVALID;
	case GB_SVC_TYPE_PWRMON_RAIL_COUNT_GET:
	case GB_SVC_TYPE_PWRMON_RAIL_NAMES_GET:
	case GB_SVC_TYPE_PWRMON_SAMPLE_GET:
	case GB_SVC_TYPE_PWRMON_INTF_SAMPLE_GET:
		return gbsim_svc_pwrmon(op);
	case GB_SVC_TYPE_INTF_VSYS_ENABLE:
	case GB_SVC_TYPE_INTF_VSYS_DISABLE:
	case GB_SVC_TYPE_INTF_REFCLK_ENABLE:
	case GB_SVC_TYPE_INTF_REFCLK_DISABLE:
	case GB_SVC_TYPE_INTF_UNIPRO_ENABLE:
	case GB_SVC_TYPE_INTF_UNIPRO_DISABLE:
		return gbsim_svc_intf_power(op);
	case GB_SVC_TYPE_INTF_ACTIVATE:
		return gbsim_svc_intf_activate(op);
	case GB_SVC_TYPE_INTF_RESUME:
		return gbsim_svc_intf_resume(op);
	case GB_SVC_TYPE_TIMESYNC_WAKE_PINS_ACQUIRE:
	case GB_SVC_TYPE_TIMESYNC_WAKE_PINS_RELEASE:
	case GB_SVC_TYPE_TIMESYNC_ENABLE:
	case GB_SVC_TYPE_TIMESYNC_DISABLE:
	case GB_SVC_TYPE_TIMESYNC_AUTHORITATIVE:
	case GB_SVC_TYPE_TIMESYNC_PING:
		if (op->sim->cfg->extra && op->sim->cfg->extra->svc_timesync)
			return op->sim->cfg->extra->svc_timesync(op);
		gbsim_svc_refuse(op, "type 0x%02x: no TimeSync here", op->type);
		return GB_OP_PROTOCOL_BAD;
	default:
		gbsim_svc_refuse(op, "type 0x%02x is not an AP request the SVC model knows",
				 op->type);
		return GB_OP_PROTOCOL_BAD;
	}
}

void gbsim_svc_request(struct gbsim *sim, const uint8_t *msg, size_t len)
{
	const struct gb_operation_msg_hdr *hdr = (const void *)msg;

	if (hdr->type & GB_MSG_TYPE_RESPONSE)
		gbsim_handle_response(sim, GB_SVC_CPORT_ID, msg, len);
	else
		gbsim_run_request(sim, GB_SVC_CPORT_ID, NULL, NULL, msg, len,
				  gbsim_svc_handle);
}

int gbsim_svc_msg_intf(struct gbsim *sim, const uint8_t *msg, size_t len)
{
	const uint8_t *p = msg + sizeof(struct gb_operation_msg_hdr);
	size_t plen;

	if (len < sizeof(struct gb_operation_msg_hdr) ||
	    (msg[4] & GB_MSG_TYPE_RESPONSE))
		return -1;
	plen = len - sizeof(struct gb_operation_msg_hdr);
	switch (msg[4]) {
	case GB_SVC_TYPE_CONN_CREATE:
	case GB_SVC_TYPE_CONN_DESTROY:
		return plen >= 4 ? p[3] : -1;
	case GB_SVC_TYPE_ROUTE_CREATE:
		if (plen < 3)
			return -1;
		return p[0] == sim->ap_intf_id ? p[2] : p[0];
	case GB_SVC_TYPE_ROUTE_DESTROY:
		if (plen < 2)
			return -1;
		return p[0] == sim->ap_intf_id ? p[1] : p[0];
	case GB_SVC_TYPE_INTF_DEVICE_ID:
	case GB_SVC_TYPE_DME_PEER_GET:
	case GB_SVC_TYPE_DME_PEER_SET:
	case GB_SVC_TYPE_INTF_SET_PWRM:
	case GB_SVC_TYPE_INTF_EJECT:
	case GB_SVC_TYPE_PWRMON_INTF_SAMPLE_GET:
	case GB_SVC_TYPE_MODULE_INSERTED:
	case GB_SVC_TYPE_MODULE_REMOVED:
	case GB_SVC_TYPE_INTF_MAILBOX_EVENT:
	case GB_SVC_TYPE_INTF_OOPS:
	case GB_SVC_TYPE_INTF_RESET:
	case GB_SVC_TYPE_INTF_VSYS_ENABLE:
	case GB_SVC_TYPE_INTF_VSYS_DISABLE:
	case GB_SVC_TYPE_INTF_REFCLK_ENABLE:
	case GB_SVC_TYPE_INTF_REFCLK_DISABLE:
	case GB_SVC_TYPE_INTF_UNIPRO_ENABLE:
	case GB_SVC_TYPE_INTF_UNIPRO_DISABLE:
	case GB_SVC_TYPE_INTF_ACTIVATE:
	case GB_SVC_TYPE_INTF_RESUME:
		return plen >= 1 ? p[0] : -1;
	default:
		return -1;
	}
}

/* ------------------------------------------------------------------ */
/* The log's view of SVC messages                                      */

static struct gbsim_proto gbsim_proto_svc = {
	.id		= GREYBUS_PROTOCOL_SVC,
	.name		= "svc",
};
GBSIM_PROTO_REGISTER(gbsim_proto_svc);
