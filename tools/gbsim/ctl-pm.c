// SPDX-License-Identifier: GPL-2.0
/*
 * The "pm" control command: what power state the AP has put each
 * interface and bundle in, and whether the module refuses to suspend.
 *
 *   pm IFID                    show the interface and its bundles
 *   pm IFID [BUNDLE] refuse    answer suspend requests with BUSY
 *   pm IFID [BUNDLE] accept    suspend when asked (the default)
 *   pm IFID BUNDLE refuse-resume   answer bundle_resume with FAIL
 *   pm IFID BUNDLE accept-resume   resume when asked (the default)
 *
 * Without BUNDLE, refuse/accept apply to Control intf_suspend_prepare.
 */
#include <string.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"

static const char *gbsim_bundle_state_name(enum gbsim_bundle_state state)
{
	switch (state) {
	case GBSIM_BUNDLE_OFF:
		return "off";
	case GBSIM_BUNDLE_ACTIVE:
		return "active";
	case GBSIM_BUNDLE_SUSPENDED:
		return "suspended";
	}
	return "?";
}

static void gbsim_pm_show(struct gbsim_intf *intf, struct gbsim_ctl_out *out)
{
	gbsim_ctl_printf(out, "intf %u active=%d hibernated=%d refuse=%d\n",
			 intf->id, intf->active, intf->hibernated,
			 intf->refuse_suspend);
	for (size_t i = 0; i < intf->num_bundles; i++) {
		struct gbsim_bundle *b = &intf->bundles[i];

		gbsim_ctl_printf(out, "  bundle %u state=%s refuse=%d refuse_resume=%d\n",
				 b->id, gbsim_bundle_state_name(b->state),
				 b->refuse_suspend, b->refuse_resume);
	}
}

int gbsim_cmd_pm(struct gbsim *sim, int argc, char **argv,
		 struct gbsim_ctl_out *out)
{
	struct gbsim_bundle *bundle = NULL;
	struct gbsim_intf *intf;
	const char *verb;
	uint64_t id;
	bool refuse, resume = false;

	if (argc < 2 || argc > 4)
		return gbsim_ctl_fail(out, "usage: pm IFID [BUNDLE] [refuse|accept|refuse-resume|accept-resume]");
	if (gbsim_parse_uint(argv[1], GBSIM_INTF_MAX - 1, &id) || !sim->intfs[id])
		return gbsim_ctl_fail(out, "no interface '%.16s'", argv[1]);
	intf = sim->intfs[id];
	if (argc == 2) {
		gbsim_pm_show(intf, out);
		return 0;
	}
	if (argc == 4) {
		if (gbsim_parse_uint(argv[2], 255, &id) ||
		    !(bundle = gbsim_intf_find_bundle(intf, (uint8_t)id)))
			return gbsim_ctl_fail(out, "interface %u has no bundle '%.16s'",
					      intf->id, argv[2]);
	}
	verb = argv[argc - 1];
	if (!strcmp(verb, "refuse")) {
		refuse = true;
	} else if (!strcmp(verb, "accept")) {
		refuse = false;
	} else if (!strcmp(verb, "refuse-resume")) {
		refuse = true;
		resume = true;
	} else if (!strcmp(verb, "accept-resume")) {
		refuse = false;
		resume = true;
	} else {
		return gbsim_ctl_fail(out, "unknown pm action '%.16s' (refuse|accept|refuse-resume|accept-resume)",
				      verb);
	}
	if (resume && !bundle)
		return gbsim_ctl_fail(out, "%s needs a bundle", verb);
	if (resume)
		bundle->refuse_resume = refuse;
	else if (bundle)
		bundle->refuse_suspend = refuse;
	else
		intf->refuse_suspend = refuse;
	return 0;
}
