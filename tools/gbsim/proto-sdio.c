// SPDX-License-Identifier: GPL-2.0
/*
 * The SDIO protocol (0x07), module side: an SD host controller with an
 * SDHC memory card in its slot, its contents in memory (lost with the
 * connection).  The card answers the SD initialisation sequence (CMD0,
 * CMD8, ACMD41, CMD2, CMD3, CMD9, CMD7, ACMD51, CMD6, ACMD13, ACMD6),
 * single- and multi-block reads and writes (CMD17/18, CMD24/25, CMD12),
 * status (CMD13), erase (CMD32/33/38) and ACMD22; any other command gets
 * no response (GB_OP_TIMEOUT), as from a real card, so the AP's SDIO and
 * MMC probes fail and it takes the card for SD.
 *
 * Knobs (GBSIM_SDIO="KEY=N,...", or `gbsim ctl sdio set KEY=N...`; read
 * when a connection is made): size_mb (card size, MiB), caps, ocr, f_min,
 * f_max, max_blk_count, max_blk_size (the capabilities answer, as is),
 * erase_us (the time an erase takes per block, default 2 us) and lie: 1
 * answers a read with one block fewer than asked, 2 with another block
 * size, 3 a write with more blocks than were sent.
 *
 * An erase (CMD38) keeps the card busy in the programming state for
 * erase_us per block, as long as the card's declared timeout allows (no
 * erase timeout in its status: 250 ms a block for the host).  With the
 * busy flag the answer comes when the erase is done, as from a host
 * controller that waits out the busy signal; without it at once, and
 * SEND_STATUS says "programming" until the time has passed.
 *
 * `gbsim ctl sdio IFID:CPORT insert|remove|wp 0|1|status` moves the card
 * and its write-protect switch; each change sends EVENT.  A card pulled
 * with a data command open ends it: the next TRANSFER gets no response.
 * Command timeouts, CRC errors (result=malfunction) and short data come
 * from the fault command.  Lines:
 *
 *   INFO    sdio cport 7: card 64 MiB inserted wp=0
 *   INFO    sdio cport 7: cmd 25 arg 0x00000800: write 8 blocks of 512
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/sdio.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "proto.h"

#define GBSIM_SDIO_ENV		"GBSIM_SDIO"
#define GBSIM_SDIO_BLK		512
#define GBSIM_SDIO_RCA		0xb368
#define GBSIM_SDIO_SIZE_MAX	4096	/* MiB */

/* Card states (R1 bits 12:9) */
enum {
	SD_IDLE, SD_READY, SD_IDENT, SD_STBY, SD_TRAN, SD_DATA, SD_RCV,
	SD_PRG, SD_DIS,
};

/* R1 card status bits */
#define R1_OUT_OF_RANGE		(1U << 31)
#define R1_ADDRESS_ERROR	(1U << 30)
#define R1_ILLEGAL_COMMAND	(1U << 22)
#define R1_READY_FOR_DATA	(1U << 8)
#define R1_APP_CMD		(1U << 5)

/* OCR bits of ACMD41 */
#define OCR_BUSY_DONE		(1U << 31)
#define OCR_CCS			(1U << 30)
#define OCR_VOLTAGES		0x00ff8000	/* 2.7-3.6 V */

struct gbsim_sdio_knobs {
	uint64_t	size_mb;
	uint32_t	caps, ocr, f_min, f_max;
	uint16_t	max_blk_count, max_blk_size;
	unsigned int	lie;
	unsigned int	erase_us;	/* per block */
};

#define GBSIM_SDIO_KNOBS_DEFAULT {					\
	.size_mb = 64, .caps = GB_SDIO_CAP_4_BIT_DATA,			\
	.ocr = 0x0001ff00, .f_min = 400000, .f_max = 25000000,		\
	.max_blk_count = 1024, .max_blk_size = 512, .erase_us = 2,	\
}

static struct gbsim_sdio_knobs gbsim_sdio_knobs = GBSIM_SDIO_KNOBS_DEFAULT;
static bool gbsim_sdio_knobs_read;

/* What the open data command moves */
enum gbsim_sdio_data {
	DATA_NONE,
	DATA_READ,	/* card blocks to the AP */
	DATA_WRITE,	/* AP blocks to the card */
	DATA_REG,	/* a register (SCR, status...) to the AP */
};

/* conn->priv: the slot and its card */
struct gbsim_sdio {
	uint8_t		*ram;
	uint64_t	blocks;		/* card size in 512-byte blocks */
	bool		present, wp;
	unsigned int	lie;
	int		state;
	uint16_t	rca;
	bool		app;		/* the previous command was CMD55 */
	uint32_t	erase_start, erase_end;
	uint32_t	last_written;	/* blocks of the last write (ACMD22) */
	/* an erase in progress: SD_PRG until then */
	uint64_t	busy_until_ns;
	/* the answer to a busy CMD38, sent when the erase is done */
	struct gbsim_conn *conn;
	uint64_t	busy_timer;	/* 0: none pending */
	uint16_t	busy_id;
	uint8_t		busy_rsp[sizeof(struct gb_sdio_command_response)];
	/* the open data command */
	enum gbsim_sdio_data data;
	uint8_t		data_cmd;
	uint64_t	addr;		/* next block */
	uint32_t	left;		/* blocks still to move */
	uint16_t	blksz;
	uint8_t		reg[64];	/* DATA_REG contents */
};

static bool gbsim_sdio_knob(const char *tok)
{
	struct gbsim_sdio_knobs *k = &gbsim_sdio_knobs;
	uint64_t v;

	if (!strcmp(tok, "defaults"))
		*k = (struct gbsim_sdio_knobs)GBSIM_SDIO_KNOBS_DEFAULT;
	else if (gbsim_knob_num(tok, "size_mb", GBSIM_SDIO_SIZE_MAX, &v) && v)
		k->size_mb = v;
	else if (gbsim_knob_num(tok, "caps", 0xffffffff, &v))
		k->caps = v;
	else if (gbsim_knob_num(tok, "ocr", 0xffffffff, &v))
		k->ocr = v;
	else if (gbsim_knob_num(tok, "f_min", 0xffffffff, &v))
		k->f_min = v;
	else if (gbsim_knob_num(tok, "f_max", 0xffffffff, &v))
		k->f_max = v;
	else if (gbsim_knob_num(tok, "max_blk_count", 0xffff, &v))
		k->max_blk_count = v;
	else if (gbsim_knob_num(tok, "max_blk_size", 0xffff, &v))
		k->max_blk_size = v;
	else if (gbsim_knob_num(tok, "lie", 3, &v))
		k->lie = v;
	else if (gbsim_knob_num(tok, "erase_us", 1000000, &v))
		k->erase_us = v;
	else
		return false;
	return true;
}

static void gbsim_sdio_read_knobs(void)
{
	gbsim_knobs_from_env(GBSIM_SDIO_ENV, gbsim_sdio_knob,
			     &gbsim_sdio_knobs_read);
}

/* CRC7 of an SD register, as its last byte carries it */
static uint8_t gbsim_sdio_crc7(const uint8_t *p, size_t len)
{
	uint8_t crc = 0;

	for (size_t i = 0; i < len; i++) {
		for (int b = 7; b >= 0; b--) {
			int in = (p[i] >> b) & 1;
			int top = (crc >> 6) & 1;

			crc = (uint8_t)((crc << 1) & 0x7f);
			if (in ^ top)
				crc ^= 0x09;
		}
	}
	return crc;
}

/* Set @width bits of a big-endian register at bit @lsb (bit 0 = last) */
static void gbsim_sdio_bits(uint8_t *reg, size_t len, unsigned int lsb,
			    unsigned int width, uint32_t v)
{
	for (unsigned int i = 0; i < width; i++) {
		unsigned int bit = lsb + i;
		size_t byte = len - 1 - bit / 8;

		if ((v >> i) & 1)
			reg[byte] |= (uint8_t)(1U << (bit % 8));
		else
			reg[byte] &= (uint8_t)~(1U << (bit % 8));
	}
}

static void gbsim_sdio_cid(uint8_t cid[16])
{
	memset(cid, 0, 16);
	cid[0] = 0x47;				/* MID */
	memcpy(cid + 1, "GB", 2);		/* OID */
	memcpy(cid + 3, "GBSIM", 5);		/* PNM */
	cid[8] = 0x10;				/* PRV 1.0 */
	cid[9] = 0x12;				/* PSN, big endian */
	cid[10] = 0x34;
	cid[11] = 0x56;
	cid[12] = 0x78;
	/* MDT: year 2026 (26 since 2000), month 12 */
	gbsim_sdio_bits(cid, 16, 12, 8, 26);
	gbsim_sdio_bits(cid, 16, 8, 4, 12);
	cid[15] = (uint8_t)(gbsim_sdio_crc7(cid, 15) << 1 | 1);
}

/* CSD version 2.0 (SDHC): capacity (C_SIZE + 1) * 512 KiB */
static void gbsim_sdio_csd(const struct gbsim_sdio *s, uint8_t csd[16])
{
	memset(csd, 0, 16);
	gbsim_sdio_bits(csd, 16, 126, 2, 1);	/* CSD_STRUCTURE */
	gbsim_sdio_bits(csd, 16, 112, 8, 0x0e);	/* TAAC */
	gbsim_sdio_bits(csd, 16, 96, 8, 0x32);	/* TRAN_SPEED 25 MHz */
	gbsim_sdio_bits(csd, 16, 84, 12, 0x5b5);	/* CCC 0,2,4,5,7,8,10 */
	gbsim_sdio_bits(csd, 16, 80, 4, 9);	/* READ_BL_LEN 512 */
	gbsim_sdio_bits(csd, 16, 48, 22, (uint32_t)(s->blocks / 1024 - 1));
	gbsim_sdio_bits(csd, 16, 46, 1, 1);	/* ERASE_BLK_EN */
	gbsim_sdio_bits(csd, 16, 39, 7, 0x7f);	/* SECTOR_SIZE */
	gbsim_sdio_bits(csd, 16, 26, 3, 2);	/* R2W_FACTOR */
	gbsim_sdio_bits(csd, 16, 22, 4, 9);	/* WRITE_BL_LEN 512 */
	csd[15] = (uint8_t)(gbsim_sdio_crc7(csd, 15) << 1 | 1);
}

/* A 128-bit register as the four response words, most significant first */
static void gbsim_sdio_put_r2(uint8_t *rsp, const uint8_t reg[16])
{
	for (int w = 0; w < 4; w++) {
		const uint8_t *p = reg + 4 * w;

		gbsim_put_le32(rsp + 4 * w, (uint32_t)p[0] << 24 |
			       (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
	}
}

static uint32_t gbsim_sdio_r1(int state, bool app)
{
	uint32_t r = (uint32_t)state << 9;

	if (state == SD_TRAN || state == SD_STBY)
		r |= R1_READY_FOR_DATA;
	if (app)
		r |= R1_APP_CMD;
	return r;
}

/* Open a register read of @len bytes */
static void gbsim_sdio_open_reg(struct gbsim_sdio *s, uint8_t cmd,
				uint16_t blksz)
{
	s->data = DATA_REG;
	s->data_cmd = cmd;
	s->left = 1;
	s->blksz = blksz;
	s->state = SD_DATA;
}

/* A block read or write of @blocks blocks from block @addr */
static uint32_t gbsim_sdio_open_blocks(struct gbsim_sdio *s, uint8_t cmd,
				       uint32_t addr, uint16_t blocks,
				       uint16_t blksz, bool write,
				       uint16_t hd_cport)
{
	if (blksz != GBSIM_SDIO_BLK || !blocks ||
	    ((cmd == 17 || cmd == 24) && blocks != 1)) {
		gbsim_log_error("sdio cport %u: cmd %u: %u blocks of %u bytes",
				hd_cport, cmd, blocks, blksz);
		return R1_ADDRESS_ERROR;
	}
	if ((uint64_t)addr + blocks > s->blocks) {
		gbsim_log_error("sdio cport %u: cmd %u: blocks %u..%u beyond the card's %llu",
				hd_cport, cmd, addr, addr + blocks - 1,
				(unsigned long long)s->blocks);
		return R1_OUT_OF_RANGE;
	}
	s->data = write ? DATA_WRITE : DATA_READ;
	s->data_cmd = cmd;
	s->addr = addr;
	s->left = blocks;
	s->blksz = blksz;
	s->state = write ? SD_RCV : SD_DATA;
	if (write)
		s->last_written = 0;
	gbsim_log_info("sdio cport %u: cmd %u arg 0x%08x: %s %u blocks of %u",
		       hd_cport, cmd, addr, write ? "write" : "read", blocks,
		       blksz);
	return 0;
}

static void gbsim_sdio_busy_done(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_sdio *s = ctx;
	struct gbsim_conn *conn = s->conn;

	(void)loop;
	s->busy_timer = 0;
	if (s->state == SD_PRG)
		s->state = SD_TRAN;
	if (!s->present) {
		/* pulled while busy: the command's answer never comes */
		gbsim_send_response(conn->sim, conn->hd_cport, s->busy_id,
				    GB_SDIO_TYPE_COMMAND, GB_OP_TIMEOUT, NULL, 0);
		return;
	}
	gbsim_send_response(conn->sim, conn->hd_cport, s->busy_id,
			    GB_SDIO_TYPE_COMMAND, GB_OP_SUCCESS, s->busy_rsp,
			    sizeof(s->busy_rsp));
}

/*
 * The erase just done keeps the card busy for erase_us a block: answered
 * now (R1 @r, SEND_STATUS tells when it ends) or, for a command with the
 * busy flag, once it is over.
 */
static int gbsim_sdio_erase_busy(struct gbsim_op *op, struct gbsim_sdio *s,
				 uint32_t r)
{
	uint64_t n = (uint64_t)s->erase_end - s->erase_start + 1;
	uint64_t us = n * gbsim_sdio_knobs.erase_us;
	unsigned int ms = (unsigned int)((us + 999) / 1000);
	bool busy = op->req[1] & GB_SDIO_RSP_BUSY;

	gbsim_log_info("sdio cport %u: erase blocks %u..%u, busy %u ms%s",
		       op->hd_cport, s->erase_start, s->erase_end, ms,
		       busy ? " before the answer" : "");
	gbsim_put_le32(op->rsp, r);
	if (!ms)
		return GB_OP_SUCCESS;
	s->state = SD_PRG;
	s->busy_until_ns = gbsim_now_ns() + us * 1000;
	if (!busy || op->id == GB_OPERATION_ID_NONE)
		return GB_OP_SUCCESS;

	s->conn = op->conn;
	s->busy_id = op->id;
	memcpy(s->busy_rsp, op->rsp, sizeof(s->busy_rsp));
	s->busy_timer = gbsim_loop_add_timer(op->sim->loop, ms,
					     gbsim_sdio_busy_done, s);
	if (!s->busy_timer)
		return GB_OP_NO_MEMORY;
	return GBSIM_NO_RESPONSE;
}

static int gbsim_sdio_command(struct gbsim_op *op)
{
	struct gbsim_sdio *s = op->conn->priv;
	uint8_t cmd, type;
	uint32_t arg, r = 0;
	uint16_t blocks, blksz;
	bool app;
	uint8_t reg[16];
	int prev;

	if (!gbsim_op_len_is(op, sizeof(struct gb_sdio_command_request)))
		return GB_OP_INVALID;
	if (!gbsim_op_rsp_fits(op, sizeof(struct gb_sdio_command_response)))
		return GB_OP_OVERFLOW;
	cmd = op->req[0];
	type = op->req[2];
	arg = gbsim_get_le32(op->req + 3);
	blocks = gbsim_get_le16(op->req + 7);
	blksz = gbsim_get_le16(op->req + 9);
	if (!s->present)
		return GB_OP_TIMEOUT;	/* an empty slot answers nothing */
	/* every answer has the four words, zero for "no response" */
	memset(op->rsp, 0, sizeof(struct gb_sdio_command_response));
	op->rsp_len = sizeof(struct gb_sdio_command_response);

	app = s->app;
	s->app = false;
	if (s->state == SD_PRG && gbsim_now_ns() >= s->busy_until_ns)
		s->state = SD_TRAN;	/* the erase is over */
	prev = s->state;
	if (type == GB_SDIO_CMD_ADTC && !blocks) {
		gbsim_log_error("sdio cport %u: data command %u without data",
				op->hd_cport, cmd);
		return GB_OP_INVALID;
	}

	if (app) {
		switch (cmd) {
		case 6:		/* SET_BUS_WIDTH */
			r = gbsim_sdio_r1(prev, true);
			goto r1;
		case 13:	/* SD_STATUS */
		case 22:	/* SEND_NUM_WR_BLOCKS */
		case 51:	/* SEND_SCR */
			if (prev != SD_TRAN)
				return GB_OP_TIMEOUT;
			memset(s->reg, 0, sizeof(s->reg));
			if (cmd == 13) {
				s->reg[0] = 0x80;	/* 4-bit bus */
				if (blksz != 64)
					return GB_OP_INVALID;
			} else if (cmd == 22) {
				s->reg[0] = (uint8_t)(s->last_written >> 24);
				s->reg[1] = (uint8_t)(s->last_written >> 16);
				s->reg[2] = (uint8_t)(s->last_written >> 8);
				s->reg[3] = (uint8_t)s->last_written;
				if (blksz != 4)
					return GB_OP_INVALID;
			} else {
				s->reg[0] = 0x02;	/* SCR 0, SD 2.0 */
				s->reg[1] = 0x05;	/* 1- and 4-bit */
				if (blksz != 8)
					return GB_OP_INVALID;
			}
			r = gbsim_sdio_r1(prev, true);
			gbsim_sdio_open_reg(s, cmd, blksz);
			goto r1;
		case 41:	/* SD_SEND_OP_COND */
			if (prev != SD_IDLE && prev != SD_READY)
				return GB_OP_TIMEOUT;
			r = OCR_VOLTAGES;
			if (arg & OCR_VOLTAGES) {
				r |= OCR_BUSY_DONE | OCR_CCS;
				s->state = SD_READY;
			}
			goto r1;
		}
		/* other ACMDs are taken as the plain command */
	}

	switch (cmd) {
	case 0:		/* GO_IDLE_STATE */
		s->state = SD_IDLE;
		s->rca = 0;
		s->data = DATA_NONE;
		return GB_OP_SUCCESS;
	case 8:		/* SEND_IF_COND */
		if (prev != SD_IDLE || ((arg >> 8) & 0xf) != 1)
			return GB_OP_TIMEOUT;
		r = arg & 0xfff;
		goto r1;
	case 55:	/* APP_CMD */
		if (prev != SD_IDLE && (arg >> 16) != s->rca)
			return GB_OP_TIMEOUT;
		s->app = true;
		r = gbsim_sdio_r1(prev, true);
		goto r1;
	case 2:		/* ALL_SEND_CID */
		if (prev != SD_READY)
			return GB_OP_TIMEOUT;
		gbsim_sdio_cid(reg);
		s->state = SD_IDENT;
		break;
	case 3:		/* SEND_RELATIVE_ADDR: R6 */
		if (prev != SD_IDENT && prev != SD_STBY)
			return GB_OP_TIMEOUT;
		s->rca = GBSIM_SDIO_RCA;
		s->state = SD_STBY;
		r = (uint32_t)s->rca << 16 | (uint32_t)prev << 9;
		goto r1;
	case 9:		/* SEND_CSD */
	case 10:	/* SEND_CID */
		if (prev != SD_STBY || (arg >> 16) != s->rca)
			return GB_OP_TIMEOUT;
		if (cmd == 9)
			gbsim_sdio_csd(s, reg);
		else
			gbsim_sdio_cid(reg);
		break;
	case 7:		/* SELECT/DESELECT_CARD */
		if ((arg >> 16) != s->rca) {
			/* deselected: no response */
			if (prev == SD_TRAN)
				s->state = SD_STBY;
			return GB_OP_SUCCESS;
		}
		if (prev != SD_STBY && prev != SD_TRAN)
			return GB_OP_TIMEOUT;
		s->state = SD_TRAN;
		r = gbsim_sdio_r1(prev, false);
		goto r1;
	case 13:	/* SEND_STATUS */
		if ((arg >> 16) != s->rca || prev < SD_STBY)
			return GB_OP_TIMEOUT;
		r = gbsim_sdio_r1(prev, false);
		goto r1;
	case 16:	/* SET_BLOCKLEN: SDHC keeps 512 */
		if (prev != SD_TRAN)
			return GB_OP_TIMEOUT;
		r = gbsim_sdio_r1(prev, false);
		goto r1;
	case 6:		/* SWITCH_FUNC: only function 0, default speed */
		if (prev != SD_TRAN || blksz != 64)
			return GB_OP_TIMEOUT;
		memset(s->reg, 0, sizeof(s->reg));
		s->reg[1] = 100;	/* 100 mA */
		for (int g = 0; g < 6; g++) {
			s->reg[2 + 2 * g] = 0x80;
			s->reg[3 + 2 * g] = 0x01;
		}
		r = gbsim_sdio_r1(prev, false);
		gbsim_sdio_open_reg(s, cmd, blksz);
		goto r1;
	case 17:	/* READ_SINGLE_BLOCK */
	case 18:	/* READ_MULTIPLE_BLOCK */
	case 24:	/* WRITE_BLOCK */
	case 25:	/* WRITE_MULTIPLE_BLOCK */
		if (prev != SD_TRAN)
			return GB_OP_TIMEOUT;
		if ((cmd == 24 || cmd == 25) && s->wp) {
			/* the host should not write a protected card */
			gbsim_log_error("sdio cport %u: cmd %u to a write-protected card",
					op->hd_cport, cmd);
			r = gbsim_sdio_r1(prev, false) | R1_ADDRESS_ERROR;
			goto r1;
		}
		r = gbsim_sdio_r1(prev, false) |
		    gbsim_sdio_open_blocks(s, cmd, arg, blocks, blksz,
					   cmd >= 24, op->hd_cport);
		goto r1;
	case 12:	/* STOP_TRANSMISSION */
		if (prev != SD_DATA && prev != SD_RCV && prev != SD_TRAN)
			return GB_OP_TIMEOUT;
		s->data = DATA_NONE;
		s->state = SD_TRAN;
		r = gbsim_sdio_r1(prev, false);
		goto r1;
	case 32:	/* ERASE_WR_BLK_START */
	case 33:	/* ERASE_WR_BLK_END */
		if (prev != SD_TRAN)
			return GB_OP_TIMEOUT;
		if (cmd == 32)
			s->erase_start = arg;
		else
			s->erase_end = arg;
		r = gbsim_sdio_r1(prev, false);
		goto r1;
	case 38:	/* ERASE */
		if (prev != SD_TRAN)
			return GB_OP_TIMEOUT;
		r = gbsim_sdio_r1(prev, false);
		if (s->erase_end < s->erase_start || s->erase_end >= s->blocks) {
			r |= R1_OUT_OF_RANGE;
			goto r1;
		}
		if (s->wp) {
			r |= R1_ADDRESS_ERROR;
			goto r1;
		}
		memset(s->ram + (uint64_t)s->erase_start * GBSIM_SDIO_BLK, 0,
		       (uint64_t)(s->erase_end - s->erase_start + 1) *
		       GBSIM_SDIO_BLK);
		return gbsim_sdio_erase_busy(op, s, r);
	default:
		/* SDIO (CMD5, CMD52), MMC (CMD1) and the rest: no response */
		return GB_OP_TIMEOUT;
	}

	gbsim_sdio_put_r2(op->rsp, reg);
	return GB_OP_SUCCESS;
r1:
	gbsim_put_le32(op->rsp, r);
	return GB_OP_SUCCESS;
}

static int gbsim_sdio_transfer(struct gbsim_op *op)
{
	const size_t hdr = sizeof(struct gb_sdio_transfer_request);
	struct gbsim_sdio *s = op->conn->priv;
	uint16_t blocks, blksz, rblocks, rblksz;
	bool write;
	size_t len;
	uint8_t *ram;

	if (op->req_len < hdr)
		return GB_OP_INVALID;
	write = op->req[0] & GB_SDIO_DATA_WRITE;
	blocks = gbsim_get_le16(op->req + 1);
	blksz = gbsim_get_le16(op->req + 3);
	len = (size_t)blocks * blksz;
	if (!s->present)
		return GB_OP_TIMEOUT;
	if (s->data == DATA_NONE || write != (s->data == DATA_WRITE) ||
	    (op->req[0] & ~(GB_SDIO_DATA_WRITE | GB_SDIO_DATA_READ)) ||
	    !(op->req[0] & (GB_SDIO_DATA_WRITE | GB_SDIO_DATA_READ)) ||
	    blksz != s->blksz || !blocks || blocks > s->left ||
	    op->req_len != hdr + (write ? len : 0)) {
		gbsim_log_error("sdio cport %u: transfer id=0x%04x: flags 0x%02x %u blocks of %u (%zu bytes) for cmd %u with %u blocks of %u left",
				op->hd_cport, op->id, op->req[0], blocks,
				blksz, op->req_len - hdr, s->data_cmd,
				s->left, s->blksz);
		return GB_OP_INVALID;
	}
	if (!gbsim_op_rsp_fits(op, 4 + (write ? 0 : len)))
		return GB_OP_OVERFLOW;

	rblocks = blocks;
	rblksz = blksz;
	if (s->data == DATA_REG) {
		memcpy(op->rsp + 4, s->reg, len);
	} else {
		ram = s->ram + s->addr * GBSIM_SDIO_BLK;
		if (write) {
			memcpy(ram, op->req + hdr, len);
			s->last_written += blocks;
		} else {
			memcpy(op->rsp + 4, ram, len);
		}
		s->addr += blocks;
	}
	s->left -= blocks;
	if (!s->left) {
		/* a single-block command ends by itself */
		if (s->data_cmd != 18 && s->data_cmd != 25)
			s->state = SD_TRAN;
		s->data = DATA_NONE;
	}
	op->rsp_len = 4 + (write ? 0 : len);

	if (s->lie == 1 && !write && blocks > 1) {
		rblocks = blocks - 1;
		op->rsp_len -= blksz;
	} else if (s->lie == 2 && !write) {
		rblksz = blksz / 2;
	} else if (s->lie == 3 && write) {
		rblocks = blocks + 1;
	}
	gbsim_put_le16(op->rsp, rblocks);
	gbsim_put_le16(op->rsp + 2, rblksz);
	return GB_OP_SUCCESS;
}

static int gbsim_sdio_request(struct gbsim_op *op)
{
	const struct gbsim_sdio_knobs *k = &gbsim_sdio_knobs;
	uint8_t *r = op->rsp;
	char name[96];

	op->rsp_len = 0;
	switch (op->type) {
	case GB_SDIO_TYPE_GET_CAPABILITIES:
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		gbsim_put_le32(r, k->caps);
		gbsim_put_le32(r + 4, k->ocr);
		gbsim_put_le32(r + 8, k->f_min);
		gbsim_put_le32(r + 12, k->f_max);
		gbsim_put_le16(r + 16, k->max_blk_count);
		gbsim_put_le16(r + 18, k->max_blk_size);
		op->rsp_len = sizeof(struct gb_sdio_get_caps_response);
		return GB_OP_SUCCESS;
	case GB_SDIO_TYPE_SET_IOS:
		if (!gbsim_op_len_is(op, sizeof(struct gb_sdio_set_ios_request)))
			return GB_OP_INVALID;
		/* powering the slot off resets the card */
		if (op->req[9] == GB_SDIO_POWER_OFF) {
			struct gbsim_sdio *s = op->conn->priv;

			s->state = SD_IDLE;
			s->rca = 0;
			s->app = false;
			s->data = DATA_NONE;
		}
		return GB_OP_SUCCESS;
	case GB_SDIO_TYPE_COMMAND:
		return gbsim_sdio_command(op);
	case GB_SDIO_TYPE_TRANSFER:
		return gbsim_sdio_transfer(op);
	default:
		gb_op_fullname(GREYBUS_PROTOCOL_SDIO, op->type, name,
				  sizeof(name));
		gbsim_log_warn("cport %u: %s id=0x%04x: unknown sdio operation",
			       op->hd_cport, name, op->id);
		return GB_OP_PROTOCOL_BAD;
	}
}

static int gbsim_sdio_conn_init(struct gbsim_conn *conn)
{
	struct gbsim_sdio *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	gbsim_sdio_read_knobs();
	s->blocks = gbsim_sdio_knobs.size_mb * 2048;
	s->ram = calloc(s->blocks, GBSIM_SDIO_BLK);
	if (!s->ram) {
		free(s);
		return -ENOMEM;
	}
	s->present = true;
	s->lie = gbsim_sdio_knobs.lie;
	conn->priv = s;
	gbsim_log_info("sdio cport %u: card %llu MiB inserted wp=0",
		       conn->hd_cport,
		       (unsigned long long)gbsim_sdio_knobs.size_mb);
	return 0;
}

static void gbsim_sdio_conn_fini(struct gbsim_conn *conn)
{
	struct gbsim_sdio *s = conn->priv;

	if (s && s->busy_timer)
		gbsim_loop_cancel_timer(conn->sim->loop, s->busy_timer);
	if (s)
		free(s->ram);
	free(s);
	conn->priv = NULL;
}

static int gbsim_sdio_event(struct gbsim_conn *conn, uint8_t event)
{
	struct gbsim_sdio *s = conn->priv;
	int ret;

	if (s->wp)
		event |= GB_SDIO_WP;
	ret = gbsim_send_request_id(conn->sim, conn->hd_cport,
				    GB_SDIO_TYPE_EVENT, 0, &event,
				    sizeof(event), 0, NULL, NULL);
	return ret < 0 ? ret : 0;
}

int gbsim_cmd_sdio(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out)
{
	const char *usage = "usage: sdio IFID:CPORT insert|remove|wp 0|1|status";
	struct gbsim_sdio *s;
	uint8_t event = 0;
	uint16_t hd_cport;
	int protocol, ret;

	if (argc >= 2 && !strcmp(argv[1], "set")) {
		gbsim_sdio_read_knobs();
		return gbsim_ctl_set_knobs(out, argc, argv, "sdio",
					   "size_mb, caps, ocr, f_min, f_max, max_blk_count, max_blk_size, lie, defaults",
					   gbsim_sdio_knob);
	}
	if (argc < 3)
		return gbsim_ctl_fail(out, "%s", usage);
	if (gbsim_ctl_target(sim, argv[1], out, &hd_cport, &protocol))
		return -1;
	if (protocol != GREYBUS_PROTOCOL_SDIO || !sim->conns[hd_cport] ||
	    !sim->conns[hd_cport]->priv)
		return gbsim_ctl_fail(out, "'%s' is not an sdio connection",
				      argv[1]);
	s = sim->conns[hd_cport]->priv;

	if (!strcmp(argv[2], "status") && argc == 3) {
		gbsim_ctl_printf(out, "present=%d wp=%d state=%d rca=0x%04x blocks=%llu\n",
				 s->present, s->wp, s->state, s->rca,
				 (unsigned long long)s->blocks);
		return 0;
	} else if (!strcmp(argv[2], "insert") && argc == 3) {
		if (s->present)
			return gbsim_ctl_fail(out, "the card is in the slot");
		s->present = true;
		s->state = SD_IDLE;
		s->rca = 0;
		s->app = false;
		event = GB_SDIO_CARD_INSERTED;
	} else if (!strcmp(argv[2], "remove") && argc == 3) {
		if (!s->present)
			return gbsim_ctl_fail(out, "the slot is empty");
		s->present = false;
		s->data = DATA_NONE;
		event = GB_SDIO_CARD_REMOVED;
	} else if (!strcmp(argv[2], "wp") && argc == 4 &&
		   (!strcmp(argv[3], "0") || !strcmp(argv[3], "1"))) {
		s->wp = argv[3][0] == '1';
	} else {
		return gbsim_ctl_fail(out, "%s", usage);
	}
	gbsim_log_info("sdio cport %u: card %s wp=%d", hd_cport,
		       s->present ? "inserted" : "removed", s->wp);
	ret = gbsim_sdio_event(sim->conns[hd_cport], event);
	if (ret)
		return gbsim_ctl_fail(out, "event: %s", strerror(-ret));
	return 0;
}

static struct gbsim_proto gbsim_proto_sdio = {
	.id		= GREYBUS_PROTOCOL_SDIO,
	.name		= "sdio",
	.request	= gbsim_sdio_request,
	.conn_init	= gbsim_sdio_conn_init,
	.conn_fini	= gbsim_sdio_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_sdio);
