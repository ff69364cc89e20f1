// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's trust rules (tools/lib/gb_rules.c): functions of a bundle, the
 * rule parser (every refusal has a message) and the matcher.
 */
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/greybus.h>

#include "gb_rules.h"
#include "tap.h"

static void test_functions(void)
{
	uint32_t m;
	char buf[256];

	CHECK(gb_rules_fn_of_class(GREYBUS_CLASS_HID) == GB_FN(GB_FN_HID), "hid");
	CHECK(gb_rules_fn_of_class(GREYBUS_CLASS_FW_MANAGEMENT) ==
	      GB_FN(GB_FN_FIRMWARE), "firmware");
	CHECK(gb_rules_fn_of_class(0x42) == GB_FN(GB_FN_OTHER), "unknown class");
	CHECK(gb_rules_fn_of_protocol(GREYBUS_PROTOCOL_UART) == GB_FN(GB_FN_UART),
	      "uart");
	CHECK(gb_rules_fn_of_protocol(GREYBUS_PROTOCOL_HID) == GB_FN(GB_FN_OTHER),
	      "hid is no bridged-phy protocol");

	/* the default set of the issue: nothing that types, stores, talks */
	CHECK(GB_FN_DEFAULT & GB_FN(GB_FN_GPIO), "gpio by default");
	CHECK(GB_FN_DEFAULT & GB_FN(GB_FN_VIBRATOR), "vibrator by default");
	for (int f = GB_FN_UART; f < GB_FN_COUNT; f++)
		CHECK(!(GB_FN_DEFAULT & GB_FN(f)), "%s denied by default",
		      gb_rules_fn_names[f]);

	CHECK(!gb_rules_fn_parse("gpio,uart", &m) &&
	      m == (GB_FN(GB_FN_GPIO) | GB_FN(GB_FN_UART)), "list");
	CHECK(!gb_rules_fn_parse("default", &m) && m == GB_FN_DEFAULT, "default");
	CHECK(!gb_rules_fn_parse("all", &m) && m == GB_FN_ALL, "all");
	CHECK(!gb_rules_fn_parse("none", &m) && m == 0, "none");
	CHECK(gb_rules_fn_parse("gpio,", &m), "trailing comma");
	CHECK(gb_rules_fn_parse("", &m), "empty");
	CHECK(gb_rules_fn_parse("gpi", &m), "prefix");
	CHECK(gb_rules_fn_parse("GPIO", &m), "case matters");

	CHECK(!strcmp(gb_rules_fn_format(GB_FN(GB_FN_GPIO) | GB_FN(GB_FN_HID),
					 buf, sizeof(buf)), "gpio,hid"), "%s", buf);
	CHECK(!strcmp(gb_rules_fn_format(0, buf, sizeof(buf)), "none"), "%s", buf);
	gb_rules_fn_format(GB_FN_ALL, buf, 8);
	CHECK(strlen(buf) < 8, "truncated: %s", buf);
}

static void test_parse(void)
{
	struct gb_rule r;
	char err[512];

	CHECK(!gb_rule_parse("allow gpio", &r, err, sizeof(err)), "%s", err);
	CHECK(!r.has_addr && !r.has_vendor && !r.via &&
	      r.allow == GB_FN(GB_FN_GPIO), "bare allow");
	CHECK(!gb_rule_parse("  addr=10.0.0.0/8 vendor=\"Acme Inc\" product=X via=mdns allow default hid,uart # note",
			     &r, err, sizeof(err)), "%s", err);
	CHECK(r.has_addr && r.prefix == 8 && r.addr[0] == 10, "addr");
	CHECK(!strcmp(r.vendor, "Acme Inc") && !strcmp(r.product, "X"), "strings");
	CHECK(r.via == GB_RULE_VIA_MDNS, "via");
	CHECK(r.allow == (GB_FN_DEFAULT | GB_FN(GB_FN_HID) | GB_FN(GB_FN_UART)),
	      "allow");
	CHECK(!gb_rule_parse("addr=fe80::/10 allow none", &r, err, sizeof(err)) &&
	      r.prefix == 10 && r.allow == 0, "%s", err);
	CHECK(!gb_rule_parse("vendor=\"a \\\"q\\\" \\\\\" allow all", &r, err,
			     sizeof(err)) && !strcmp(r.vendor, "a \"q\" \\"),
	      "escapes: %s", r.vendor);

	static const char *const bad[] = {
		"", "# only a comment", "allow", "gpio", "addr=10.0.0.1",
		"allow gpio,", "allow foo", "addr=10.0.0.300 allow gpio",
		"addr=10.0.0.0/33 allow gpio", "addr=::/129 allow gpio",
		"addr=10.0.0.0/ allow gpio", "addr=10.0.0.0/x allow gpio",
		"addr=1.2.3.4 addr=1.2.3.4 allow gpio", "via=usb allow gpio",
		"colour=red allow gpio", "vendor=\"open allow gpio",
		"vendor=\"a\\b\" allow gpio", "vendor=\x01 allow gpio",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK(gb_rule_parse(bad[i], &r, err, sizeof(err)) && err[0],
		      "'%s' accepted or refused without a word", bad[i]);
	}

	char big[GB_RULES_LINE_MAX + 8];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK(gb_rule_parse(big, &r, err, sizeof(err)), "a huge line");
	snprintf(big, sizeof(big), "vendor=%0*d allow gpio", GB_RULES_STR_MAX, 0);
	CHECK(gb_rule_parse(big, &r, err, sizeof(err)), "a huge string");
	/* no room for the message: still refused, nothing written */
	CHECK(gb_rule_parse("allow foo", &r, err, 0), "errlen 0");
}

static void test_match(void)
{
	struct gb_rule r;
	char err[256];
	struct gb_rules_node n = {
		.addr = "192.0.2.77", .mdns = true,
		.vendor = "Acme", .product = "Board",
	};

	CHECK(!gb_rule_parse("addr=192.0.2.64/26 allow all", &r, err, sizeof(err)),
	      "%s", err);
	CHECK(gb_rule_matches(&r, &n), "in /26");
	n.addr = "192.0.2.63";
	CHECK(!gb_rule_matches(&r, &n), "out of /26");
	n.addr = "2001:db8::1";
	CHECK(!gb_rule_matches(&r, &n), "v6 against a v4 rule");
	CHECK(!gb_rule_parse("addr=2001:db8::/32 allow all", &r, err, sizeof(err)),
	      "%s", err);
	CHECK(gb_rule_matches(&r, &n), "v6 /32");
	n.addr = "bogus";
	CHECK(!gb_rule_matches(&r, &n), "unparsable node address");

	CHECK(!gb_rule_parse("vendor=Acme product=Board via=mdns allow all", &r,
			     err, sizeof(err)), "%s", err);
	CHECK(gb_rule_matches(&r, &n), "strings and via");
	n.mdns = false;
	CHECK(!gb_rule_matches(&r, &n), "via=mdns, a static node");
	n.mdns = true;
	n.product = "Board2";
	CHECK(!gb_rule_matches(&r, &n), "another product");
	n.vendor = NULL;
	CHECK(!gb_rule_matches(&r, &n), "no vendor string");
	CHECK(!gb_rule_parse("allow hid", &r, err, sizeof(err)), "%s", err);
	CHECK(gb_rule_matches(&r, &n), "no match given: every node");
}

/* TLS: the certificate's SHA-256 (any case, colons) and subject */
static void test_match_tls(void)
{
	static const char fp[] =
		"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	struct gb_rule r;
	char err[256];
	struct gb_rules_node n = { .addr = "192.0.2.1", .vendor = "", .product = "" };

	CHECK(!gb_rule_parse("fingerprint=00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff allow hid",
			     &r, err, sizeof(err)), "%s", err);
	CHECK(!gb_rule_matches(&r, &n), "fingerprint=, a node without TLS");
	n.fingerprint = fp;
	CHECK(gb_rule_matches(&r, &n), "fingerprint with colons, upper case");
	n.fingerprint = "ff112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	CHECK(!gb_rule_matches(&r, &n), "another fingerprint");
	CHECK(gb_rule_parse("fingerprint=0011 allow all", &r, err, sizeof(err)),
	      "short fingerprint refused");
	CHECK(strstr(err, "64 hex digits") != NULL, "says why: %s", err);
	CHECK(!gb_rule_parse("subject=\"CN=node 1,O=Acme\" allow uart", &r, err,
			     sizeof(err)), "%s", err);
	CHECK(!gb_rule_matches(&r, &n), "subject=, no subject");
	n.subject = "CN=node 1,O=Acme";
	CHECK(gb_rule_matches(&r, &n), "subject");
	n.subject = "CN=node 2,O=Acme";
	CHECK(!gb_rule_matches(&r, &n), "another subject");
}

int main(void)
{
	tap_run("rules: functions of bundles", test_functions);
	tap_run("rules: parser", test_parse);
	tap_run("rules: matching", test_match);
	tap_run("rules: TLS fingerprint and subject", test_match_tls);
	return tap_exit_status();
}
