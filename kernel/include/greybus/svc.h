/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AP's side of the SVC protocol: "N-svc", reached over CPort 0 of the
 * host device.
 */
#ifndef __GREYBUS_SVC_H
#define __GREYBUS_SVC_H

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct gb_connection;
struct gb_host_device;

/**
 * enum gb_svc_state - what the SVC has said so far
 * @GB_SVC_STATE_RESET: nothing yet, or the network is being reset
 * @GB_SVC_STATE_PROTOCOL_VERSION: the protocol version was agreed
 * @GB_SVC_STATE_SVC_HELLO: the SVC said hello; it may report modules
 */
enum gb_svc_state {
	GB_SVC_STATE_RESET,
	GB_SVC_STATE_PROTOCOL_VERSION,
	GB_SVC_STATE_SVC_HELLO,
};

/**
 * enum gb_svc_watchdog_bite - what a failed SVC watchdog ping does
 * @GB_SVC_WATCHDOG_BITE_RESET_UNIPRO: remove every module and reset the
 *	Greybus network ("reset" in the watchdog_action attribute)
 * @GB_SVC_WATCHDOG_BITE_PANIC_KERNEL: panic ("panic")
 */
enum gb_svc_watchdog_bite {
	GB_SVC_WATCHDOG_BITE_RESET_UNIPRO = 0,
	GB_SVC_WATCHDOG_BITE_PANIC_KERNEL,
};

/**
 * struct gb_svc - the AP's end of the SVC protocol, "N-svc"
 * @dev: the device
 * @hd: the host device
 * @connection: the static connection on the host device's CPort 0
 * @state: what the SVC has said so far; written by the request handler
 *	only
 * @endo_id: the endo id from the SVC's hello
 * @ap_intf_id: the AP's interface id from the SVC's hello
 * @protocol_major: the SVC protocol version agreed
 * @protocol_minor: its minor part
 * @device_id_map: the UniPro device ids in use, 2..31
 * @wq: ordered: module insertion, removal and every other deferred SVC
 *	event run one at a time, in the order the SVC sent them
 * @deferred_count: events queued on @wq, bounded
 * @deferred: events queued, not started yet
 * @early: module-inserted events that came before hello, held until it
 * @early_count: how many are on @early, bounded
 * @removing: gb_svc_del() has started
 * @lock: protects @hd's list of modules, @deferred, @early and the watchdog's
 *	flags
 * @watchdog_work: pings the SVC every GB_SVC_WATCHDOG_PERIOD_MS while
 *	@watchdog_enabled; a failed ping does @action
 * @reset_work: resets the network after a watchdog bite; runs on @wq
 * @watchdog_enabled: the watchdog runs (the sysfs "watchdog" attribute)
 * @watchdog_stopped: gb_svc_del() stopped the watchdog for good
 * @resetting: @reset_work is queued
 * @watchdog_paused: stopped for system sleep (pm.c)
 * @action: what a failed ping does
 *
 * Created with its host device and freed with it.  The device is added
 * (becomes visible) when the SVC says hello.
 */
struct gb_svc {
	struct device		dev;
	struct gb_host_device	*hd;
	struct gb_connection	*connection;

	enum gb_svc_state	state;
	u16			endo_id;
	u8			ap_intf_id;
	u8			protocol_major;
	u8			protocol_minor;

	struct ida		device_id_map;
	struct workqueue_struct	*wq;
	atomic_t		deferred_count;
	struct list_head	deferred;
	struct list_head	early;
	unsigned int		early_count;
	bool			removing;

	struct mutex		lock;		/* see above */

	struct delayed_work	watchdog_work;
	struct work_struct	reset_work;
	bool			watchdog_enabled;
	bool			watchdog_stopped;
	bool			resetting;
	bool			watchdog_paused;
	enum gb_svc_watchdog_bite action;
};

#define to_gb_svc(d) container_of(d, struct gb_svc, dev)

extern const struct device_type greybus_svc_type;

static inline bool is_gb_svc(const struct device *dev)
{
	return dev->type == &greybus_svc_type;
}

/* Lifecycle, driven by hd.c */
struct gb_svc *gb_svc_create(struct gb_host_device *hd);
int gb_svc_add(struct gb_svc *svc);
void gb_svc_del(struct gb_svc *svc);
void gb_svc_put(struct gb_svc *svc);

/* AP-initiated SVC operations; all sleep and return 0 or -errno */
int gb_svc_intf_device_id(struct gb_svc *svc, u8 intf_id, u8 device_id);
int gb_svc_connection_create(struct gb_svc *svc, u8 intf1_id, u16 cport1_id,
			     u8 intf2_id, u16 cport2_id, u8 cport_flags);
int gb_svc_connection_destroy(struct gb_svc *svc, u8 intf1_id, u16 cport1_id,
			      u8 intf2_id, u16 cport2_id);
int gb_svc_dme_peer_get(struct gb_svc *svc, u8 intf_id, u16 attr,
			u16 selector, u32 *value);
int gb_svc_dme_peer_set(struct gb_svc *svc, u8 intf_id, u16 attr,
			u16 selector, u32 value);
int gb_svc_route_create(struct gb_svc *svc, u8 intf1_id, u8 dev1_id,
			u8 intf2_id, u8 dev2_id);
int gb_svc_route_destroy(struct gb_svc *svc, u8 intf1_id, u8 intf2_id);
int gb_svc_intf_vsys_set(struct gb_svc *svc, u8 intf_id, bool enable);
int gb_svc_intf_refclk_set(struct gb_svc *svc, u8 intf_id, bool enable);
int gb_svc_intf_unipro_set(struct gb_svc *svc, u8 intf_id, bool enable);
int gb_svc_intf_activate(struct gb_svc *svc, u8 intf_id, u8 *intf_type);
int gb_svc_intf_resume(struct gb_svc *svc, u8 intf_id);
int gb_svc_intf_set_power_mode(struct gb_svc *svc, u8 intf_id, u8 hs_series,
			       u8 tx_mode, u8 tx_gear, u8 tx_nlanes,
			       u8 tx_amplitude, u8 tx_hs_equalizer,
			       u8 rx_mode, u8 rx_gear, u8 rx_nlanes,
			       u8 flags, u32 quirks);
int gb_svc_intf_set_power_mode_hibernate(struct gb_svc *svc, u8 intf_id);
int gb_svc_intf_eject(struct gb_svc *svc, u8 intf_id);
int gb_svc_pwrmon_intf_sample_get(struct gb_svc *svc, u8 intf_id,
				  u8 measurement_type, u32 *value);
int gb_svc_ping(struct gb_svc *svc);

/* UniPro device ids for interfaces: 2..31 */
int gb_svc_device_id_alloc(struct gb_svc *svc);
void gb_svc_device_id_free(struct gb_svc *svc, u8 device_id);

/* svc_watchdog.c */
#define GB_SVC_WATCHDOG_PERIOD_MS	2000
#define GB_SVC_WATCHDOG_PING_TIMEOUT_MS	2000
void gb_svc_watchdog_init(struct gb_svc *svc);
void gb_svc_watchdog_start(struct gb_svc *svc);
void gb_svc_watchdog_stop(struct gb_svc *svc);
bool gb_svc_watchdog_get(struct gb_svc *svc);
int gb_svc_watchdog_set(struct gb_svc *svc, bool enable);
void gb_svc_watchdog_pause(struct gb_svc *svc, bool pause);
void gb_svc_reset_network(struct gb_svc *svc);

/* svc_sysfs.c */
extern const struct attribute_group *gb_svc_groups[];

#endif /* __GREYBUS_SVC_H */
