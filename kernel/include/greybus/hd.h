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

struct gb_bundle;
struct gb_host_device;
struct gb_message;
struct gb_svc;
struct gb_timesync;

/**
 * struct gb_hd_driver - the callbacks of a host-controller driver
 * @hd_priv_size: bytes of private data gb_hd_create() allocates for the
 *	driver (gb_hd_priv())
 * @groups: optional; the driver's sysfs groups on the host device, see
 *	below
 * @cport_allocate: optional; picks a bridge CPort (@cport_id < 0: any)
 *	for a new connection and returns its id or a negative errno
 * @cport_release: optional, with @cport_allocate; gives a CPort back
 * @cport_enable: optional; prepares a CPort for a connection with the
 *	given GB_CONNECTION_FLAG_* bits
 * @cport_disable: optional; the last step of a connection's teardown
 * @cport_connected: optional; the SVC has set the connection up
 * @cport_flush: optional; drop what is queued on the CPort, at the start
 *	of a teardown
 * @cport_shutdown: optional; replaces the core's CPort Shutdown
 *	operation of the given phase (1 or 2)
 * @cport_quiesce: optional; wait, up to the timeout in ms, until the
 *	peer has the given buffer space free, between the two shutdown
 *	phases
 * @cport_clear: optional; reset the CPort once the SVC has destroyed
 *	the connection
 * @message_send: mandatory; takes one outgoing message, see below
 * @message_cancel: optional; give up on a message not completed yet
 * @reset: optional; reset the Greybus network, see below
 * @bundle_added: optional; a bundle was registered (authorized or not,
 *	see gb_hd_bundle_authorize()); called in process context by the
 *	enumeration, must not wait for the network
 * @timesync_enable: optional; arm the bridge's FrameTime counter for
 *	@count strobes
 * @timesync_disable: optional; disarm it
 * @timesync_authoritative: optional; the SVC's FrameTimes of those
 *	strobes
 * @timesync_get_last_event: optional; the bridge's FrameTime at the last
 *	(ping) strobe
 * @latency_tag_enable: optional; stamp the bridge's latency into the
 *	responses on a CPort (reserved fields of gb-loopback's messages)
 * @latency_tag_disable: optional; stop doing so
 *
 * All callbacks may sleep unless noted.
 *
 * @message_send hands the driver one outgoing message: message->header
 * points to a contiguous buffer of header + payload whose length is the
 * header's size field, between the header's own size and the host's
 * buffer_size_max, on a CPort below its num_cports (the core checks
 * both before the call; the driver need not).  The driver reports completion exactly once with
 * greybus_message_sent(), from any context, possibly before
 * @message_send has returned.  @message_send may be called in atomic
 * context.  If it returns an error the driver did not take the message
 * and must not call greybus_message_sent() for it.
 *
 * @message_cancel asks the driver to give up on a message it has not
 * completed yet; it must still complete it (with an error).  It is
 * called in process context, and may race with the driver completing
 * the message on its own: a message the driver no longer holds is
 * simply ignored.
 *
 * The core calls the cport callbacks in the order documented in
 * docs/architecture.md, also while gb_hd_del() tears everything down;
 * a NULL one means nothing to do.  Without @cport_allocate the core
 * allocates ids 1..num_cports-1 from cport_id_map.
 *
 * @reset asks the bridge to reset the Greybus network: the SVC starts
 * over with version and hello, then reports its modules again.  The
 * core calls it after it has removed every module (the SVC watchdog's
 * "reset" action); it must not wait for the SVC.
 *
 * @groups, NULL-terminated, are the driver's own sysfs groups on the host
 * device (statistics, the port it sits on): the core creates them with
 * the device, so they exist when its add uevent goes out (udev rules may
 * read them), and removes them in gb_hd_del(); sysfs waits for readers
 * still in a show() callback before that returns.  May be NULL.
 *
 * Whatever the bridge, it reports every TimeSync strobe it latches with
 * gb_timesync_strobe().
 */
struct gb_hd_driver {
	size_t	hd_priv_size;
	const struct attribute_group **groups;

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

	void	(*bundle_added)(struct gb_host_device *hd,
				struct gb_bundle *bundle);

	int	(*timesync_enable)(struct gb_host_device *hd, u8 count,
				   u64 frame_time, u32 strobe_delay, u32 refclk);
	int	(*timesync_disable)(struct gb_host_device *hd);
	int	(*timesync_authoritative)(struct gb_host_device *hd,
					  const u64 *frame_time);
	int	(*timesync_get_last_event)(struct gb_host_device *hd,
					   u64 *frame_time);

	int	(*latency_tag_enable)(struct gb_host_device *hd, u16 cport_id);
	int	(*latency_tag_disable)(struct gb_host_device *hd, u16 cport_id);
};

/**
 * struct gb_host_device - one AP bridge, "greybusN" on the greybus bus
 * @dev: the device
 * @bus_id: the N of greybusN
 * @driver: the host driver's callbacks
 * @modules: the modules present (struct gb_module), under the SVC's lock
 * @connections: every connection through this bridge (struct
 *	gb_connection), under @lock
 * @cport_id_map: the bridge CPorts in use, unless the driver allocates
 *	them itself
 * @lock: protects @connections and @removing; taken in the receive
 *	path, so irq-safe; nests outside every connection's lock
 * @removing: gb_hd_del() has started
 * @debugfs_dir: the host device's debugfs directory
 * @monitor_closed: its monitor file takes no new reader, under the
 *	monitor's mutex (kernel/core/monitor.c)
 * @num_cports: the number of bridge CPorts
 * @buffer_size_max: the largest message, header included
 * @authorized_default: whether bundles are authorized (drivers may bind)
 *	as they appear; 1 from gb_hd_create(), changed through sysfs or
 *	gb_hd_set_authorized_default(); read and written with
 *	READ_ONCE()/WRITE_ONCE()
 * @svc: the SVC, from gb_hd_create() on
 * @timesync: the TimeSync state, between gb_hd_add() and gb_hd_del()
 * @hd_priv: the host driver's private data, hd_priv_size bytes
 *
 * Created by the host driver, which owns the reference gb_hd_create()
 * returns; the core takes its own references for the SVC and every
 * connection.
 */
struct gb_host_device {
	struct device		dev;
	int			bus_id;
	const struct gb_hd_driver *driver;

	struct list_head	modules;
	struct list_head	connections;
	struct ida		cport_id_map;
	spinlock_t		lock;		/* @connections, @removing */
	bool			removing;
	struct dentry		*debugfs_dir;
	bool			monitor_closed;

	size_t			num_cports;
	size_t			buffer_size_max;
	bool			authorized_default;

	struct gb_svc		*svc;
	struct gb_timesync	*timesync;

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

void gb_hd_set_authorized_default(struct gb_host_device *hd, bool authorized);
int gb_hd_bundle_authorize(struct gb_host_device *hd, u8 intf_id,
			   u8 bundle_id, bool authorized);

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
