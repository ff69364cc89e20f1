// SPDX-License-Identifier: GPL-2.0
/*
 * Interfaces: identity (the DME attributes the SVC reads for the AP), the
 * bundles and CPorts the manifest declares, and power/link state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gb_manifest.h>

#include "gbsim.h"
#include "log.h"

static int gbsim_intf_parse_manifest(struct gbsim_intf *intf,
				     char *err, size_t errlen)
{
	struct gb_manifest_report rep;
	struct gb_mnf_info *info;
	char why[256];
	int ret;

	info = calloc(1, sizeof(*info));	/* big: keep it off the stack */
	if (!info) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memset(&rep, 0, sizeof(rep));
	ret = gb_mnf_decode(intf->manifest, intf->manifest_len, info, &rep);
	if (ret == -EINVAL) {
		snprintf(err, errlen, "invalid manifest: %s",
			 gb_mnf_explain(intf->manifest, intf->manifest_len, &rep,
					why, sizeof(why)));
		goto out;
	}
	if (ret) {
		snprintf(err, errlen, "cannot decode: %s", strerror(-ret));
		goto out;
	}

	intf->bundles = calloc(info->n_bundles ? info->n_bundles : 1,
			       sizeof(*intf->bundles));
	intf->cports = calloc(info->n_cports ? info->n_cports : 1,
			      sizeof(*intf->cports));
	if (!intf->bundles || !intf->cports) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out_free;
	}
	for (size_t i = 0; i < info->n_bundles; i++) {
		intf->bundles[i].id = info->bundles[i].id;
		intf->bundles[i].class_id = info->bundles[i].class_id;
		intf->bundles[i].state = GBSIM_BUNDLE_OFF;
	}
	intf->num_bundles = info->n_bundles;
	for (size_t i = 0; i < info->n_cports; i++) {
		intf->cports[i].id = info->cports[i].id;
		intf->cports[i].bundle_id = info->cports[i].bundle;
		intf->cports[i].protocol = info->cports[i].protocol;
	}
	intf->num_cports = info->n_cports;
out_free:
	gb_mnf_info_free(info);
out:
	free(info);
	return ret;
}

void gbsim_intf_init_identity(struct gbsim_intf *intf,
			      const struct gbsim_module_cfg *mc, uint8_t id)
{
	uint8_t offset = (uint8_t)(id - mc->id);

	memset(intf, 0, sizeof(*intf));
	intf->id = id;
	intf->kind = mc->kind;
	intf->vid = mc->vid;
	intf->pid = mc->pid;
	/* secondary interfaces get the next serial numbers */
	intf->serial = (mc->serial_set ? mc->serial :
			GBSIM_DEFAULT_SERIAL | mc->id) + offset;
	intf->ddbl1_mfr = mc->ddbl1_mfr;
	intf->ddbl1_prod = mc->ddbl1_prod;
	intf->init_status = mc->init_status;
}

int gbsim_intf_init(struct gbsim_intf *intf, const struct gbsim_module_cfg *mc,
		    uint8_t id, const uint8_t *blob, size_t blob_len,
		    char *err, size_t errlen)
{
	int ret;

	gbsim_intf_init_identity(intf, mc, id);

	intf->manifest = malloc(blob_len ? blob_len : 1);
	if (!intf->manifest) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (blob_len)
		memcpy(intf->manifest, blob, blob_len);
	intf->manifest_len = blob_len;
	gbsim_intf_reset_dme(intf);
	ret = gbsim_intf_parse_manifest(intf, err, errlen);
	if (ret == -ENOMEM || !mc->raw)
		return ret;
	if (ret) {
		/* raw: served as it is; nothing in it is reachable */
		gbsim_log_warn("intf %u: raw manifest of %zu bytes: %s: no bundles, no cports",
			       id, blob_len, err);
		free(intf->bundles);
		free(intf->cports);
		intf->bundles = NULL;
		intf->cports = NULL;
		intf->num_bundles = 0;
		intf->num_cports = 0;
	}
	return 0;
}

void gbsim_intf_fini(struct gbsim_intf *intf)
{
	free(intf->manifest);
	free(intf->bundles);
	free(intf->cports);
	memset(intf, 0, sizeof(*intf));
}

static void gbsim_intf_dme_put(struct gbsim_intf *intf, uint16_t attr,
			       uint32_t value)
{
	gbsim_intf_dme_set(intf, attr, 0, value);
}

void gbsim_intf_reset_dme(struct gbsim_intf *intf)
{
	intf->num_dme = 0;
	gbsim_intf_dme_put(intf, GB_DME_DDBL1_MANUFACTURERID, intf->ddbl1_mfr);
	gbsim_intf_dme_put(intf, GB_DME_DDBL1_PRODUCTID, intf->ddbl1_prod);
	gbsim_intf_dme_put(intf, GB_DME_ARA_VID, intf->vid);
	gbsim_intf_dme_put(intf, GB_DME_ARA_PID, intf->pid);
	gbsim_intf_dme_put(intf, GB_DME_ARA_SN0, (uint32_t)intf->serial);
	gbsim_intf_dme_put(intf, GB_DME_ARA_SN1, (uint32_t)(intf->serial >> 32));
	gbsim_intf_dme_put(intf, GB_DME_ARA_INIT_STATUS, intf->init_status);
	/* where an ES2-style AP looks for the init status */
	gbsim_intf_dme_put(intf, GB_DME_T_TSTSRCINCREMENT,
			   intf->init_status >> 24);
}

int gbsim_intf_dme_get(const struct gbsim_intf *intf, uint16_t attr,
		       uint16_t selector, uint32_t *value)
{
	for (size_t i = 0; i < intf->num_dme; i++) {
		if (intf->dme[i].attr == attr &&
		    intf->dme[i].selector == selector) {
			*value = intf->dme[i].value;
			return 0;
		}
	}
	return -ENOENT;
}

int gbsim_intf_dme_set(struct gbsim_intf *intf, uint16_t attr,
		       uint16_t selector, uint32_t value)
{
	for (size_t i = 0; i < intf->num_dme; i++) {
		if (intf->dme[i].attr == attr &&
		    intf->dme[i].selector == selector) {
			intf->dme[i].value = value;
			return 0;
		}
	}
	if (intf->num_dme == GBSIM_DME_ATTR_MAX)
		return -ENOSPC;
	intf->dme[intf->num_dme++] = (struct gbsim_dme_attr){
		.attr = attr, .selector = selector, .value = value,
	};
	return 0;
}

struct gbsim_cport *gbsim_intf_find_cport(struct gbsim_intf *intf,
					  uint16_t cport_id)
{
	for (size_t i = 0; i < intf->num_cports; i++)
		if (intf->cports[i].id == cport_id)
			return &intf->cports[i];
	return NULL;
}

struct gbsim_bundle *gbsim_intf_find_bundle(struct gbsim_intf *intf,
					    uint8_t bundle_id)
{
	for (size_t i = 0; i < intf->num_bundles; i++)
		if (intf->bundles[i].id == bundle_id)
			return &intf->bundles[i];
	return NULL;
}

void gbsim_intf_power_off(struct gbsim *sim, struct gbsim_intf *intf)
{
	sim->device_ids[intf->id] = 0;
	intf->unipro = false;
	intf->active = false;
	intf->hibernated = false;
	memset(&intf->ts, 0, sizeof(intf->ts));
	for (size_t i = 0; i < intf->num_bundles; i++)
		intf->bundles[i].state = GBSIM_BUNDLE_OFF;
	for (size_t i = 0; i < intf->num_cports; i++)
		intf->cports[i].connected = false;
}
