// SPDX-License-Identifier: GPL-2.0
/*
 * gbsim - the Greybus network simulator.
 *
 * Plays the SVC and any number of modules behind one AP bridge created
 * through /dev/greybus-vhd, until SIGINT or SIGTERM; then closes the
 * device, which unplugs the bridge and everything on it.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "ctl.h"
#include "gb_pace.h"
#include "gb_tls.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "transport.h"
#include "gb_cli.h"
#include "gb_version.h"

#include <uapi/greybus/vhd.h>

/* Exit codes */
#define GBSIM_EXIT_OK		0	/* stopped by a signal */
#define GBSIM_EXIT_RUNTIME	1	/* device missing, refused or lost */
#define GBSIM_EXIT_USAGE	2	/* bad option, config or manifest */

#define GBSIM_NODE_CPORTS	1024	/* --node: CPorts of all modules */

enum {
	OPT_LOG = 'l',
	OPT_ENDO_ID = 0x100,
	OPT_AP_INTF,
	OPT_MTU,
	OPT_CPORTS,
	OPT_DEVICE_FD,
	OPT_TRANSPORT,
	OPT_CTL,
	OPT_MANIFEST_RAW,
	OPT_NODE,
	OPT_PTY,
	OPT_ATTACH,
	OPT_PERSONALITY,
	OPT_BAUD,
	OPT_EARLY_INSERT,
	OPT_AUTH_DEFAULT,
	OPT_VHD_ABI,
	OPT_CAPTURE,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_TLS_CA,
	OPT_TLS_VERIFY,
	OPT_TLS_NAME,
	OPT_TLS_SUITES,
	OPT_TLS_STALL,
};

static const struct option gbsim_options[] = {
	{ "module",	required_argument, NULL, 'm' },
	{ "manifest-raw", required_argument, NULL, OPT_MANIFEST_RAW },
	{ "ctl",	required_argument, NULL, OPT_CTL },
	{ "config",	required_argument, NULL, 'c' },
	{ "device",	required_argument, NULL, 'd' },
	{ "log",	required_argument, NULL, OPT_LOG },
	{ "capture",	required_argument, NULL, OPT_CAPTURE },
	{ "verbose",	no_argument,	   NULL, 'v' },
	{ "endo-id",	required_argument, NULL, OPT_ENDO_ID },
	{ "ap-intf",	required_argument, NULL, OPT_AP_INTF },
	{ "mtu",	required_argument, NULL, OPT_MTU },
	{ "cports",	required_argument, NULL, OPT_CPORTS },
	{ "device-fd",	required_argument, NULL, OPT_DEVICE_FD },
	{ "transport",	required_argument, NULL, OPT_TRANSPORT },
	{ "node",	required_argument, NULL, OPT_NODE },
	{ "pty",	no_argument,	   NULL, OPT_PTY },
	{ "attach",	no_argument,	   NULL, OPT_ATTACH },
	{ "personality", required_argument, NULL, OPT_PERSONALITY },
	{ "baud",	required_argument, NULL, OPT_BAUD },
	{ "early-insert", no_argument,	   NULL, OPT_EARLY_INSERT },
	{ "authorized-default", required_argument, NULL, OPT_AUTH_DEFAULT },
	{ "vhd-abi",	required_argument, NULL, OPT_VHD_ABI },
	{ "tls-cert",	required_argument, NULL, OPT_TLS_CERT },
	{ "tls-key",	required_argument, NULL, OPT_TLS_KEY },
	{ "tls-ca",	required_argument, NULL, OPT_TLS_CA },
	{ "tls-verify",	required_argument, NULL, OPT_TLS_VERIFY },
	{ "tls-name",	required_argument, NULL, OPT_TLS_NAME },
	{ "tls-suites",	required_argument, NULL, OPT_TLS_SUITES },
	{ "tls-stall",	no_argument,	   NULL, OPT_TLS_STALL },
	{ "help",	no_argument,	   NULL, 'h' },
	{ "version",	no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void gbsim_usage(FILE *out)
{
	fprintf(out,
"Usage: gbsim [OPTIONS]\n"
"  or:  gbsim ctl [-s PATH] COMMAND [ARGS...]   (gbsim ctl -h)\n"
"Simulate a Greybus network (the SVC and modules) behind an AP bridge\n"
"created through /dev/greybus-vhd.  Runs until SIGINT or SIGTERM.\n"
"\n"
"Options:\n"
"  -m, --module IFID:MANIFEST[,KEY=VALUE...]\n"
"                        plug a module in at interface IFID; MANIFEST is a\n"
"                        .mnfs source or .mnfb blob; keys: vid, pid, serial,\n"
"                        intfs, ddbl1_mfr, ddbl1_prod, init_status,\n"
"                        type (greybus|unipro|dummy), raw; may be repeated\n"
"      --manifest-raw IFID:FILE[,KEY=VALUE...]\n"
"                        the same with FILE served byte for byte, unchecked\n"
"      --ctl PATH        listen for gbsim ctl on the Unix socket PATH\n"
"                        (default: $%s, if set)\n"
"  -c, --config FILE     read modules and settings from FILE\n"
"  -d, --device PATH     the vhd device (default %s), for es2\n"
"                        the functionfs mount (default /dev/ffs-es2),\n"
"                        for hdlc the serial port\n"
"      --device-fd N     use the already open descriptor N instead\n"
"      --transport NAME  how to reach the AP: vhd (default), es2 or hdlc\n"
"                        (a serial link with HDLC framing)\n"
"      --pty             hdlc over a pseudo-terminal gbsim opens; prints\n"
"                        'pty PATH' with the path of its slave side\n"
"      --attach          with --pty: run 'gbattach --foreground' on it, so\n"
"                        that gbsim plugs the link in and out itself\n"
"      --personality P   hdlc: full (default), or cc1352: behave as\n"
"                        BeaglePlay's CC1352 firmware does; --node: full\n"
"                        (default) or zephyr: write as greybus-zephyr does\n"
"                        (prefix and message apart, Nagle on), hang on a\n"
"                        message over 2016 bytes or on more than 16\n"
"                        requests at once\n"
"      --baud N          hdlc: pace the link as a UART at N baud (8N1)\n"
"                        would, both ways: at most N/10 bytes a second\n"
"      --early-insert    the SVC announces its modules before its hello,\n"
"                        as the CC1352 firmware does with static nodes\n"
"      --node tcp:ADDR[:PORT]\n"
"                        no SVC, no bridge: serve each module as a Greybus\n"
"                        node over TCP (greybus-zephyr's framing), the\n"
"                        first on ADDR:PORT (default port 4242), the next\n"
"                        on PORT+1, ...\n"
"      --node tls:ADDR[:PORT]\n"
"                        the same over TLS (greybus-zephyr's\n"
"                        GREYBUS_ENABLE_TLS); with --personality zephyr:\n"
"                        TLS 1.2 only, no tickets, and a client without a\n"
"                        certificate sees TCP closed without an alert\n"
"      --tls-cert FILE   the node's certificate (PEM)\n"
"      --tls-key FILE    its private key (PEM)\n"
"      --tls-ca FILE     the CA client certificates must chain to\n"
"      --tls-verify none|optional|required\n"
"                        the client's certificate (default required)\n"
"      --tls-name NAME   the node's TLS host name: the client's\n"
"                        certificate must carry it (GREYBUS_TLS_HOSTNAME)\n"
"      --tls-suites default|rsa-cbc|ecdhe-gcm\n"
"                        rsa-cbc: only TLS_RSA_WITH_AES_*_CBC_* (an RSA\n"
"                        key; the zephyr default), ecdhe-gcm: ECDHE-ECDSA\n"
"                        with GCM (an EC P-256 key); default: ECDHE\n"
"      --tls-stall       accept, then never answer the handshake\n"
"  -l, --log FILE        write the message log to FILE\n"
"      --capture FILE    also write every message to FILE, a pcapng capture\n"
"                        (gbmon -r, Wireshark: docs/gbmon.md)\n"
"  -v, --verbose         message log on stderr; twice: with payload bytes\n"
"      --endo-id N       endo id sent in SVC hello (default 0x%04x)\n"
"      --ap-intf N       the AP's interface id (default %u)\n"
"      --mtu N           largest message, header included (default %u)\n"
"      --cports N        bridge CPorts (default %u)\n"
"      --authorized-default 0|1\n"
"                        vhd: create a version-2 host (authorization) and\n"
"                        set its authorized_default; 0 holds every bundle\n"
"                        until authorized through sysfs\n"
"      --vhd-abi N       vhd: ask for ABI version N at most (default 3,\n"
"                        batched I/O; 1 or 2: one event per read/write)\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"Exit status: 0 when stopped by a signal, 1 when the device is missing,\n"
"refuses the host device or goes away, 2 for a bad option, config or\n"
"manifest.  See docs/gbsim.md.\n",
		GBSIM_CTL_ENV, GBSIM_DEFAULT_DEVICE, GBSIM_DEFAULT_ENDO_ID,
		GBSIM_DEFAULT_AP_INTF, GBSIM_DEFAULT_MTU,
		GBSIM_DEFAULT_CPORTS);
}

static int gbsim_opt_uint(const char *name, const char *arg, uint64_t min,
			  uint64_t max, uint64_t *out)
{
	if (gbsim_parse_uint(arg, max, out) || *out < min) {
		gb_usage_report("gbsim", "invalid %s '%s' (%llu..%llu)", name, arg,
				(unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	return 0;
}

static void gbsim_signal(struct gbsim_loop *loop, int fd, short revents,
			 void *ctx)
{
	struct signalfd_siginfo si;

	(void)revents;
	(void)ctx;
	if (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		gbsim_log_info("signal %u: stopping", si.ssi_signo);
		gbsim_loop_stop(loop, GBSIM_EXIT_OK);
	}
}

/* What gbsim adds to the shared SVC: TimeSync, fault hooks, the fuzzer */
static void gbsim_extra_fini(struct gbsim *sim)
{
	gbsim_fuzz_fini(sim);
	gbsim_faults_fini(sim);
}

static const struct gbsim_extra gbsim_extra = {
	.init		= gbsim_timesync_init,
	.fini		= gbsim_extra_fini,
	.svc_timesync	= gbsim_timesync_svc,
	.stray_response	= gbsim_fuzz_answer,
};

int gbsim_cc1352_image_main(int argc, char **argv);

int main(int argc, char **argv)
{
	struct gbsim_config cfg = {
		.extra = &gbsim_extra,
		.device = GBSIM_DEFAULT_DEVICE,
		.device_fd = -1,
		.transport = "vhd",
		.mtu = GBSIM_DEFAULT_MTU,
		.num_cports = GBSIM_DEFAULT_CPORTS,
		.endo_id = GBSIM_DEFAULT_ENDO_ID,
		.ap_intf_id = GBSIM_DEFAULT_AP_INTF,
	};
	struct gbsim_transport tp = { .fd = -1 };
	struct gb_tls_opts tls = { .verify = GB_TLS_VERIFY_REQUIRED };
	struct gbsim_ctl *ctl = NULL;
	struct gbsim_loop *loop = NULL;
	struct gbsim sim;
	char err[512];
	sigset_t mask;
	int opt, sfd = -1, ret = GBSIM_EXIT_USAGE;
	const char *capture = NULL;
	uint64_t v;

	if (argc >= 2 && !strcmp(argv[1], "ctl"))
		return gbsim_ctl_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "cc1352-image"))
		return gbsim_cc1352_image_main(argc - 1, argv + 1);

	memset(&sim, 0, sizeof(sim));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":m:c:d:l:vhV", gbsim_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'm':
		case OPT_MANIFEST_RAW:
			if (gbsim_config_parse_module(&cfg, optarg,
						      opt == OPT_MANIFEST_RAW,
						      err, sizeof(err))) {
				fprintf(stderr, "gbsim: --%s %s: %s\n",
					opt == 'm' ? "module" : "manifest-raw",
					optarg, err);
				goto out_cfg;
			}
			break;
		case OPT_CTL:
			cfg.ctl_path = optarg;
			break;
		case 'c':
			if (gbsim_config_load(&cfg, optarg, err, sizeof(err))) {
				fprintf(stderr, "gbsim: %s\n", err);
				goto out_cfg;
			}
			break;
		case 'd':
			cfg.device = optarg;
			break;
		case OPT_LOG:
			cfg.log_path = optarg;
			break;
		case OPT_CAPTURE:
			capture = optarg;
			break;
		case 'v':
			cfg.verbose++;
			break;
		case OPT_ENDO_ID:
			if (gbsim_opt_uint("endo id", optarg, 0, UINT16_MAX, &v))
				goto out_cfg;
			cfg.endo_id = (uint16_t)v;
			break;
		case OPT_AP_INTF:
			if (gbsim_opt_uint("AP interface id", optarg, 0,
					   GBSIM_INTF_MAX - 1, &v))
				goto out_cfg;
			cfg.ap_intf_id = (uint8_t)v;
			break;
		case OPT_MTU:
			if (gbsim_opt_uint("MTU", optarg, 64,
					   GB_OPERATION_MSG_SIZE_MAX, &v))
				goto out_cfg;
			cfg.mtu = (uint16_t)v;
			break;
		case OPT_CPORTS:
			if (gbsim_opt_uint("cport count", optarg, 2,
					   GB_CPORT_ID_MAX + 1, &v))
				goto out_cfg;
			cfg.num_cports = (uint16_t)v;
			break;
		case OPT_DEVICE_FD:
			if (gbsim_opt_uint("descriptor", optarg, 0, INT32_MAX, &v))
				goto out_cfg;
			cfg.device_fd = (int)v;
			break;
		case OPT_TRANSPORT:
			cfg.transport = optarg;
			break;
		case OPT_NODE:
			cfg.transport = "node";
			cfg.device = optarg;
			break;
		case OPT_PTY:
			tp.pty = true;
			cfg.transport = "hdlc";
			break;
		case OPT_ATTACH:
			tp.attach = true;
			break;
		case OPT_PERSONALITY:
			tp.personality = optarg;
			break;
		case OPT_TLS_CERT:
			tls.cert = optarg;
			break;
		case OPT_TLS_KEY:
			tls.key = optarg;
			break;
		case OPT_TLS_CA:
			tls.ca = optarg;
			break;
		case OPT_TLS_NAME:
			tls.name = optarg;
			break;
		case OPT_TLS_STALL:
			tp.tls_stall = true;
			break;
		case OPT_TLS_VERIFY:
			if (!strcmp(optarg, "none")) {
				tls.verify = GB_TLS_VERIFY_NONE;
			} else if (!strcmp(optarg, "optional")) {
				tls.verify = GB_TLS_VERIFY_OPTIONAL;
			} else if (!strcmp(optarg, "required")) {
				tls.verify = GB_TLS_VERIFY_REQUIRED;
			} else {
				fprintf(stderr, "gbsim: --tls-verify %s: none, optional or required\n",
					optarg);
				goto out_cfg;
			}
			break;
		case OPT_TLS_SUITES:
			tp.tls_suites_set = true;
			if (!strcmp(optarg, "default")) {
				tls.suites = GB_TLS_SUITES_DEFAULT;
			} else if (!strcmp(optarg, "rsa-cbc")) {
				tls.suites = GB_TLS_SUITES_RSA_CBC;
			} else if (!strcmp(optarg, "ecdhe-gcm")) {
				tls.suites = GB_TLS_SUITES_ECDHE_GCM;
			} else {
				fprintf(stderr, "gbsim: --tls-suites %s: default, rsa-cbc or ecdhe-gcm\n",
					optarg);
				goto out_cfg;
			}
			break;
		case OPT_EARLY_INSERT:
			cfg.early_insert = true;
			break;
		case OPT_BAUD:
			if (gbsim_opt_uint("baud rate", optarg, GB_PACE_BAUD_MIN,
					   GB_PACE_BAUD_MAX, &v))
				goto out_cfg;
			tp.baud = (uint32_t)v;
			break;
		case OPT_AUTH_DEFAULT:
			if (gbsim_opt_uint("authorized_default", optarg, 0, 1, &v))
				goto out_cfg;
			tp.authorize = true;
			tp.hold_bundles = !v;
			break;
		case OPT_VHD_ABI:
			if (gbsim_opt_uint("vhd ABI version", optarg,
					   GB_VHD_VERSION, GB_VHD_VERSION_MAX, &v))
				goto out_cfg;
			tp.vhd_version = (uint32_t)v;
			break;
		case 'h':
			gbsim_usage(stdout);
			ret = GBSIM_EXIT_OK;
			goto out_cfg;
		case 'V':
			gb_print_version("gbsim");
			ret = GBSIM_EXIT_OK;
			goto out_cfg;
		default:
			ret = gb_getopt_report("gbsim", opt, argv);
			goto out_cfg;
		}
	}
	if (optind < argc) {
		ret = gb_usage_report("gbsim", "unexpected argument '%s'", argv[optind]);
		goto out_cfg;
	}

	/* a node makes up a bridge CPort per module CPort it serves */
	if (!strcmp(cfg.transport, "node") && cfg.num_cports == GBSIM_DEFAULT_CPORTS)
		cfg.num_cports = GBSIM_NODE_CPORTS;

	if (!cfg.ctl_path && getenv(GBSIM_CTL_ENV) && *getenv(GBSIM_CTL_ENV))
		cfg.ctl_path = getenv(GBSIM_CTL_ENV);

	tp.ops = gbsim_transport_find(cfg.transport);
	if (!tp.ops) {
		ret = gb_usage_report("gbsim", "unknown transport '%s'", cfg.transport);
		goto out_cfg;
	}
	if (tp.authorize && tp.ops != &gbsim_vhd_transport) {
		ret = gb_usage_report("gbsim", "--authorized-default is for the vhd transport, not %s",
				      cfg.transport);
		goto out_cfg;
	}
	if (tp.baud && tp.ops != &gbsim_hdlc_transport) {
		ret = gb_usage_report("gbsim", "--baud paces the hdlc transport only, not %s",
				      cfg.transport);
		goto out_cfg;
	}

	if (gbsim_log_open(cfg.log_path, cfg.verbose, err, sizeof(err))) {
		fprintf(stderr, "gbsim: %s\n", err);
		goto out_cfg;
	}
	if (capture && gbsim_log_capture(capture, err, sizeof(err))) {
		fprintf(stderr, "gbsim: %s\n", err);
		ret = GBSIM_EXIT_RUNTIME;
		goto out_log;
	}

	loop = gbsim_loop_new();
	if (!loop || gbsim_init(&sim, &cfg, loop)) {
		fprintf(stderr, "gbsim: cannot start: %s\n", strerror(ENOMEM));
		ret = GBSIM_EXIT_RUNTIME;
		goto out_log;
	}
	gbsim_log_info("gbsim %s: endo 0x%04x, AP interface %u, %u cports, mtu %u",
		       gb_version, cfg.endo_id, cfg.ap_intf_id,
		       cfg.num_cports, cfg.mtu);

	/* every manifest is loaded and checked before the AP sees anything */
	for (struct gbsim_module_cfg *mc = cfg.modules; mc; mc = mc->next) {
		struct gbsim_module *m = gbsim_module_create(mc, err, sizeof(err));

		if (!m) {
			fprintf(stderr, "gbsim: %s\n", err);
			ret = GBSIM_EXIT_USAGE;
			goto out_sim;
		}
		if (gbsim_module_insert(&sim, m, err, sizeof(err))) {
			fprintf(stderr, "gbsim: %s\n", err);
			gbsim_module_destroy(m);
			ret = GBSIM_EXIT_USAGE;
			goto out_sim;
		}
	}

	if (cfg.ctl_path) {
		ctl = gbsim_ctl_open(&sim, cfg.ctl_path, gbsim_ctl_run, err,
				     sizeof(err));
		if (!ctl) {
			fprintf(stderr, "gbsim: %s\n", err);
			ret = GBSIM_EXIT_RUNTIME;
			goto out_sim;
		}
	}

	/* signals arrive through the loop, never in the middle of a handler */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sfd = gbsim_loop_add_signals(loop, &mask, gbsim_signal, NULL);
	if (sfd < 0) {
		fprintf(stderr, "gbsim: cannot watch signals: %s\n",
			strerror(-sfd));
		ret = GBSIM_EXIT_RUNTIME;
		goto out_sim;
	}

	tp.sim = &sim;
	tp.loop = loop;
	tp.device = cfg.device;
	tp.fd = cfg.device_fd;
	tp.num_cports = cfg.num_cports;
	tp.mtu = cfg.mtu;
	tp.tls = &tls;
	if (tp.ops->open(&tp, err, sizeof(err))) {
		fprintf(stderr, "gbsim: %s\n", err);
		ret = GBSIM_EXIT_RUNTIME;
		goto out_sim;
	}
	sim.tp = &tp;

	ret = gbsim_loop_run(loop);

	gbsim_log_info("closing the host device");
	sim.tp = NULL;
	tp.ops->close(&tp);
out_sim:
	gbsim_ctl_close(ctl);
	if (sfd >= 0)
		close(sfd);
	gbsim_fini(&sim);
out_log:
	gbsim_loop_free(loop);
	gbsim_log_close();
out_cfg:
	gbsim_config_free(&cfg);
	return ret;
}
