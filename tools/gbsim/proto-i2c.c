// SPDX-License-Identifier: GPL-2.0
/*
 * The I2C protocol (0x03), module side: one bus with two devices, a
 * 256-byte EEPROM (24c02-like) at 7-bit address 0x50 and a 16-byte
 * scratchpad at 10-bit address 0x1a5 (the bus advertises
 * I2C_FUNC_10BIT_ADDR).  A write message sets the device's address
 * pointer from its first byte and stores the rest from there; a read
 * message returns bytes from the pointer on.  Both advance the pointer,
 * wrapping at the device's size.  A transfer that names any other
 * address (a 10-bit 0x050 is not the EEPROM) is answered
 * GB_OP_NONEXISTENT (the address was NAKed) and changes nothing.
 *
 * EEPROM contents at start: "gbsim-eeprom\n" followed by bytes 0x0d,
 * 0x0e, ... (byte i = i & 0xff), so a reader can tell offsets apart; the
 * scratchpad starts as zeros.
 *
 * GBSIM_I2C="functionality=N" replaces the functionality answer (e.g.
 * without I2C_FUNC_10BIT_ADDR); the bus itself stays as it is.
 *
 * Every transfer is logged, one line per message (" ten-bit" after the
 * address for a 10-bit one):
 *   i2c: addr=0x50 write len=2 off=0x10 / i2c: addr=0x1a5 ten-bit read len=4 off=0x00
 */
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/i2c.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_I2C_EEPROM_ADDR	0x50
#define GBSIM_I2C_EEPROM_SIZE	256
#define GBSIM_I2C_SCRATCH_ADDR	0x1a5	/* 10-bit */
#define GBSIM_I2C_SCRATCH_SIZE	16
#define GBSIM_I2C_MAX_OPS	64

/*
 * I2C_FUNC_I2C | I2C_FUNC_10BIT_ADDR | I2C_FUNC_SMBUS_EMUL, as Linux
 * numbers them
 */
#define GBSIM_I2C_FUNCTIONALITY	0x0eff000bu
#define GBSIM_I2C_ENV		"GBSIM_I2C"

static uint32_t gbsim_i2c_functionality = GBSIM_I2C_FUNCTIONALITY;
static bool gbsim_i2c_knobs_read;

static const char gbsim_i2c_banner[] = "gbsim-eeprom\n";

struct gbsim_i2c_dev {
	uint16_t	addr;
	bool		ten;		/* a 10-bit address */
	size_t		size;		/* a power of two, up to 256 */
	uint8_t		*mem;
	uint8_t		ptr;
};

/* One bus for the whole simulator: it survives a module re-insert */
static uint8_t gbsim_eeprom_mem[GBSIM_I2C_EEPROM_SIZE];
static uint8_t gbsim_scratch_mem[GBSIM_I2C_SCRATCH_SIZE];
static struct gbsim_i2c_dev gbsim_i2c_devs[] = {
	{ GBSIM_I2C_EEPROM_ADDR, false, GBSIM_I2C_EEPROM_SIZE,
	  gbsim_eeprom_mem, 0 },
	{ GBSIM_I2C_SCRATCH_ADDR, true, GBSIM_I2C_SCRATCH_SIZE,
	  gbsim_scratch_mem, 0 },
};
static bool gbsim_i2c_ready;

static void gbsim_i2c_eeprom_init(void)
{
	size_t i;

	if (gbsim_i2c_ready)
		return;
	for (i = 0; i < GBSIM_I2C_EEPROM_SIZE; i++)
		gbsim_eeprom_mem[i] = (uint8_t)i;
	memcpy(gbsim_eeprom_mem, gbsim_i2c_banner, sizeof(gbsim_i2c_banner) - 1);
	gbsim_i2c_ready = true;
}

static struct gbsim_i2c_dev *gbsim_i2c_find(uint16_t addr, uint16_t flags)
{
	bool ten = flags & GB_I2C_M_TEN;
	size_t i;

	for (i = 0; i < sizeof(gbsim_i2c_devs) / sizeof(gbsim_i2c_devs[0]); i++) {
		if (gbsim_i2c_devs[i].addr == addr && gbsim_i2c_devs[i].ten == ten)
			return &gbsim_i2c_devs[i];
	}
	return NULL;
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

		if (!gbsim_i2c_find(addr, flags)) {
			if (flags & GB_I2C_M_TEN)
				gbsim_log_info("i2c: addr=0x%03x ten-bit nak", addr);
			else
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
		uint16_t addr = gbsim_get_le16(ops + i * opsz);
		uint16_t flags = gbsim_get_le16(ops + i * opsz + 2);
		uint16_t size = gbsim_get_le16(ops + i * opsz + 4);
		struct gbsim_i2c_dev *dev = gbsim_i2c_find(addr, flags);
		const uint8_t *w = op->req + wpos;
		size_t mask = dev->size - 1;
		char name[24];

		snprintf(name, sizeof(name), dev->ten ? "0x%03x ten-bit" : "0x%02x",
			 dev->addr);
		if (flags & GB_I2C_M_RD) {
			gbsim_log_info("i2c: addr=%s read len=%u off=0x%02x",
				       name, size, dev->ptr);
			for (j = 0; j < size; j++) {
				op->rsp[rpos++] = dev->mem[dev->ptr];
				dev->ptr = (uint8_t)((dev->ptr + 1) & mask);
			}
			continue;
		}
		if (size)
			dev->ptr = (uint8_t)(w[0] & mask);
		gbsim_log_info("i2c: addr=%s write len=%u off=0x%02x",
			       name, size, dev->ptr);
		if (size > 1) {
			if (dev->ten)
				gbsim_log_info("i2c: 0x%03x[0x%02x]=0x%02x",
					       dev->addr, dev->ptr, w[1]);
			else
				gbsim_log_info("i2c: eeprom[0x%02x]=0x%02x",
					       dev->ptr, w[1]);
		}
		for (j = 1; j < size; j++) {
			dev->mem[dev->ptr] = w[j];
			dev->ptr = (uint8_t)((dev->ptr + 1) & mask);
		}
		wpos += size;
	}
	op->rsp_len = rlen;
	return GB_OP_SUCCESS;

bad:
	gbsim_log_error("cport %u: i2c.transfer id=0x%04x: malformed request (%zu bytes)",
			op->hd_cport, op->id, op->req_len);
	return GB_OP_INVALID;
}

/* The one KEY=VALUE of GBSIM_I2C; false if not it */
static bool gbsim_i2c_knob(const char *tok)
{
	uint64_t v;

	if (!gbsim_knob_num(tok, "functionality", 0xffffffff, &v))
		return false;
	gbsim_i2c_functionality = (uint32_t)v;
	return true;
}

static uint32_t gbsim_i2c_get_functionality(void)
{
	gbsim_knobs_from_env(GBSIM_I2C_ENV, gbsim_i2c_knob,
			     &gbsim_i2c_knobs_read);
	return gbsim_i2c_functionality;
}

static int gbsim_i2c_request(struct gbsim_op *op)
{
	switch (op->type) {
	case GB_I2C_TYPE_FUNCTIONALITY:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		gbsim_put_le32(op->rsp, gbsim_i2c_get_functionality());
		op->rsp_len = 4;
		return GB_OP_SUCCESS;
	case GB_I2C_TYPE_TRANSFER:
		return gbsim_i2c_transfer(op);
	default:
		return GB_OP_PROTOCOL_BAD;
	}
}

static struct gbsim_proto gbsim_proto_i2c = {
	.id		= GREYBUS_PROTOCOL_I2C,
	.name		= "i2c",
	.request	= gbsim_i2c_request,
};
GBSIM_PROTO_REGISTER(gbsim_proto_i2c);
