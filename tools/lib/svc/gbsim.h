/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SVC and AP bridge shared by gbsim (the Greybus network simulator)
 * and gbnet (Greybus nodes over TCP).  One process plays the SVC and any
 * number of modules behind one AP bridge (a host device of the kernel).
 * A module's interfaces are answered either by gbsim's local models or,
 * when the module has a link (struct gbsim_link_ops), by whatever is at
 * the far end of that link: the bridge only maps CPorts.
 *
 * Object model.  Everything the simulator knows is reached from one
 * struct gbsim, and is only touched from the event loop's thread:
 *
 *   modules[]   physically present modules, by primary interface id
 *   intfs[]     their interfaces, by interface id (NULL = nobody there)
 *   routes[]    SVC routing table, by interface id (device id + route)
 *   conns[]     SVC connection table, by bridge (host device) CPort id
 *
 * The SVC tables refer to interfaces by id, never by pointer, so a module
 * can leave (and come back) while the AP still tears its connections
 * down, as on real hardware: the SVC still knows the route, the module is
 * simply no longer there to answer.
 */
#ifndef GBSIM_H
#define GBSIM_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <uapi/greybus/greybus.h>
#include <uapi/greybus/manifest.h>
#include <uapi/greybus/svc.h>

#define GBSIM_NAME		"gbsim"

#define GBSIM_INTF_MAX		256	/* interface ids are u8 */
#define GBSIM_DME_ATTR_MAX	32	/* DME attributes kept per interface */

#define GBSIM_DEFAULT_DEVICE	"/dev/greybus-vhd"
#define GBSIM_DEFAULT_MTU	2048
#define GBSIM_DEFAULT_CPORTS	32
#define GBSIM_DEFAULT_ENDO_ID	0x4755
#define GBSIM_DEFAULT_AP_INTF	0
#define GBSIM_DEFAULT_VID	0x00000001
#define GBSIM_DEFAULT_PID	0x00000001
#define GBSIM_DEFAULT_SERIAL	0x4742534d00000000ULL	/* "GBSM" + intf id */
#define GBSIM_DEFAULT_INIT_STATUS 0x04000000	/* untrusted SPI boot done */
#define GBSIM_DEFAULT_DDBL1_MFR	0x0126	/* Toshiba */
#define GBSIM_DEFAULT_DDBL1_PROD 0x1002	/* ES3 GPBridge */

/* How long gbsim waits for the AP to answer one of its requests */
#define GBSIM_REQUEST_TIMEOUT_MS 5000

struct gbsim;
struct gbsim_conn;
struct gbsim_intf;
struct gbsim_loop;
struct gbsim_module;
struct gbsim_op;
struct gbsim_proto;
struct gbsim_transport;

/* Little-endian access to unaligned wire bytes */
static inline uint16_t gbsim_get_le16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t gbsim_get_le32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline void gbsim_put_le16(void *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void gbsim_put_le32(void *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void gbsim_put_le64(void *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

/* ------------------------------------------------------------------ */
/* Configuration (config.c)                                            */

enum gbsim_intf_kind {
	GBSIM_INTF_GREYBUS,	/* default: answers Control */
	GBSIM_INTF_UNIPRO,	/* UniPro link, no Greybus */
	GBSIM_INTF_DUMMY,	/* no UniPro at all */
};

struct gbsim_module_cfg {
	uint8_t		id;		/* primary interface id */
	uint8_t		num_intfs;
	char		*manifest_path;
	uint32_t	vid, pid;
	uint64_t	serial;		/* of the primary interface */
	bool		serial_set;
	uint32_t	ddbl1_mfr, ddbl1_prod;
	uint32_t	init_status;
	enum gbsim_intf_kind kind;
	bool		raw;		/* serve the file as is, unchecked */
	struct gbsim_module_cfg *next;
};

/*
 * What the program around the SVC adds to it; every member is optional.
 * gbsim uses it for TimeSync, its fault hooks and its fuzzer.
 */
struct gbsim_extra {
	/* after gbsim_init() set the object up */
	void	(*init)(struct gbsim *sim);
	/* first thing in gbsim_fini() */
	void	(*fini)(struct gbsim *sim);
	/* the SVC's TimeSync requests (NULL: refused as unknown) */
	int	(*svc_timesync)(struct gbsim_op *op);
	/* a response matching no request: true if expected (fuzzer) */
	bool	(*stray_response)(struct gbsim *sim, uint16_t hd_cport,
				  const uint8_t *msg, size_t len);
};

struct gbsim_config {
	const struct gbsim_extra *extra;
	const char	*device;
	int		device_fd;	/* >= 0: already open (tests) */
	const char	*transport;
	const char	*log_path;
	const char	*ctl_path;	/* control socket, or NULL */
	int		verbose;
	uint16_t	mtu;
	uint16_t	num_cports;
	uint16_t	endo_id;
	uint8_t		ap_intf_id;
	bool		early_insert;	/* modules announced before hello */
	struct gbsim_module_cfg *modules;	/* in insertion order */
};

/* Parse "IFID:MANIFEST[,key=value...]" into a new module entry */
int gbsim_config_parse_module(struct gbsim_config *cfg, const char *spec,
			      bool raw, char *err, size_t errlen);
/*
 * One module from its words (IFID, MANIFEST, key=value...), not added to
 * any config; relative MANIFEST paths are taken from base's directory
 * (base NULL: as given).  Free with gbsim_module_cfg_free().
 */
struct gbsim_module_cfg *gbsim_module_cfg_build(const char *base,
					       const char *ifid,
					       const char *manifest,
					       char **kvs, size_t num_kvs,
					       char *err, size_t errlen);
void gbsim_module_cfg_free(struct gbsim_module_cfg *mc);
/* Read a config file; relative manifest paths are taken from its dir */
int gbsim_config_load(struct gbsim_config *cfg, const char *path,
		      char *err, size_t errlen);
void gbsim_config_free(struct gbsim_config *cfg);
/* Parse an unsigned number (0x.., 0.., decimal) no larger than max */
int gbsim_parse_uint(const char *s, uint64_t max, uint64_t *out);
/*
 * A model's knobs: "KEY=N,..." in an environment variable or a ctl
 * command.  gbsim_knob_num() takes one "KEY=N" (N as gbsim_parse_uint
 * reads it, at most @max); gbsim_knobs_from_env() hands every
 * comma-separated token of $name to @knob and warns about the ones it
 * does not take, the first time only (*done is then set), so that ctl
 * commands are not undone later.  gbsim_ctl_set_knobs() (ctl.h) is the
 * "NAME set KEY=VALUE..." command.
 */
bool gbsim_knob_num(const char *tok, const char *key, uint64_t max,
		    uint64_t *v);
void gbsim_knobs_from_env(const char *name, bool (*knob)(const char *tok),
			  bool *done);

/* ------------------------------------------------------------------ */
/* Interfaces and modules (intf.c, module.c)                           */

enum gbsim_bundle_state {
	GBSIM_BUNDLE_OFF,	/* not activated (or deactivated) */
	GBSIM_BUNDLE_ACTIVE,
	GBSIM_BUNDLE_SUSPENDED,
};

struct gbsim_bundle {
	uint8_t		id;
	uint8_t		class_id;
	enum gbsim_bundle_state state;
	bool		refuse_suspend;	/* answer BUSY (ctl "pm") */
	bool		refuse_resume;	/* answer FAIL (ctl "pm ... refuse-resume") */
};

struct gbsim_cport {
	uint16_t	id;
	uint8_t		bundle_id;
	uint8_t		protocol;
	bool		connected;	/* Control "connected" seen */
};

struct gbsim_dme_attr {
	uint16_t	attr;
	uint16_t	selector;
	uint32_t	value;
};

struct gbsim_intf {
	struct gbsim_module *module;
	uint8_t		id;
	enum gbsim_intf_kind kind;

	/* identity, answered through DME peer get */
	uint32_t	vid, pid;
	uint64_t	serial;
	uint32_t	ddbl1_mfr, ddbl1_prod;
	uint32_t	init_status;
	struct gbsim_dme_attr dme[GBSIM_DME_ATTR_MAX];
	size_t		num_dme;

	/* the manifest and what it declares (owned) */
	uint8_t		*manifest;
	size_t		manifest_len;
	struct gbsim_bundle *bundles;
	size_t		num_bundles;
	struct gbsim_cport *cports;	/* without the control cport 0 */
	size_t		num_cports;

	/* TimeSync, the interface's side (timesync.c) */
	struct gbsim_intf_timesync {
		bool		enabled;	/* Control timesync enable */
		bool		synced;		/* authoritative applied */
		uint8_t		count;		/* strobes expected */
		uint8_t		latched;	/* strobes seen */
		uint64_t	latch[GB_TIMESYNC_MAX_STROBES]; /* local */
		int64_t		adjust;		/* to the SVC's FrameTime */
		uint64_t	last_event;	/* FrameTime at the last ping */
	} ts;

	/* power and link state, as the SVC drives it */
	bool		vsys, refclk, unipro, active;
	bool		hibernated;
	bool		refuse_suspend;	/* intf_suspend_prepare: BUSY */
};

enum gbsim_module_state {
	GBSIM_MODULE_PLUGGED,	/* present, AP not told yet */
	GBSIM_MODULE_INSERTING,	/* module inserted sent */
	GBSIM_MODULE_INSERTED,	/* AP acknowledged */
};

/*
 * A module whose CPorts live at the far end of a link (gbnet's TCP
 * nodes): every message the AP sends on a connection to it, Control
 * included, is handed to send() as it is, with the module's CPort id.
 * Messages from the far end come back through gbsim_link_deliver().
 */
struct gbsim_link_ops {
	int	(*send)(void *ctx, uint16_t intf_cport, const uint8_t *msg,
			size_t len);
};

struct gbsim_module {
	const struct gbsim_link_ops *link;	/* NULL: local models */
	void		*link_ctx;
	uint8_t		id;		/* primary interface id */
	uint8_t		num_intfs;
	enum gbsim_module_state state;
	unsigned int	seq;		/* plug order: announced in this order */
	bool		ejecting;	/* SVC eject asked: leaves shortly */
	bool		raw;		/* manifest served unchecked */
	char		*manifest_path;	/* as given, for "list" */
	struct gbsim_intf *intfs[];	/* num_intfs entries */
};

struct gbsim_module *gbsim_module_create(const struct gbsim_module_cfg *mc,
					 char *err, size_t errlen);
/*
 * A module reached through a link: one interface, no manifest of its own
 * (the far end serves it), identity from mc (manifest_path unused).
 */
struct gbsim_module *gbsim_module_create_linked(const struct gbsim_module_cfg *mc,
						const struct gbsim_link_ops *link,
						void *link_ctx,
						char *err, size_t errlen);
void gbsim_module_destroy(struct gbsim_module *m);
/*
 * Plug a module in (takes ownership on success); announced once the SVC
 * is up.  Fails (err says why) when one of its interface ids is taken.
 */
int gbsim_module_insert(struct gbsim *sim, struct gbsim_module *m,
			char *err, size_t errlen);
/*
 * A module leaves: forget it, tell the AP (module removed) if it was
 * announced.  how is "unplugged" or "ejected", for the log.
 */
int gbsim_module_remove(struct gbsim *sim, uint8_t id, const char *how);
const char *gbsim_module_state_name(enum gbsim_module_state state);
/* Announce every module not yet announced (after hello or a reset) */
void gbsim_modules_announce(struct gbsim *sim);

/*
 * Fill an interface in from its config and manifest blob.  The blob must
 * decode unless mc->raw; a raw one that does not gets no bundles and no
 * CPorts (and a warning).
 */
int gbsim_intf_init(struct gbsim_intf *intf, const struct gbsim_module_cfg *mc,
		    uint8_t id, const uint8_t *blob, size_t blob_len,
		    char *err, size_t errlen);
/* Only the identity (DME answers) from the config: no manifest */
void gbsim_intf_init_identity(struct gbsim_intf *intf,
			      const struct gbsim_module_cfg *mc, uint8_t id);
void gbsim_intf_fini(struct gbsim_intf *intf);
/* Power-on defaults of the DME attributes (on activation) */
void gbsim_intf_reset_dme(struct gbsim_intf *intf);
int gbsim_intf_dme_get(const struct gbsim_intf *intf, uint16_t attr,
		       uint16_t selector, uint32_t *value);
int gbsim_intf_dme_set(struct gbsim_intf *intf, uint16_t attr,
		       uint16_t selector, uint32_t value);
struct gbsim_cport *gbsim_intf_find_cport(struct gbsim_intf *intf,
					  uint16_t cport_id);
struct gbsim_bundle *gbsim_intf_find_bundle(struct gbsim_intf *intf,
					    uint8_t bundle_id);
/*
 * Power down: link, activation and bundle states go back to off, and the
 * device id the AP gave the interface goes with its UniPro attributes
 */
void gbsim_intf_power_off(struct gbsim *sim, struct gbsim_intf *intf);

/* ------------------------------------------------------------------ */
/* Connections and operations (conn.c, operation.c)                    */

/*
 * One SVC connection between a bridge CPort and an interface CPort.
 * Created by SVC conn create, freed by conn destroy (or a network reset).
 */
struct gbsim_conn {
	struct gbsim	*sim;
	uint16_t	hd_cport;
	uint8_t		intf_id;
	uint16_t	intf_cport;
	unsigned int	module_seq;	/* the module it was made to */
	uint8_t		protocol;	/* GREYBUS_PROTOCOL_CONTROL for cport 0 */
	uint8_t		bundle_id;
	uint8_t		flags;		/* conn create flags */
	const struct gbsim_proto *proto;
	void		*priv;		/* the protocol model's state */
};

/* An incoming request, as handed to a protocol model */
struct gbsim_op {
	struct gbsim	*sim;
	struct gbsim_conn *conn;	/* NULL on the SVC connection */
	struct gbsim_intf *intf;	/* NULL on the SVC connection */
	uint16_t	hd_cport;
	uint16_t	id;
	uint8_t		type;
	const uint8_t	*req;		/* payload, header stripped */
	size_t		req_len;
	uint8_t		*rsp;		/* response payload buffer */
	size_t		rsp_max;
	size_t		rsp_len;	/* set by the handler */
};

/* Handler result that sends nothing (unidirectional, or answered later) */
#define GBSIM_NO_RESPONSE	(-1)

/*
 * Response callback of a request gbsim sent.  err is 0 when a response
 * arrived (then result is its result code), -ETIMEDOUT or -ESHUTDOWN
 * otherwise.
 */
typedef void (*gbsim_response_cb)(struct gbsim *sim, void *ctx, int err,
				  uint8_t result, const uint8_t *payload,
				  size_t len);

int gbsim_send_request(struct gbsim *sim, uint16_t hd_cport, uint8_t type,
		       const void *payload, size_t len, unsigned int timeout_ms,
		       gbsim_response_cb cb, void *ctx);
/*
 * The same with a chosen operation id (op_id >= 0; 0 = unidirectional,
 * nobody waits) or a fresh one (-1).  Returns the id used, or -errno.
 */
int gbsim_send_request_id(struct gbsim *sim, uint16_t hd_cport, uint8_t type,
			  int op_id, const void *payload, size_t len,
			  unsigned int timeout_ms, gbsim_response_cb cb,
			  void *ctx);
/*
 * Hand bytes to the transport exactly as given (no hooks, no checks but
 * the transport's own), logged with the note "injected".
 */
int gbsim_inject(struct gbsim *sim, uint16_t hd_cport, const uint8_t *msg,
		 size_t len);
/*
 * Send a message of a linked module's far end to the AP as it is
 * (logged, no hooks; the CPort must be enabled)
 */
int gbsim_forward(struct gbsim *sim, uint16_t hd_cport, const uint8_t *msg,
		  size_t len);
int gbsim_send_response(struct gbsim *sim, uint16_t hd_cport, uint16_t id,
			uint8_t req_type, uint8_t result, const void *payload,
			size_t len);
/* Fail every request gbsim has outstanding on hd_cport (-1: all) */
void gbsim_cancel_requests(struct gbsim *sim, int hd_cport);
/* A response from the AP: match it with the request we sent */
void gbsim_handle_response(struct gbsim *sim, uint16_t hd_cport,
			   const uint8_t *msg, size_t len);

/*
 * Run one request from the AP (msg is a whole, size-checked message):
 * log it, apply the hooks, call handler, send its response.
 */
void gbsim_run_request(struct gbsim *sim, uint16_t hd_cport,
		       struct gbsim_conn *conn, struct gbsim_intf *intf,
		       const uint8_t *msg, size_t len,
		       int (*handler)(struct gbsim_op *op));
/* Log a message from the AP on hd_cport, with an optional note */
void gbsim_log_from_ap(struct gbsim *sim, uint16_t hd_cport,
		       const uint8_t *msg, size_t len, const char *note);

struct gbsim_conn *gbsim_conn_create(struct gbsim *sim, uint16_t hd_cport,
				     uint8_t intf_id, uint16_t intf_cport,
				     uint8_t flags, char *err, size_t errlen);
void gbsim_conn_destroy(struct gbsim *sim, struct gbsim_conn *conn);
/* Made to a module that has left since (the AP has yet to destroy it)? */
bool gbsim_conn_stale(struct gbsim *sim, const struct gbsim_conn *conn);
/* Drop every connection to intf_id (-1: all) without asking anyone */
void gbsim_conns_purge(struct gbsim *sim, int intf_id);
/*
 * A message from the far end of a linked module's link, from its CPort
 * intf_cport: sent to the AP on the bridge CPort connected to it.
 * -ENOENT when no connection of the AP reaches that CPort (the caller
 * decides what that costs the sender), else the transport's result.
 */
int gbsim_link_deliver(struct gbsim *sim, uint8_t intf_id,
		       uint16_t intf_cport, const uint8_t *msg, size_t len);
/* A message the AP sent on a bridge CPort other than the SVC's */
void gbsim_conn_message(struct gbsim *sim, uint16_t hd_cport,
			const uint8_t *msg, size_t len);

/* ------------------------------------------------------------------ */
/* Hooks: the seam for fault injection (fault.c)                       */

enum gbsim_hook_action {
	GBSIM_HOOK_PASS,	/* go on as usual */
	GBSIM_HOOK_DROP,	/* forget the message */
	GBSIM_HOOK_DELAY,	/* send it (requests: the answer) delay_ms later */
	GBSIM_HOOK_ANSWER,	/* requests only: answer with result now */
};

/*
 * What a hook sees of one message, and may change.  A send hook may edit
 * msg, shrink len (never grow it) and set copies; a request hook may not
 * touch msg (it is the AP's) but may shape the answer: short_len,
 * extra_len, copies and (with GBSIM_HOOK_DELAY) delay_ms apply to the
 * response.
 */
struct gbsim_hook_msg {
	uint16_t	hd_cport;
	uint8_t		intf_id;	/* 0xff-safe: see has_intf */
	bool		has_intf;
	uint8_t		protocol;	/* vendor (0xff) if no connection */
	uint8_t		*msg;		/* header + payload */
	size_t		len;
	unsigned int	delay_ms;	/* GBSIM_HOOK_DELAY */
	uint8_t		result;		/* GBSIM_HOOK_ANSWER */
	int		short_len;	/* requests: >= 0 cuts the answer's payload */
	unsigned int	extra_len;	/* requests: zero bytes added to the answer */
	unsigned int	copies;		/* times to send (the answer), default 1 */
};

struct gbsim_hook {
	const char *name;
	/* a request from the AP, before its handler runs */
	enum gbsim_hook_action (*request)(struct gbsim_hook *hook,
					  struct gbsim *sim,
					  struct gbsim_hook_msg *m);
	/* any message gbsim is about to send (not gbsim_inject()'s) */
	enum gbsim_hook_action (*send)(struct gbsim_hook *hook,
				       struct gbsim *sim,
				       struct gbsim_hook_msg *m);
	void *priv;
	struct gbsim_hook *next;
};

void gbsim_hook_add(struct gbsim *sim, struct gbsim_hook *hook);
void gbsim_hook_del(struct gbsim *sim, struct gbsim_hook *hook);
/* Forget every fault of the control socket (gbsim's fault.c) */
void gbsim_faults_fini(struct gbsim *sim);
/* Stop and forget the fuzzer (gbsim's fuzz.c) */
void gbsim_fuzz_fini(struct gbsim *sim);
/*
 * A response from the AP that matches none of gbsim's requests: true if
 * the fuzzer has run (it is then expected, counted and logged as such)
 */
bool gbsim_fuzz_answer(struct gbsim *sim, uint16_t hd_cport,
		       const uint8_t *msg, size_t len);

/* ------------------------------------------------------------------ */
/* The simulator                                                       */

enum gbsim_svc_state {
	GBSIM_SVC_DOWN,		/* no host device yet */
	GBSIM_SVC_VERSION,	/* version request sent */
	GBSIM_SVC_HELLO,	/* hello sent */
	GBSIM_SVC_READY,	/* hello answered: modules may come */
	GBSIM_SVC_FAILED,	/* the AP refused version or hello */
};

struct gbsim_route {
	bool		present;
	uint8_t		device_id;
};

struct gbsim_pending;
struct gbsim_delayed;
struct gbsim_faults;
struct gbsim_fuzz;

/* TimeSync, the SVC's side (timesync.c) */
struct gbsim_svc_timesync {
	bool		enabled;
	bool		pins;		/* wake pins acquired */
	uint32_t	strobe_mask;	/* interfaces whose pins we drive */
	int64_t		base;		/* FrameTime = ticks(now) + base */
	uint8_t		count;		/* strobes of the last series */
	uint64_t	strobe_ft[GB_TIMESYNC_MAX_STROBES];
	unsigned int	series;		/* series emitted (or dropped) */
	unsigned int	pings;
	/* faults (ctl "timesync") */
	unsigned int	drop;		/* next series to drop */
	unsigned int	late_us;	/* delay before a series */
	unsigned int	fail_auth;	/* next authoritative to fail */
	unsigned int	ping_delay_ms;	/* before answering a ping */
};

struct gbsim {
	const struct gbsim_config *cfg;
	struct gbsim_loop *loop;
	struct gbsim_transport *tp;

	bool		host_created;
	uint32_t	bus_id;
	uint16_t	num_cports;
	uint16_t	mtu;

	/* the SVC */
	enum gbsim_svc_state svc_state;
	unsigned int	svc_attempts;
	uint64_t	svc_start_timer;
	uint16_t	endo_id;
	uint8_t		ap_intf_id;
	uint8_t		device_ids[GBSIM_INTF_MAX];	/* by intf id, 0 = none */
	struct gbsim_route routes[GBSIM_INTF_MAX];
	struct gbsim_conn **conns;	/* num_cports entries */

	/* the host device's CPorts, as gb-vhd reports them */
	bool		*cport_enabled;	/* num_cports entries */
	uint16_t	*next_op_id;	/* num_cports entries */

	/* the network */
	struct gbsim_module *modules[GBSIM_INTF_MAX];
	struct gbsim_intf *intfs[GBSIM_INTF_MAX];
	unsigned int	module_seq;

	struct gbsim_pending *pending;	/* our requests awaiting an answer */
	struct gbsim_delayed *delayed;	/* messages a hook holds back */
	struct gbsim_hook *hooks;
	struct gbsim_faults *faults;	/* fault.c, NULL until the first */
	struct gbsim_fuzz *fuzz;	/* fuzz.c, NULL until the first */
	uint8_t		*rsp_buf;	/* response payload of the request
					 * being handled, mtu bytes */
	struct gbsim_svc_timesync ts;
};

int gbsim_init(struct gbsim *sim, const struct gbsim_config *cfg,
	       struct gbsim_loop *loop);
void gbsim_fini(struct gbsim *sim);

/* Upcalls from the transport */
void gbsim_host_created(struct gbsim *sim, uint32_t bus_id);
void gbsim_host_message(struct gbsim *sim, uint16_t cport,
			const uint8_t *msg, size_t len);
void gbsim_host_cport_event(struct gbsim *sim, const char *what,
			    uint16_t cport, uint32_t arg);
void gbsim_host_reset(struct gbsim *sim);
void gbsim_host_lost(struct gbsim *sim, int err);

/* SVC (svc.c) */
void gbsim_svc_start(struct gbsim *sim);
void gbsim_svc_reset(struct gbsim *sim);
void gbsim_svc_request(struct gbsim *sim, const uint8_t *msg, size_t len);
int gbsim_svc_module_inserted(struct gbsim *sim, struct gbsim_module *m);
int gbsim_svc_module_removed(struct gbsim *sim, uint8_t id);
/* The interface an SVC request names (module id for module events), or -1 */
int gbsim_svc_msg_intf(struct gbsim *sim, const uint8_t *msg, size_t len);

/* TimeSync (gbsim's timesync.c): the SVC's and the interfaces' operations */
int gbsim_timesync_svc(struct gbsim_op *op);
int gbsim_timesync_control(struct gbsim_op *op);
void gbsim_timesync_init(struct gbsim *sim);

#endif /* GBSIM_H */
