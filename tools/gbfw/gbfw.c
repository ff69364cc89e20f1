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
 *
 * The last three use /dev/gb-authenticate-N (default -0), the others
 * /dev/gb-fw-mgmt-N (default -0).  UID is 16 hex digits, CHALLENGE up
 * to 64 (zero-padded); binary results are printed in hex.
 * -t sets the device's timeout for the module's event first.  Exit
 * status: 0 done (whatever status the module gave), 1 the ioctl failed,
 * 2 usage.
 */
#include <errno.h>
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

/* --help prints to stdout and succeeds; a usage error goes to stderr */
static void usage_to(FILE *out, int status)
{
	fprintf(out,
		"Usage: gbfw [-d DEV] [-t MS] intf-version\n"
		"  or:  gbfw [-d DEV] [-t MS] backend-version TAG\n"
		"  or:  gbfw [-d DEV] [-t MS] load TAG [unipro|internal]\n"
		"  or:  gbfw [-d DEV] [-t MS] update TAG\n"
		"  or:  gbfw [-d DEV] mode-switch\n"
		"  or:  gbfw [-d DEV] uid\n"
		"  or:  gbfw [-d DEV] cert CLASS ID\n"
		"  or:  gbfw [-d DEV] auth TYPE UID CHALLENGE\n"
		"Manage the firmware of a Greybus interface through gb-firmware's\n"
		"character devices; prints the result as key=value words.\n"
		"\n"
		"DEV defaults to /dev/gb-fw-mgmt-0 (/dev/gb-authenticate-0 for\n"
		"uid, cert and auth).\n"
		"\n"
		"Options:\n"
		"  -d DEV          the character device to use\n"
		"  -t MS           the device's timeout for the module's event\n"
		"  -h, --help      show this help and exit\n"
		"  -V, --version   show the version and exit\n"
		"\n"
		"Exit status: 0 done (whatever status the module gave), 1 the\n"
		"ioctl failed, 2 usage.\n");
	exit(status);
}

static void usage(void)
{
	usage_to(stderr, 2);
}

/* A tag is at most 9 characters: the 10th byte is its NUL */
static void set_tag(__u8 *dst, const char *tag)
{
	if (strlen(tag) >= GB_FIRMWARE_U_TAG_MAX_SIZE) {
		fprintf(stderr, "gbfw: tag '%s' longer than %d characters\n",
			tag, GB_FIRMWARE_U_TAG_MAX_SIZE - 1);
		exit(2);
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
		fprintf(stderr, "gbfw: '%s' is not at most %zu hex bytes\n", hex, max);
		exit(2);
	}
}

static int auth_cmd(int fd, const char *cmd, int argc, char **argv)
{
	if (!strcmp(cmd, "uid") && !argc) {
		struct cap_ioc_get_endpoint_uid u;

		if (ioctl(fd, CAP_IOC_GET_ENDPOINT_UID, &u))
			return fail("get endpoint uid");
		print_hex("uid", u.uid, sizeof(u.uid));
		printf("\n");
	} else if (!strcmp(cmd, "cert") && argc == 2) {
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
	} else if (!strcmp(cmd, "auth") && argc == 3) {
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
	} else {
		usage();
	}
	return 0;
}

static int fail(const char *what)
{
	fprintf(stderr, "gbfw: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	const char *dev = NULL;
	unsigned int timeout = 0;
	const char *cmd;
	bool auth;
	int fd, c;

	static const struct option longopts[] = {
		{ "help",	no_argument,	NULL, 'h' },
		{ "version",	no_argument,	NULL, 'V' },
		{ NULL,		0,		NULL, 0 },
	};

	while ((c = getopt_long(argc, argv, "d:t:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage_to(stdout, 0);
			break;
		case 'V':
			gb_print_version("gbfw");
			return 0;
		case 'd':
			dev = optarg;
			break;
		case 't':
			timeout = (unsigned int)strtoul(optarg, NULL, 0);
			if (!timeout)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	cmd = argv[optind++];
	auth = !strcmp(cmd, "uid") || !strcmp(cmd, "cert") ||
	       !strcmp(cmd, "auth");
	if (!dev)
		dev = auth ? "/dev/gb-authenticate-0" : "/dev/gb-fw-mgmt-0";

	fd = open(dev, O_RDWR);
	if (fd < 0)
		return fail(dev);
	if (auth) {
		c = auth_cmd(fd, cmd, argc - optind, argv + optind);
		close(fd);
		return c;
	}
	if (timeout && ioctl(fd, FW_MGMT_IOC_SET_TIMEOUT_MS, &timeout))
		return fail("set timeout");

	if (!strcmp(cmd, "intf-version") && optind == argc) {
		struct fw_mgmt_ioc_get_intf_version v;

		if (ioctl(fd, FW_MGMT_IOC_GET_INTF_FW, &v))
			return fail("get interface firmware version");
		printf("tag=%.*s major=%u minor=%u\n",
		       GB_FIRMWARE_U_TAG_MAX_SIZE, (char *)v.firmware_tag,
		       v.major, v.minor);
	} else if (!strcmp(cmd, "backend-version") && optind + 1 == argc) {
		struct fw_mgmt_ioc_get_backend_version v;

		memset(&v, 0, sizeof(v));
		set_tag(v.firmware_tag, argv[optind]);
		if (ioctl(fd, FW_MGMT_IOC_GET_BACKEND_FW, &v))
			return fail("get backend firmware version");
		printf("tag=%s status=%s major=%u minor=%u\n", argv[optind],
		       version_status_name(v.status), v.major, v.minor);
	} else if (!strcmp(cmd, "load") &&
		   (optind + 1 == argc || optind + 2 == argc)) {
		struct fw_mgmt_ioc_intf_load_and_validate l;
		const char *method = optind + 2 == argc ? argv[optind + 1] : "unipro";

		memset(&l, 0, sizeof(l));
		set_tag(l.firmware_tag, argv[optind]);
		if (!strcmp(method, "unipro"))
			l.load_method = GB_FW_U_LOAD_METHOD_UNIPRO;
		else if (!strcmp(method, "internal"))
			l.load_method = GB_FW_U_LOAD_METHOD_INTERNAL;
		else
			usage();
		if (ioctl(fd, FW_MGMT_IOC_INTF_LOAD_AND_VALIDATE, &l))
			return fail("load and validate");
		printf("tag=%s status=%s major=%u minor=%u\n", argv[optind],
		       load_status_name(l.status), l.major, l.minor);
	} else if (!strcmp(cmd, "update") && optind + 1 == argc) {
		struct fw_mgmt_ioc_backend_fw_update u;

		memset(&u, 0, sizeof(u));
		set_tag(u.firmware_tag, argv[optind]);
		if (ioctl(fd, FW_MGMT_IOC_INTF_BACKEND_FW_UPDATE, &u))
			return fail("backend firmware update");
		printf("tag=%s status=%s\n", argv[optind],
		       update_status_name(u.status));
	} else if (!strcmp(cmd, "mode-switch") && optind == argc) {
		if (ioctl(fd, FW_MGMT_IOC_MODE_SWITCH))
			return fail("mode switch");
		printf("mode-switch=ok\n");
	} else {
		usage();
	}
	close(fd);
	return 0;
}
