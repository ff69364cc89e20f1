/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbnet's trust policy (policy.c): gbnet holds its host's bundles
 * (authorized_default 0, through gb-vhd) and authorizes those a node may
 * use, by its rules (tools/lib/gb_rules.h) or the default set.
 */
#ifndef GBNET_POLICY_H
#define GBNET_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gbnet;
struct gbnet_node;
struct gbsim_ctl_out;

/* One rule line more (--rule, "rule ..." in -c FILE); 0 or -1 */
int gbnet_policy_add_rule(struct gbnet *net, const char *line, char *err,
			  size_t errlen);
/* The config file's rules, after the --rule ones; 0 or -1 (unchanged) */
int gbnet_policy_set_file_rules(struct gbnet *net, char **lines, size_t n,
				char *err, size_t errlen);
/* Judge every node's bundles again (the rules changed) */
void gbnet_policy_reapply(struct gbnet *net);
/* The gb-vhd BUNDLE event (struct gbsim_transport.on_bundle) */
void gbnet_policy_bundle(void *ctx, uint8_t intf_id, uint8_t bundle_id,
			 uint8_t bundle_class, bool authorized);
/* ctl list: one indented line per bundle of @node */
void gbnet_policy_list(struct gbnet *net, struct gbnet_node *node,
		       struct gbsim_ctl_out *out);
/* ctl allow: the functions in @mask too, from now on; 0 or -errno */
int gbnet_policy_allow(struct gbnet *net, struct gbnet_node *node,
		       uint32_t mask, char *err, size_t errlen);
void gbnet_policy_node_free(struct gbnet_node *node);
void gbnet_policy_fini(struct gbnet *net);

#endif /* GBNET_POLICY_H */
