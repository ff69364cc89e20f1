// SPDX-License-Identifier: GPL-2.0
/*
 * The I2C protocol (0x03), module side: one bus with a 256-byte EEPROM
 * (24c02-like) at address 0x50.  A write message sets the EEPROM's
 * address pointer from its first byte and stores the rest from there; a
 * read message returns bytes from the pointer on.  Both advance the
 * pointer, wrapping at 256.  A transfer that names any other address is
 * answered GB_OP_NONEXISTENT (the address was NAKed) and changes nothing.
 *
 * Initial contents: "gbsim-eeprom\n" followed by bytes 0x0d, 0x0e, ...
 * (byte i = i & 0xff), so a reader can tell offsets apart.
 *
 * Every transfer is logged, one line per message:
 *   i2c: addr=0x50 write len=2 off=0x10 / i2c: addr=0x50 read len=16 off=0x00
 */
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/i2c.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_I2C_EEPROM_ADDR	0x50
#define GBSIM_I2C_EEPROM_SIZE	256
#define GBSIM_I2C_MAX_OPS	64

/* I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL, as Linux numbers them */
#define GBSIM_I2C_FUNCTIONALITY	0x0eff0009u

static const char gbsim_i2c_banner[] = "gbsim-eeprom\n";

/* One EEPROM for the whole simulator: it survives a module re-insert */
static struct {
	uint8_t	mem[GBSIM_I2C_EEPROM_SIZE];
	uint8_t	ptr;
	bool	ready;
} gbsim_eeprom;

static void gbsim_i2c_eeprom_init(void)
{
	size_t i;

	if (gbsim_eeprom.ready)
		return;
	for (i = 0; i < GBSIM_I2C_EEPROM_SIZE; i++)
		gbsim_eeprom.mem[i] = (uint8_t)i;
	memcpy(gbsim_eeprom.mem, gbsim_i2c_banner, sizeof(gbsim_i2c_banner) - 1);
	gbsim_eeprom.ready = true;
}

static int gbsim_i2c_transfer(struct gbsim_op *op)
{
	const size_t hdr = sizeof(struct gb_i2c_transfer_request);
	const size_t opsz = sizeof(struct gb_i2c_transfer_op);
	size_t count, i, wlen = 0, rlen = 0, wpos, rpos = 0, j;
	const uint8_t *ops;

	if (op->req_len < hdr)
		goto bad;
	count = gbsim_get_le16(op->req);
	if (!count || count > GBSIM_I2C_MAX_OPS || op->req_len < hdr + count * opsz)
		goto bad;
	ops = op->req + hdr;

	/* Check sizes and addresses before touching anything */
	for (i = 0; i < count; i++) {
		uint16_t addr = gbsim_get_le16(ops + i * opsz);
		uint16_t flags = gbsim_get_le16(ops + i * opsz + 2);
		uint16_t size = gbsim_get_le16(ops + i * opsz + 4);

		if (addr != GBSIM_I2C_EEPROM_ADDR || (flags & GB_I2C_M_TEN)) {
			gbsim_log_info("i2c: addr=0x%02x nak", addr);
			return GB_OP_NONEXISTENT;
		}
		if (flags & GB_I2C_M_RD)
			rlen += size;
		else
			wlen += size;
	}
	if (op->req_len != hdr + count * opsz + wlen)
		goto bad;
	if (!gbsim_op_rsp_fits(op, rlen))
		return GB_OP_OVERFLOW;

	gbsim_i2c_eeprom_init();
	wpos = hdr + count * opsz;
	for (i = 0; i < count; i++) {
		uint16_t flags = gbsim_get_le16(ops + i * opsz + 2);
		uint16_t size = gbsim_get_le16(ops + i * opsz + 4);
		const uint8_t *w = op->req + wpos;

		if (flags & GB_I2C_M_RD) {
			gbsim_log_info("i2c: addr=0x%02x read len=%u off=0x%02x",
				       GBSIM_I2C_EEPROM_ADDR, size,
				       gbsim_eeprom.ptr);
			for (j = 0; j < size; j++)
				op->rsp[rpos++] = gbsim_eeprom.mem[gbsim_eeprom.ptr++];
			continue;
		}
		if (size)
			gbsim_eeprom.ptr = w[0];
		gbsim_log_info("i2c: addr=0x%02x write len=%u off=0x%02x",
			       GBSIM_I2C_EEPROM_ADDR, size, gbsim_eeprom.ptr);
		for (j = 1; j < size; j++)
			gbsim_eeprom.mem[gbsim_eeprom.ptr++] = w[j];
		if (size > 1)
			gbsim_log_info("i2c: eeprom[0x%02x]=0x%02x",
				       (uint8_t)(w[0]), w[1]);
		wpos += size;
	}
	op->rsp_len = rlen;
	return GB_OP_SUCCESS;

bad:
	gbsim_log_error("cport %u: i2c.transfer id=0x%04x: malformed request (%zu bytes)",
			op->hd_cport, op->id, op->req_len);
	return GB_OP_INVALID;
}

static int gbsim_i2c_request(struct gbsim_op *op)
{
	switch (op->type) {
	case GB_I2C_TYPE_FUNCTIONALITY:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		gbsim_put_le32(op->rsp, GBSIM_I2C_FUNCTIONALITY);
		op->rsp_len = 4;
		return GB_OP_SUCCESS;
	case GB_I2C_TYPE_TRANSFER:
		return gbsim_i2c_transfer(op);
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

static const char *gbsim_i2c_op_name(uint8_t type)
{
	switch (type) {
	case GB_I2C_TYPE_FUNCTIONALITY:
		return "functionality";
	case GB_I2C_TYPE_TRANSFER:
		return "transfer";
	default:
		return NULL;
	}
}

static struct gbsim_proto gbsim_proto_i2c = {
	.id		= GREYBUS_PROTOCOL_I2C,
	.name		= "i2c",
	.request	= gbsim_i2c_request,
	.op_name	= gbsim_i2c_op_name,
};
GBSIM_PROTO_REGISTER(gbsim_proto_i2c);
