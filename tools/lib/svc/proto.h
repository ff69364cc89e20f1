/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Protocol models: the module-side behaviour of one Greybus protocol.
 *
 * Each model lives in its own file (proto-NAME.c) and registers itself at
 * program start with GBSIM_PROTO_REGISTER(); nothing else needs to know
 * it exists.  The dispatcher (conn.c) hands a model every request the AP
 * sends on a connection whose interface CPort declares that protocol in
 * its manifest.  Requests for a protocol with no model go to the default
 * model (proto-stub.c), which refuses them.
 *
 * A model never sees CPort Shutdown (type 0x00): the core answers it for
 * every connection.  It does see every other type, unknown ones included,
 * and answers those it does not know with GB_OP_PROTOCOL_BAD.
 */
#ifndef GBSIM_PROTO_H
#define GBSIM_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gbsim.h"
#include "log.h"

struct gbsim_proto {
	uint8_t		id;		/* GREYBUS_PROTOCOL_* */
	const char	*name;		/* short, lower case: the log uses it */

	/*
	 * A request from the AP.  Write the response payload into
	 * op->rsp (op->rsp_max bytes at most), set op->rsp_len, and return
	 * a GB_OP_* result; the core sends the response (its payload only
	 * with GB_OP_SUCCESS).  Return GBSIM_NO_RESPONSE to send nothing
	 * (unidirectional requests, or answers sent later with
	 * gbsim_send_response()).  NULL: every request is refused.
	 */
	int	(*request)(struct gbsim_op *op);

	/* Optional: a connection to a CPort of this protocol comes/goes */
	int	(*conn_init)(struct gbsim_conn *conn);
	void	(*conn_fini)(struct gbsim_conn *conn);

	/* Names and fields in the log: decode/gb_decode.h */

	struct gbsim_proto *next;	/* registry link, set by the core */
};

void gbsim_proto_register(struct gbsim_proto *proto);
/* The model of a protocol, or NULL */
const struct gbsim_proto *gbsim_proto_find(uint8_t id);
/* The model of a protocol, or the default one */
const struct gbsim_proto *gbsim_proto_get(uint8_t id);

/* The default model registers itself here (proto-stub.c) */
extern struct gbsim_proto gbsim_proto_default;

#define GBSIM_PROTO_REGISTER(p)						\
	static void __attribute__((constructor))			\
	gbsim_proto_register_##p(void)					\
	{								\
		gbsim_proto_register(&(p));				\
	}

/* Helpers for request handlers */

/* Payload exactly n bytes long?  Logs and says no otherwise */
bool gbsim_op_len_is(const struct gbsim_op *op, size_t n);
/* Room for an n-byte response?  (always, unless the MTU is tiny) */
bool gbsim_op_rsp_fits(const struct gbsim_op *op, size_t n);

/*
 * A model's settings from the environment variable env: its value, or
 * with "@FILE" the first line of FILE, read anew at each call (so a case
 * can change them between two modules).  NULL if unset; free() it.
 */
char *gbsim_proto_settings(const char *env);

#endif /* GBSIM_PROTO_H */
