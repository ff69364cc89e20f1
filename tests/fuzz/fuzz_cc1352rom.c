// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: gbsim's CC1352 ROM bootloader (tools/gbsim/
 * cc1352-rom.c), which reads whatever the host sends.
 *
 * Input: one byte choosing a fault (and the command it hits) and whether
 * the bootloader starts synced, then the host's bytes in chunks.
 * Asserted (ASan does the bounds): everything the bootloader sends is a
 * sequence of ACKs, NACKs and well-formed packets; its download window
 * never leaves the flash; a RESET leaves it inactive.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/gbsim/cc1352-rom.h"

#include "fuzz.h"

struct fuzz_wire {
	struct cc1352_bl_rx rx;
	bool in_packet;
};

static void fuzz_emit(void *ctx, const uint8_t *p, size_t len)
{
	FUZZ_ASSERT(len == 2 || (len >= 3 && len <= CC1352_BL_PACKET_MAX));
	if (len == 2) {
		FUZZ_ASSERT(p[0] == 0 &&
			    (p[1] == CC1352_BL_ACK || p[1] == CC1352_BL_NACK));
		return;
	}
	/* an answer: a packet whose size byte says its length */
	FUZZ_ASSERT(p[0] == len);
	(void)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t cmds[] = { 0, CC1352_BL_CMD_PING,
		CC1352_BL_CMD_DOWNLOAD, CC1352_BL_CMD_GET_STATUS,
		CC1352_BL_CMD_SEND_DATA, CC1352_BL_CMD_CRC32,
		CC1352_BL_CMD_RESET, CC1352_BL_CMD_BANK_ERASE };
	static struct cc1352_rom *rom;
	size_t pos = 1;

	if (!size)
		return 0;
	if (!rom) {
		rom = calloc(1, sizeof(*rom));
		FUZZ_ASSERT(rom);
	}
	rom->emit = fuzz_emit;
	cc1352_rom_init(rom);
	cc1352_rom_enter(rom);
	rom->fault = (enum cc1352_rom_fault)(data[0] % 7);
	rom->fault_cmd = cmds[(data[0] >> 3) % 8];
	if (data[0] & 0x80) {
		static const uint8_t sync[] = { 0x55, 0x55 };

		cc1352_rom_feed(rom, sync, 2);
		FUZZ_ASSERT(rom->synced);
	}
	while (pos < size && rom->active) {
		size_t chunk = 1 + data[pos] % 300;

		if (chunk > size - pos)
			chunk = size - pos;
		cc1352_rom_feed(rom, data + pos, chunk);
		pos += chunk;
		FUZZ_ASSERT(rom->dl_addr <= CC1352_FLASH_SIZE);
		FUZZ_ASSERT(rom->dl_left <= CC1352_FLASH_SIZE - rom->dl_addr);
	}
	if (rom->boot)
		FUZZ_ASSERT(!rom->active);
	return 0;
}
