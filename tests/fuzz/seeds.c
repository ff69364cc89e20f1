// SPDX-License-Identifier: GPL-2.0
/*
 * Writes seed inputs taken from the unit tests, so the corpora start from
 * every rule the checker enforces: the rule and explain cases of
 * tests/unit/manifest_test.c (one file each, named after the case) and a
 * few well-formed operation messages.  Run by tests/fuzz/seeds.
 *
 *   seeds MANIFEST-DIR MSG-DIR
 */
#define main manifest_test_main
#include "../unit/manifest_test.c"
#undef main

#include <uapi/greybus/control.h>
#include <uapi/greybus/loopback.h>
#include <uapi/greybus/svc.h>
#include <uapi/greybus/vibrator.h>

#include "gb_msg.h"

static void seed_write(const char *dir, const char *name,
		       const unsigned char *p, size_t n)
{
	char path[512], slug[128];
	size_t j = 0;
	FILE *f;

	for (size_t i = 0; name[i] && j < sizeof(slug) - 1; i++) {
		char c = name[i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			slug[j++] = c;
		else if (j && slug[j - 1] != '-')
			slug[j++] = '-';
	}
	while (j && slug[j - 1] == '-')
		j--;
	slug[j] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, slug);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void seed_hex(const char *dir, const char *name, const char *hex)
{
	unsigned char *blob;
	size_t len;

	blob = tap_hex(hex, &len);
	seed_write(dir, name, blob, len);
	free(blob);
}

/* fuzz_msg input: protocol byte, then the message */
static void seed_msg(const char *dir, const char *name, uint8_t protocol,
		     bool response, uint8_t type, const char *payload_hex)
{
	unsigned char *payload, buf[1 + 256];
	size_t plen;
	ssize_t n;

	payload = tap_hex(payload_hex, &plen);
	buf[0] = protocol;
	if (response)
		n = gb_msg_build_response(buf + 1, sizeof(buf) - 1, 0x1234,
					  type, GB_OP_SUCCESS, payload, plen);
	else
		n = gb_msg_build_request(buf + 1, sizeof(buf) - 1, 0x1234,
					 type, payload, plen);
	if (n < 0)
		abort();
	seed_write(dir, name, buf, (size_t)n + 1);
	free(payload);
}

int main(int argc, char **argv)
{
	char name[160];

	if (argc != 3) {
		fprintf(stderr, "usage: %s MANIFEST-DIR MSG-DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rule_cases); i++) {
		snprintf(name, sizeof(name), "rule-%s", rule_cases[i].name);
		seed_hex(argv[1], name, rule_cases[i].hex);
	}
	for (size_t i = 0; i < ARRAY_SIZE(explain_cases); i++) {
		snprintf(name, sizeof(name), "explain-%zu", i);
		seed_hex(argv[1], name, explain_cases[i].hex);
	}
	seed_hex(argv[1], "article-audio", article_hex);

	seed_msg(argv[2], "control-get-manifest-size-rsp",
		 GREYBUS_PROTOCOL_CONTROL, true,
		 GB_CONTROL_TYPE_GET_MANIFEST_SIZE, "54 00");
	seed_msg(argv[2], "control-connected-req", GREYBUS_PROTOCOL_CONTROL,
		 false, GB_CONTROL_TYPE_CONNECTED, "01 00");
	seed_msg(argv[2], "control-bundle-suspend-req",
		 GREYBUS_PROTOCOL_CONTROL, false,
		 GB_CONTROL_TYPE_BUNDLE_SUSPEND, "01");
	seed_msg(argv[2], "svc-dme-peer-get-rsp", GREYBUS_PROTOCOL_SVC, true,
		 GB_SVC_TYPE_DME_PEER_GET, "00 00 01 02 03 04");
	seed_msg(argv[2], "svc-module-inserted-req", GREYBUS_PROTOCOL_SVC,
		 false, GB_SVC_TYPE_MODULE_INSERTED, "01 01 00 00");
	seed_msg(argv[2], "loopback-transfer-rsp", GREYBUS_PROTOCOL_LOOPBACK,
		 true, GB_LOOPBACK_TYPE_TRANSFER,
		 "04 00 00 00  10 00 00 00  20 00 00 00  aa bb cc dd");
	seed_msg(argv[2], "vibrator-on-req", GREYBUS_PROTOCOL_VIBRATOR, false,
		 GB_VIBRATOR_TYPE_ON, "e8 03");
	seed_msg(argv[2], "cport-shutdown-req", GREYBUS_PROTOCOL_VIBRATOR,
		 false, GB_REQUEST_TYPE_CPORT_SHUTDOWN, "01");
	seed_msg(argv[2], "unknown-protocol-req", 0xff, false, 0x42, "00");
	return 0;
}
