/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How gbsim reaches the AP: a transport carries Greybus messages tagged
 * with a bridge CPort id, both ways, and reports the host device's
 * events.  vhd.c is the /dev/greybus-vhd transport; an ES2 bridge over
 * functionfs would be a second one behind the same operations.
 *
 * A transport registers its descriptors with the event loop in open() and
 * reports what it reads through the gbsim_host_*() upcalls (gbsim.h).
 */
#ifndef GBSIM_TRANSPORT_H
#define GBSIM_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gbsim;
struct gbsim_loop;
struct gbsim_transport;

struct gbsim_transport_ops {
	const char *name;
	/* Open the device and ask for a host device; CREATED comes later */
	int	(*open)(struct gbsim_transport *tp, char *err, size_t errlen);
	/* Deliver one message from the network to the AP on @cport */
	int	(*send)(struct gbsim_transport *tp, uint16_t cport,
			const void *msg, size_t len);
	/*
	 * The bridge latched a TimeSync strobe at @timestamp_ns
	 * (CLOCK_MONOTONIC); NULL if the transport cannot say so
	 */
	int	(*strobe)(struct gbsim_transport *tp, uint64_t timestamp_ns);
	/* Unplug: the host device and everything under it goes away */
	void	(*close)(struct gbsim_transport *tp);
	/* Messages waiting to reach the AP (NULL: the transport never queues) */
	size_t	(*backlog)(struct gbsim_transport *tp);
};

struct gbsim_transport {
	const struct gbsim_transport_ops *ops;
	struct gbsim	*sim;
	struct gbsim_loop *loop;
	const char	*device;	/* path to open ... */
	int		fd;		/* ... or an open descriptor (>= 0) */
	uint16_t	num_cports;
	uint16_t	mtu;
	bool		pty;		/* hdlc: open a pty pair for the link */
	bool		attach;		/* hdlc: run gbattach on its slave */
	const char	*personality;	/* hdlc: "full" (NULL) or "cc1352" */
	uint32_t	baud;		/* hdlc: pace the link at this rate, 0 not */
	/* node: --node tls:ADDR[:PORT] (struct gb_tls_opts), and --tls-stall */
	const void	*tls;
	bool		tls_stall;	/* accept, never answer the handshake */
	bool		tls_suites_set;	/* --tls-suites given (else by personality) */
	/*
	 * Called (if set) when the backlog falls to GBSIM_BACKLOG_LOW after
	 * having reached GBSIM_BACKLOG_HIGH: whoever stopped reading its
	 * sources at the high mark (gbnet's nodes) may read again
	 */
	void		(*drained)(void *ctx);
	void		*drained_ctx;
	/*
	 * vhd: a version-2 host (docs/vhd.md, Authorization): @on_bundle
	 * hears of every bundle registered; @hold_bundles sets the host's
	 * authorized_default to 0 before any module exists.
	 */
	bool		authorize;
	bool		hold_bundles;
	void		(*on_bundle)(void *ctx, uint8_t intf_id,
				     uint8_t bundle_id, uint8_t bundle_class,
				     bool authorized);
	void		*bundle_ctx;
	/*
	 * vhd: the newest ABI version to ask for (0: the newest known, 3:
	 * batched I/O; below what @authorize needs: that); the kernel's
	 * refusal of 3 falls back to 2 or 1 by itself
	 */
	uint32_t	vhd_version;
	/* vhd: called (if set) at each last gbsim_vhd_release() */
	void		(*released)(void *ctx);
	void		*released_ctx;
	void		*priv;
};

/* A transport's queue of messages to the AP: back-pressure marks */
#define GBSIM_BACKLOG_HIGH	3072
#define GBSIM_BACKLOG_LOW	1024

/*
 * vhd, version-2 hosts: authorize (1) or hold (0) one bundle of this host,
 * or (@bundle_id < 0) set its authorized_default.  0 or -errno (-ENODEV:
 * no such bundle any more).
 */
int gbsim_vhd_authorize(struct gbsim_transport *tp, uint8_t intf_id,
			int bundle_id, bool authorized);

/*
 * vhd: hold the messages sent to the AP until the matching release, to
 * write them with one write() (a version 3 host; on older ones they go
 * out at once anyway).  Nests; gbsim_vhd_held() says whether a hold is
 * on, for those (gbnet) who batch their own sends the same way.
 */
void gbsim_vhd_hold(struct gbsim_transport *tp);
void gbsim_vhd_release(struct gbsim_transport *tp);
bool gbsim_vhd_held(const struct gbsim_transport *tp);

/* The transports built in, by name ("vhd") */
const struct gbsim_transport_ops *gbsim_transport_find(const char *name);

extern const struct gbsim_transport_ops gbsim_vhd_transport;
extern const struct gbsim_transport_ops gbsim_es2_transport;
extern const struct gbsim_transport_ops gbsim_node_transport;
extern const struct gbsim_transport_ops gbsim_hdlc_transport;

#endif /* GBSIM_TRANSPORT_H */
