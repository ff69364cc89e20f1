// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of protocol models.  Models register from constructors,
 * before main() runs, so the list is complete and read-only afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

static struct gbsim_proto *gbsim_protos;

void gbsim_proto_register(struct gbsim_proto *proto)
{
	struct gbsim_proto *p;

	for (p = gbsim_protos; p; p = p->next) {
		if (p->id == proto->id) {
			/* two files claim one protocol: a build mistake */
			fprintf(stderr, "gbsim: protocol 0x%02x: models '%s' and '%s' both registered\n",
				proto->id, p->name, proto->name);
			return;
		}
	}
	proto->next = gbsim_protos;
	gbsim_protos = proto;
}

const struct gbsim_proto *gbsim_proto_find(uint8_t id)
{
	const struct gbsim_proto *p;

	for (p = gbsim_protos; p; p = p->next)
		if (p->id == id)
			return p;
	return NULL;
}

const struct gbsim_proto *gbsim_proto_get(uint8_t id)
{
	const struct gbsim_proto *p = gbsim_proto_find(id);

	return p ? p : &gbsim_proto_default;
}

bool gbsim_op_len_is(const struct gbsim_op *op, size_t n)
{
	char name[64];

	if (op->req_len == n)
		return true;
	gb_op_fullname(op->conn ? op->conn->protocol : GREYBUS_PROTOCOL_SVC,
			  op->type, name, sizeof(name));
	gbsim_log_error("cport %u: %s id=0x%04x: payload of %zu bytes, expected %zu",
			op->hd_cport, name, op->id, op->req_len, n);
	return false;
}

bool gbsim_op_rsp_fits(const struct gbsim_op *op, size_t n)
{
	char name[64];

	if (n <= op->rsp_max)
		return true;
	gb_op_fullname(op->conn ? op->conn->protocol : GREYBUS_PROTOCOL_SVC,
			  op->type, name, sizeof(name));
	gbsim_log_error("cport %u: %s id=0x%04x: response of %zu bytes exceeds the MTU",
			op->hd_cport, name, op->id, n);
	return false;
}

char *gbsim_proto_settings(const char *env)
{
	const char *val = getenv(env);
	char buf[1024];
	size_t n;
	FILE *f;

	if (!val || val[0] != '@')
		return val ? strdup(val) : NULL;
	f = fopen(val + 1, "r");
	if (!f) {
		gbsim_log_warn("%s: %s: %s", env, val + 1, strerror(errno));
		return NULL;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return strdup(buf);
}
