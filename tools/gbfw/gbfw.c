// SPDX-License-Identifier: GPL-2.0
/*
 * gbfw: drives /dev/gb-fw-mgmt-N (gb-firmware) with the ioctls of
 * include/uapi/greybus/fw_mgmt.h.  One command per run; the result is
 * printed as key=value words on one line, for scripts.
 *
 *   gbfw [-d DEV] [-t MS] intf-version
 *   gbfw [-d DEV] [-t MS] backend-version TAG
 *   gbfw [-d DEV] [-t MS] load TAG [unipro|internal]
 *   gbfw [-d DEV] [-t MS] update TAG
 *   gbfw [-d DEV] mode-switch
 *   gbfw [-d DEV] uid
 *   gbfw [-d DEV] cert CLASS ID
 *   gbfw [-d DEV] auth TYPE UID CHALLENGE
 *   gbfw list
 *
 * The last three use /dev/gb-authenticate-N (default -0), the others
 * /dev/gb-fw-mgmt-N (default -0).  UID is 16 hex digits, CHALLENGE up
 * to 64 (zero-padded); binary results are printed in hex.
 * Every argument is checked before a device is opened, and the device is
 * opened only once stat() and sysfs say it is gb-firmware's; usage errors
 * are one line and exit 2.  -t (or, for load and update, a wait computed
 * from the image's size at --baud) sets the device's timeout for the
 * module's event first; a progress thread reports on stderr while a long
 * ioctl waits.  `gbfw list` shows the devices and the file name the
 * module will request.  Exit status: 0 done (whatever status the module
 * gave), 1 the ioctl failed, 2 usage.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <uapi/greybus/cap.h>
#include <uapi/greybus/fw_mgmt.h>

#include "gb_hex.h"
#include "gb_cli.h"
#include "gb_version.h"

static const char *load_status_name(unsigned int s)
{
	switch (s) {
	case GB_FW_U_LOAD_STATUS_FAILED:		return "failed";
	case GB_FW_U_LOAD_STATUS_UNVALIDATED:		return "unvalidated";
	case GB_FW_U_LOAD_STATUS_VALIDATED:		return "validated";
	case GB_FW_U_LOAD_STATUS_VALIDATION_FAILED:	return "validation-failed";
	}
	return "unknown";
}

static const char *update_status_name(unsigned int s)
{
	switch (s) {
	case GB_FW_U_BACKEND_FW_STATUS_SUCCESS:		return "success";
	case GB_FW_U_BACKEND_FW_STATUS_FAIL_FIND:	return "fail-find";
	case GB_FW_U_BACKEND_FW_STATUS_FAIL_FETCH:	return "fail-fetch";
	case GB_FW_U_BACKEND_FW_STATUS_FAIL_WRITE:	return "fail-write";
	case GB_FW_U_BACKEND_FW_STATUS_INT:		return "internal";
	case GB_FW_U_BACKEND_FW_STATUS_RETRY:		return "retry";
	case GB_FW_U_BACKEND_FW_STATUS_NOT_SUPPORTED:	return "not-supported";
	}
	return "unknown";
}

static const char *version_status_name(unsigned int s)
{
	switch (s) {
	case GB_FW_U_BACKEND_VERSION_STATUS_SUCCESS:		return "success";
	case GB_FW_U_BACKEND_VERSION_STATUS_NOT_AVAILABLE:	return "not-available";
	case GB_FW_U_BACKEND_VERSION_STATUS_NOT_SUPPORTED:	return "not-supported";
	case GB_FW_U_BACKEND_VERSION_STATUS_RETRY:		return "retry";
	case GB_FW_U_BACKEND_VERSION_STATUS_FAIL_INT:		return "internal";
	}
	return "unknown";
}

/* --help prints to stdout and succeeds */
static void help(void)
{
	printf(
		"Usage: gbfw [OPTION]... intf-version\n"
		"  or:  gbfw [OPTION]... backend-version TAG\n"
		"  or:  gbfw [OPTION]... load TAG [unipro|internal]\n"
		"  or:  gbfw [OPTION]... update TAG\n"
		"  or:  gbfw [OPTION]... mode-switch\n"
		"  or:  gbfw [OPTION]... uid\n"
		"  or:  gbfw [OPTION]... cert CLASS ID\n"
		"  or:  gbfw [OPTION]... auth TYPE UID CHALLENGE\n"
		"  or:  gbfw [--sysfs DIR] list\n"
		"Manage the firmware of a Greybus interface through gb-firmware's\n"
		"character devices; prints the result as key=value words.\n"
		"\n"
		"DEV defaults to /dev/gb-fw-mgmt-0 (/dev/gb-authenticate-0 for\n"
		"uid, cert and auth).  'list' shows the firmware-management devices,\n"
		"their interface and the file name the module will request for a\n"
		"TAG (under /lib/firmware).  load and update wait for the module as\n"
		"long as its image takes over the link: the image is --image FILE,\n"
		"else the file the module will request, at --baud BPS; 30 s when\n"
		"neither is known.  Progress goes to standard error.\n"
		"\n"
		"Options:\n"
		"  -d, --device DEV      the character device to use\n"
		"  -t, --timeout MS      wait MS milliseconds for the module's event\n"
		"  -i, --image FILE      the image load/update sends: sets the wait\n"
		"  -b, --baud BPS        the link's speed for that wait (115200)\n"
		"  -s, --sysfs DIR       sysfs mount point (/sys)\n"
		"  -q, --quiet           no progress on standard error\n"
		"  -h, --help            show this help and exit\n"
		"  -V, --version         show the version and exit\n"
		"\n"
		"Exit status: 0 done (whatever status the module gave), 1 the\n"
		"ioctl failed, 2 usage.\n");
	exit(0);
}

/* A usage error: one line saying why, then where to look; exit 2 */
#define usage_error(...) gb_usage_error("gbfw", __VA_ARGS__)

/* A tag is at most 9 characters: the 10th byte is its NUL */
static void set_tag(__u8 *dst, const char *tag)
{
	if (strlen(tag) >= GB_FIRMWARE_U_TAG_MAX_SIZE) {
		usage_error("tag '%s' longer than %d characters",
			    tag, GB_FIRMWARE_U_TAG_MAX_SIZE - 1);
	}
	memset(dst, 0, GB_FIRMWARE_U_TAG_MAX_SIZE);
	memcpy(dst, tag, strlen(tag));
}

static int fail(const char *what);

static void print_hex(const char *key, const __u8 *p, size_t len)
{
	printf("%s=", key);
	for (size_t i = 0; i < len; i++)
		printf("%02x", p[i]);
}

/* At most max bytes from hex digits, the rest zero */
static void parse_hex(__u8 *dst, size_t max, const char *hex)
{
	memset(dst, 0, max);
	if (gb_hex_decode(hex, NULL, dst, max) < 0) {
		usage_error("'%s' is not at most %zu hex bytes", hex, max);
	}
}

static int auth_cmd(int fd, const char *cmd, char **argv)
{
	if (!strcmp(cmd, "uid")) {
		struct cap_ioc_get_endpoint_uid u;

		if (ioctl(fd, CAP_IOC_GET_ENDPOINT_UID, &u))
			return fail("get endpoint uid");
		print_hex("uid", u.uid, sizeof(u.uid));
		printf("\n");
	} else if (!strcmp(cmd, "cert")) {
		static struct cap_ioc_get_ims_certificate c;

		c.certificate_class = (__u32)strtoul(argv[0], NULL, 0);
		c.certificate_id = (__u32)strtoul(argv[1], NULL, 0);
		if (ioctl(fd, CAP_IOC_GET_IMS_CERTIFICATE, &c))
			return fail("get IMS certificate");
		if (c.cert_size > CAP_CERTIFICATE_MAX_SIZE)
			c.cert_size = CAP_CERTIFICATE_MAX_SIZE;
		printf("result=%u size=%u ", c.result_code, c.cert_size);
		print_hex("certificate", c.certificate, c.cert_size);
		printf("\n");
	} else if (!strcmp(cmd, "auth")) {
		static struct cap_ioc_authenticate a;

		a.auth_type = (__u32)strtoul(argv[0], NULL, 0);
		parse_hex(a.uid, sizeof(a.uid), argv[1]);
		parse_hex(a.challenge, sizeof(a.challenge), argv[2]);
		if (ioctl(fd, CAP_IOC_AUTHENTICATE, &a))
			return fail("authenticate");
		if (a.signature_size > CAP_SIGNATURE_MAX_SIZE)
			a.signature_size = CAP_SIGNATURE_MAX_SIZE;
		printf("result=%u ", a.result_code);
		print_hex("response", a.response, sizeof(a.response));
		printf(" ");
		print_hex("signature", a.signature, a.signature_size);
		printf("\n");
	}
	return 0;
}

static int fail(const char *what)
{
	fprintf(stderr, "gbfw: %s: %s\n", what, strerror(errno));
	return 1;
}

/* The fw-mgmt commands; their arguments were checked in main() */
static int run_fw_cmd(int fd, const char *cmd, char **argv, int nargs)
{
	if (!strcmp(cmd, "intf-version")) {
		struct fw_mgmt_ioc_get_intf_version v;

		if (ioctl(fd, FW_MGMT_IOC_GET_INTF_FW, &v))
			return fail("get interface firmware version");
		printf("tag=%.*s major=%u minor=%u\n",
		       GB_FIRMWARE_U_TAG_MAX_SIZE, (char *)v.firmware_tag,
		       v.major, v.minor);
	} else if (!strcmp(cmd, "backend-version")) {
		struct fw_mgmt_ioc_get_backend_version v;

		memset(&v, 0, sizeof(v));
		set_tag(v.firmware_tag, argv[0]);
		if (ioctl(fd, FW_MGMT_IOC_GET_BACKEND_FW, &v))
			return fail("get backend firmware version");
		printf("tag=%s status=%s major=%u minor=%u\n", argv[0],
		       version_status_name(v.status), v.major, v.minor);
	} else if (!strcmp(cmd, "load")) {
		struct fw_mgmt_ioc_intf_load_and_validate l;

		memset(&l, 0, sizeof(l));
		set_tag(l.firmware_tag, argv[0]);
		l.load_method = nargs == 2 && !strcmp(argv[1], "internal") ?
				GB_FW_U_LOAD_METHOD_INTERNAL : GB_FW_U_LOAD_METHOD_UNIPRO;
		if (ioctl(fd, FW_MGMT_IOC_INTF_LOAD_AND_VALIDATE, &l))
			return fail("load and validate");
		printf("tag=%s status=%s major=%u minor=%u\n", argv[0],
		       load_status_name(l.status), l.major, l.minor);
	} else if (!strcmp(cmd, "update")) {
		struct fw_mgmt_ioc_backend_fw_update u;

		memset(&u, 0, sizeof(u));
		set_tag(u.firmware_tag, argv[0]);
		if (ioctl(fd, FW_MGMT_IOC_INTF_BACKEND_FW_UPDATE, &u))
			return fail("backend firmware update");
		printf("tag=%s status=%s\n", argv[0], update_status_name(u.status));
	} else if (!strcmp(cmd, "mode-switch")) {
		if (ioctl(fd, FW_MGMT_IOC_MODE_SWITCH))
			return fail("mode switch");
		printf("mode-switch=ok\n");
	}
	return 0;
}

/* The commands, checked before any device is opened */
struct command {
	const char *name;
	int min_args, max_args;
	bool auth;		/* /dev/gb-authenticate-N rather than fw-mgmt */
	bool waits;		/* waits for the module's event: timeout, progress */
	const char *args;	/* for the usage error */
};

static const struct command commands[] = {
	{ "intf-version",	0, 0, false, true,  "no argument" },
	{ "backend-version",	1, 1, false, true,  "TAG" },
	{ "load",		1, 2, false, true,  "TAG [unipro|internal]" },
	{ "update",		1, 1, false, true,  "TAG" },
	{ "mode-switch",	0, 0, false, false, "no argument" },
	{ "uid",		0, 0, true,  false, "no argument" },
	{ "cert",		2, 2, true,  false, "CLASS ID" },
	{ "auth",		3, 3, true,  false, "TYPE UID CHALLENGE" },
	{ "list",		0, 0, false, false, "no argument" },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static unsigned long parse_number(const char *what, const char *s, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || !v || v > max || *s == '-')
		usage_error("%s '%s' is not a number from 1 to %lu", what, s, max);
	return v;
}

static const char *sysfs = "/sys";

/* read_id FILE: a sysfs id ("0x%08x\n"), or -1 */
static long long read_id(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[32];
	unsigned long long v;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%llx", &v) != 1 || v > 0xffffffffULL) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return (long long)v;
}

/*
 * fw_name(DEVNAME, TAG, OUT): the file gb-firmware will request for TAG
 * (kernel/drivers/fw_download.c: gmp_<ddbl1 mfr>_<ddbl1 prod>_<vendor>_
 * <product>_<tag>.tftf), from the interface above the device's bundle;
 * 0, or -1 when sysfs does not say.  OUT's interface name in intf.
 */
static int fw_name(const char *devname, const char *tag, char *out, size_t len,
		   char *intf, size_t intf_len)
{
	char link[PATH_MAX], dir[PATH_MAX];
	long long id[4];
	static const char *const names[] = {
		"ddbl1_manufacturer_id", "ddbl1_product_id", "vendor_id", "product_id",
	};

	snprintf(link, sizeof(link), "%s/class/gb_fw_mgmt/%s/device/..", sysfs, devname);
	if (!realpath(link, dir))
		return -1;
	for (int i = 0; i < 4; i++)
		if ((id[i] = read_id(dir, names[i])) < 0)
			return -1;
	snprintf(out, len, "gmp_%08llx_%08llx_%08llx_%08llx_%s.tftf",
		 id[0], id[1], id[2], id[3], tag);
	if (intf)
		snprintf(intf, intf_len, "%s", strrchr(dir, '/') + 1);
	return 0;
}

static int list_devices(void)
{
	char path[PATH_MAX], name[128], intf[128];
	struct dirent **ents;
	int n, shown = 0;

	snprintf(path, sizeof(path), "%s/class/gb_fw_mgmt", sysfs);
	n = scandir(path, &ents, NULL, versionsort);
	if (n < 0) {
		snprintf(path, sizeof(path), "%s/module/gb_firmware", sysfs);
		fprintf(stderr, "gbfw: no firmware-management devices%s\n",
			access(path, F_OK) ? " (gb-firmware is not loaded: modprobe gb-firmware)" : "");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.') {
			if (fw_name(ents[i]->d_name, "TAG", name, sizeof(name), intf, sizeof(intf)))
				printf("device=/dev/%s\n", ents[i]->d_name);
			else
				printf("device=/dev/%s interface=%s firmware=%s\n",
				       ents[i]->d_name, intf, name);
			shown++;
		}
		free(ents[i]);
	}
	free(ents);
	if (!shown)
		fprintf(stderr, "gbfw: no firmware-management devices\n");
	return shown ? 0 : 1;
}

/*
 * open_dev: the device, once stat() says it is a character device of
 * WANT_CLASS (nothing else is opened); a hint when gb-firmware is not
 * loaded.  -1 after a message, exit 2 for a path that is no such device.
 */
static int open_dev(const char *dev, const char *want_class)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int fd;

	if (stat(dev, &st)) {
		int err = errno;

		snprintf(path, sizeof(path), "%s/module/gb_firmware", sysfs);
		fprintf(stderr, "gbfw: %s: %s%s\n", dev, strerror(err),
			err == ENOENT && access(path, F_OK) ?
			" (gb-firmware is not loaded: modprobe gb-firmware)" : "");
		return -1;
	}
	if (!S_ISCHR(st.st_mode)) {
		fprintf(stderr, "gbfw: %s: not a character device\n", dev);
		exit(2);
	}
	/* one of gb-firmware's: its class says so */
	snprintf(path, sizeof(path), "%s/dev/char/%u:%u/subsystem", sysfs,
		 major(st.st_rdev), minor(st.st_rdev));
	if (realpath(path, real) && strcmp(strrchr(real, '/'), want_class)) {
		fprintf(stderr, "gbfw: %s: not a %s device of gb-firmware\n",
			dev, want_class + 1);
		exit(2);
	}
	fd = open(dev, O_RDWR);
	if (fd < 0)
		fprintf(stderr, "gbfw: %s: %s\n", dev, strerror(errno));
	return fd;
}

/* Progress of a waiting ioctl on stderr, every 2 s after the first 2 */
struct progress {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	const char *what;
	unsigned int limit_ms;
};

static void *progress_thread(void *arg)
{
	struct progress *p = arg;
	struct timespec start, at;
	bool tty = isatty(2);
	unsigned int shown = 0;

	/* the condition variable waits on CLOCK_REALTIME, its default */
	clock_gettime(CLOCK_REALTIME, &start);
	pthread_mutex_lock(&p->lock);
	for (unsigned int s = 2; !p->done; s += 2) {
		at = start;
		at.tv_sec += s;
		while (!p->done && pthread_cond_timedwait(&p->cond, &p->lock, &at) != ETIMEDOUT)
			;
		if (p->done)
			break;
		fprintf(stderr, "%sgbfw: %s: %u s of at most %u s", tty ? "\r" : "",
			p->what, s, (p->limit_ms + 999) / 1000);
		if (!tty)
			fputc('\n', stderr);
		shown++;
	}
	if (shown && tty)
		fputc('\n', stderr);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* wait_ms: what load/update wait for: the image over the link, twice over */
static unsigned int wait_ms(const char *image, const char *dev, const char *tag,
			    unsigned long baud, bool quiet)
{
	char name[128], path[PATH_MAX];
	const char *devname = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	struct stat st;

	if (!image && !fw_name(devname, tag, name, sizeof(name), NULL, 0)) {
		snprintf(path, sizeof(path), "/lib/firmware/%s", name);
		if (!quiet)
			fprintf(stderr, "gbfw: the module will request %s\n", path);
		if (!stat(path, &st))
			image = path;
	}
	if (!image)
		return 30000;
	if (stat(image, &st)) {
		fprintf(stderr, "gbfw: %s: %s\n", image, strerror(errno));
		exit(1);
	}
	/* 10 bits a byte, framing doubles it at worst, 5 s for the rest */
	return 5000 + (unsigned int)(((unsigned long long)st.st_size * 10 * 2 * 1000) / baud);
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *image = NULL;
	unsigned long timeout = 0, baud = 115200;
	const struct command *cmd;
	struct progress prog = {
		.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER,
	};
	pthread_t thread;
	bool quiet = false, progress = false;
	char what[64];
	int fd, c, nargs;

	static const struct option longopts[] = {
		{ "device",	required_argument,	NULL, 'd' },
		{ "timeout",	required_argument,	NULL, 't' },
		{ "image",	required_argument,	NULL, 'i' },
		{ "baud",	required_argument,	NULL, 'b' },
		{ "sysfs",	required_argument,	NULL, 's' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 },
	};

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:d:t:i:b:s:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			break;
		case 'V':
			gb_print_version("gbfw");
			return 0;
		case 'd':
			dev = optarg;
			break;
		case 't':
			timeout = parse_number("timeout", optarg, 3600000);
			break;
		case 'i':
			image = optarg;
			break;
		case 'b':
			baud = parse_number("baud rate", optarg, 100000000);
			break;
		case 's':
			sysfs = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			gb_getopt_error("gbfw", c, argv);
		}
	}
	if (optind >= argc)
		usage_error("no command");
	cmd = find_command(argv[optind]);
	if (!cmd)
		usage_error("unknown command '%s'", argv[optind]);
	optind++;
	nargs = argc - optind;
	if (nargs < cmd->min_args || nargs > cmd->max_args)
		usage_error("'%s' takes %s", cmd->name, cmd->args);
	/* every argument checked here, before a device is opened */
	if (!strcmp(cmd->name, "list"))
		return list_devices();
	if (cmd->min_args && !cmd->auth) {
		__u8 tag[GB_FIRMWARE_U_TAG_MAX_SIZE];

		set_tag(tag, argv[optind]);
	}
	if (!strcmp(cmd->name, "load") && nargs == 2 &&
	    strcmp(argv[optind + 1], "unipro") && strcmp(argv[optind + 1], "internal"))
		usage_error("load method '%s' is neither unipro nor internal", argv[optind + 1]);
	if ((timeout || image) && !cmd->waits)
		usage_error("'%s' waits for nothing: no --timeout or --image", cmd->name);
	if (!dev)
		dev = cmd->auth ? "/dev/gb-authenticate-0" : "/dev/gb-fw-mgmt-0";

	if (!timeout && (!strcmp(cmd->name, "load") || !strcmp(cmd->name, "update")))
		timeout = wait_ms(image, dev, argv[optind], baud, quiet);
	fd = open_dev(dev, cmd->auth ? "/gb_authenticate" : "/gb_fw_mgmt");
	if (fd < 0)
		return 1;
	if (cmd->auth) {
		c = auth_cmd(fd, cmd->name, argv + optind);
		close(fd);
		return c;
	}
	if (timeout) {
		unsigned int t = (unsigned int)timeout;

		if (ioctl(fd, FW_MGMT_IOC_SET_TIMEOUT_MS, &t))
			return fail("set timeout");
	}
	if (!quiet && timeout > 2000 && cmd->waits) {
		snprintf(what, sizeof(what), "%s", cmd->name);
		prog.what = what;
		prog.limit_ms = (unsigned int)timeout;
		progress = !pthread_create(&thread, NULL, progress_thread, &prog);
	}
	c = run_fw_cmd(fd, cmd->name, argv + optind, nargs);
	if (progress) {
		pthread_mutex_lock(&prog.lock);
		prog.done = true;
		pthread_cond_signal(&prog.cond);
		pthread_mutex_unlock(&prog.lock);
		pthread_join(thread, NULL);
	}
	close(fd);
	return c;
}
