// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket's commands (docs/gbsim.md, "Control socket"): the
 * words of one request in, text or an error message out.  Every input is
 * a stranger's: each word is checked before it is used, and a bad one
 * ends the command with a message, never with a half-done change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "gb_hex.h"
#include "gbsim.h"
#include "log.h"

#define GBSIM_CTL_COUNT_MAX	100000

static const char *const gbsim_svc_state_names[] = {
	[GBSIM_SVC_DOWN]	= "down",
	[GBSIM_SVC_VERSION]	= "version",
	[GBSIM_SVC_HELLO]	= "hello",
	[GBSIM_SVC_READY]	= "ready",
	[GBSIM_SVC_FAILED]	= "failed",
};

/* "key=value" with this key?  Then *val is the value */
static bool gbsim_ctl_key(const char *word, const char *key, const char **val)
{
	size_t n = strlen(key);

	if (strncmp(word, key, n) || word[n] != '=')
		return false;
	*val = word + n + 1;
	return true;
}

static int gbsim_ctl_uint(struct gbsim_ctl_out *out, const char *what,
			  const char *s, uint64_t min, uint64_t max,
			  uint64_t *v)
{
	if (gbsim_parse_uint(s, max, v) || *v < min)
		return gbsim_ctl_fail(out, "bad %s '%s' (%llu..%llu)", what, s,
				      (unsigned long long)min,
				      (unsigned long long)max);
	return 0;
}

/* The module whose primary interface is word */
static struct gbsim_module *gbsim_ctl_module(struct gbsim *sim,
					     const char *word,
					     struct gbsim_ctl_out *out)
{
	struct gbsim_intf *intf;
	uint64_t id;

	if (gbsim_ctl_uint(out, "interface id", word, 0, GBSIM_INTF_MAX - 1,
			   &id))
		return NULL;
	if (sim->modules[id])
		return sim->modules[id];
	intf = sim->intfs[id];
	if (intf)
		gbsim_ctl_fail(out, "interface %u belongs to module %u: give the primary interface id",
			       (unsigned int)id, intf->module->id);
	else
		gbsim_ctl_fail(out, "no module at interface %u", (unsigned int)id);
	return NULL;
}

/* Hex digits, blanks and colons allowed between bytes, into buf */
static int gbsim_ctl_hex(struct gbsim_ctl_out *out, char **words, int n,
			 uint8_t *buf, size_t max, size_t *len)
{
	struct gb_hex h;
	ssize_t ret = 0;

	gb_hex_start(&h, buf, max);
	for (int i = 0; i < n && !ret; i++) {
		ret = gb_hex_add(&h, words[i], " :\t");
		if (ret == GB_HEX_BAD_DIGIT)
			return gbsim_ctl_fail(out, "'%s' is not hex bytes",
					      words[i]);
	}
	if (ret == GB_HEX_TOO_LONG)
		return gbsim_ctl_fail(out, "more than %zu bytes", max);
	ret = gb_hex_finish(&h);
	if (ret < 0)
		return gbsim_ctl_fail(out, "odd number of hex digits");
	*len = (size_t)ret;
	return 0;
}

int gbsim_ctl_set_knobs(struct gbsim_ctl_out *out, int argc, char **argv,
			const char *name, const char *keys,
			bool (*set)(const char *tok))
{
	if (argc < 3 || strcmp(argv[1], "set"))
		return gbsim_ctl_fail(out, "usage: %s set KEY=VALUE... | %s set defaults",
				      name, name);
	for (int i = 2; i < argc; i++)
		if (!set(argv[i]))
			return gbsim_ctl_fail(out, "bad %s setting '%.32s' (%s)",
					      name, argv[i], keys);
	return 0;
}

/* A protocol by name ("control", "test", "proto_0x42") or number */
int gbsim_ctl_protocol(const char *name)
{
	char buf[96];
	uint64_t v;

	if (!gbsim_parse_uint(name, 0xff, &v))
		return (int)v;
	for (int p = 0; p < 256; p++) {
		size_t n;

		gb_op_fullname((uint8_t)p, 0, buf, sizeof(buf));
		n = strcspn(buf, ".");
		if (strlen(name) == n && !strncmp(buf, name, n))
			return p;
	}
	return -1;
}

int gbsim_ctl_op_type(const char *name, int *protocol, uint8_t *type)
{
	const char *dot = strchr(name, '.'), *op = name;
	char buf[96];
	uint64_t v;

	if (!gbsim_parse_uint(name, 0x7f, &v)) {
		*type = (uint8_t)v;
		return 0;
	}
	if (dot) {
		char pname[64];
		int p;

		if ((size_t)(dot - name) >= sizeof(pname))
			return -EINVAL;
		memcpy(pname, name, (size_t)(dot - name));
		pname[dot - name] = '\0';
		p = gbsim_ctl_protocol(pname);
		if (p < 0)
			return -ENOENT;
		if (*protocol >= 0 && *protocol != p)
			return -EXDEV;
		*protocol = p;
		op = dot + 1;
	}
	if (*protocol < 0)
		return -ENOENT;
	for (int t = 0; t < 0x80; t++) {
		gb_op_fullname((uint8_t)*protocol, (uint8_t)t, buf,
				  sizeof(buf));
		if (!strcmp(strchr(buf, '.') + 1, op)) {
			*type = (uint8_t)t;
			return 0;
		}
	}
	return -ENOENT;
}

/* ------------------------------------------------------------------ */

static int gbsim_cmd_status(struct gbsim *sim, int argc, char **argv,
			    struct gbsim_ctl_out *out)
{
	unsigned int n = 0;

	(void)argv;
	if (argc != 1)
		return gbsim_ctl_fail(out, "usage: status");
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++)
		n += sim->modules[id] != NULL;
	gbsim_ctl_printf(out, "svc=%s bus=%u modules=%u\n",
			 gbsim_svc_state_names[sim->svc_state], sim->bus_id, n);
	return 0;
}

static int gbsim_cmd_insert(struct gbsim *sim, int argc, char **argv,
			    struct gbsim_ctl_out *out)
{
	struct gbsim_module_cfg *mc;
	struct gbsim_module *m;
	char err[512];

	if (argc < 3)
		return gbsim_ctl_fail(out, "usage: insert IFID MANIFEST [KEY=VALUE...]");
	mc = gbsim_module_cfg_build(NULL, argv[1], argv[2], argv + 3,
				    (size_t)argc - 3, err, sizeof(err));
	if (!mc)
		return gbsim_ctl_fail(out, "%s", err);
	m = gbsim_module_create(mc, err, sizeof(err));
	gbsim_module_cfg_free(mc);
	if (!m)
		return gbsim_ctl_fail(out, "%s", err);
	if (gbsim_module_insert(sim, m, err, sizeof(err))) {
		gbsim_module_destroy(m);
		return gbsim_ctl_fail(out, "%s", err);
	}
	return 0;
}

static int gbsim_cmd_remove(struct gbsim *sim, int argc, char **argv,
			    struct gbsim_ctl_out *out)
{
	bool eject = !strcmp(argv[0], "eject");
	struct gbsim_module *m;

	if (argc != 2)
		return gbsim_ctl_fail(out, "usage: %s IFID", argv[0]);
	m = gbsim_ctl_module(sim, argv[1], out);
	if (!m)
		return -1;
	if (eject)
		gbsim_log_info("svc: ejecting module %u", m->id);
	gbsim_module_remove(sim, m->id, eject ? "ejected" : "unplugged");
	return 0;
}

static int gbsim_cmd_list(struct gbsim *sim, int argc, char **argv,
			  struct gbsim_ctl_out *out)
{
	(void)argv;
	if (argc != 1)
		return gbsim_ctl_fail(out, "usage: list");
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		struct gbsim_module *m = sim->modules[id];

		if (!m)
			continue;
		gbsim_ctl_printf(out, "module %u intfs=%u state=%s manifest=%s%s\n",
				 m->id, m->num_intfs,
				 gbsim_module_state_name(m->state),
				 m->manifest_path, m->raw ? " raw=1" : "");
		for (unsigned int i = 0; i < m->num_intfs; i++) {
			struct gbsim_intf *intf = m->intfs[i];

			gbsim_ctl_printf(out, "  intf %u active=%d device_id=%u vid=0x%08x pid=0x%08x\n",
					 intf->id, intf->active,
					 sim->device_ids[intf->id], intf->vid,
					 intf->pid);
		}
	}
	return 0;
}

static int gbsim_cmd_log(struct gbsim *sim, int argc, char **argv,
			 struct gbsim_ctl_out *out)
{
	size_t n = gbsim_log_kept();

	(void)sim;
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-f")))
		return gbsim_ctl_fail(out, "usage: log [-f]");
	for (size_t i = 0; i < n; i++)
		gbsim_ctl_printf(out, "%s", gbsim_log_kept_line(i));
	out->follow = argc == 2;
	return 0;
}

/* Words after the first `skip` that are not KEY=VALUE: the hex bytes */
static int gbsim_ctl_split_kv(char **argv, int argc, int skip,
			      struct gbsim_ctl_out *out, uint64_t *count,
			      int64_t *id)
{
	int n = skip;
	const char *v;
	uint64_t x;

	for (int i = skip; i < argc; i++) {
		if (gbsim_ctl_key(argv[i], "count", &v)) {
			if (gbsim_ctl_uint(out, "count", v, 1,
					   GBSIM_CTL_COUNT_MAX, count))
				return -1;
		} else if (id && gbsim_ctl_key(argv[i], "id", &v)) {
			if (gbsim_ctl_uint(out, "operation id", v, 0, UINT16_MAX,
					   &x))
				return -1;
			*id = (int64_t)x;
		} else if (strchr(argv[i], '=')) {
			return gbsim_ctl_fail(out, "unknown key in '%s'", argv[i]);
		} else {
			argv[n++] = argv[i];
		}
	}
	return n;
}

static int gbsim_cmd_send(struct gbsim *sim, int argc, char **argv,
			  struct gbsim_ctl_out *out)
{
	static uint8_t msg[GB_OPERATION_MSG_SIZE_MAX];
	uint64_t cport, count = 1;
	size_t len;
	int n, ret;

	if (argc < 3)
		return gbsim_ctl_fail(out, "usage: send CPORT HEX [count=N]");
	if (gbsim_ctl_uint(out, "cport", argv[1], 0, UINT16_MAX, &cport))
		return -1;
	n = gbsim_ctl_split_kv(argv, argc, 2, out, &count, NULL);
	if (n < 0)
		return -1;
	if (n == 2)
		return gbsim_ctl_fail(out, "usage: send CPORT HEX [count=N]");
	if (gbsim_ctl_hex(out, argv + 2, n - 2, msg, sizeof(msg), &len))
		return -1;
	if (!sim->host_created)
		return gbsim_ctl_fail(out, "no host device yet");
	for (uint64_t i = 0; i < count; i++) {
		ret = gbsim_inject(sim, (uint16_t)cport, msg, len);
		if (ret)
			return gbsim_ctl_fail(out, "message %llu of %llu: %s",
					      (unsigned long long)i + 1,
					      (unsigned long long)count,
					      strerror(-ret));
	}
	return 0;
}

/* "I:C" (a connection to interface I's CPort C) or "svc" / "I:svc" */
int gbsim_ctl_target(struct gbsim *sim, const char *word,
			    struct gbsim_ctl_out *out, uint16_t *hd_cport,
			    int *protocol)
{
	const char *colon = strchr(word, ':');
	char ifid[16];
	uint64_t intf, cport;

	if (!strcmp(word, "svc") || (colon && !strcmp(colon + 1, "svc"))) {
		*hd_cport = GB_SVC_CPORT_ID;
		*protocol = GREYBUS_PROTOCOL_SVC;
		return 0;
	}
	if (!colon || (size_t)(colon - word) >= sizeof(ifid))
		return gbsim_ctl_fail(out, "'%s' is not IFID:CPORT or svc", word);
	memcpy(ifid, word, (size_t)(colon - word));
	ifid[colon - word] = '\0';
	if (gbsim_ctl_uint(out, "interface id", ifid, 0, GBSIM_INTF_MAX - 1,
			   &intf) ||
	    gbsim_ctl_uint(out, "interface cport", colon + 1, 0,
			   GB_CPORT_ID_MAX, &cport))
		return -1;
	for (unsigned int i = 1; i < sim->num_cports; i++) {
		struct gbsim_conn *c = sim->conns[i];

		if (c && c->intf_id == intf && c->intf_cport == cport &&
		    !gbsim_conn_stale(sim, c)) {
			*hd_cport = c->hd_cport;
			*protocol = c->protocol;
			return 0;
		}
	}
	return gbsim_ctl_fail(out, "no connection to interface %u cport %u",
			      (unsigned int)intf, (unsigned int)cport);
}

static int gbsim_cmd_request(struct gbsim *sim, int argc, char **argv,
			     struct gbsim_ctl_out *out)
{
	static uint8_t payload[GB_OPERATION_MSG_SIZE_MAX];
	uint64_t count = 1;
	int64_t id = -1;
	uint16_t hd_cport = 0;
	int protocol = -1, n, ret;
	uint8_t type;
	size_t len;

	if (argc < 3)
		return gbsim_ctl_fail(out, "usage: request IFID:CPORT|svc TYPE [HEX] [count=N] [id=N]");
	if (gbsim_ctl_target(sim, argv[1], out, &hd_cport, &protocol))
		return -1;
	ret = gbsim_ctl_op_type(argv[2], &protocol, &type);
	if (ret == -EXDEV)
		return gbsim_ctl_fail(out, "'%s' is not an operation of the connection's protocol",
				      argv[2]);
	if (ret)
		return gbsim_ctl_fail(out, "unknown operation type '%s'", argv[2]);
	n = gbsim_ctl_split_kv(argv, argc, 3, out, &count, &id);
	if (n < 0 || gbsim_ctl_hex(out, argv + 3, n - 3, payload,
				   sim->mtu - sizeof(struct gb_operation_msg_hdr),
				   &len))
		return -1;
	if (!sim->host_created)
		return gbsim_ctl_fail(out, "no host device yet");
	for (uint64_t i = 0; i < count; i++) {
		ret = gbsim_send_request_id(sim, hd_cport, type, (int)id, payload,
					    len, GBSIM_REQUEST_TIMEOUT_MS, NULL,
					    NULL);
		if (ret < 0)
			return gbsim_ctl_fail(out, "request %llu of %llu: %s",
					      (unsigned long long)i + 1,
					      (unsigned long long)count,
					      strerror(-ret));
		gbsim_ctl_printf(out, "id=0x%04x\n", (unsigned int)ret);
	}
	return 0;
}

static int gbsim_cmd_help(struct gbsim *sim, int argc, char **argv,
			  struct gbsim_ctl_out *out);

/*
 * Every command, once: the socket's dispatch, its `help` and the usage of
 * `gbsim ctl -h` (ctl-usage.c) all read this table.
 */
static const struct gbsim_ctl_cmd {
	const char *name;
	const char *usage;
	const char *hint;	/* a second line of -h's list, or NULL */
	bool logged;	/* changes something: say so in the log */
	int (*run)(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out);
} gbsim_ctl_cmds[] = {
	{ "status", "status", NULL, false, gbsim_cmd_status },
	{ "list", "list", NULL, false, gbsim_cmd_list },
	{ "insert", "insert IFID MANIFEST [KEY=VALUE...]", "(keys as --module, and raw)", true, gbsim_cmd_insert },
	{ "remove", "remove IFID", NULL, true, gbsim_cmd_remove },
	{ "eject", "eject IFID", NULL, true, gbsim_cmd_remove },
	{ "log", "log [-f]", NULL, false, gbsim_cmd_log },
	{ "send", "send CPORT HEX [count=N]", NULL, true, gbsim_cmd_send },
	{ "request", "request IFID:CPORT|svc TYPE [HEX] [count=N] [id=N]", NULL, true,
	  gbsim_cmd_request },
	{ "fault", "fault add [intf=N|svc] [proto=P] [type=T] [dir=req|send] ACTION [once|count=N|sticky]", "ACTION: drop, delay=MS, result=R, short=N, long=N, twice, late=MS",
	  true, gbsim_fault_cmd },
	{ "faults", "faults | fault list | fault del N | fault clear", NULL, false,
	  gbsim_fault_cmd },
	{ "pm", "pm IFID [BUNDLE] [refuse|accept|refuse-resume|accept-resume]", NULL, true, gbsim_cmd_pm },
	{ "timesync", "timesync [drop N|late US|fail-auth N|ping-delay MS]", NULL, true,
	  gbsim_cmd_timesync },
	{ "hid", "hid type IFID:CPORT STRING... | hid press IFID:CPORT MODS:USAGE[+USAGE]... | hid show IFID:CPORT | hid set KEY=VALUE...", NULL, true,
	  gbsim_cmd_hid },
	{ "gpio", "gpio IFID:CPORT LINE 0|1", NULL, true, gbsim_cmd_gpio },
	{ "authorize", "authorize IFID BUNDLE 0|1 | authorize default 0|1", NULL, true,
	  gbsim_cmd_authorize },
	{ "psy", "psy set KEY=VALUE... | psy set defaults", NULL, true, gbsim_cmd_psy },
	{ "lights", "lights set KEY=VALUE... | lights set defaults", NULL, true,
	  gbsim_cmd_lights },
	{ "spi", "spi set KEY=VALUE... | spi set defaults", NULL, true, gbsim_cmd_spi },
	{ "sdio", "sdio IFID:CPORT insert|remove|wp 0|1|status | sdio set KEY=VALUE...", NULL,
	  true, gbsim_cmd_sdio },
	{ "es2", "es2 set arpc_silent=N | es2 set defaults", NULL, true, gbsim_cmd_es2 },
	{ "hdlc", "hdlc [flip [N]|drop [N]|deaf [N]|split [on|off]|hold [on|off]|garbage [N]|noise|oversize|truncated|badsize|badcport|address|debug [TEXT]|reset|stall [N]|boot|rom [bootloader|reset|fault CMD KIND]]", NULL,
	  true, gbsim_cmd_hdlc },
	{ "fuzz", "fuzz start [seed=N] [count=N] [rate=PCT] [interval=MS] [burst=N] [intf=N] [svc] | fuzz stop | fuzz [status]", NULL,
	  true, gbsim_cmd_fuzz },
	{ "tcp", "tcp [IFID cut|half-header|long-size|over-mtu|bad-cport|close|stall|resume|flood N]", "(--node only: break the TCP stream)", true,
	  gbsim_cmd_tcp },
	{ "help", "help", NULL, false, gbsim_cmd_help },
};

static int gbsim_cmd_help(struct gbsim *sim, int argc, char **argv,
			  struct gbsim_ctl_out *out)
{
	(void)sim;
	(void)argc;
	(void)argv;
	for (size_t i = 0; i < sizeof(gbsim_ctl_cmds) / sizeof(gbsim_ctl_cmds[0]); i++)
		gbsim_ctl_printf(out, "%s\n", gbsim_ctl_cmds[i].usage);
	return 0;
}

void gbsim_ctl_print_commands(FILE *out)
{
	for (size_t i = 0; i < sizeof(gbsim_ctl_cmds) / sizeof(gbsim_ctl_cmds[0]); i++) {
		fprintf(out, "  %s\n", gbsim_ctl_cmds[i].usage);
		if (gbsim_ctl_cmds[i].hint)
			fprintf(out, "        %s\n", gbsim_ctl_cmds[i].hint);
	}
}

/* The command as one line for the log (long ones cut) */
static void gbsim_ctl_log_cmd(int argc, char **argv)
{
	char line[512];
	struct gb_buf b = { .p = line, .max = sizeof(line) };

	line[0] = '\0';
	for (int i = 0; i < argc; i++)
		gb_buf_printf(&b, "%s%s", i ? " " : "", argv[i]);
	gbsim_log_info("ctl: %s", line);
}

void gbsim_ctl_run(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out)
{
	for (size_t i = 0; i < sizeof(gbsim_ctl_cmds) / sizeof(gbsim_ctl_cmds[0]); i++) {
		const struct gbsim_ctl_cmd *cmd = &gbsim_ctl_cmds[i];

		if (strcmp(argv[0], cmd->name))
			continue;
		if (cmd->logged)
			gbsim_ctl_log_cmd(argc, argv);
		if (cmd->run(sim, argc, argv, out) && !out->failed)
			gbsim_ctl_fail(out, "%s failed", argv[0]);
		if (out->failed && cmd->logged)
			gbsim_log_info("ctl: %s: %.*s", argv[0], (int)out->len,
				       out->p ? out->p : "");
		return;
	}
	gbsim_ctl_fail(out, "unknown command '%.64s' (try 'help')", argv[0]);
}
