// SPDX-License-Identifier: GPL-2.0
/*
 * gbsim's CC1352P7 ROM serial bootloader (cc1352-rom.h).  The host's
 * bytes are untrusted: packets are read by the same bounded receiver the
 * kernel uses (kernel/hosts/cc1352_bl.c), every field is checked before
 * it is used, and the flash is written only inside its 704 KiB.
 */
#include <stdio.h>
#include <string.h>

#include "cc1352-rom.h"

static void cc1352_rom_out(struct cc1352_rom *rom, const uint8_t *p,
			   size_t len)
{
	if (rom->emit)
		rom->emit(rom->ctx, p, len);
}

static void cc1352_rom_ack(struct cc1352_rom *rom, bool ack)
{
	uint8_t a[2] = { 0x00, ack ? CC1352_BL_ACK : CC1352_BL_NACK };

	cc1352_rom_out(rom, a, sizeof(a));
}

/* An answer packet; the host ACKs it */
static void cc1352_rom_answer(struct cc1352_rom *rom, const uint8_t *body,
			      size_t len, bool garbage)
{
	uint8_t pkt[CC1352_BL_PACKET_MAX];
	size_t n = cc1352_bl_packet(pkt, sizeof(pkt), body, len);

	if (!n)
		return;
	if (garbage)
		pkt[1] ^= 0x5a;
	cc1352_rom_out(rom, pkt, n);
	rom->await_ack = true;
	cc1352_bl_rx_reset(&rom->rx, CC1352_BL_RX_ACK);
}

/**
 * cc1352_rom_init() - a chip whose flash is erased, running nothing
 * @rom: the model; @emit and @ctx are kept
 */
void cc1352_rom_init(struct cc1352_rom *rom)
{
	void (*emit)(void *, const uint8_t *, size_t) = rom->emit;
	void *ctx = rom->ctx;

	memset(rom, 0, sizeof(*rom));
	memset(rom->flash, 0xff, sizeof(rom->flash));
	rom->emit = emit;
	rom->ctx = ctx;
}

/**
 * cc1352_rom_enter() - a reset with the backdoor low: the bootloader
 * runs, waiting for the auto-baud sync
 * @rom: the model
 */
void cc1352_rom_enter(struct cc1352_rom *rom)
{
	rom->active = true;
	rom->synced = false;
	rom->silent = false;
	rom->await_ack = false;
	rom->sync_seen = 0;
	rom->boot = false;
	rom->status = CC1352_BL_STATUS_SUCCESS;
	rom->dl_left = 0;
	cc1352_bl_rx_reset(&rom->rx, CC1352_BL_RX_PACKET);
}

static uint32_t cc1352_rom_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The fault for this command, used up */
static enum cc1352_rom_fault cc1352_rom_take_fault(struct cc1352_rom *rom,
						   uint8_t cmd)
{
	enum cc1352_rom_fault f = rom->fault;

	if (f == CC1352_ROM_FAULT_NONE || (rom->fault_cmd && rom->fault_cmd != cmd))
		return CC1352_ROM_FAULT_NONE;
	rom->fault = CC1352_ROM_FAULT_NONE;
	return f;
}

static void cc1352_rom_command(struct cc1352_rom *rom, const uint8_t *b,
			       size_t len)
{
	enum cc1352_rom_fault f = cc1352_rom_take_fault(rom, b[0]);
	uint8_t ans[4];
	uint32_t addr, size, crc;

	rom->commands++;
	switch (f) {
	case CC1352_ROM_FAULT_NACK:
		cc1352_rom_ack(rom, false);
		return;
	case CC1352_ROM_FAULT_SILENT:
		rom->silent = true;
		return;
	case CC1352_ROM_FAULT_RESET:
		/* the flash is erased: the bootloader comes up unsynced */
		cc1352_rom_enter(rom);
		return;
	default:
		break;
	}

	switch (b[0]) {
	case CC1352_BL_CMD_PING:
		cc1352_rom_ack(rom, len == 1);
		rom->status = len == 1 ? CC1352_BL_STATUS_SUCCESS :
					 CC1352_BL_STATUS_INVALID_CMD;
		return;
	case CC1352_BL_CMD_GET_STATUS:
		if (len != 1) {
			cc1352_rom_ack(rom, false);
			return;
		}
		cc1352_rom_ack(rom, true);
		ans[0] = rom->status;
		cc1352_rom_answer(rom, ans, 1, f == CC1352_ROM_FAULT_GARBAGE);
		rom->status = CC1352_BL_STATUS_SUCCESS;
		return;
	case CC1352_BL_CMD_BANK_ERASE:
		cc1352_rom_ack(rom, len == 1);
		if (len != 1)
			return;
		memset(rom->flash, 0xff, sizeof(rom->flash));
		rom->status = f == CC1352_ROM_FAULT_STATUS ?
			      CC1352_BL_STATUS_FLASH_FAIL : CC1352_BL_STATUS_SUCCESS;
		return;
	case CC1352_BL_CMD_DOWNLOAD:
		if (len != 9) {
			cc1352_rom_ack(rom, false);
			return;
		}
		cc1352_rom_ack(rom, true);
		addr = cc1352_rom_be32(b + 1);
		size = cc1352_rom_be32(b + 5);
		if (addr >= CC1352_FLASH_SIZE || !size ||
		    size > CC1352_FLASH_SIZE - addr) {
			rom->status = CC1352_BL_STATUS_INVALID_ADR;
			rom->dl_left = 0;
			return;
		}
		rom->dl_addr = addr;
		rom->dl_left = size;
		rom->status = f == CC1352_ROM_FAULT_STATUS ?
			      CC1352_BL_STATUS_FLASH_FAIL : CC1352_BL_STATUS_SUCCESS;
		return;
	case CC1352_BL_CMD_SEND_DATA:
		if (len < 2) {
			cc1352_rom_ack(rom, false);
			return;
		}
		cc1352_rom_ack(rom, true);
		size = len - 1;
		if (size > rom->dl_left) {
			rom->status = CC1352_BL_STATUS_INVALID_CMD;
			return;
		}
		/* flash programming only clears bits */
		for (uint32_t i = 0; i < size; i++)
			rom->flash[rom->dl_addr + i] &= b[1 + i];
		if (f == CC1352_ROM_FAULT_CORRUPT)
			rom->flash[rom->dl_addr] ^= 0x01;
		rom->dl_addr += size;
		rom->dl_left -= size;
		rom->data_bytes += size;
		rom->status = f == CC1352_ROM_FAULT_STATUS ?
			      CC1352_BL_STATUS_FLASH_FAIL : CC1352_BL_STATUS_SUCCESS;
		return;
	case CC1352_BL_CMD_CRC32:
		if (len != 13) {
			cc1352_rom_ack(rom, false);
			return;
		}
		addr = cc1352_rom_be32(b + 1);
		size = cc1352_rom_be32(b + 5);
		cc1352_rom_ack(rom, true);
		if (addr >= CC1352_FLASH_SIZE || size > CC1352_FLASH_SIZE - addr) {
			rom->status = CC1352_BL_STATUS_INVALID_ADR;
			crc = 0xffffffff;
		} else {
			crc = size > 8 ? cc1352_bl_crc32(rom->flash + addr, size) :
					 0xffffffff;
		}
		ans[0] = crc >> 24;
		ans[1] = crc >> 16;
		ans[2] = crc >> 8;
		ans[3] = crc;
		cc1352_rom_answer(rom, ans, 4, f == CC1352_ROM_FAULT_GARBAGE);
		return;
	case CC1352_BL_CMD_RESET:
		cc1352_rom_ack(rom, len == 1);
		if (len == 1) {
			rom->active = false;
			rom->boot = true;
		}
		return;
	default:
		cc1352_rom_ack(rom, true);
		rom->status = CC1352_BL_STATUS_UNKNOWN_CMD;
		return;
	}
}

/**
 * cc1352_rom_feed() - bytes from the host
 * @rom: the model, in its bootloader (bytes are dropped otherwise)
 * @p: the bytes
 * @len: their number
 *
 * Answers go out through @rom->emit.  After a RESET the model is no
 * longer active and @rom->boot is set: the caller boots the flash.
 */
void cc1352_rom_feed(struct cc1352_rom *rom, const uint8_t *p, size_t len)
{
	enum cc1352_bl_rx_result r;
	size_t used;

	while (len && rom->active && !rom->silent) {
		if (!rom->synced) {
			/* auto-baud: two 0x55 in a row */
			rom->sync_seen = *p == CC1352_BL_SYNC ? rom->sync_seen + 1 : 0;
			p++;
			len--;
			if (rom->sync_seen == 2) {
				rom->synced = true;
				cc1352_bl_rx_reset(&rom->rx, CC1352_BL_RX_PACKET);
				cc1352_rom_ack(rom, true);
			}
			continue;
		}
		r = cc1352_bl_rx_feed(&rom->rx, p, len, &used);
		p += used;
		len -= used;
		switch (r) {
		case CC1352_BL_RX_MORE:
			break;
		case CC1352_BL_RX_GOT_ACK:
		case CC1352_BL_RX_GOT_NACK:
			/* the host took (or refused) the answer */
			rom->await_ack = false;
			cc1352_bl_rx_reset(&rom->rx, CC1352_BL_RX_PACKET);
			break;
		case CC1352_BL_RX_GOT_PACKET:
			cc1352_rom_command(rom, rom->rx.body, rom->rx.len);
			break;
		case CC1352_BL_RX_BAD_CHECKSUM:
			rom->bad_packets++;
			cc1352_rom_ack(rom, false);
			break;
		default:
			/* junk or a bad size: counted, waited past */
			rom->bad_packets++;
			if (rom->await_ack) {
				rom->await_ack = false;
				cc1352_bl_rx_reset(&rom->rx, CC1352_BL_RX_PACKET);
			}
			break;
		}
	}
}

/**
 * cc1352_rom_flash_valid() - would the flash boot?
 * @rom: the model
 *
 * Return: true if it holds a CC1352 image (the kernel's checks).
 */
bool cc1352_rom_flash_valid(const struct cc1352_rom *rom)
{
	return cc1352_image_check(rom->flash, sizeof(rom->flash)) ==
	       CC1352_IMAGE_OK;
}

/**
 * cc1352_rom_version() - the version string a gbsim image carries
 * @rom: the model
 * @buf: where, NUL-terminated, printable characters only ("?" if none)
 * @len: its size (at least 2)
 */
void cc1352_rom_version(const struct cc1352_rom *rom, char *buf, size_t len)
{
	const uint8_t *v = rom->flash + CC1352_ROM_VERSION_OFFSET;
	size_t i;

	for (i = 0; i + 1 < len && i < CC1352_ROM_VERSION_MAX; i++) {
		if (v[i] < 0x21 || v[i] > 0x7e)
			break;
		buf[i] = (char)v[i];
	}
	if (!i)
		buf[i++] = '?';
	buf[i] = '\0';
}

static const char *const cc1352_rom_faults[] = {
	[CC1352_ROM_FAULT_NONE] = "none",
	[CC1352_ROM_FAULT_NACK] = "nack",
	[CC1352_ROM_FAULT_SILENT] = "silent",
	[CC1352_ROM_FAULT_STATUS] = "status",
	[CC1352_ROM_FAULT_RESET] = "reset",
	[CC1352_ROM_FAULT_CORRUPT] = "corrupt",
	[CC1352_ROM_FAULT_GARBAGE] = "garbage",
};

int cc1352_rom_fault_parse(const char *name, enum cc1352_rom_fault *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(cc1352_rom_faults); i++) {
		if (!strcmp(name, cc1352_rom_faults[i])) {
			*f = (enum cc1352_rom_fault)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *cc1352_rom_fault_name(enum cc1352_rom_fault f)
{
	return (size_t)f < ARRAY_SIZE(cc1352_rom_faults) ?
	       cc1352_rom_faults[f] : "?";
}

int cc1352_rom_cmd_parse(const char *name, uint8_t *cmd)
{
	static const struct { const char *name; uint8_t cmd; } cmds[] = {
		{ "any", 0 },
		{ "ping", CC1352_BL_CMD_PING },
		{ "download", CC1352_BL_CMD_DOWNLOAD },
		{ "get_status", CC1352_BL_CMD_GET_STATUS },
		{ "send_data", CC1352_BL_CMD_SEND_DATA },
		{ "reset", CC1352_BL_CMD_RESET },
		{ "crc32", CC1352_BL_CMD_CRC32 },
		{ "bank_erase", CC1352_BL_CMD_BANK_ERASE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (!strcmp(name, cmds[i].name)) {
			*cmd = cmds[i].cmd;
			return 0;
		}
	}
	return -EINVAL;
}

static void cc1352_rom_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/**
 * cc1352_rom_make_image() - a flash image the kernel accepts and gbsim
 * boots: a vector table, @version at CC1352_ROM_VERSION_OFFSET, a few
 * kilobytes of "code" that depend on it, erased flash, a CCFG that keeps
 * the bootloader and its backdoor enabled
 * @img: CC1352_FLASH_SIZE bytes
 * @version: printable, up to CC1352_ROM_VERSION_MAX characters
 */
void cc1352_rom_make_image(uint8_t *img, const char *version)
{
	uint8_t *ccfg = img + CC1352_CCFG_OFFSET;
	uint32_t x = cc1352_bl_crc32((const uint8_t *)version, strlen(version));
	size_t i;

	memset(img, 0xff, CC1352_FLASH_SIZE);
	cc1352_rom_put_le32(img, CC1352_SRAM_BASE + CC1352_SRAM_SIZE);
	cc1352_rom_put_le32(img + 4, 0x201);	/* Thumb, in flash */
	snprintf((char *)img + CC1352_ROM_VERSION_OFFSET,
		 CC1352_ROM_VERSION_MAX + 1, "%s", version);
	for (i = 0x200; i < 0x2200; i++) {
		x = x * 1103515245u + 12345u;
		img[i] = (uint8_t)(x >> 16);
	}
	/* every byte value, the sync and the framing's among them */
	for (i = 0; i < 256; i++)
		img[0x3000 + i] = (uint8_t)i;
	memset(ccfg, 0xff, CC1352_CCFG_SIZE);
	cc1352_rom_put_le32(ccfg + CC1352_CCFG_BL_CONFIG,
			    0xc5U << 24 | 0x0d << 8 | 0xc5);
	cc1352_rom_put_le32(ccfg + CC1352_CCFG_IMAGE_VALID, 0);
}
