// SPDX-License-Identifier: GPL-2.0
/*
 * gbmon: every Greybus message, live from the kernel monitor or from a
 * pcapng file, one line per operation.  See docs/gbmon.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gb_msg.h>
#include <gb_pcapng.h>
#include <gb_version.h>
#include <decode/gb_decode.h>

#include "gb_cli.h"
#include "gbmon.h"
#include "source.h"

#define GBMON_DEBUGFS	"/sys/kernel/debug/greybus"

static void gbmon_usage(FILE *out)
{
	fprintf(out,
		"Usage: gbmon [OPTIONS]\n\n"
		"Show every Greybus message the kernel's host devices send and receive,\n"
		"one line per operation: request and response matched, with the latency\n"
		"between them, every protocol's operations and fields by name.\n\n"
		"Options:\n"
		"  -r, --read FILE      read a pcapng capture instead of the kernel\n"
		"  -w, --write FILE     also write every record to a pcapng capture\n"
		"                       (Wireshark: docs/gbmon.md)\n"
		"  -j, --json           one JSON object per line\n"
		"  -H, --host N         only host device greybusN\n"
		"  -i, --intf N         only interface N\n"
		"  -b, --bundle N       only bundle N\n"
		"  -c, --cport N        only the interface's CPort N (the host's for the SVC)\n"
		"  -p, --protocol NAME  only this protocol (gpio, svc, control, 0x02...)\n"
		"  -e, --errors         only failures: error results, cancelled or\n"
		"                       unanswered operations, malformed messages, losses\n"
		"  -L, --list-operations  every protocol and operation gbmon names\n"
		"                       (\"PROTOCOL_ID NAME TYPE OPERATION\"), then exit\n"
		"  -m, --monitor FILE   the monitor file (default %s/monitor,\n"
		"                       or greybusN/monitor with --host N)\n"
		"  -h, --help           this text\n"
		"  -V, --version        print the version\n\n"
		"Reading the kernel needs root and debugfs.  Stops at end of input, or on\n"
		"SIGINT/SIGTERM (the capture is closed whole).\n\n"
		"Exit status: 0 success, 1 cannot read or write, 2 bad usage.\n",
		GBMON_DEBUGFS);
}

static int gbmon_number(const char *opt, const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < 0 || v > max) {
		fprintf(stderr, "gbmon: %s: '%s' is not a number 0..%ld\n", opt,
			s, max);
		exit(2);
	}
	return (int)v;
}

static int gbmon_protocol(const char *s)
{
	int id = gb_protocol_from_name(s);

	for (int i = 0; id < 0 && i < 256; i++) {
		const struct gb_decoder *d = gb_decoder_find((uint8_t)i);

		if (d && !strcmp(d->name, s))
			id = i;
	}
	return id >= 0 ? id : gbmon_number("--protocol", s, 255);
}

/* The names the Wireshark dissector's tables are generated from */
static void gbmon_list_operations(void)
{
	for (int p = 0; p < 256; p++) {
		const struct gb_decoder *d = gb_decoder_find((uint8_t)p);
		const char *pname = d ? d->name : gb_protocol_name((uint8_t)p);

		if (pname == gb_name_unknown)
			continue;
		for (int t = 0; t <= GB_MSG_TYPE_MASK; t++) {
			const char *o = gb_op_name((uint8_t)p, (uint8_t)t);

			if (o != gb_name_unknown)
				printf("0x%02x %s 0x%02x %s\n", p, pname, t, o);
		}
	}
}

static void gbmon_on_signal(int sig)
{
	(void)sig;
	gbmon_stop = 1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "read",	required_argument,	NULL, 'r' },
		{ "write",	required_argument,	NULL, 'w' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "host",	required_argument,	NULL, 'H' },
		{ "intf",	required_argument,	NULL, 'i' },
		{ "bundle",	required_argument,	NULL, 'b' },
		{ "cport",	required_argument,	NULL, 'c' },
		{ "protocol",	required_argument,	NULL, 'p' },
		{ "errors",	no_argument,		NULL, 'e' },
		{ "monitor",	required_argument,	NULL, 'm' },
		{ "list-operations", no_argument,	NULL, 'L' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 },
	};
	struct gbmon_opts opts = {
		.filter = { -1, -1, -1, -1, -1, false },
		.out = stdout,
	};
	const char *rpath = NULL, *wpath = NULL, *mpath = NULL;
	struct gb_pcapng_writer writer, *w = NULL;
	struct sigaction sa = { .sa_handler = gbmon_on_signal };
	char err[256] = "", monitor[128];
	struct gbmon *gm;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:w:jH:i:b:c:p:em:LhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'r':
			rpath = optarg;
			break;
		case 'w':
			wpath = optarg;
			break;
		case 'j':
			opts.json = true;
			break;
		case 'H':
			opts.filter.host = gbmon_number("--host", optarg, 65535);
			break;
		case 'i':
			opts.filter.intf = gbmon_number("--intf", optarg, 254);
			break;
		case 'b':
			opts.filter.bundle = gbmon_number("--bundle", optarg, 254);
			break;
		case 'c':
			opts.filter.cport = gbmon_number("--cport", optarg, 65534);
			break;
		case 'p':
			opts.filter.protocol = gbmon_protocol(optarg);
			break;
		case 'e':
			opts.filter.errors = true;
			break;
		case 'm':
			mpath = optarg;
			break;
		case 'L':
			gbmon_list_operations();
			return 0;
		case 'h':
			gbmon_usage(stdout);
			return 0;
		case 'V':
			gb_print_version("gbmon");
			return 0;
		default:
			return gb_getopt_report("gbmon", c, argv);
		}
	}
	if (optind < argc) {
		return gb_usage_report("gbmon", "unexpected argument '%s'", argv[optind]);
	}
	if (wpath && rpath && !strcmp(wpath, rpath)) {
		fprintf(stderr, "gbmon: -r and -w name the same file\n");
		return 2;
	}
	sigaction(SIGINT, &sa, NULL);	/* no SA_RESTART: read() returns */
	sigaction(SIGTERM, &sa, NULL);
	if (wpath) {
		ret = gb_pcapng_create(&writer, wpath, "gbmon");
		if (ret) {
			fprintf(stderr, "gbmon: cannot write %s: %s\n", wpath,
				strerror(-ret));
			return 1;
		}
		w = &writer;
		if (!strcmp(wpath, "-"))
			opts.out = stderr;	/* the capture owns stdout */
	}
	gm = gbmon_new(&opts);
	if (!gm) {
		fprintf(stderr, "gbmon: out of memory\n");
		return 1;
	}
	if (rpath) {
		ret = gbmon_read_pcapng(gm, w, rpath, err, sizeof(err));
	} else {
		if (!mpath && opts.filter.host >= 0) {
			snprintf(monitor, sizeof(monitor), "%s/greybus%d/monitor",
				 GBMON_DEBUGFS, opts.filter.host);
			mpath = monitor;
		}
		if (!mpath)
			mpath = GBMON_DEBUGFS "/monitor";
		ret = gbmon_read_monitor(gm, w, mpath);
		if (ret)
			snprintf(err, sizeof(err), "%s: %s%s", mpath,
				 strerror(-ret), ret == -ENOENT || ret == -EACCES ?
				 " (needs root, debugfs mounted, greybus loaded)" : "");
	}
	gbmon_finish(gm);
	if (w && gb_pcapng_close(w) && !ret) {
		snprintf(err, sizeof(err), "cannot write %s", wpath);
		ret = -EIO;
	}
	if (ret) {
		fprintf(stderr, "gbmon: %s\n", err);
		return 1;
	}
	return 0;
}
