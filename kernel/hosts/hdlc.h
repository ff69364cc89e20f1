/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gb-hdlc's link core, shared by its two ways onto a serial port: the tty
 * line discipline (hdlc_ldisc.c) and the serdev driver (hdlc_serdev.c).
 */
#ifndef __GB_HDLC_H
#define __GB_HDLC_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <greybus/hdlc_frame.h>

/* Bridge CPorts: what the CC1352 firmware has */
#define GB_HDLC_NUM_CPORTS	32
/*
 * The largest message toward a CC1352, header included: its 256-byte
 * receive block holds address, control, CPort id, message and FCS
 */
#define GB_HDLC_MTU_CC1352	250
/* The largest message taken from any peer (a CC1352 sends up to 254) */
#define GB_HDLC_MRU_MIN		256
#define GB_HDLC_MTU_MIN		64
#define GB_HDLC_MTU_MAX		4096
/* Frames waiting for the wire before message_send() says -ENOBUFS */
#define GB_HDLC_TX_QUEUE_MAX	256

struct gb_hdlc_link;

/**
 * struct gb_hdlc_link_ops - how a link reaches its serial port
 * @write: hand up to @len bytes to the port without sleeping; returns
 *	how many it took (0 when full: the port's write-wakeup then calls
 *	gb_hdlc_link_write_wakeup()) or a negative errno
 */
struct gb_hdlc_link_ops {
	int	(*write)(struct gb_hdlc_link *link, const u8 *data, size_t len);
};

/* Counters, each written by one side only (receive or transmit) */
struct gb_hdlc_stats {
	unsigned long	rx_bytes;
	unsigned long	rx_frames;
	unsigned long	rx_crc_errors;
	unsigned long	rx_aborts;
	unsigned long	rx_oversize;
	unsigned long	rx_short;
	unsigned long	rx_dropped;
	unsigned long	rx_debug;
	unsigned long	rx_control;
	unsigned long	tx_bytes;
	unsigned long	tx_frames;
	unsigned long	tx_errors;
	unsigned long	tx_cancelled;
};

struct gb_hdlc_link *gb_hdlc_link_create(struct device *parent,
					 const char *port,
					 const struct gb_hdlc_link_ops *ops,
					 void *priv, size_t mtu);
int gb_hdlc_link_start(struct gb_hdlc_link *link);
void gb_hdlc_link_stop(struct gb_hdlc_link *link);
void gb_hdlc_link_close(struct gb_hdlc_link *link);
void gb_hdlc_link_destroy(struct gb_hdlc_link *link);
void gb_hdlc_link_receive(struct gb_hdlc_link *link, const u8 *data,
			  size_t len);
void gb_hdlc_link_write_wakeup(struct gb_hdlc_link *link);
void *gb_hdlc_link_priv(struct gb_hdlc_link *link);

struct device *gb_hdlc_root(void);
int gb_hdlc_ldisc_register(void);
void gb_hdlc_ldisc_unregister(void);
#if IS_ENABLED(CONFIG_SERIAL_DEV_BUS)
int gb_hdlc_serdev_register(void);
void gb_hdlc_serdev_unregister(void);
#else
/* A kernel without serdev: the line discipline is the only way in */
static inline int gb_hdlc_serdev_register(void)
{
	return 0;
}

static inline void gb_hdlc_serdev_unregister(void)
{
}
#endif

size_t gb_hdlc_peer_mtu(size_t peer);

struct gpio_desc;
struct gb_hdlc_fwup;

/**
 * struct gb_hdlc_fwup_port - what a CC1352 firmware upload needs of a port
 * @dev: the port's device: parent of the upload device, and the log's
 * @name: the upload device's name (/sys/class/firmware/NAME)
 * @reset: the chip's reset line, its value RESET_N's level (0: held in
 *	reset), or NULL
 * @backdoor: its bootloader-backdoor line (an input while unused), or NULL;
 *	without both lines every upload is refused
 * @write: write all of @len bytes to the port (sleeps; 0 or an errno)
 * @link_down: stop the Greybus link (bytes received go to the upload)
 * @link_up: start a new Greybus link
 * @priv: the port's, for the three above
 */
struct gb_hdlc_fwup_port {
	struct device		*dev;
	char			name[48];
	struct gpio_desc	*reset;
	struct gpio_desc	*backdoor;
	int			(*write)(void *priv, const u8 *data, size_t len);
	void			(*link_down)(void *priv);
	int			(*link_up)(void *priv);
	void			*priv;
};

#if IS_ENABLED(CONFIG_FW_UPLOAD)
struct gb_hdlc_fwup *gb_hdlc_fwup_register(const struct gb_hdlc_fwup_port *port);
void gb_hdlc_fwup_unregister(struct gb_hdlc_fwup *fw);
void gb_hdlc_fwup_free(struct gb_hdlc_fwup *fw);
bool gb_hdlc_fwup_receive(struct gb_hdlc_fwup *fw, const u8 *data,
			  size_t len);
#else
/* A kernel without firmware upload (Debian's 6.1): none offered */
static inline struct gb_hdlc_fwup *
gb_hdlc_fwup_register(const struct gb_hdlc_fwup_port *port)
{
	return NULL;
}

static inline void gb_hdlc_fwup_unregister(struct gb_hdlc_fwup *fw)
{
}

static inline void gb_hdlc_fwup_free(struct gb_hdlc_fwup *fw)
{
}

static inline bool gb_hdlc_fwup_receive(struct gb_hdlc_fwup *fw,
					const u8 *data, size_t len)
{
	return false;
}
#endif

#endif /* __GB_HDLC_H */
