// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's control socket: the shared server and client (tools/lib/svc
 * ctl.c, ctl-client.c, the same wire format and conventions as gbsim
 * ctl) with gbnet's commands: status, list, add, remove.
 */
#include <stdio.h>
#include <string.h>

#include <gb_rules.h>

#include "gbnet.h"
#include "log.h"

static struct gbnet *gbnet_of(struct gbsim *sim)
{
	return (struct gbnet *)((char *)sim - offsetof(struct gbnet, sim));
}

static int gbnet_cmd_status(struct gbnet *net, int argc, char **argv,
			    struct gbsim_ctl_out *out)
{
	unsigned int n = 0, up = 0;

	(void)argv;
	if (argc != 1)
		return gbsim_ctl_fail(out, "usage: status");
	for (struct gbnet_node *node = net->nodes; node; node = node->next) {
		n++;
		up += node->state == GBNET_NODE_UP;
	}
	gbsim_ctl_printf(out, "svc=%s bus=%u nodes=%u up=%u mdns=%s\n",
			 net->sim.svc_state == GBSIM_SVC_READY ? "ready" : "not-ready",
			 net->sim.bus_id, n, up,
			 !net->mdns ? "off" : net->mdns_working ? "on" : "unavailable");
	return 0;
}

static int gbnet_cmd_list(struct gbnet *net, int argc, char **argv,
			  struct gbsim_ctl_out *out)
{
	(void)argv;
	if (argc != 1)
		return gbsim_ctl_fail(out, "usage: list");
	for (struct gbnet_node *n = net->nodes; n; n = n->next) {
		/* a TLS node's settings are not shown: its address only */
		gbsim_ctl_printf(out, "%.*s state=%s intf=",
				 (int)strcspn(n->spec, " \t"), n->spec,
				 gbnet_node_state_name(n->state));
		if (n->intf_id)
			gbsim_ctl_printf(out, "%u", n->intf_id);
		else
			gbsim_ctl_printf(out, "-");
		gbsim_ctl_printf(out, " addr=%s bytes_in=%llu bytes_out=%llu msgs_in=%lu msgs_out=%lu connects=%lu errors=%lu",
				 n->addr[0] ? n->addr : "-",
				 (unsigned long long)n->bytes_in,
				 (unsigned long long)n->bytes_out,
				 n->msgs_in, n->msgs_out, n->connects,
				 n->errors);
		gbsim_ctl_printf(out, " via=%s", n->mdns_key ? "mdns" : "static");
		if (n->tls && n->state == GBNET_NODE_UP)
			gbsim_ctl_printf(out, " tls=\"%s\" sha256=%s subject=\"%s\"",
					 n->tls_what, n->tls_fp, n->tls_subject);
		if (n->last_error[0])
			gbsim_ctl_printf(out, " last_error=\"%s\"",
					 n->last_error);
		gbsim_ctl_printf(out, "\n");
		gbnet_policy_list(net, n, out);
	}
	return 0;
}

static int gbnet_cmd_add(struct gbnet *net, int argc, char **argv,
			 struct gbsim_ctl_out *out)
{
	char err[256];

	if (argc != 2)
		return gbsim_ctl_fail(out, "usage: add HOST[:PORT]");
	if (!gbnet_node_add(net, argv[1], err, sizeof(err)))
		return gbsim_ctl_fail(out, "%s", err);
	return 0;
}

static int gbnet_cmd_remove(struct gbnet *net, int argc, char **argv,
			    struct gbsim_ctl_out *out)
{
	struct gbnet_node *node;

	if (argc != 2)
		return gbsim_ctl_fail(out, "usage: remove HOST[:PORT]|IFID");
	node = gbnet_node_find(net, argv[1]);
	if (!node)
		return gbsim_ctl_fail(out, "no node '%s'", argv[1]);
	gbsim_log_info("node %s removed by ctl", node->name);
	gbnet_node_remove(net, node);
	return 0;
}

static int gbnet_cmd_allow(struct gbnet *net, int argc, char **argv,
			   struct gbsim_ctl_out *out)
{
	struct gbnet_node *node;
	uint32_t mask = 0, m;
	char err[256];

	if (argc < 2)
		return gbsim_ctl_fail(out, "usage: allow HOST[:PORT]|IFID [FUNCTION...]");
	node = gbnet_node_find(net, argv[1]);
	if (!node)
		return gbsim_ctl_fail(out, "no node '%s'", argv[1]);
	for (int i = 2; i < argc; i++) {
		if (gb_rules_fn_parse(argv[i], &m))
			return gbsim_ctl_fail(out, "unknown function '%s'",
					      argv[i]);
		mask |= m;
	}
	if (argc == 2)
		mask = GB_FN_ALL;
	if (gbnet_policy_allow(net, node, mask, err, sizeof(err)))
		return gbsim_ctl_fail(out, "%s", err);
	return 0;
}

/* As SIGHUP: the config file read again (config.c) */
static int gbnet_cmd_reload(struct gbnet *net, int argc, char **argv,
			    struct gbsim_ctl_out *out)
{
	(void)argv;
	if (argc != 1)
		return gbsim_ctl_fail(out, "usage: reload");
	if (!net->config_path)
		return gbsim_ctl_fail(out, "no config file (-c) to read again");
	if (gbnet_config_reload(net))
		return gbsim_ctl_fail(out, "%s did not parse: nothing changed (see the log)",
				      net->config_path);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct gbnet *net, int argc, char **argv,
		   struct gbsim_ctl_out *out);
} gbnet_cmds[] = {
	{ "status", gbnet_cmd_status },
	{ "list", gbnet_cmd_list },
	{ "add", gbnet_cmd_add },
	{ "remove", gbnet_cmd_remove },
	{ "allow", gbnet_cmd_allow },
	{ "reload", gbnet_cmd_reload },
};

void gbnet_ctl_run(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out)
{
	if (!argc) {
		gbsim_ctl_fail(out, "empty command");
		return;
	}
	for (size_t i = 0; i < sizeof(gbnet_cmds) / sizeof(gbnet_cmds[0]); i++) {
		if (!strcmp(argv[0], gbnet_cmds[i].name)) {
			gbnet_cmds[i].run(gbnet_of(sim), argc, argv, out);
			return;
		}
	}
	gbsim_ctl_fail(out, "unknown command '%s' (status, list, add, remove, allow, reload)",
		       argv[0]);
}

static void gbnet_ctl_usage(FILE *out)
{
	fprintf(out,
"Usage: gbnet ctl [-s PATH] [-w SECONDS] COMMAND [ARGS...]\n"
"Drive a running gbnet through its control socket (gbnet --ctl PATH).\n"
"\n"
"  -s PATH      the socket (default: $%s, else %s)\n"
"  -w SECONDS   wait up to SECONDS for the socket to accept\n"
"  -V, --version  the version, as the tool's own --version\n"
"\n"
"Commands:\n"
"  status                 SVC state, nodes known and up\n"
"  list                   one line per node: state, interface id, address,\n"
"                         bytes and messages each way, connects, errors;\n"
"                         then one per bundle: functions, state (bound,\n"
"                         held by policy, unbound, gone)\n"
"  add HOST[:PORT]        a node more (port 4242 by default)\n"
"  remove HOST[:PORT]|IFID\n"
"  allow HOST[:PORT]|IFID [FUNCTION...]\n"
"                         let the node use FUNCTIONs (gpio, uart, hid, ...;\n"
"                         all without) from now on: held bundles bind\n"
"  reload                 read the config file again, as SIGHUP does\n"
"\n"
"Exit status: 0 done, 1 the command failed, 2 usage error or no socket.\n"
"See docs/gbnet.md.\n", GBNET_CTL_ENV, GBNET_CTL_DEFAULT);
}

int gbnet_ctl_main(int argc, char **argv)
{
	static const struct gbsim_ctl_client_info who = {
		.prog	= GBNET_NAME,
		.env	= GBNET_CTL_ENV,
		.default_path = GBNET_CTL_DEFAULT,
		.usage	= gbnet_ctl_usage,
	};

	return gbsim_ctl_client(&who, argc, argv);
}
