/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbsim's model of the CC1352P7's ROM serial bootloader (TI SWCU192,
 * "ROM bootloader"), as the cc1352 personality plays it: entered by a
 * reset with the backdoor line low, auto-baud sync, the commands the
 * kernel's firmware upload uses, the flash kept in memory, faults on
 * purpose.  Pure: bytes in, bytes out through @emit; no I/O, no timers.
 */
#ifndef GBSIM_CC1352_ROM_H
#define GBSIM_CC1352_ROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kcompat.h"
#include "../../kernel/include/greybus/cc1352_bl.h"

/* Where gbsim's generated images keep their version string */
#define CC1352_ROM_VERSION_OFFSET	0x100
#define CC1352_ROM_VERSION_MAX		32

/**
 * enum cc1352_rom_fault - what the next command of the chosen kind gets
 * @CC1352_ROM_FAULT_NONE: a correct answer
 * @CC1352_ROM_FAULT_NACK: NACK
 * @CC1352_ROM_FAULT_SILENT: nothing at all, then nothing until a reset
 * @CC1352_ROM_FAULT_STATUS: ACK, but GET_STATUS then says flash failure
 * @CC1352_ROM_FAULT_RESET: the chip resets (unsynced again, state lost)
 * @CC1352_ROM_FAULT_CORRUPT: the command works but one stored byte flips
 * @CC1352_ROM_FAULT_GARBAGE: an answer packet with a bad checksum
 */
enum cc1352_rom_fault {
	CC1352_ROM_FAULT_NONE,
	CC1352_ROM_FAULT_NACK,
	CC1352_ROM_FAULT_SILENT,
	CC1352_ROM_FAULT_STATUS,
	CC1352_ROM_FAULT_RESET,
	CC1352_ROM_FAULT_CORRUPT,
	CC1352_ROM_FAULT_GARBAGE,
};

struct cc1352_rom {
	uint8_t		flash[CC1352_FLASH_SIZE];
	bool		active;		/* in the bootloader */
	bool		synced;
	bool		silent;		/* a silent fault hit: deaf till reset */
	bool		await_ack;	/* an answer went out: the host ACKs */
	unsigned int	sync_seen;	/* 0x55 bytes in a row, unsynced */
	struct cc1352_bl_rx rx;
	uint8_t		status;		/* of the last command */
	uint32_t	dl_addr, dl_left;
	/* a fault for the next command @fault_cmd (0: any) */
	enum cc1352_rom_fault fault;
	uint8_t		fault_cmd;
	/* counters */
	unsigned long	commands, bad_packets, data_bytes;
	bool		boot;		/* RESET came: boot the flash */
	void		(*emit)(void *ctx, const uint8_t *p, size_t len);
	void		*ctx;
};

void cc1352_rom_init(struct cc1352_rom *rom);
void cc1352_rom_enter(struct cc1352_rom *rom);
void cc1352_rom_feed(struct cc1352_rom *rom, const uint8_t *p, size_t len);
bool cc1352_rom_flash_valid(const struct cc1352_rom *rom);
void cc1352_rom_version(const struct cc1352_rom *rom, char *buf, size_t len);
int cc1352_rom_fault_parse(const char *name, enum cc1352_rom_fault *f);
const char *cc1352_rom_fault_name(enum cc1352_rom_fault f);
int cc1352_rom_cmd_parse(const char *name, uint8_t *cmd);
void cc1352_rom_make_image(uint8_t *img, const char *version);

#endif /* GBSIM_CC1352_ROM_H */
