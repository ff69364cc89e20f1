/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TI CC13x2/CC26x2 ROM serial bootloader as a CC1352P7 speaks it
 * over its UART (TI's technical reference manual SWCU192, "ROM
 * bootloader"; docs/hdlc.md, "Firmware upload"), and the checks a
 * CC1352P7 flash image passes before anything is erased.
 *
 * A packet is  size checksum body...  where size counts every byte of the
 * packet and checksum is the sum of the body's bytes modulo 256; the body
 * of a command starts with the command byte.  Either side answers a packet
 * with ACK (0x00 0xCC) or NACK (0x00 0x33); zero bytes before a packet's
 * size byte are idle and skipped.  Multi-byte fields are big-endian.
 *
 * Pure code: no allocation, no locking, no logging.  kernel/hosts/
 * cc1352_bl.c is built into gb-hdlc.ko and, through tools/lib/
 * cc1352_bl_user.c, into gbsim, the unit tests and a fuzzer.
 */
#ifndef __GREYBUS_CC1352_BL_H
#define __GREYBUS_CC1352_BL_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kcompat.h"
#endif

#define CC1352_BL_SYNC			0x55	/* sent twice: auto-baud */
#define CC1352_BL_ACK			0xcc	/* after a 0x00 */
#define CC1352_BL_NACK			0x33	/* after a 0x00 */

#define CC1352_BL_CMD_PING		0x20
#define CC1352_BL_CMD_DOWNLOAD		0x21	/* be32 address, be32 size */
#define CC1352_BL_CMD_GET_STATUS	0x23	/* answer: one status byte */
#define CC1352_BL_CMD_SEND_DATA		0x24	/* up to 252 data bytes */
#define CC1352_BL_CMD_RESET		0x25
#define CC1352_BL_CMD_CRC32		0x27	/* be32 address, size, repeats */
#define CC1352_BL_CMD_BANK_ERASE	0x2c

#define CC1352_BL_STATUS_SUCCESS	0x40
#define CC1352_BL_STATUS_UNKNOWN_CMD	0x41
#define CC1352_BL_STATUS_INVALID_CMD	0x42
#define CC1352_BL_STATUS_INVALID_ADR	0x43
#define CC1352_BL_STATUS_FLASH_FAIL	0x44

/* The largest packet: its size is one byte */
#define CC1352_BL_PACKET_MAX		255
/* Data bytes in one SEND_DATA: the packet less size, checksum, command */
#define CC1352_BL_DATA_MAX		(CC1352_BL_PACKET_MAX - 3)

/* CC1352P7: 704 KiB of flash from 0, 144 KiB of SRAM from 0x20000000 */
#define CC1352_FLASH_SIZE		0xb0000
#define CC1352_SRAM_BASE		0x20000000
#define CC1352_SRAM_SIZE		0x24000
/* The customer configuration (CCFG): the last 88 bytes of the flash */
#define CC1352_CCFG_SIZE		0x58
#define CC1352_CCFG_OFFSET		(CC1352_FLASH_SIZE - CC1352_CCFG_SIZE)
#define CC1352_CCFG_BL_CONFIG		0x30	/* le32 */
#define CC1352_CCFG_IMAGE_VALID		0x44	/* le32, 0: boot the flash */
/* BL_CONFIG: bootloader enabled (bits 31:24), backdoor enabled (7:0) */
#define CC1352_CCFG_BL_ENABLED		0xc5

u8 cc1352_bl_checksum(const u8 *body, size_t len);
size_t cc1352_bl_packet(u8 *out, size_t room, const u8 *body, size_t len);
u32 cc1352_bl_crc32(const u8 *data, size_t len);

/**
 * enum cc1352_bl_rx_mode - what the receiver waits for
 * @CC1352_BL_RX_ACK: ACK or NACK
 * @CC1352_BL_RX_PACKET: a packet
 */
enum cc1352_bl_rx_mode {
	CC1352_BL_RX_ACK,
	CC1352_BL_RX_PACKET,
};

/**
 * enum cc1352_bl_rx_result - what cc1352_bl_rx_feed() stopped for
 * @CC1352_BL_RX_MORE: all input taken, nothing complete
 * @CC1352_BL_RX_GOT_ACK: 0x00 0xCC
 * @CC1352_BL_RX_GOT_NACK: 0x00 0x33
 * @CC1352_BL_RX_GOT_PACKET: a packet with a good checksum: @body holds
 *	its @len bytes
 * @CC1352_BL_RX_BAD_CHECKSUM: a whole packet whose checksum is wrong
 * @CC1352_BL_RX_BAD_SIZE: a size byte under 3 (no body)
 * @CC1352_BL_RX_JUNK: a byte that starts nothing the mode waits for
 */
enum cc1352_bl_rx_result {
	CC1352_BL_RX_MORE,
	CC1352_BL_RX_GOT_ACK,
	CC1352_BL_RX_GOT_NACK,
	CC1352_BL_RX_GOT_PACKET,
	CC1352_BL_RX_BAD_CHECKSUM,
	CC1352_BL_RX_BAD_SIZE,
	CC1352_BL_RX_JUNK,
};

/**
 * struct cc1352_bl_rx - the receiver's state
 * @body: the packet's body; never more than CC1352_BL_PACKET_MAX - 2
 *	bytes are written, whatever the size byte says
 * @len: body bytes so far
 * @want: body bytes the size byte announced
 * @sum: the checksum byte received
 * @mode: what is waited for
 * @step: where in it (0: idle, 1: after 0x00 or the size, 2: in a body)
 */
struct cc1352_bl_rx {
	u8			body[CC1352_BL_PACKET_MAX - 2];
	size_t			len;
	size_t			want;
	u8			sum;
	enum cc1352_bl_rx_mode	mode;
	u8			step;
};

void cc1352_bl_rx_reset(struct cc1352_bl_rx *rx, enum cc1352_bl_rx_mode mode);
enum cc1352_bl_rx_result cc1352_bl_rx_feed(struct cc1352_bl_rx *rx,
					   const u8 *data, size_t len,
					   size_t *used);

/**
 * enum cc1352_image_verdict - what cc1352_image_check() found
 * @CC1352_IMAGE_OK: a CC1352P7 flash image
 * @CC1352_IMAGE_TOO_LARGE: more bytes than the flash holds
 * @CC1352_IMAGE_TRUNCATED: fewer: it must cover the flash to its CCFG
 * @CC1352_IMAGE_BAD_VECTORS: the vector table's stack pointer is not in
 *	SRAM or its reset handler not a Thumb address in flash
 * @CC1352_IMAGE_NOT_BOOTABLE: the CCFG does not mark the image valid
 * @CC1352_IMAGE_NO_BACKDOOR: the CCFG disables the ROM bootloader or its
 *	backdoor: nothing could be flashed over the UART afterwards
 */
enum cc1352_image_verdict {
	CC1352_IMAGE_OK,
	CC1352_IMAGE_TOO_LARGE,
	CC1352_IMAGE_TRUNCATED,
	CC1352_IMAGE_BAD_VECTORS,
	CC1352_IMAGE_NOT_BOOTABLE,
	CC1352_IMAGE_NO_BACKDOOR,
};

enum cc1352_image_verdict cc1352_image_check(const u8 *image, size_t len);
const char *cc1352_image_verdict_str(enum cc1352_image_verdict v);

#endif /* __GREYBUS_CC1352_BL_H */
