// SPDX-License-Identifier: GPL-2.0
/*
 * Modules: what is plugged into the frame.  A module owns its interfaces
 * (ids primary .. primary + num_intfs - 1).  Plugging one in makes its
 * interfaces reachable at once; the AP hears of it through SVC module
 * inserted, one module at a time, once the SVC has said hello.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gb_manifest.h>

#include "gbsim.h"
#include "log.h"

struct gbsim_module *gbsim_module_create(const struct gbsim_module_cfg *mc,
					 char *err, size_t errlen)
{
	struct gbsim_module *m;
	uint8_t *blob = NULL;
	size_t blob_len = 0;
	char lerr[256];
	int ret;

	if (!mc->num_intfs || mc->id + mc->num_intfs > GBSIM_INTF_MAX) {
		snprintf(err, errlen, "module %u: bad interface count %u",
			 mc->id, mc->num_intfs);
		return NULL;
	}

	lerr[0] = '\0';
	if (mc->raw) {
		/* byte for byte, whatever it holds */
		ret = gb_read_file(mc->manifest_path, &blob, &blob_len);
		if (ret) {
			snprintf(err, errlen, "module %u: %s: %s", mc->id,
				 mc->manifest_path, strerror(-ret));
			return NULL;
		}
		if (blob_len > UINT16_MAX) {
			snprintf(err, errlen, "module %u: %s: %zu bytes, more than a manifest size can say (65535)",
				 mc->id, mc->manifest_path, blob_len);
			free(blob);
			return NULL;
		}
	} else {
		ret = gb_manifest_load_file(mc->manifest_path, &blob, &blob_len,
					    lerr, sizeof(lerr));
		if (ret) {
			snprintf(err, errlen, "module %u: %s", mc->id,
				 lerr[0] ? lerr : "cannot load the manifest");
			return NULL;
		}
	}

	m = calloc(1, sizeof(*m) + mc->num_intfs * sizeof(m->intfs[0]));
	if (!m) {
		snprintf(err, errlen, "out of memory");
		free(blob);
		return NULL;
	}
	m->id = mc->id;
	m->num_intfs = mc->num_intfs;
	m->state = GBSIM_MODULE_PLUGGED;
	m->raw = mc->raw;
	m->manifest_path = strdup(mc->manifest_path);
	if (!m->manifest_path) {
		snprintf(err, errlen, "out of memory");
		goto err_destroy;
	}
	for (unsigned int i = 0; i < mc->num_intfs; i++) {
		struct gbsim_intf *intf = calloc(1, sizeof(*intf));

		if (!intf) {
			snprintf(err, errlen, "out of memory");
			goto err_destroy;
		}
		m->intfs[i] = intf;
		ret = gbsim_intf_init(intf, mc, (uint8_t)(mc->id + i), blob,
				      blob_len, lerr, sizeof(lerr));
		intf->module = m;
		if (ret) {
			snprintf(err, errlen, "module %u: manifest %s: %s",
				 mc->id, mc->manifest_path, lerr);
			goto err_destroy;
		}
	}
	free(blob);
	return m;

err_destroy:
	free(blob);
	gbsim_module_destroy(m);
	return NULL;
}

struct gbsim_module *gbsim_module_create_linked(const struct gbsim_module_cfg *mc,
						const struct gbsim_link_ops *link,
						void *link_ctx,
						char *err, size_t errlen)
{
	struct gbsim_module *m;

	m = calloc(1, sizeof(*m) + sizeof(m->intfs[0]));
	if (m) {
		m->intfs[0] = calloc(1, sizeof(*m->intfs[0]));
		m->manifest_path = strdup("-");
	}
	if (!m || !m->intfs[0] || !m->manifest_path) {
		snprintf(err, errlen, "out of memory");
		gbsim_module_destroy(m);
		return NULL;
	}
	m->id = mc->id;
	m->num_intfs = 1;
	m->state = GBSIM_MODULE_PLUGGED;
	m->link = link;
	m->link_ctx = link_ctx;
	gbsim_intf_init_identity(m->intfs[0], mc, mc->id);
	m->intfs[0]->module = m;
	gbsim_intf_reset_dme(m->intfs[0]);
	return m;
}

void gbsim_module_destroy(struct gbsim_module *m)
{
	if (!m)
		return;
	for (unsigned int i = 0; i < m->num_intfs; i++) {
		if (m->intfs[i]) {
			gbsim_intf_fini(m->intfs[i]);
			free(m->intfs[i]);
		}
	}
	free(m->manifest_path);
	free(m);
}

const char *gbsim_module_state_name(enum gbsim_module_state state)
{
	switch (state) {
	case GBSIM_MODULE_PLUGGED:	return "plugged";
	case GBSIM_MODULE_INSERTING:	return "inserting";
	case GBSIM_MODULE_INSERTED:	return "inserted";
	}
	return "unknown";
}

int gbsim_module_insert(struct gbsim *sim, struct gbsim_module *m,
			char *err, size_t errlen)
{
	for (unsigned int i = 0; i < m->num_intfs; i++) {
		unsigned int id = m->id + i;

		if (id == sim->ap_intf_id) {
			snprintf(err, errlen, "module %u: interface %u is the AP's",
				 m->id, id);
			return -EINVAL;
		}
		if (sim->intfs[id]) {
			snprintf(err, errlen, "module %u: interface %u is taken by module %u",
				 m->id, id, sim->intfs[id]->module->id);
			return -EBUSY;
		}
	}

	/*
	 * Connections the AP still has to a module gone stay in the SVC's
	 * table until it destroys them; conn.c tells them from the new
	 * module's by the module's seq.
	 */
	m->seq = ++sim->module_seq;
	for (unsigned int i = 0; i < m->num_intfs; i++)
		sim->intfs[m->id + i] = m->intfs[i];
	m->state = GBSIM_MODULE_PLUGGED;
	sim->modules[m->id] = m;
	gbsim_log_info("module %u plugged in (%u interface%s)", m->id,
		       m->num_intfs, m->num_intfs == 1 ? "" : "s");
	gbsim_modules_announce(sim);
	return 0;
}

int gbsim_module_remove(struct gbsim *sim, uint8_t id, const char *how)
{
	struct gbsim_module *m = sim->modules[id];
	bool announced;

	if (!m)
		return -ENOENT;
	announced = m->state != GBSIM_MODULE_PLUGGED;
	/*
	 * Its interfaces, with the device ids the AP gave them: an AP that
	 * frees a device id without destroying a route (an enumeration that
	 * failed before the route, a removal before it got there) may give
	 * it to another interface next
	 */
	for (unsigned int i = 0; i < m->num_intfs; i++) {
		sim->intfs[m->id + i] = NULL;
		sim->device_ids[m->id + i] = 0;
	}
	sim->modules[id] = NULL;
	gbsim_module_destroy(m);
	gbsim_log_info("module %u %s", id, how);

	if (announced && sim->svc_state == GBSIM_SVC_READY)
		gbsim_svc_module_removed(sim, id);
	/* a module queued behind this one may go now */
	gbsim_modules_announce(sim);
	return 0;
}

void gbsim_modules_announce(struct gbsim *sim)
{
	struct gbsim_module *next = NULL;

	if (sim->svc_state != GBSIM_SVC_READY)
		return;
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		struct gbsim_module *m = sim->modules[id];

		if (!m)
			continue;
		if (m->state == GBSIM_MODULE_INSERTING)
			return;	/* one at a time */
		if (m->state == GBSIM_MODULE_PLUGGED &&
		    (!next || m->seq < next->seq))
			next = m;
	}
	if (next)
		gbsim_svc_module_inserted(sim, next);
}
