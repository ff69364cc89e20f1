// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's trust rules (tools/lib/gb_rules.c): the input is a config file
 * from a careless or hostile hand, each line parsed as a rule.  A rule
 * accepted must hold only known functions, a prefix within its family's
 * length and terminated strings; a refusal must say why; matching it
 * against a node made of the same bytes must not read out of bounds.
 */
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "fuzz.h"
#include "gb_rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[4 * GB_RULES_LINE_MAX];
	char err[256], fns[512], *line, *save = NULL;
	struct gb_rule r;
	uint32_t m;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct gb_rules_node node = {
			.addr = line, .mdns = size & 1,
			.vendor = line, .product = "",
		};

		err[0] = '\0';
		if (gb_rule_parse(line, &r, err, sizeof(err))) {
			FUZZ_ASSERT(err[0]);
			FUZZ_ASSERT(strlen(err) < sizeof(err));
		} else {
			FUZZ_ASSERT(!(r.allow & ~GB_FN_ALL));
			FUZZ_ASSERT(!r.has_addr ||
				    (r.family == AF_INET && r.prefix <= 32) ||
				    (r.family == AF_INET6 && r.prefix <= 128));
			FUZZ_ASSERT(strlen(r.vendor) < GB_RULES_STR_MAX);
			FUZZ_ASSERT(strlen(r.product) < GB_RULES_STR_MAX);
			FUZZ_ASSERT(r.via >= 0 && r.via <= GB_RULE_VIA_MDNS);
			gb_rule_matches(&r, &node);
			gb_rules_fn_format(r.allow, fns, sizeof(fns));
			FUZZ_ASSERT(strlen(fns) < sizeof(fns));
		}
		if (!gb_rules_fn_parse(line, &m))
			FUZZ_ASSERT(!(m & ~GB_FN_ALL));
	}
	return 0;
}
