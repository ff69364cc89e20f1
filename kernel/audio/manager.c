// SPDX-License-Identifier: GPL-2.0
/*
 * gb-audio-manager: which audio modules are present, for userspace.
 *
 * /sys/kernel/gb_audio_manager/module-N/ per module, with its name,
 * bundle (device name), vid, pid, intf_id and the sizes of its topology;
 * an add and a remove uevent announce each one (SUBSYSTEM=gb_audio_manager,
 * with GB_AUDIO_BUNDLE and GB_AUDIO_INTF_ID), so a daemon can route audio
 * to a module as it comes and goes.
 */
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <greybus/compat.h>

#include "audio.h"

struct gb_audio_manager_module {
	struct kobject		kobj;
	struct list_head	list;
	int			id;
	struct gb_audio_manager_desc desc;
};

#define to_manager_module(k) container_of(k, struct gb_audio_manager_module, kobj)

static struct kset *gb_audio_manager_kset;
static LIST_HEAD(gb_audio_manager_modules);
static DEFINE_MUTEX(gb_audio_manager_lock);
static DEFINE_IDA(gb_audio_manager_ids);

/* Each attribute shows one field of the module's description */
struct gb_audio_manager_attr {
	struct attribute attr;
	size_t		offset;		/* in struct gb_audio_manager_desc */
	bool		is_string;
	bool		is_hex;
};

static ssize_t gb_audio_manager_attr_show(struct kobject *kobj,
					  struct attribute *attr, char *buf)
{
	struct gb_audio_manager_attr *a =
		container_of(attr, struct gb_audio_manager_attr, attr);
	const void *field = (const u8 *)&to_manager_module(kobj)->desc + a->offset;

	if (a->is_string)
		return sysfs_emit(buf, "%s\n", (const char *)field);
	if (a->is_hex)
		return sysfs_emit(buf, "0x%08x\n", *(const unsigned int *)field);

	return sysfs_emit(buf, "%u\n", *(const unsigned int *)field);
}

static const struct sysfs_ops gb_audio_manager_sysfs_ops = {
	.show	= gb_audio_manager_attr_show,
};

#define GB_DESC_OFFSET(f)	offsetof(struct gb_audio_manager_desc, f)

static struct gb_audio_manager_attr gb_audio_manager_attr_table[] = {
	{ { "name", 0444 }, GB_DESC_OFFSET(name), true, false },
	{ { "bundle", 0444 }, GB_DESC_OFFSET(bundle), true, false },
	{ { "vid", 0444 }, GB_DESC_OFFSET(vid), false, true },
	{ { "pid", 0444 }, GB_DESC_OFFSET(pid), false, true },
	{ { "intf_id", 0444 }, GB_DESC_OFFSET(intf_id), false, false },
	{ { "num_dais", 0444 }, GB_DESC_OFFSET(num_dais), false, false },
	{ { "num_controls", 0444 }, GB_DESC_OFFSET(num_controls), false, false },
	{ { "num_widgets", 0444 }, GB_DESC_OFFSET(num_widgets), false, false },
};

static struct attribute *gb_audio_manager_attrs[] = {
	&gb_audio_manager_attr_table[0].attr,
	&gb_audio_manager_attr_table[1].attr,
	&gb_audio_manager_attr_table[2].attr,
	&gb_audio_manager_attr_table[3].attr,
	&gb_audio_manager_attr_table[4].attr,
	&gb_audio_manager_attr_table[5].attr,
	&gb_audio_manager_attr_table[6].attr,
	&gb_audio_manager_attr_table[7].attr,
	NULL,
};
ATTRIBUTE_GROUPS(gb_audio_manager);

static void gb_audio_manager_release(struct kobject *kobj)
{
	kfree(to_manager_module(kobj));
}

static struct kobj_type gb_audio_manager_ktype = {
	.release	= gb_audio_manager_release,
	.sysfs_ops	= &gb_audio_manager_sysfs_ops,
	.default_groups	= gb_audio_manager_groups,
};

static int gb_audio_manager_uevent(GB_UEVENT_CONST struct kobject *kobj,
				   struct kobj_uevent_env *env)
{
	struct gb_audio_manager_module *m = to_manager_module(kobj);
	int ret;

	ret = add_uevent_var(env, "GB_AUDIO_BUNDLE=%s", m->desc.bundle);
	if (ret)
		return ret;

	return add_uevent_var(env, "GB_AUDIO_INTF_ID=%u", m->desc.intf_id);
}

static const struct kset_uevent_ops gb_audio_manager_uevent_ops = {
	.uevent	= gb_audio_manager_uevent,
};

/**
 * gb_audio_manager_add() - announce an audio module to userspace
 * @desc: what is announced; copied
 *
 * Adds a "module-N" kobject, whose attributes show @desc, and sends its
 * add uevent.
 *
 * Context: Process context; sleeps.
 * Return: the module's id N (>= 0), for gb_audio_manager_remove(), or a
 * negative errno.
 */
int gb_audio_manager_add(const struct gb_audio_manager_desc *desc)
{
	struct gb_audio_manager_module *m;
	int id, ret;

	id = ida_alloc(&gb_audio_manager_ids, GFP_KERNEL);
	if (id < 0)
		return id;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		ida_free(&gb_audio_manager_ids, id);
		return -ENOMEM;
	}
	m->id = id;
	m->desc = *desc;
	m->kobj.kset = gb_audio_manager_kset;

	ret = kobject_init_and_add(&m->kobj, &gb_audio_manager_ktype, NULL,
				   "module-%d", id);
	if (ret) {
		kobject_put(&m->kobj);
		ida_free(&gb_audio_manager_ids, id);
		return ret;
	}

	mutex_lock(&gb_audio_manager_lock);
	list_add_tail(&m->list, &gb_audio_manager_modules);
	mutex_unlock(&gb_audio_manager_lock);

	kobject_uevent(&m->kobj, KOBJ_ADD);

	return id;
}
EXPORT_SYMBOL_NS_GPL(gb_audio_manager_add, GREYBUS);

/**
 * gb_audio_manager_remove() - withdraw an announced audio module
 * @id: an id gb_audio_manager_add() returned
 *
 * Sends the remove uevent and deletes the kobject; an unknown @id is
 * ignored.
 *
 * Context: Process context; sleeps.
 */
void gb_audio_manager_remove(int id)
{
	struct gb_audio_manager_module *m, *found = NULL;

	mutex_lock(&gb_audio_manager_lock);
	list_for_each_entry(m, &gb_audio_manager_modules, list) {
		if (m->id == id) {
			list_del(&m->list);
			found = m;
			break;
		}
	}
	mutex_unlock(&gb_audio_manager_lock);

	if (!found)
		return;

	kobject_uevent(&found->kobj, KOBJ_REMOVE);
	kobject_del(&found->kobj);
	kobject_put(&found->kobj);
	ida_free(&gb_audio_manager_ids, id);
}
EXPORT_SYMBOL_NS_GPL(gb_audio_manager_remove, GREYBUS);

static int __init gb_audio_manager_init(void)
{
	gb_audio_manager_kset = kset_create_and_add("gb_audio_manager",
						    &gb_audio_manager_uevent_ops,
						    kernel_kobj);
	if (!gb_audio_manager_kset)
		return -ENOMEM;

	return 0;
}
module_init(gb_audio_manager_init);

static void __exit gb_audio_manager_exit(void)
{
	WARN_ON(!list_empty(&gb_audio_manager_modules));
	kset_unregister(gb_audio_manager_kset);
	ida_destroy(&gb_audio_manager_ids);
}
module_exit(gb_audio_manager_exit);

MODULE_DESCRIPTION("Greybus audio manager: the list of audio modules");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
