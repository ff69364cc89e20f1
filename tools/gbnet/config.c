// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's config file: read at start (-c FILE) and on SIGHUP.
 *
 *     node HOST[:PORT]
 *     rule [addr=...] [vendor=...] [product=...] [via=...] allow FUNCTION...
 *     mdns on|off
 *     tls [ca=FILE] [pin=SHA256] [cert=FILE] [key=FILE] [name=NAME]
 *         [suites=default|legacy]
 *
 * Blank lines and '#' comments (to the end of the line) are allowed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gb_rules.h>

#include "config.h"
#include "gbnet.h"
#include "log.h"

#define GBNET_CONFIG_LINE_MAX	(GB_RULES_LINE_MAX + 16)
#define GBNET_CONFIG_ITEMS_MAX	4096	/* nodes or rules in one file */

static int gbnet_config_push(char ***list, size_t *n, const char *s)
{
	char **grown;

	if (*n >= GBNET_CONFIG_ITEMS_MAX)
		return -E2BIG;
	grown = realloc(*list, (*n + 1) * sizeof(**list));
	if (!grown)
		return -ENOMEM;
	*list = grown;
	grown[*n] = strdup(s);
	if (!grown[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

void gbnet_config_free(struct gbnet_config_file *cf)
{
	for (size_t i = 0; i < cf->num_nodes; i++)
		free(cf->nodes[i]);
	for (size_t i = 0; i < cf->num_rules; i++)
		free(cf->rules[i]);
	free(cf->nodes);
	free(cf->rules);
	free(cf->tls);
	memset(cf, 0, sizeof(*cf));
	cf->mdns = -1;
}

static bool gbnet_config_key(char **p, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(*p, key, n) || ((*p)[n] != ' ' && (*p)[n] != '\t'))
		return false;
	*p += n;
	*p += strspn(*p, " \t");
	return true;
}

int gbnet_config_parse(FILE *f, const char *path,
		       struct gbnet_config_file *cf, char *err, size_t errlen)
{
	char line[GBNET_CONFIG_LINE_MAX], why[256];
	unsigned int lineno = 0;
	struct gb_rule rule;
	int ret = 0;

	memset(cf, 0, sizeof(*cf));
	cf->mdns = -1;
	while (!ret && fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(why, sizeof(why), "line longer than %d bytes",
				 GBNET_CONFIG_LINE_MAX - 2);
			ret = -1;
			break;
		}
		line[strcspn(line, "#\r\n")] = '\0';
		p += strspn(p, " \t");
		end = p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (!*p)
			continue;
		if (gbnet_config_key(&p, "node")) {
			if (!*p || (strpbrk(p, " \t") && strncmp(p, "tls:", 4))) {
				snprintf(why, sizeof(why), "expected 'node HOST[:PORT]' or 'node tls:HOST[:PORT] [SETTING...]'");
				ret = -1;
			} else if (gbnet_config_push(&cf->nodes, &cf->num_nodes, p)) {
				snprintf(why, sizeof(why), "too many nodes, or out of memory");
				ret = -1;
			}
		} else if (gbnet_config_key(&p, "rule")) {
			if (gb_rule_parse(p, &rule, why, sizeof(why))) {
				ret = -1;
			} else if (gbnet_config_push(&cf->rules, &cf->num_rules, p)) {
				snprintf(why, sizeof(why), "too many rules, or out of memory");
				ret = -1;
			}
		} else if (gbnet_config_key(&p, "tls")) {
			struct gbnet_tls_settings ts = { .legacy = -1 };

			if (gbnet_tls_words(&ts, p, why, sizeof(why))) {
				ret = -1;
			} else {
				free(cf->tls);
				cf->tls = strdup(p);
				if (!cf->tls) {
					snprintf(why, sizeof(why), "out of memory");
					ret = -1;
				}
			}
			gbnet_tls_settings_free(&ts);
		} else if (gbnet_config_key(&p, "mdns")) {
			if (!strcmp(p, "on")) {
				cf->mdns = 1;
			} else if (!strcmp(p, "off")) {
				cf->mdns = 0;
			} else {
				snprintf(why, sizeof(why), "expected 'mdns on' or 'mdns off'");
				ret = -1;
			}
		} else {
			snprintf(why, sizeof(why),
				 "expected 'node HOST[:PORT]', 'rule RULE', 'tls SETTING...' or 'mdns on|off'");
			ret = -1;
		}
	}
	if (ret) {
		snprintf(err, errlen, "%s:%u: %s", path, lineno, why);
		gbnet_config_free(cf);
	}
	return ret;
}

int gbnet_config_read(const char *path, struct gbnet_config_file *cf,
		      char *err, size_t errlen)
{
	FILE *f;
	int ret;

	memset(cf, 0, sizeof(*cf));
	cf->mdns = -1;
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = gbnet_config_parse(f, path, cf, err, errlen);
	fclose(f);
	return ret;
}

static bool gbnet_config_has(char **list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(list[i], s))
			return true;
	}
	return false;
}

int gbnet_config_reload(struct gbnet *net)
{
	struct gbnet_config_file cf;
	unsigned int added = 0, removed = 0;
	char err[512];

	if (!net->config_path) {
		gbsim_log_info("reload: no config file (-c) to read again");
		return -1;
	}
	if (gbnet_config_read(net->config_path, &cf, err, sizeof(err))) {
		gbsim_log_error("reload: %s: nothing changed", err);
		return -1;
	}
	if (gbnet_policy_set_file_rules(net, cf.rules, cf.num_rules, err,
					sizeof(err))) {
		gbsim_log_error("reload: %s: nothing changed", err);
		gbnet_config_free(&cf);
		return -1;
	}

	/* the nodes the file no longer names go; the others stay as they are */
	for (size_t i = 0; i < net->config.num_nodes; i++) {
		struct gbnet_node *node;

		if (gbnet_config_has(cf.nodes, cf.num_nodes,
				     net->config.nodes[i]))
			continue;
		node = gbnet_node_find(net, net->config.nodes[i]);
		if (node && !node->mdns_key) {
			gbsim_log_info("reload: node %s removed", node->name);
			gbnet_node_remove(net, node);
			removed++;
		}
	}
	for (size_t i = 0; i < cf.num_nodes; i++) {
		if (gbnet_config_has(net->config.nodes, net->config.num_nodes,
				     cf.nodes[i]))
			continue;
		if (!gbnet_node_add(net, cf.nodes[i], err, sizeof(err))) {
			gbsim_log_error("reload: node %s", err);
			continue;
		}
		gbsim_log_info("reload: node %s added", cf.nodes[i]);
		added++;
	}
	if (gbnet_tls_defaults(net, cf.tls, err, sizeof(err)))
		gbsim_log_error("reload: tls: %s", err);
	if (cf.mdns >= 0 && cf.mdns != net->mdns)
		gbsim_log_warn("reload: 'mdns %s' takes effect at the next start",
			       cf.mdns ? "on" : "off");

	gbnet_config_free(&net->config);
	net->config = cf;
	gbnet_policy_reapply(net);
	gbsim_log_info("reload: %s read again: %u nodes added, %u removed, %zu rules",
		       net->config_path, added, removed, cf.num_rules);
	return 0;
}
