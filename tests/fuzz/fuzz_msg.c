// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: operation messages as they arrive from the other end.
 *
 * Input: one byte choosing the protocol (0xff: none known), then the
 * message bytes.  They go through tools/lib/gb_msg.c's header parser and
 * name tables, and through gbsim's message log, which decodes payloads
 * with every protocol model's describe() (tests/fuzz/run links gbsim's
 * objects, all but main.c).  Asserted: the parser applies the framing
 * rule the kernel applies (greybus_data_rcvd: size >= header, size <=
 * bytes received), a parsed header rebuilds to the same bytes, and every
 * name maps back to its number.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_msg.h"
#include "../../tools/lib/svc/log.h"

#include "fuzz.h"

#define HDR_LEN	sizeof(struct gb_operation_msg_hdr)

static void fuzz_names(uint8_t protocol, uint8_t type, uint8_t result)
{
	const char *name;

	name = gb_op_name(protocol, type);
	FUZZ_ASSERT(name);
	if (name != gb_name_unknown)
		FUZZ_ASSERT(gb_op_type_from_name(protocol, name) ==
			    (type & GB_MSG_TYPE_MASK));
	name = gb_result_name(result);
	FUZZ_ASSERT(name);
	if (name != gb_name_unknown)
		FUZZ_ASSERT(gb_result_from_name(name) == result);
	name = gb_protocol_name(protocol);
	if (name != gb_name_unknown)
		FUZZ_ASSERT(gb_protocol_from_name(name) == protocol);
	name = gb_class_name(protocol);
	if (name != gb_name_unknown)
		FUZZ_ASSERT(gb_class_from_name(name) == protocol);
	FUZZ_ASSERT(gb_result_to_errno(result) <= 0);
	/* Every errno Linux can receive maps back to a result */
	FUZZ_ASSERT(gb_result_to_errno(gb_errno_to_result(
			gb_result_to_errno(result))) ==
		    gb_result_to_errno(result));
}

static void fuzz_parse(const uint8_t *msg, size_t len)
{
	struct gb_msg_info info;
	enum gb_msg_error err;
	uint8_t again[HDR_LEN + 16];
	size_t size;
	ssize_t n;

	err = gb_msg_parse(msg, len, &info);
	FUZZ_ASSERT(gb_msg_strerror(err) != gb_name_unknown);
	if (len < HDR_LEN) {
		FUZZ_ASSERT(err == GB_MSG_SHORT);
		return;
	}
	size = (size_t)msg[0] | (size_t)msg[1] << 8;
	FUZZ_ASSERT((err == GB_MSG_OK) == (size >= HDR_LEN && size <= len));
	if (err != GB_MSG_OK)
		return;

	FUZZ_ASSERT(info.size == size);
	FUZZ_ASSERT(info.payload == msg + HDR_LEN);
	FUZZ_ASSERT(info.payload_len == size - HDR_LEN);
	FUZZ_ASSERT(info.response == !!(msg[4] & GB_MSG_TYPE_RESPONSE));

	/* Rebuild the header (pad bytes are always written as zero) */
	if (info.response)
		n = gb_msg_build_response(again, sizeof(again),
					  info.operation_id, info.type,
					  info.result, info.payload,
					  info.payload_len < 16 ?
					  info.payload_len : 16);
	else
		n = gb_msg_build_request(again, sizeof(again),
					 info.operation_id, info.type,
					 info.payload,
					 info.payload_len < 16 ?
					 info.payload_len : 16);
	FUZZ_ASSERT(n >= (ssize_t)HDR_LEN);
	FUZZ_ASSERT(!memcmp(again + 2, msg + 2, 2));
	FUZZ_ASSERT(again[4] == msg[4]);
	FUZZ_ASSERT(again[5] == (info.response ? msg[5] : 0));
	FUZZ_ASSERT(!again[6] && !again[7]);
	FUZZ_ASSERT(!memcmp(again + HDR_LEN, msg + HDR_LEN, (size_t)n - HDR_LEN));
	/* A build that cannot fit must refuse, not overflow */
	FUZZ_ASSERT(gb_msg_build_request(again, HDR_LEN - 1, 0, 0, NULL, 0) ==
		    -EMSGSIZE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *msg;
	size_t len;
	int protocol;

	if (!size)
		return 0;
	protocol = data[0] == 0xff ? -1 : data[0];
	len = size - 1;
	/* An exact-size copy, so ASan sees any read past the message */
	msg = malloc(len ? len : 1);
	if (!msg)
		return 0;
	memcpy(msg, data + 1, len);

	fuzz_parse(msg, len);
	if (len >= HDR_LEN)
		fuzz_names(protocol < 0 ? 0 : (uint8_t)protocol, msg[4],
			   msg[5]);
	for (int dir = GBSIM_AP_TO_SVC; dir <= GBSIM_MOD_TO_AP; dir++)
		gbsim_log_msg(dir, 1, dir & 1 ? 1 : -1, 1, protocol, msg, len,
			      dir == GBSIM_MOD_TO_AP ? "fuzz" : NULL);
	/*
	 * Empty the log's in-memory ring, so each input frees what it
	 * allocated and libFuzzer's per-input leak check stays meaningful.
	 */
	gbsim_log_close();

	free(msg);
	return 0;
}
