// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's config file (tools/gbnet/config.c, the parser gbnet runs at
 * start and on SIGHUP): the input is the whole file, from a careless or
 * hostile hand, read through a FILE as gbnet reads it.  A refusal must
 * say where and why and leave nothing behind; a file accepted must hold
 * node specs that are one word each, rules that parse again on their
 * own, at most the items the parser allows, and "mdns" unset, on or off.
 *
 * config.c's other half, the reload on SIGHUP, calls into the whole of
 * gbnet; it is never run here, and the gbnet functions it names are
 * stubs that abort (with the library linked, as gbnet links it).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "gb_rules.h"
#include "../../tools/gbnet/gbnet.h"

/* what config.c's reload half calls: never reached from the parser */
struct gbnet_node *gbnet_node_add(struct gbnet *net, const char *spec,
				  char *err, size_t errlen)
{
	(void)net; (void)spec; (void)err; (void)errlen;
	abort();
}

void gbnet_node_remove(struct gbnet *net, struct gbnet_node *node)
{
	(void)net; (void)node;
	abort();
}

struct gbnet_node *gbnet_node_find(struct gbnet *net, const char *word)
{
	(void)net; (void)word;
	abort();
}

int gbnet_policy_set_file_rules(struct gbnet *net, char **lines, size_t n,
				char *err, size_t errlen)
{
	(void)net; (void)lines; (void)n; (void)err; (void)errlen;
	abort();
}

void gbnet_policy_reapply(struct gbnet *net)
{
	(void)net;
	abort();
}

#define FUZZ_CONFIG_NAME	"gbnet.conf"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gbnet_config_file cf;
	char err[512], why[256];
	struct gb_rule r;
	void *copy;
	FILE *f;
	int ret;

	/* fmemopen of a buffer of the input's exact size: ASan sees overreads */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	f = fmemopen(copy, size ? size : 1, "r");
	if (!f) {
		free(copy);
		return 0;
	}
	if (!size)
		fgetc(f);	/* an empty file: at EOF at once */
	err[0] = '\0';
	ret = gbnet_config_parse(f, FUZZ_CONFIG_NAME, &cf, err, sizeof(err));
	fclose(f);
	free(copy);

	if (ret) {
		FUZZ_ASSERT(ret == -1);
		FUZZ_ASSERT(!strncmp(err, FUZZ_CONFIG_NAME ":", strlen(FUZZ_CONFIG_NAME) + 1));
		FUZZ_ASSERT(strlen(err) > strlen(FUZZ_CONFIG_NAME) + 3);
		FUZZ_ASSERT(!cf.nodes && !cf.num_nodes && !cf.rules && !cf.num_rules);
		return 0;
	}
	FUZZ_ASSERT(cf.mdns >= -1 && cf.mdns <= 1);
	FUZZ_ASSERT(cf.num_nodes <= 4096 && cf.num_rules <= 4096);
	for (size_t i = 0; i < cf.num_nodes; i++) {
		FUZZ_ASSERT(cf.nodes[i][0]);
		FUZZ_ASSERT(!strpbrk(cf.nodes[i], " \t\r\n#"));
	}
	for (size_t i = 0; i < cf.num_rules; i++) {
		FUZZ_ASSERT(!strpbrk(cf.rules[i], "\r\n#"));
		FUZZ_ASSERT(!gb_rule_parse(cf.rules[i], &r, why, sizeof(why)));
	}
	gbnet_config_free(&cf);
	FUZZ_ASSERT(!cf.nodes && !cf.rules && cf.mdns == -1);
	return 0;
}
