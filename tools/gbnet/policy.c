// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's trust policy.  gbnet creates a version-2 gb-vhd host with
 * authorized_default 0, so no driver binds to a node's bundle until gbnet
 * says so; the kernel reports each bundle (BUNDLE event) as it registers
 * it, and gbnet authorizes it if the node may use every function of it.
 *
 * What a node may use: the first rule that matches it (address, how it
 * was found, its manifest's vendor and product strings, read from the
 * control device in sysfs), else everything for a node given on the
 * command line or in the config file ("trusted as configured"), else the
 * default set (gb_rules.h) for a discovered one; plus what "gbnet ctl
 * allow" added while gbnet runs.  A bundle held is logged once per node,
 * and those lines are rate-limited across nodes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uapi/greybus/greybus.h>

#include <gb_rules.h>

#include "gbnet.h"
#include "log.h"
#include "policy.h"
#include "transport.h"

#define GBNET_SYSFS		"/sys/bus/greybus/devices"
#define GBNET_BUNDLES_MAX	32	/* remembered per node */

struct gbnet_bundle {
	uint8_t		id;
	uint8_t		bundle_class;
	uint32_t	fns;		/* its functions */
	bool		authorized;	/* by gbnet */
};

/* Per node, from its first bundle on */
struct gbnet_trust {
	uint8_t		intf_id;
	uint32_t	extra;		/* ctl allow */
	bool		said;		/* a hold was logged */
	unsigned int	num;
	struct gbnet_bundle b[GBNET_BUNDLES_MAX];
};

struct gbnet_policy {
	struct gb_rule	*rules;		/* --rule ones, then the file's */
	size_t		num_rules;
	size_t		num_cmdline;
	struct gb_ratelimit rl;
};

static struct gbnet_policy *gbnet_policy(struct gbnet *net)
{
	if (!net->policy)
		net->policy = calloc(1, sizeof(*net->policy));
	return net->policy;
}

int gbnet_policy_add_rule(struct gbnet *net, const char *line, char *err,
			  size_t errlen)
{
	struct gb_rule rule, *grown;

	if (gb_rule_parse(line, &rule, err, errlen))
		return -1;
	if (!gbnet_policy(net))
		goto nomem;
	/* before any file's rules: only while parsing the command line */
	grown = realloc(net->policy->rules,
			(net->policy->num_rules + 1) * sizeof(*grown));
	if (!grown)
		goto nomem;
	grown[net->policy->num_rules++] = rule;
	net->policy->num_cmdline = net->policy->num_rules;
	net->policy->rules = grown;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

int gbnet_policy_set_file_rules(struct gbnet *net, char **lines, size_t n,
				char *err, size_t errlen)
{
	struct gbnet_policy *pol = gbnet_policy(net);
	struct gb_rule *rules;

	if (!pol) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rules = calloc(pol->num_cmdline + n + 1, sizeof(*rules));
	if (!rules) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (pol->num_cmdline)
		memcpy(rules, pol->rules, pol->num_cmdline * sizeof(*rules));
	for (size_t i = 0; i < n; i++) {
		if (gb_rule_parse(lines[i], &rules[pol->num_cmdline + i], err,
				  errlen)) {
			free(rules);
			return -1;
		}
	}
	free(pol->rules);
	pol->rules = rules;
	pol->num_rules = pol->num_cmdline + n;
	return 0;
}

/* One line of a sysfs attribute, newline dropped; "" if unreadable */
static void gbnet_sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* A node's interface N-I.I (gbnet's modules have one interface each) */
static void gbnet_intf_path(struct gbnet *net, uint8_t intf_id,
			    const char *rest, char *buf, size_t len)
{
	snprintf(buf, len, GBNET_SYSFS "/%u-%u.%u%s", net->sim.bus_id,
		 intf_id, intf_id, rest);
}

/* The functions of a bundle: its class, or its CPorts' protocols */
static uint32_t gbnet_bundle_fns(struct gbnet *net, uint8_t intf_id,
				 uint8_t bundle_id, uint8_t bundle_class)
{
	char path[256], rest[16], line[64];
	uint32_t fns = 0;
	unsigned int id, proto;
	FILE *f;

	if (bundle_class != GREYBUS_CLASS_BRIDGED_PHY)
		return gb_rules_fn_of_class(bundle_class);

	snprintf(rest, sizeof(rest), ".%u/cports", bundle_id);
	gbnet_intf_path(net, intf_id, rest, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return GB_FN(GB_FN_OTHER);	/* unknown: held */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %x", &id, &proto) == 2 && proto <= 0xff)
			fns |= gb_rules_fn_of_protocol((uint8_t)proto);
		else
			fns |= GB_FN(GB_FN_OTHER);
	}
	fclose(f);
	return fns ? fns : GB_FN(GB_FN_OTHER);
}

/* The node's IP address, without port or brackets or scope */
static void gbnet_node_ip(const struct gbnet_node *node, char *ip, size_t len)
{
	const char *a = node->addr;
	size_t n;

	if (a[0] == '[') {
		a++;
		n = strcspn(a, "]%");
	} else {
		const char *colon = strrchr(a, ':');

		n = colon ? (size_t)(colon - a) : strlen(a);
	}
	if (n >= len)
		n = len - 1;
	memcpy(ip, a, n);
	ip[n] = '\0';
}

/* What @node may use, and which rule said so (-1: none) */
static uint32_t gbnet_node_allowed(struct gbnet *net, struct gbnet_node *node,
				   int *which)
{
	char ip[64], vendor[GB_RULES_STR_MAX], product[GB_RULES_STR_MAX];
	char path[256];
	struct gb_rules_node facts = {
		.addr = ip,
		.mdns = node->mdns_key != NULL,
		.vendor = vendor,
		.product = product,
		.fingerprint = node->tls_fp[0] ? node->tls_fp : NULL,
		.subject = node->tls_fp[0] ? node->tls_subject : NULL,
	};
	uint32_t extra = node->trust ? node->trust->extra : 0;

	gbnet_node_ip(node, ip, sizeof(ip));
	gbnet_intf_path(net, node->intf_id, ".ctrl/vendor_string", path,
			sizeof(path));
	gbnet_sysfs_read(path, vendor, sizeof(vendor));
	gbnet_intf_path(net, node->intf_id, ".ctrl/product_string", path,
			sizeof(path));
	gbnet_sysfs_read(path, product, sizeof(product));

	for (size_t i = 0; net->policy && i < net->policy->num_rules; i++) {
		if (gb_rule_matches(&net->policy->rules[i], &facts)) {
			*which = (int)i;
			return net->policy->rules[i].allow | extra;
		}
	}
	*which = -1;
	return (node->mdns_key ? GB_FN_DEFAULT : GB_FN_ALL) | extra;
}

static struct gbnet_node *gbnet_node_of_intf(struct gbnet *net,
					     uint8_t intf_id)
{
	for (struct gbnet_node *n = net->nodes; n; n = n->next) {
		if (n->intf_id == intf_id)
			return n;
	}
	return NULL;
}

static struct gbnet_bundle *gbnet_bundle_slot(struct gbnet_trust *t,
					      uint8_t bundle_id)
{
	for (unsigned int i = 0; i < t->num; i++) {
		if (t->b[i].id == bundle_id)
			return &t->b[i];
	}
	if (t->num == GBNET_BUNDLES_MAX)
		return NULL;
	return &t->b[t->num++];
}

/* Authorize @b if @allowed covers it; true if it is (now) authorized */
static bool gbnet_bundle_decide(struct gbnet *net, struct gbnet_node *node,
				struct gbnet_bundle *b, uint32_t allowed)
{
	int ret;

	if (b->authorized || (b->fns & ~allowed))
		return b->authorized;
	ret = gbsim_vhd_authorize(net->tp, node->intf_id, b->id, true);
	if (ret) {
		gbsim_log_error("node %s: cannot authorize bundle %u.%u: %s",
				node->name, node->intf_id, b->id,
				strerror(-ret));
		return false;
	}
	b->authorized = true;
	return true;
}

void gbnet_policy_bundle(void *ctx, uint8_t intf_id, uint8_t bundle_id,
			 uint8_t bundle_class, bool authorized)
{
	struct gbnet *net = ctx;
	struct gbnet_node *node = gbnet_node_of_intf(net, intf_id);
	struct gbnet_bundle *b;
	char fns[256], held[256], why[48];
	unsigned int missed;
	uint32_t allowed;
	int which;

	if (!node) {
		gbsim_log_warn("bundle %u.%u of no node: left held", intf_id,
			       bundle_id);
		return;
	}
	if (!node->trust || node->trust->intf_id != intf_id) {
		gbnet_policy_node_free(node);
		node->trust = calloc(1, sizeof(*node->trust));
		if (!node->trust) {
			gbsim_log_error("node %s: out of memory: bundle %u.%u held",
					node->name, intf_id, bundle_id);
			return;
		}
		node->trust->intf_id = intf_id;
	}
	b = gbnet_bundle_slot(node->trust, bundle_id);
	if (!b) {
		gbsim_log_error("node %s: more than %d bundles: bundle %u.%u held",
				node->name, GBNET_BUNDLES_MAX, intf_id,
				bundle_id);
		return;
	}
	b->id = bundle_id;
	b->bundle_class = bundle_class;
	b->fns = gbnet_bundle_fns(net, intf_id, bundle_id, bundle_class);
	b->authorized = authorized;

	allowed = gbnet_node_allowed(net, node, &which);
	if (gbnet_bundle_decide(net, node, b, allowed))
		return;

	if (node->trust->said)
		return;
	node->trust->said = true;
	if (!gbnet_policy(net))
		return;
	if (!gbnet_ratelimit(&net->policy->rl, &missed))
		return;
	gb_rules_fn_format(b->fns & ~allowed, held, sizeof(held));
	gb_rules_fn_format(b->fns, fns, sizeof(fns));
	if (which >= 0)
		snprintf(why, sizeof(why), "rule %d", which + 1);
	else
		snprintf(why, sizeof(why), "no rule, a discovered node");
	gbsim_log_warn("node %s: bundle %u.%u (%s) held by policy (%s): %s not allowed; 'gbnet ctl allow %s %s' or a rule allows it%s",
		       node->name, intf_id, bundle_id, fns, why, held,
		       node->name, held,
		       missed ? " (lines of other nodes were suppressed)" : "");
}

static const char *gbnet_bundle_state(struct gbnet *net, uint8_t intf_id,
				      const struct gbnet_bundle *b,
				      char *driver, size_t len)
{
	char path[256], rest[32], link[256];
	ssize_t n;

	driver[0] = '\0';
	snprintf(rest, sizeof(rest), ".%u", b->id);
	gbnet_intf_path(net, intf_id, rest, path, sizeof(path));
	if (access(path, F_OK))
		return "gone";
	snprintf(rest, sizeof(rest), ".%u/driver", b->id);
	gbnet_intf_path(net, intf_id, rest, path, sizeof(path));
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		const char *slash;

		link[n] = '\0';
		slash = strrchr(link, '/');
		snprintf(driver, len, "%.63s", slash ? slash + 1 : link);
		return "bound";
	}
	return b->authorized ? "unbound" : "held";
}

void gbnet_policy_list(struct gbnet *net, struct gbnet_node *node,
		       struct gbsim_ctl_out *out)
{
	struct gbnet_trust *t = node->trust;
	char fns[256], driver[64];

	if (!t || node->state != GBNET_NODE_UP || t->intf_id != node->intf_id)
		return;
	for (unsigned int i = 0; i < t->num; i++) {
		const char *st = gbnet_bundle_state(net, t->intf_id, &t->b[i],
						    driver, sizeof(driver));

		gbsim_ctl_printf(out, "  bundle %u.%u class=0x%02x functions=%s state=%s",
				 t->intf_id, t->b[i].id, t->b[i].bundle_class,
				 gb_rules_fn_format(t->b[i].fns, fns, sizeof(fns)),
				 st);
		if (driver[0])
			gbsim_ctl_printf(out, " driver=%s", driver);
		gbsim_ctl_printf(out, "\n");
	}
}

int gbnet_policy_allow(struct gbnet *net, struct gbnet_node *node,
		       uint32_t mask, char *err, size_t errlen)
{
	uint32_t allowed;
	int which;

	if (!node->trust) {
		node->trust = calloc(1, sizeof(*node->trust));
		if (!node->trust) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		node->trust->intf_id = node->intf_id;
	}
	node->trust->extra |= mask;
	if (node->state != GBNET_NODE_UP)
		return 0;
	allowed = gbnet_node_allowed(net, node, &which);
	for (unsigned int i = 0; i < node->trust->num; i++)
		gbnet_bundle_decide(net, node, &node->trust->b[i], allowed);
	gbsim_log_info("node %s: %s allowed by ctl", node->name,
		       gb_rules_fn_format(mask, err, errlen));
	return 0;
}

void gbnet_policy_reapply(struct gbnet *net)
{
	for (struct gbnet_node *node = net->nodes; node; node = node->next) {
		struct gbnet_trust *t = node->trust;
		uint32_t allowed;
		int which, ret;

		if (!t || node->state != GBNET_NODE_UP ||
		    t->intf_id != node->intf_id)
			continue;
		allowed = gbnet_node_allowed(net, node, &which);
		for (unsigned int i = 0; i < t->num; i++) {
			struct gbnet_bundle *b = &t->b[i];

			if (!b->authorized) {
				gbnet_bundle_decide(net, node, b, allowed);
				continue;
			}
			if (!(b->fns & ~allowed))
				continue;
			ret = gbsim_vhd_authorize(net->tp, node->intf_id,
						  b->id, false);
			if (ret && ret != -ENODEV) {
				gbsim_log_error("node %s: cannot hold bundle %u.%u: %s",
						node->name, node->intf_id,
						b->id, strerror(-ret));
				continue;
			}
			b->authorized = false;
			gbsim_log_info("node %s: bundle %u.%u held by the new rules",
				       node->name, node->intf_id, b->id);
		}
	}
}

void gbnet_policy_node_free(struct gbnet_node *node)
{
	free(node->trust);
	node->trust = NULL;
}

void gbnet_policy_fini(struct gbnet *net)
{
	if (!net->policy)
		return;
	free(net->policy->rules);
	free(net->policy);
	net->policy = NULL;
}
