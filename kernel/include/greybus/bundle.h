/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus bundles: "N-M.I.B", one function of an interface; the device a
 * protocol driver binds to.
 */
#ifndef __GREYBUS_BUNDLE_H
#define __GREYBUS_BUNDLE_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <uapi/greybus/manifest.h>

struct gb_interface;

/**
 * struct gb_bundle - one function of an interface, "N-M.I.B"
 * @dev: the device protocol drivers bind to
 * @intf: the interface it belongs to
 * @id: the bundle id from the manifest, unique within the interface
 * @class: the bundle class (GREYBUS_CLASS_*) drivers match on
 * @num_cports: the number of entries of @cport_desc
 * @cport_desc: the manifest's CPort descriptors of this bundle, in wire
 *	layout (little-endian ids)
 * @connections: the connections the bound driver created, linked by
 *	their bundle_links
 * @links: the entry in @intf's list of bundles
 * @state_lock: protects @state
 * @state: the text last written to the "state" attribute, or NULL
 * @sleeping: runtime-suspended for system sleep by the core (pm.c);
 *	under the device lock
 * @authorized: whether a driver may bind (bundle.c); from the host's
 *	authorized_default at creation, changed with xchg(), read with
 *	READ_ONCE()
 * @auth_lock: serialises bringing the binding in line with @authorized
 * @auth_work: does that on a workqueue for a host driver's request
 *
 * Created by the manifest parser and owned by its interface, which adds,
 * deletes and puts it.  The driver bound to it owns the connections it
 * creates on its CPorts and must destroy them in disconnect().
 */
struct gb_bundle {
	struct device		dev;
	struct gb_interface	*intf;

	u8			id;
	u8			class;

	size_t			num_cports;
	struct greybus_descriptor_cport *cport_desc;

	struct list_head	connections;
	struct list_head	links;

	struct mutex		state_lock;	/* @state */
	char			*state;
	bool			sleeping;

	bool			authorized;
	struct mutex		auth_lock;	/* binding vs @authorized */
	struct work_struct	auth_work;
};

#define to_gb_bundle(d) container_of(d, struct gb_bundle, dev)

extern const struct device_type greybus_bundle_type;

static inline bool is_gb_bundle(const struct device *dev)
{
	return dev->type == &greybus_bundle_type;
}

struct gb_bundle *gb_bundle_create(struct gb_interface *intf, u8 bundle_id,
				   u8 class);
int gb_bundle_add(struct gb_bundle *bundle);
void gb_bundle_destroy(struct gb_bundle *bundle);

int gb_bundle_set_authorized(struct gb_bundle *bundle, bool authorized,
			     bool wait);

/*
 * Runtime-PM helpers for drivers, around the operations they send.  On a
 * bundle whose runtime PM is not enabled (no driver bound) the get
 * succeeds without doing anything.
 */
static inline int gb_pm_runtime_get_sync(struct gb_bundle *bundle)
{
	int ret;

	ret = pm_runtime_get_sync(&bundle->dev);
	if (ret < 0 && !(ret == -EACCES && !pm_runtime_enabled(&bundle->dev))) {
		dev_err(&bundle->dev, "failed to resume: %d\n", ret);
		pm_runtime_put_noidle(&bundle->dev);
		/*
		 * A failed resume leaves the bundle suspended with the
		 * error recorded, and runtime PM would refuse every later
		 * resume for it: clear it, so the next access tries again.
		 */
		pm_runtime_set_suspended(&bundle->dev);
		return ret;
	}

	return 0;
}

static inline void gb_pm_runtime_put_autosuspend(struct gb_bundle *bundle)
{
	pm_runtime_mark_last_busy(&bundle->dev);
	pm_runtime_put_autosuspend(&bundle->dev);
}

static inline void gb_pm_runtime_get_noresume(struct gb_bundle *bundle)
{
	pm_runtime_get_noresume(&bundle->dev);
}

static inline void gb_pm_runtime_put_noidle(struct gb_bundle *bundle)
{
	pm_runtime_put_noidle(&bundle->dev);
}

/* bundle.c */
extern const struct attribute_group *gb_bundle_groups[];

#endif /* __GREYBUS_BUNDLE_H */
