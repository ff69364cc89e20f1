// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet - Greybus nodes over TCP behind a host device of our own.
 *
 * Opens /dev/greybus-vhd (then may drop root), plays the SVC and the AP
 * bridge with the code gbsim uses, and keeps one TCP connection per node
 * until SIGINT or SIGTERM; then closes the device, which unplugs the
 * bridge and every node's module with it.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#ifndef GB_STATIC
#include <pwd.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "gbnet.h"
#include "log.h"
#include "loop.h"
#include "transport.h"
#include "gb_cli.h"
#include "gb_version.h"

#define GBNET_EXIT_OK		0
#define GBNET_EXIT_RUNTIME	1
#define GBNET_EXIT_USAGE	2

#define GBNET_DEFAULT_CPORTS	256	/* a few per node, many nodes */

enum {
	OPT_NODE = 0x100,
	OPT_CTL,
	OPT_USER,
	OPT_MTU,
	OPT_CPORTS,
	OPT_KEEPALIVE,
	OPT_FRAME_TIMEOUT,
	OPT_BACKOFF_MAX,
	OPT_DEVICE_FD,
	OPT_NO_MDNS,
	OPT_MDNS,
	OPT_MDNS_BROWSE,
	OPT_MDNS_MAX,
	OPT_MDNS_RATE,
	OPT_NO_QUICKACK,
	OPT_NODE_MTU,
	OPT_NODE_INFLIGHT,
	OPT_CONNECT_TIMEOUT,
	OPT_RULE,
	OPT_CAPTURE,
	OPT_TLS_CA,
	OPT_TLS_PIN,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_TLS_NAME,
	OPT_TLS_LEGACY,
	OPT_HANDSHAKE_TIMEOUT,
};

static const struct option gbnet_options[] = {
	{ "node",	required_argument, NULL, OPT_NODE },
	{ "config",	required_argument, NULL, 'c' },
	{ "ctl",	required_argument, NULL, OPT_CTL },
	{ "user",	required_argument, NULL, OPT_USER },
	{ "device",	required_argument, NULL, 'd' },
	{ "device-fd",	required_argument, NULL, OPT_DEVICE_FD },
	{ "no-mdns",	no_argument,	   NULL, OPT_NO_MDNS },
	{ "mdns",	no_argument,	   NULL, OPT_MDNS },
	{ "mdns-browse", required_argument, NULL, OPT_MDNS_BROWSE },
	{ "mdns-max",	required_argument, NULL, OPT_MDNS_MAX },
	{ "mdns-rate",	required_argument, NULL, OPT_MDNS_RATE },
	{ "no-quickack", no_argument,	   NULL, OPT_NO_QUICKACK },
	{ "node-mtu",	required_argument, NULL, OPT_NODE_MTU },
	{ "node-inflight", required_argument, NULL, OPT_NODE_INFLIGHT },
	{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
	{ "rule",	required_argument, NULL, OPT_RULE },
	{ "tls-ca",	required_argument, NULL, OPT_TLS_CA },
	{ "tls-pin",	required_argument, NULL, OPT_TLS_PIN },
	{ "tls-cert",	required_argument, NULL, OPT_TLS_CERT },
	{ "tls-key",	required_argument, NULL, OPT_TLS_KEY },
	{ "tls-name",	required_argument, NULL, OPT_TLS_NAME },
	{ "tls-legacy",	no_argument,	   NULL, OPT_TLS_LEGACY },
	{ "handshake-timeout", required_argument, NULL, OPT_HANDSHAKE_TIMEOUT },
	{ "log",	required_argument, NULL, 'l' },
	{ "capture",	required_argument, NULL, OPT_CAPTURE },
	{ "verbose",	no_argument,	   NULL, 'v' },
	{ "mtu",	required_argument, NULL, OPT_MTU },
	{ "cports",	required_argument, NULL, OPT_CPORTS },
	{ "keepalive",	required_argument, NULL, OPT_KEEPALIVE },
	{ "frame-timeout", required_argument, NULL, OPT_FRAME_TIMEOUT },
	{ "backoff-max", required_argument, NULL, OPT_BACKOFF_MAX },
	{ "help",	no_argument,	   NULL, 'h' },
	{ "version",	no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void gbnet_usage(FILE *out)
{
	fprintf(out,
"Usage: gbnet [OPTIONS]\n"
"  or:  gbnet ctl [-s PATH] COMMAND [ARGS...]   (gbnet ctl -h)\n"
"Reach Greybus nodes over TCP (greybus-zephyr's framing: __le16 CPort,\n"
"then the message) through an AP bridge created with /dev/greybus-vhd:\n"
"gbnet plays the SVC; each node is a module.  Runs until SIGINT/SIGTERM.\n"
"\n"
"Options:\n"
"      --node HOST[:PORT]  a node (port %u by default; IPv6 as [ADDR]:PORT;\n"
"                        names resolved at each attempt); may be repeated\n"
"      --node 'tls:HOST[:PORT] [SETTING...]'\n"
"                        a node over TLS (greybus-zephyr's GREYBUS_ENABLE_TLS);\n"
"                        settings over the --tls-* defaults: ca=FILE\n"
"                        pin=SHA256 cert=FILE key=FILE name=NAME\n"
"                        suites=default|legacy\n"
"      --tls-ca FILE     CA file a TLS node's certificate must chain to\n"
"      --tls-pin SHA256  or the SHA-256 of its certificate (hex)\n"
"      --tls-cert FILE   our certificate (a greybus-zephyr node requires\n"
"                        one naming its TLS host name)\n"
"      --tls-key FILE    its private key\n"
"      --tls-name NAME   the name the node's certificate must carry\n"
"                        (default: the node's host, if not an address)\n"
"      --tls-legacy      accept RSA key transport CBC suites (no forward\n"
"                        secrecy: greybus-zephyr's default build)\n"
"      --handshake-timeout MS  a TLS handshake not over by then is\n"
"                        retried later (default %u)\n"
"  -c, --config FILE     nodes and rules from FILE: lines 'node HOST[:PORT]',\n"
"                        'rule RULE', 'mdns on|off', '#' comments; read\n"
"                        again on SIGHUP (nodes and rules, others kept)\n"
"      --rule RULE       which bundle functions the nodes RULE matches may\n"
"                        use: '[addr=ADDR[/LEN]] [vendor=STR] [product=STR]\n"
"                        [via=static|mdns] allow FUNCTION...' (first match\n"
"                        wins; without one: all for a node given here,\n"
"                        the default set for a discovered one); repeatable\n"
"      --mdns            add nodes announced as %s (DNS-SD through\n"
"                        avahi-browse; off by default: any LAN host can announce)\n"
"      --no-mdns         no discovery (the default)\n"
"      --mdns-browse PATH  avahi's client (default %s)\n"
"      --mdns-max N      discovered nodes at once (default %u)\n"
"      --mdns-rate N     new discovered nodes per minute (default %u)\n"
"      --ctl PATH        listen for gbnet ctl on the Unix socket PATH\n"
"                        (default: $%s, if set)\n"
"      --user USER[:GROUP]  drop root for USER (a name or a number) once\n"
"                        the device and the control socket are open\n"
"  -d, --device PATH     the vhd device (default %s)\n"
"      --device-fd N     use the already open descriptor N instead\n"
"  -l, --log FILE        write the message log to FILE\n"
"      --capture FILE    also write every message to FILE, a pcapng capture\n"
"                        (gbmon -r, Wireshark: docs/gbmon.md)\n"
"  -v, --verbose         message log on stderr; twice: with payload bytes\n"
"      --mtu N           largest message, header included (default %u)\n"
"      --node-mtu N      largest message toward a node (default %u: a\n"
"                        greybus-zephyr node hangs on about 2 KB); larger\n"
"                        requests are answered GB_OP_OVERFLOW at once\n"
"      --node-inflight N requests in flight per node (default %u); more\n"
"                        wait, up to %u, then are answered GB_OP_RETRY\n"
"      --connect-timeout MS  a connection not up by then is retried\n"
"                        later (default %u)\n"
"      --cports N        bridge CPorts, for all nodes (default %u)\n"
"      --keepalive S     a node silent this long (dead link) goes (default %u)\n"
"      --frame-timeout MS  a message begun must be whole by then (default %u)\n"
"      --backoff-max MS  longest wait between two attempts (default %u)\n"
"      --no-quickack     let Linux delay its ACKs (to measure what that\n"
"                        costs a node writing as greybus-zephyr does)\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"Exit status: 0 when stopped by a signal, 1 when the device is missing,\n"
"refuses the host device or goes away, 2 for a bad option or config.\n"
"See docs/gbnet.md.\n",
		GB_TCP_DEFAULT_PORT, GBNET_HANDSHAKE_MS, GBNET_MDNS_SERVICE, GBNET_MDNS_BROWSE,
		GBNET_MDNS_MAX, GBNET_MDNS_RATE, GBNET_CTL_ENV,
		GBSIM_DEFAULT_DEVICE,
		GBSIM_DEFAULT_MTU, GBNET_NODE_MTU, GBNET_NODE_INFLIGHT,
		GBNET_NODE_QUEUE, GBNET_CONNECT_MS, GBNET_DEFAULT_CPORTS,
		GBNET_KEEPALIVE_S,
		GBNET_FRAME_MS, GBNET_BACKOFF_MAX_MS);
}

static int gbnet_opt_uint(const char *name, const char *arg, uint64_t min,
			  uint64_t max, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (!*arg || *end || errno || *out < min || *out > max || *arg == '-') {
		gb_usage_report("gbnet", "invalid %s '%s' (%llu..%llu)", name,
				arg, (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	return 0;
}

/* A user or group id: a number, or a name (not in static builds) */
static int gbnet_id(const char *word, bool group, uid_t *id, gid_t *gid)
{
	unsigned long long v;
	char *end;

	if (!*word) {
		fprintf(stderr, "gbnet: --user: empty %s\n", group ? "group" : "user");
		return -EINVAL;
	}
	if (*word >= '0' && *word <= '9') {
		/* decimal, and a real id: (uid_t)-1 means "no change" */
		errno = 0;
		v = strtoull(word, &end, 10);
		if (*end || errno || v >= UINT32_MAX) {
			fprintf(stderr, "gbnet: --user: '%s' is not a %s id (0..%u)\n",
				word, group ? "group" : "user", UINT32_MAX - 1);
			return -EINVAL;
		}
		*id = (uid_t)v;
		return 0;
	}
#ifdef GB_STATIC
	(void)gid;
	fprintf(stderr, "gbnet: --user: '%s': give a number (this static build looks up no names)\n",
		word);
	return -EINVAL;
#else
	if (group) {
		struct group *gr = getgrnam(word);

		if (gr) {
			*id = gr->gr_gid;
			return 0;
		}
	} else {
		struct passwd *pw = getpwnam(word);

		if (pw) {
			*id = pw->pw_uid;
			*gid = pw->pw_gid;
			return 0;
		}
	}
	fprintf(stderr, "gbnet: --user: no %s '%s'\n", group ? "group" : "user",
		word);
	return -ENOENT;
#endif
}

/*
 * "USER[:GROUP]" to ids, before anything is opened; without GROUP, the
 * user's (a number: the same number)
 */
static int gbnet_user_parse(const char *spec, uid_t *uid, gid_t *gid)
{
	char user[128], *group;
	bool gid_set = false;

	if (strlen(spec) >= sizeof(user)) {
		fprintf(stderr, "gbnet: --user: '%s' too long\n", spec);
		return -EINVAL;
	}
	snprintf(user, sizeof(user), "%s", spec);
	group = strchr(user, ':');
	if (group)
		*group++ = '\0';
	*gid = (gid_t)-1;
	if (gbnet_id(user, false, uid, gid))
		return -EINVAL;
	gid_set = *gid != (gid_t)-1;
	if (group) {
		if (gbnet_id(group, true, gid, NULL))
			return -EINVAL;
	} else if (!gid_set) {
		*gid = (gid_t)*uid;
	}
	return 0;
}

static int gbnet_drop_root(const char *spec, uid_t uid, gid_t gid)
{
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		fprintf(stderr, "gbnet: --user %s: %s\n", spec, strerror(errno));
		return -errno;
	}
	if (uid && !setuid(0)) {
		fprintf(stderr, "gbnet: --user %s: root came back\n", spec);
		return -EPERM;
	}
	gbsim_log_info("running as uid %u gid %u", (unsigned int)uid,
		       (unsigned int)gid);
	return 0;
}

static void gbnet_signal(struct gbsim_loop *loop, int fd, short revents,
			 void *ctx)
{
	struct signalfd_siginfo si;

	(void)revents;
	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			gbnet_mdns_reap(ctx);
			continue;
		}
		if (si.ssi_signo == SIGHUP) {
			gbnet_config_reload(ctx);
			continue;
		}
		gbsim_log_info("signal %u: stopping", si.ssi_signo);
		gbsim_loop_stop(loop, GBNET_EXIT_OK);
	}
}

int main(int argc, char **argv)
{
	struct gbsim_transport tp = { .fd = -1 };
	struct gbsim_ctl *ctl = NULL;
	struct gbsim_loop *loop = NULL;
	const char *user = NULL, *capture = NULL;
	uid_t uid = 0;
	gid_t gid = 0;
	static struct gbnet net;
	char **specs = NULL;
	size_t num_specs = 0;
	int opt, sfd = -1, ret = GBNET_EXIT_USAGE;
	char err[512];
	sigset_t mask;
	uint64_t v;

	if (argc >= 2 && !strcmp(argv[1], "ctl"))
		return gbnet_ctl_main(argc - 1, argv + 1);

	net.cfg = (struct gbsim_config) {
		.device = GBSIM_DEFAULT_DEVICE,
		.device_fd = -1,
		.transport = "vhd",
		.mtu = GBSIM_DEFAULT_MTU,
		.num_cports = GBNET_DEFAULT_CPORTS,
		.endo_id = GBSIM_DEFAULT_ENDO_ID,
		.ap_intf_id = GBNET_AP_INTF,
	};
	net.keepalive_s = GBNET_KEEPALIVE_S;
	net.frame_ms = GBNET_FRAME_MS;
	net.backoff_max_ms = GBNET_BACKOFF_MAX_MS;
	net.quickack = true;
	net.node_mtu = GBNET_NODE_MTU;
	net.node_inflight = GBNET_NODE_INFLIGHT;
	net.connect_ms = GBNET_CONNECT_MS;
	net.handshake_ms = GBNET_HANDSHAKE_MS;
	net.mdns = false;
	net.mdns_fd = -1;
	net.mdns_browse = GBNET_MDNS_BROWSE;
	net.mdns_max = GBNET_MDNS_MAX;
	net.mdns_rate = GBNET_MDNS_RATE;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":c:d:l:vhV", gbnet_options,
				  NULL)) != -1) {
		switch (opt) {
		case OPT_NODE: {
			char **grown = realloc(specs, (num_specs + 1) * sizeof(*specs));

			if (!grown)
				goto out_cfg;
			specs = grown;
			specs[num_specs] = strdup(optarg);
			if (!specs[num_specs])
				goto out_cfg;
			num_specs++;
			break;
		}
		case 'c':
			net.config_path = optarg;
			break;
		case OPT_CTL:
			net.cfg.ctl_path = optarg;
			break;
		case OPT_USER:
			user = optarg;
			if (gbnet_user_parse(user, &uid, &gid))
				goto out_cfg;
			break;
		case 'd':
			net.cfg.device = optarg;
			break;
		case OPT_NO_MDNS:
			net.mdns = false;
			break;
		case OPT_MDNS:
			net.mdns = true;
			break;
		case OPT_NO_QUICKACK:
			net.quickack = false;
			break;
		case OPT_NODE_MTU:
			if (gbnet_opt_uint("node mtu", optarg, 64,
					   GB_OPERATION_MSG_SIZE_MAX, &v))
				goto out_cfg;
			net.node_mtu = (unsigned int)v;
			break;
		case OPT_NODE_INFLIGHT:
			if (gbnet_opt_uint("requests in flight", optarg, 1, 256, &v))
				goto out_cfg;
			net.node_inflight = (unsigned int)v;
			break;
		case OPT_CONNECT_TIMEOUT:
			if (gbnet_opt_uint("connect timeout", optarg, 10, 600000, &v))
				goto out_cfg;
			net.connect_ms = (unsigned int)v;
			break;
		case OPT_MDNS_BROWSE:
			if (optarg[0] != '/') {
				ret = gb_usage_report("gbnet", "--mdns-browse '%s': give an absolute path",
						      optarg);
				goto out_cfg;
			}
			net.mdns_browse = optarg;
			break;
		case OPT_MDNS_MAX:
			if (gbnet_opt_uint("discovered node count", optarg, 0, 4096, &v))
				goto out_cfg;
			net.mdns_max = (unsigned int)v;
			break;
		case OPT_MDNS_RATE:
			if (gbnet_opt_uint("discovery rate", optarg, 1, 4096, &v))
				goto out_cfg;
			net.mdns_rate = (unsigned int)v;
			break;
		case OPT_TLS_CA:
		case OPT_TLS_PIN:
		case OPT_TLS_CERT:
		case OPT_TLS_KEY:
		case OPT_TLS_NAME:
		case OPT_TLS_LEGACY: {
			static const char *const key[] = {
				"ca", "pin", "cert", "key", "name", "suites",
			};
			size_t used = strlen(net.tls_args);
			int n;

			if (optarg && strpbrk(optarg, " \t")) {
				ret = gb_usage_report("gbnet", "'%s': no blanks in TLS settings", optarg);
				goto out_cfg;
			}
			n = snprintf(net.tls_args + used, sizeof(net.tls_args) - used,
				     " %s=%s", key[opt - OPT_TLS_CA],
				     opt == OPT_TLS_LEGACY ? "legacy" : optarg);
			if (n < 0 || (size_t)n >= sizeof(net.tls_args) - used) {
				ret = gb_usage_report("gbnet", "%s: TLS settings too long", optarg);
				goto out_cfg;
			}
			break;
		}
		case OPT_HANDSHAKE_TIMEOUT:
			if (gbnet_opt_uint("handshake timeout", optarg, 10, 600000, &v))
				goto out_cfg;
			net.handshake_ms = (unsigned int)v;
			break;
		case OPT_RULE:
			if (gbnet_policy_add_rule(&net, optarg, err, sizeof(err))) {
				ret = gb_usage_report("gbnet", "--rule: %s", err);
				goto out_cfg;
			}
			break;
		case OPT_DEVICE_FD:
			if (gbnet_opt_uint("descriptor", optarg, 0, INT32_MAX, &v))
				goto out_cfg;
			net.cfg.device_fd = (int)v;
			break;
		case 'l':
			net.cfg.log_path = optarg;
			break;
		case OPT_CAPTURE:
			capture = optarg;
			break;
		case 'v':
			net.cfg.verbose++;
			break;
		case OPT_MTU:
			if (gbnet_opt_uint("mtu", optarg, 64,
					   GB_OPERATION_MSG_SIZE_MAX, &v))
				goto out_cfg;
			net.cfg.mtu = (uint16_t)v;
			break;
		case OPT_CPORTS:
			if (gbnet_opt_uint("cport count", optarg, 2,
					   GB_CPORT_ID_MAX + 1, &v))
				goto out_cfg;
			net.cfg.num_cports = (uint16_t)v;
			break;
		case OPT_KEEPALIVE:
			if (gbnet_opt_uint("keepalive", optarg, 1, 3600, &v))
				goto out_cfg;
			net.keepalive_s = (unsigned int)v;
			break;
		case OPT_FRAME_TIMEOUT:
			if (gbnet_opt_uint("frame timeout", optarg, 10, 600000, &v))
				goto out_cfg;
			net.frame_ms = (unsigned int)v;
			break;
		case OPT_BACKOFF_MAX:
			if (gbnet_opt_uint("backoff", optarg, GBNET_BACKOFF_MIN_MS,
					   3600000, &v))
				goto out_cfg;
			net.backoff_max_ms = (unsigned int)v;
			break;
		case 'h':
			gbnet_usage(stdout);
			ret = GBNET_EXIT_OK;
			goto out_cfg;
		case 'V':
			gb_print_version("gbnet");
			ret = GBNET_EXIT_OK;
			goto out_cfg;
		default:
			ret = gb_getopt_report("gbnet", opt, argv);
			goto out_cfg;
		}
	}
	if (optind < argc) {
		ret = gb_usage_report("gbnet", "unexpected argument '%s'", argv[optind]);
		goto out_cfg;
	}
	net.config.mdns = -1;
	if (net.config_path) {
		if (gbnet_config_read(net.config_path, &net.config, err,
				      sizeof(err)) ||
		    gbnet_policy_set_file_rules(&net, net.config.rules,
						net.config.num_rules, err,
						sizeof(err))) {
			fprintf(stderr, "gbnet: %s\n", err);
			goto out_cfg;
		}
		if (net.config.mdns >= 0)
			net.mdns = net.config.mdns;
	}
	if (gbnet_tls_defaults(&net, net.config.tls, err, sizeof(err))) {
		fprintf(stderr, "gbnet: TLS: %s\n", err);
		goto out_cfg;
	}
	if (!net.cfg.ctl_path && getenv(GBNET_CTL_ENV) && *getenv(GBNET_CTL_ENV))
		net.cfg.ctl_path = getenv(GBNET_CTL_ENV);

	gbsim_log_set_prog(GBNET_NAME);
	if (gbsim_log_open(net.cfg.log_path, net.cfg.verbose, err, sizeof(err))) {
		fprintf(stderr, "gbnet: %s\n", err);
		goto out_cfg;
	}
	if (capture && gbsim_log_capture(capture, err, sizeof(err))) {
		fprintf(stderr, "gbnet: %s\n", err);
		ret = GBNET_EXIT_RUNTIME;
		goto out_log;
	}
	loop = gbsim_loop_new();
	if (!loop || gbsim_init(&net.sim, &net.cfg, loop)) {
		fprintf(stderr, "gbnet: cannot start: %s\n", strerror(ENOMEM));
		ret = GBNET_EXIT_RUNTIME;
		goto out_log;
	}
	gbsim_log_info("gbnet %s: endo 0x%04x, AP interface %u, %u cports, mtu %u",
		       gb_version, net.cfg.endo_id, net.cfg.ap_intf_id,
		       net.cfg.num_cports, net.cfg.mtu);

	if (net.cfg.ctl_path) {
		ctl = gbsim_ctl_open(&net.sim, net.cfg.ctl_path, gbnet_ctl_run,
				     err, sizeof(err));
		if (!ctl) {
			fprintf(stderr, "gbnet: %s\n", err);
			ret = GBNET_EXIT_RUNTIME;
			goto out_sim;
		}
	}

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);	/* avahi-browse, reaped without waiting */
	sigaddset(&mask, SIGHUP);
	sfd = gbsim_loop_add_signals(loop, &mask, gbnet_signal, &net);
	if (sfd < 0) {
		fprintf(stderr, "gbnet: cannot watch signals: %s\n",
			strerror(-sfd));
		ret = GBNET_EXIT_RUNTIME;
		goto out_sim;
	}

	tp.ops = &gbsim_vhd_transport;
	tp.sim = &net.sim;
	tp.loop = loop;
	tp.device = net.cfg.device;
	tp.fd = net.cfg.device_fd;
	tp.num_cports = net.cfg.num_cports;
	tp.mtu = net.cfg.mtu;
	/* Bundles held until the policy authorizes them (policy.c) */
	tp.authorize = true;
	tp.hold_bundles = true;
	tp.on_bundle = gbnet_policy_bundle;
	tp.bundle_ctx = &net;
	net.tp = &tp;
	if (tp.ops->open(&tp, err, sizeof(err))) {
		fprintf(stderr, "gbnet: %s\n", err);
		ret = GBNET_EXIT_RUNTIME;
		goto out_sim;
	}
	net.sim.tp = &tp;
	tp.drained = gbnet_nodes_resume;
	tp.drained_ctx = &net;
	tp.released = gbnet_nodes_flush;
	tp.released_ctx = &net;

	/* the device is open: nothing else needs root */
	if (user && gbnet_drop_root(user, uid, gid)) {
		ret = GBNET_EXIT_RUNTIME;
		goto out_tp;
	}

	for (size_t i = 0; i < num_specs; i++) {
		if (!gbnet_node_add(&net, specs[i], err, sizeof(err))) {
			fprintf(stderr, "gbnet: --node %s\n", err);
			ret = GBNET_EXIT_USAGE;
			goto out_nodes;
		}
	}
	for (size_t i = 0; i < net.config.num_nodes; i++) {
		if (!gbnet_node_add(&net, net.config.nodes[i], err, sizeof(err))) {
			fprintf(stderr, "gbnet: %s: node %s\n", net.config_path, err);
			ret = GBNET_EXIT_USAGE;
			goto out_nodes;
		}
	}

	if (net.mdns)
		gbnet_mdns_init(&net);

	ret = gbsim_loop_run(loop);

	gbnet_mdns_fini(&net);
out_nodes:
	gbnet_nodes_fini(&net);
out_tp:
	gbsim_log_info("closing the host device");
	net.sim.tp = NULL;
	tp.ops->close(&tp);
out_sim:
	gbsim_ctl_close(ctl);
	if (sfd >= 0)
		close(sfd);
	gbsim_fini(&net.sim);
out_log:
	gbsim_loop_free(loop);
	gbsim_log_close();
out_cfg:
	for (size_t i = 0; i < num_specs; i++)
		free(specs[i]);
	free(specs);
	gbnet_config_free(&net.config);
	gbnet_policy_fini(&net);
	gbnet_tls_settings_free(&net.tls);
	return ret;
}
