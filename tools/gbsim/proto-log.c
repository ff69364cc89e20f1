// SPDX-License-Identifier: GPL-2.0
/*
 * The Log protocol (0x1a), module side: a log source.  The AP never
 * sends requests on it; the module's SEND_LOG requests come from
 * `gbsim ctl request IFID:CPORT log.send_log HEX` (le16 length, then the
 * text), so a case decides what the module says, malformed or not.
 */
#include <uapi/greybus/log.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

static struct gbsim_proto gbsim_proto_log = {
	.id		= GREYBUS_PROTOCOL_LOG,
	.name		= "log",
};
GBSIM_PROTO_REGISTER(gbsim_proto_log);
