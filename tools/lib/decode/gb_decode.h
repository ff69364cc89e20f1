/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Protocol decoders: the names of every protocol's operations and the key
 * fields of its messages, as " name=value" pairs.  gbsim's message log and
 * gbmon print messages with them, so both name things alike.  One file
 * per protocol (decode/PROTOCOL.c); the registry is decode.c.
 *
 * Every decoder reads untrusted bytes: it checks the length before each
 * read and prints nothing for what it cannot decode.
 */
#ifndef GB_DECODE_H
#define GB_DECODE_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A bounded string builder: output past the end is cut, never overflows */
struct gb_buf {
	char	*p;
	size_t	len;
	size_t	max;
};

void gb_buf_printf(struct gb_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Little-endian access to unaligned wire bytes */
static inline uint16_t gb_get_le16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t gb_get_le32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

struct gb_decoder {
	uint8_t		id;		/* GREYBUS_PROTOCOL_* */
	const char	*name;		/* short, lower case */
	/* Name of an operation type (response bit clear), or NULL */
	const char	*(*op_name)(uint8_t type);
	/*
	 * Key fields of a message's payload, each " name=value"; @type has
	 * its response bit clear.  Not called for error responses.
	 */
	void		(*describe)(uint8_t type, bool response,
				    const uint8_t *payload, size_t len,
				    struct gb_buf *out);
};

/* The decoder of a protocol, or NULL */
const struct gb_decoder *gb_decoder_find(uint8_t protocol);
/* "svc.intf_vsys_enable", "control.type_0x42"... into buf */
void gb_op_fullname(uint8_t protocol, uint8_t type, char *buf, size_t len);
/*
 * The key fields of one message's payload (@type as on the wire), for
 * every operation including CPort Shutdown; nothing for error responses.
 * @protocol < 0: unknown, nothing printed.
 */
void gb_decode_payload(struct gb_buf *out, int protocol, uint8_t type,
		       uint8_t result, const uint8_t *payload, size_t len);

#endif /* GB_DECODE_H */
