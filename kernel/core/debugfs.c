// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/greybus: one directory per host device with a
 * "connections" file, one line per connection:
 *
 *   name hd_cport intf:cport protocol state sent received responses
 *   errors timeouts dropped pending id_chunks
 *
 * where id_chunks is how many chunks of the operation id map the connection
 * holds (operation_ids.c): 0 once it has been idle for a time-out scan.
 *
 * and a "monitor" file (monitor.c), as the directory itself has one for
 * every host device.
 *
 * Protocol drivers may add their own entries under gb_debugfs_get().
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "internal.h"
#include "monitor.h"

static struct dentry *gb_debugfs_root;

/**
 * gb_debugfs_get() - the Greybus debugfs directory, for drivers' entries
 *
 * Context: Any context.
 * Return: the dentry of /sys/kernel/debug/greybus, which lives as long as
 * greybus.ko is loaded; an error pointer (which the debugfs functions
 * accept and ignore) when debugfs is not available.
 */
struct dentry *gb_debugfs_get(void)
{
	return gb_debugfs_root;
}
EXPORT_SYMBOL_NS_GPL(gb_debugfs_get, GREYBUS);

static int gb_debugfs_connections_show(struct seq_file *s, void *data)
{
	struct gb_host_device *hd = s->private;
	struct gb_connection *connection;
	struct gb_connection_stats stats;
	enum gb_connection_state state;
	unsigned int pending, chunks;
	u8 intf_id;

	seq_puts(s, "# name hd_cport intf:cport protocol state sent received responses errors timeouts dropped pending id_chunks\n");

	/* A snapshot under the locks; seq_printf() does not sleep */
	spin_lock_irq(&hd->lock);
	list_for_each_entry(connection, &hd->connections, hd_links) {
		spin_lock(&connection->lock);
		stats = connection->stats;
		state = connection->state;
		pending = connection->ops_pending;
		chunks = gb_operation_ids_chunks(&connection->op_ids);
		spin_unlock(&connection->lock);

		intf_id = connection->intf ? connection->intf->interface_id : 0;
		seq_printf(s, "%s %u %u:%u 0x%02x %s %llu %llu %llu %llu %llu %llu %u %u\n",
			   connection->name, connection->hd_cport_id, intf_id,
			   connection->intf_cport_id, connection->protocol_id,
			   gb_connection_state_name(state),
			   stats.requests_sent, stats.requests_received,
			   stats.responses_received, stats.errors,
			   stats.timeouts, stats.dropped, pending, chunks);
	}
	spin_unlock_irq(&hd->lock);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gb_debugfs_connections);

void gb_debugfs_hd_add(struct gb_host_device *hd)
{
	hd->debugfs_dir = debugfs_create_dir(dev_name(&hd->dev),
					     gb_debugfs_root);
	debugfs_create_file("connections", 0444, hd->debugfs_dir, hd,
			    &gb_debugfs_connections_fops);
	gb_mon_hd_add(hd, hd->debugfs_dir);
}

/* Waits for readers in progress; afterwards nothing can reach @hd */
void gb_debugfs_hd_del(struct gb_host_device *hd)
{
	gb_mon_hd_del(hd);
	debugfs_remove_recursive(hd->debugfs_dir);
	hd->debugfs_dir = NULL;
}

void gb_debugfs_init(void)
{
	gb_debugfs_root = debugfs_create_dir("greybus", NULL);
	gb_mon_init(gb_debugfs_root);
}

void gb_debugfs_cleanup(void)
{
	debugfs_remove_recursive(gb_debugfs_root);
	gb_debugfs_root = NULL;
}
