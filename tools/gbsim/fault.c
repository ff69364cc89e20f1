// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection through the control socket: `fault add` describes which
 * messages to catch (interface, protocol, operation type, direction) and
 * what to do to them (drop, delay, answer with a result, answer short,
 * answer long, answer twice, answer late), once, N times or for good.
 *
 * All faults live behind one hook (operation.c's seam), tried in the
 * order they were added; the first live one that matches acts.  Spent
 * faults stay listed (remaining=0) so that their hits can be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gb_msg.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"

#define GBSIM_FAULT_MS_MAX	600000
#define GBSIM_FAULT_COUNT_MAX	1000000
#define GBSIM_FAULT_MAX		256
#define GBSIM_FAULT_LONG_MAX	256	/* bytes a long answer gains */

#define GBSIM_FAULT_ANY		(-1)
#define GBSIM_FAULT_SVC		(-2)	/* intf=svc: bridge CPort 0 */
#define GBSIM_FAULT_STICKY	(-1L)

enum gbsim_fault_action {
	GBSIM_FAULT_DROP,
	GBSIM_FAULT_DELAY,
	GBSIM_FAULT_RESULT,
	GBSIM_FAULT_SHORT,
	GBSIM_FAULT_TWICE,
	GBSIM_FAULT_LATE,
	GBSIM_FAULT_LONG,
};

static const char *const gbsim_fault_action_names[] = {
	[GBSIM_FAULT_DROP]	= "drop",
	[GBSIM_FAULT_DELAY]	= "delay",
	[GBSIM_FAULT_RESULT]	= "result",
	[GBSIM_FAULT_SHORT]	= "short",
	[GBSIM_FAULT_TWICE]	= "twice",
	[GBSIM_FAULT_LATE]	= "late",
	[GBSIM_FAULT_LONG]	= "long",
};

struct gbsim_fault {
	unsigned int	id;
	int		intf;		/* id, ANY or SVC */
	int		proto;		/* id or ANY */
	int		type;		/* id or ANY */
	bool		send;		/* dir=send, else dir=req */
	enum gbsim_fault_action action;
	unsigned int	arg;		/* ms, result or bytes */
	long		remaining;	/* STICKY: never runs out */
	unsigned long	hits;
	struct gbsim_fault *next;
};

struct gbsim_faults {
	struct gbsim_hook hook;
	struct gbsim_fault *list;	/* in the order added */
	unsigned int	next_id;
	unsigned int	count;
};

static bool gbsim_fault_match(struct gbsim *sim, const struct gbsim_fault *f,
			      const struct gbsim_hook_msg *m)
{
	uint8_t type;

	if (!f->remaining || m->len < sizeof(struct gb_operation_msg_hdr))
		return false;
	type = m->msg[4] & GB_MSG_TYPE_MASK;
	if (f->type != GBSIM_FAULT_ANY && f->type != type)
		return false;
	if (f->proto != GBSIM_FAULT_ANY && f->proto != m->protocol)
		return false;
	if (f->intf == GBSIM_FAULT_SVC)
		return m->hd_cport == GB_SVC_CPORT_ID;
	if (f->intf == GBSIM_FAULT_ANY)
		return true;
	if (m->hd_cport == GB_SVC_CPORT_ID)
		return gbsim_svc_msg_intf(sim, m->msg, m->len) == f->intf;
	return m->has_intf && m->intf_id == f->intf;
}

static void gbsim_fault_action_str(const struct gbsim_fault *f, char *buf,
				   size_t len)
{
	const char *name = gbsim_fault_action_names[f->action];
	const char *r;

	switch (f->action) {
	case GBSIM_FAULT_DELAY:
	case GBSIM_FAULT_LATE:
	case GBSIM_FAULT_SHORT:
	case GBSIM_FAULT_LONG:
		snprintf(buf, len, "%s=%u", name, f->arg);
		break;
	case GBSIM_FAULT_RESULT:
		r = gbsim_result_name((uint8_t)f->arg);
		if (r)
			snprintf(buf, len, "result=%s", r);
		else
			snprintf(buf, len, "result=0x%02x", f->arg);
		break;
	default:
		snprintf(buf, len, "%s", name);
	}
}

/* The first live fault for this message, its hit counted and logged */
static struct gbsim_fault *gbsim_fault_find(struct gbsim *sim,
					    struct gbsim_faults *fs,
					    const struct gbsim_hook_msg *m,
					    bool send)
{
	char name[96], action[32];
	struct gbsim_fault *f;

	for (f = fs->list; f; f = f->next) {
		if (f->send == send && gbsim_fault_match(sim, f, m))
			break;
	}
	if (!f)
		return NULL;
	f->hits++;
	if (f->remaining > 0)
		f->remaining--;
	gb_op_fullname(m->protocol, m->msg[4], name, sizeof(name));
	gbsim_fault_action_str(f, action, sizeof(action));
	gbsim_log_info("fault %u: %s on cport %u %s %s id=0x%04x", f->id,
		       action, m->hd_cport, name,
		       m->msg[4] & GB_MSG_TYPE_RESPONSE ? "rsp" : "req",
		       gbsim_get_le16(m->msg + 2));
	return f;
}

static enum gbsim_hook_action gbsim_fault_request(struct gbsim_hook *hook,
						  struct gbsim *sim,
						  struct gbsim_hook_msg *m)
{
	struct gbsim_fault *f = gbsim_fault_find(sim, hook->priv, m, false);

	if (!f)
		return GBSIM_HOOK_PASS;
	switch (f->action) {
	case GBSIM_FAULT_DROP:
		return GBSIM_HOOK_DROP;
	case GBSIM_FAULT_DELAY:
	case GBSIM_FAULT_LATE:
		m->delay_ms += f->arg;
		return GBSIM_HOOK_DELAY;
	case GBSIM_FAULT_RESULT:
		m->result = (uint8_t)f->arg;
		return GBSIM_HOOK_ANSWER;
	case GBSIM_FAULT_SHORT:
		m->short_len = (int)f->arg;
		return GBSIM_HOOK_PASS;
	case GBSIM_FAULT_LONG:
		m->extra_len = f->arg;
		return GBSIM_HOOK_PASS;
	case GBSIM_FAULT_TWICE:
		m->copies = 2;
		return GBSIM_HOOK_PASS;
	}
	return GBSIM_HOOK_PASS;
}

static enum gbsim_hook_action gbsim_fault_send(struct gbsim_hook *hook,
					       struct gbsim *sim,
					       struct gbsim_hook_msg *m)
{
	const size_t hlen = sizeof(struct gb_operation_msg_hdr);
	struct gbsim_fault *f = gbsim_fault_find(sim, hook->priv, m, true);

	if (!f)
		return GBSIM_HOOK_PASS;
	switch (f->action) {
	case GBSIM_FAULT_DROP:
		return GBSIM_HOOK_DROP;
	case GBSIM_FAULT_DELAY:
	case GBSIM_FAULT_LATE:
		m->delay_ms += f->arg;
		return GBSIM_HOOK_DELAY;
	case GBSIM_FAULT_RESULT:
		m->msg[5] = (uint8_t)f->arg;
		/* an answer with that result, and (like any error) no payload */
		if (m->msg[4] & GB_MSG_TYPE_RESPONSE)
			m->len = hlen;
		break;
	case GBSIM_FAULT_SHORT:
		if (m->len > hlen + f->arg)
			m->len = hlen + f->arg;
		break;
	case GBSIM_FAULT_TWICE:
		m->copies = 2;
		return GBSIM_HOOK_PASS;
	case GBSIM_FAULT_LONG:
		/* refused by fault add: a sent message cannot grow */
		return GBSIM_HOOK_PASS;
	}
	gbsim_put_le16(m->msg, (uint16_t)m->len);
	return GBSIM_HOOK_PASS;
}

static struct gbsim_faults *gbsim_faults_get(struct gbsim *sim)
{
	struct gbsim_faults *fs = sim->faults;

	if (fs)
		return fs;
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return NULL;
	fs->hook.name = "fault";
	fs->hook.request = gbsim_fault_request;
	fs->hook.send = gbsim_fault_send;
	fs->hook.priv = fs;
	fs->next_id = 1;
	gbsim_hook_add(sim, &fs->hook);
	sim->faults = fs;
	return fs;
}

void gbsim_faults_fini(struct gbsim *sim)
{
	struct gbsim_faults *fs = sim->faults;
	struct gbsim_fault *f;

	if (!fs)
		return;
	gbsim_hook_del(sim, &fs->hook);
	while ((f = fs->list)) {
		fs->list = f->next;
		free(f);
	}
	free(fs);
	sim->faults = NULL;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */

static int gbsim_fault_num(struct gbsim_ctl_out *out, const char *key,
			   const char *val, uint64_t min, uint64_t max,
			   unsigned int *v)
{
	uint64_t x;

	if (gbsim_parse_uint(val, max, &x) || x < min)
		return gbsim_ctl_fail(out, "bad %s '%s' (%llu..%llu)", key, val,
				      (unsigned long long)min,
				      (unsigned long long)max);
	*v = (unsigned int)x;
	return 0;
}

/* One ACTION word; 1 if it is not an action at all */
static int gbsim_fault_parse_action(struct gbsim_ctl_out *out,
				    struct gbsim_fault *f, const char *w)
{
	const char *eq = strchr(w, '='), *val = eq ? eq + 1 : NULL;
	size_t klen = eq ? (size_t)(eq - w) : strlen(w);
	int r;

	for (size_t a = 0; a < sizeof(gbsim_fault_action_names) /
			       sizeof(gbsim_fault_action_names[0]); a++) {
		const char *name = gbsim_fault_action_names[a];

		if (strlen(name) != klen || strncmp(w, name, klen))
			continue;
		f->action = (enum gbsim_fault_action)a;
		switch (f->action) {
		case GBSIM_FAULT_DROP:
		case GBSIM_FAULT_TWICE:
			if (val)
				return gbsim_ctl_fail(out, "%s takes no value", name);
			return 0;
		case GBSIM_FAULT_DELAY:
		case GBSIM_FAULT_LATE:
			if (!val)
				return gbsim_ctl_fail(out, "%s=MS wanted", name);
			return gbsim_fault_num(out, name, val, 0,
					       GBSIM_FAULT_MS_MAX, &f->arg);
		case GBSIM_FAULT_SHORT:
			if (!val)
				return gbsim_ctl_fail(out, "short=N wanted");
			return gbsim_fault_num(out, name, val, 0,
					       GB_OPERATION_MSG_SIZE_MAX, &f->arg);
		case GBSIM_FAULT_LONG:
			if (!val)
				return gbsim_ctl_fail(out, "long=N wanted");
			return gbsim_fault_num(out, name, val, 1,
					       GBSIM_FAULT_LONG_MAX, &f->arg);
		case GBSIM_FAULT_RESULT:
			if (!val)
				return gbsim_ctl_fail(out, "result=NAME|N wanted");
			r = gb_result_from_name(val);
			if (r >= 0) {
				f->arg = (unsigned int)r;
				return 0;
			}
			return gbsim_fault_num(out, "result", val, 0, 0xff,
					       &f->arg);
		}
	}
	return 1;
}

static int gbsim_fault_add(struct gbsim *sim, int argc, char **argv,
			   struct gbsim_ctl_out *out)
{
	struct gbsim_fault nf = {
		.intf = GBSIM_FAULT_ANY, .proto = GBSIM_FAULT_ANY,
		.type = GBSIM_FAULT_ANY, .remaining = 1,
	};
	const char *type_name = NULL;
	struct gbsim_faults *fs;
	struct gbsim_fault *f, **pp;
	bool have_action = false;
	unsigned int v = 0;
	uint8_t type;
	int ret;

	for (int i = 2; i < argc; i++) {
		const char *w = argv[i];

		if (!strncmp(w, "intf=", 5)) {
			if (!strcmp(w + 5, "svc"))
				nf.intf = GBSIM_FAULT_SVC;
			else if (gbsim_fault_num(out, "interface", w + 5, 0,
						 GBSIM_INTF_MAX - 1, &v))
				return -1;
			else
				nf.intf = (int)v;
		} else if (!strncmp(w, "proto=", 6)) {
			nf.proto = gbsim_ctl_protocol(w + 6);
			if (nf.proto < 0)
				return gbsim_ctl_fail(out, "unknown protocol '%s'", w + 6);
		} else if (!strncmp(w, "type=", 5)) {
			type_name = w + 5;
		} else if (!strcmp(w, "dir=req")) {
			nf.send = false;
		} else if (!strcmp(w, "dir=send")) {
			nf.send = true;
		} else if (!strcmp(w, "once")) {
			nf.remaining = 1;
		} else if (!strcmp(w, "sticky")) {
			nf.remaining = GBSIM_FAULT_STICKY;
		} else if (!strncmp(w, "count=", 6)) {
			if (gbsim_fault_num(out, "count", w + 6, 1,
					    GBSIM_FAULT_COUNT_MAX, &v))
				return -1;
			nf.remaining = v;
		} else {
			ret = gbsim_fault_parse_action(out, &nf, w);
			if (ret < 0)
				return -1;
			if (ret > 0)
				return gbsim_ctl_fail(out, "'%s' is neither a match, an action nor a count",
						      w);
			if (have_action)
				return gbsim_ctl_fail(out, "one action per fault");
			have_action = true;
		}
	}
	if (!have_action)
		return gbsim_ctl_fail(out, "no action: drop, delay=MS, result=R, short=N, long=N, twice or late=MS");
	if (nf.action == GBSIM_FAULT_LONG && nf.send)
		return gbsim_ctl_fail(out, "long=N works on answers only (dir=req)");
	if (type_name) {
		ret = gbsim_ctl_op_type(type_name, &nf.proto, &type);
		if (ret == -EXDEV)
			return gbsim_ctl_fail(out, "type '%s' is not of the protocol given",
					      type_name);
		if (ret)
			return gbsim_ctl_fail(out, "unknown operation type '%s'%s",
					      type_name, nf.proto < 0 && !strchr(type_name, '.') ?
					      " (give proto= or PROTOCOL.OPERATION)" : "");
		nf.type = type;
	}

	fs = gbsim_faults_get(sim);
	if (!fs)
		return gbsim_ctl_fail(out, "out of memory");
	if (fs->count >= GBSIM_FAULT_MAX)
		return gbsim_ctl_fail(out, "%u faults already: fault del or fault clear first",
				      fs->count);
	f = malloc(sizeof(*f));
	if (!f)
		return gbsim_ctl_fail(out, "out of memory");
	*f = nf;
	f->id = fs->next_id++;
	for (pp = &fs->list; *pp; pp = &(*pp)->next)
		;
	*pp = f;
	fs->count++;
	gbsim_ctl_printf(out, "fault %u\n", f->id);
	return 0;
}

static void gbsim_fault_print(const struct gbsim_fault *f,
			      struct gbsim_ctl_out *out)
{
	char name[96], action[32];

	gbsim_ctl_printf(out, "fault %u", f->id);
	if (f->intf == GBSIM_FAULT_SVC)
		gbsim_ctl_printf(out, " intf=svc");
	else if (f->intf == GBSIM_FAULT_ANY)
		gbsim_ctl_printf(out, " intf=any");
	else
		gbsim_ctl_printf(out, " intf=%d", f->intf);
	if (f->proto == GBSIM_FAULT_ANY) {
		gbsim_ctl_printf(out, " proto=any");
	} else {
		gb_op_fullname((uint8_t)f->proto, 0, name, sizeof(name));
		gbsim_ctl_printf(out, " proto=%.*s", (int)strcspn(name, "."), name);
	}
	if (f->type == GBSIM_FAULT_ANY) {
		gbsim_ctl_printf(out, " type=any");
	} else if (f->proto == GBSIM_FAULT_ANY) {
		gbsim_ctl_printf(out, " type=0x%02x", f->type);
	} else {
		gb_op_fullname((uint8_t)f->proto, (uint8_t)f->type, name,
				  sizeof(name));
		gbsim_ctl_printf(out, " type=%s", strchr(name, '.') + 1);
	}
	gbsim_fault_action_str(f, action, sizeof(action));
	gbsim_ctl_printf(out, " dir=%s %s", f->send ? "send" : "req", action);
	if (f->remaining == GBSIM_FAULT_STICKY)
		gbsim_ctl_printf(out, " remaining=sticky");
	else
		gbsim_ctl_printf(out, " remaining=%ld", f->remaining);
	gbsim_ctl_printf(out, " hits=%lu\n", f->hits);
}

int gbsim_fault_cmd(struct gbsim *sim, int argc, char **argv,
		    struct gbsim_ctl_out *out)
{
	struct gbsim_faults *fs = sim->faults;
	struct gbsim_fault *f, **pp;
	const char *sub = argc >= 2 ? argv[1] : "";
	unsigned int id = 0;

	if (!strcmp(argv[0], "faults") || !strcmp(sub, "list")) {
		if (argc != (strcmp(argv[0], "faults") ? 2 : 1))
			return gbsim_ctl_fail(out, "usage: fault list");
		for (f = fs ? fs->list : NULL; f; f = f->next)
			gbsim_fault_print(f, out);
		return 0;
	}
	if (!strcmp(sub, "add"))
		return gbsim_fault_add(sim, argc, argv, out);
	if (!strcmp(sub, "clear")) {
		if (argc != 2)
			return gbsim_ctl_fail(out, "usage: fault clear");
		while (fs && (f = fs->list)) {
			fs->list = f->next;
			free(f);
		}
		if (fs)
			fs->count = 0;
		return 0;
	}
	if (!strcmp(sub, "del")) {
		if (argc != 3)
			return gbsim_ctl_fail(out, "usage: fault del N");
		if (gbsim_fault_num(out, "fault id", argv[2], 1, UINT32_MAX, &id))
			return -1;
		for (pp = fs ? &fs->list : NULL; pp && *pp; pp = &(*pp)->next) {
			if ((*pp)->id == id) {
				f = *pp;
				*pp = f->next;
				free(f);
				fs->count--;
				return 0;
			}
		}
		return gbsim_ctl_fail(out, "no fault %u", id);
	}
	return gbsim_ctl_fail(out, "usage: fault add|list|del N|clear ...");
}
