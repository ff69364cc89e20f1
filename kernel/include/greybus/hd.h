/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus host devices: the AP bridges that carry Greybus messages between
 * the AP and the network.  This is the API a host-controller driver
 * (gb-vhd, gb-es2) uses.
 */
#ifndef __GREYBUS_HD_H
#define __GREYBUS_HD_H

#include <linux/device.h>
#include <linux/idr.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct gb_host_device;
struct gb_message;
struct gb_svc;
struct gb_timesync;

/*
 * Callbacks a host-controller driver provides.  All may sleep unless noted.
 *
 * message_send() hands the driver one outgoing message: message->header
 * points to a contiguous buffer of header + payload whose length is the
 * header's size field.  The driver reports completion exactly once with
 * greybus_message_sent(), from any context, possibly before message_send()
 * has returned.  message_send() may be called in atomic context.
 *
 * If message_send() returns an error the driver did not take the message
 * and must not call greybus_message_sent() for it.
 *
 * message_cancel() asks the driver to give up on a message it has not
 * completed yet; it must still complete it (with an error).  It is called
 * in process context, and may race with the driver completing the message
 * on its own: a message the driver no longer holds is simply ignored.
 *
 * The cport callbacks are optional (NULL = nothing to do); the core calls
 * them in the order documented in docs/architecture.md, also while
 * gb_hd_del() tears everything down.  cport_enable() receives the
 * connection's GB_CONNECTION_FLAG_* bits.  When cport_shutdown() is
 * provided the core calls it instead of sending the CPort Shutdown
 * operation itself.  cport_allocate() returns the CPort id it picked
 * (@cport_id < 0 means "any") or a negative errno; without it the core
 * allocates ids 1..num_cports-1 from cport_id_map.
 *
 * latency_tag_enable() and latency_tag_disable() are optional and may
 * sleep; gb_connection_latency_tag_enable() calls them.
 *
 * reset() (optional) asks the bridge to reset the Greybus network: the SVC
 * starts over with version and hello, then reports its modules again.  The
 * core calls it after it has removed every module (the SVC watchdog's
 * "reset" action); it must not wait for the SVC.
 *
 * The timesync_*() callbacks (optional) drive a bridge that keeps its
 * own FrameTime counter: enable arms it for @count strobes, authoritative
 * hands it the SVC's FrameTimes of those strobes, get_last_event reads
 * its FrameTime at the last (ping) strobe.  Whatever the bridge, it
 * reports every strobe it latches with gb_timesync_strobe().
 */
struct gb_hd_driver {
	size_t	hd_priv_size;

	int	(*cport_allocate)(struct gb_host_device *hd, int cport_id,
				  unsigned long flags);
	void	(*cport_release)(struct gb_host_device *hd, u16 cport_id);
	int	(*cport_enable)(struct gb_host_device *hd, u16 cport_id,
				unsigned long flags);
	int	(*cport_disable)(struct gb_host_device *hd, u16 cport_id);
	int	(*cport_connected)(struct gb_host_device *hd, u16 cport_id);
	int	(*cport_flush)(struct gb_host_device *hd, u16 cport_id);
	int	(*cport_shutdown)(struct gb_host_device *hd, u16 cport_id,
				  u8 phase, unsigned int timeout);
	int	(*cport_quiesce)(struct gb_host_device *hd, u16 cport_id,
				 size_t peer_space, unsigned int timeout);
	int	(*cport_clear)(struct gb_host_device *hd, u16 cport_id);

	int	(*message_send)(struct gb_host_device *hd, u16 dest_cport_id,
				struct gb_message *message, gfp_t gfp_mask);
	void	(*message_cancel)(struct gb_message *message);

	int	(*reset)(struct gb_host_device *hd);

	int	(*timesync_enable)(struct gb_host_device *hd, u8 count,
				   u64 frame_time, u32 strobe_delay, u32 refclk);
	int	(*timesync_disable)(struct gb_host_device *hd);
	int	(*timesync_authoritative)(struct gb_host_device *hd,
					  const u64 *frame_time);
	int	(*timesync_get_last_event)(struct gb_host_device *hd,
					   u64 *frame_time);

	/*
	 * Optional: have the bridge stamp its latency into responses on
	 * @cport_id (reserved fields of gb-loopback's messages).
	 */
	int	(*latency_tag_enable)(struct gb_host_device *hd, u16 cport_id);
	int	(*latency_tag_disable)(struct gb_host_device *hd, u16 cport_id);
};

/*
 * One AP bridge, "greybus<bus_id>" on the greybus bus.  Created by the
 * host driver, which owns the reference gb_hd_create() returns; the core
 * takes its own references for the SVC and every connection.
 */
struct gb_host_device {
	struct device		dev;
	int			bus_id;
	const struct gb_hd_driver *driver;

	struct list_head	modules;	/* struct gb_module, under svc lock */
	struct list_head	connections;	/* struct gb_connection */
	struct ida		cport_id_map;
	/*
	 * Protects @connections and @removing; taken in the receive path,
	 * so irq-safe.  Nests outside every connection->lock.
	 */
	spinlock_t		lock;
	bool			removing;	/* gb_hd_del() has started */
	struct dentry		*debugfs_dir;

	size_t			num_cports;
	size_t			buffer_size_max; /* largest message, header incl. */

	struct gb_svc		*svc;
	struct gb_timesync	*timesync;	/* between add and del */

	/* host-driver private data, hd_priv_size bytes */
	unsigned long		hd_priv[] __aligned(sizeof(s64));
};

#define to_gb_host_device(d) container_of(d, struct gb_host_device, dev)

struct gb_host_device *gb_hd_create(const struct gb_hd_driver *driver,
				    struct device *parent,
				    size_t buffer_size_max,
				    size_t num_cports);
int gb_hd_add(struct gb_host_device *hd);
void gb_hd_del(struct gb_host_device *hd);
void gb_hd_put(struct gb_host_device *hd);

/*
 * Keep bridge CPort @cport_id away from dynamic allocation (for CPorts the
 * bridge uses for itself), and give it back.  Before gb_hd_add() only.
 */
int gb_hd_cport_reserve(struct gb_host_device *hd, u16 cport_id);
void gb_hd_cport_release_reserved(struct gb_host_device *hd, u16 cport_id);

static inline void *gb_hd_priv(struct gb_host_device *hd)
{
	return hd->hd_priv;
}

extern const struct device_type greybus_hd_type;

static inline bool is_gb_host_device(const struct device *dev)
{
	return dev->type == &greybus_hd_type;
}

/*
 * A message arrived from the network on bridge CPort @cport_id.  Callable
 * from any context, including atomic; @data is copied before return.
 */
void greybus_data_rcvd(struct gb_host_device *hd, u16 cport_id,
		       u8 *data, size_t length);

/*
 * Names bridge CPort @cport_id for a log line: its connection's name
 * ("hd_cport/intf:cport") or "cport N".  Any context.
 */
#define GB_HD_CPORT_NAME_MAX	24
void gb_hd_cport_name(struct gb_host_device *hd, u16 cport_id, char *buf,
		      size_t size);

/* The host driver finished with an outgoing message (0 or -errno) */
void greybus_message_sent(struct gb_host_device *hd,
			  struct gb_message *message, int status);

#endif /* __GREYBUS_HD_H */
