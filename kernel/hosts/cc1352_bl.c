// SPDX-License-Identifier: GPL-2.0
/*
 * The CC1352 ROM serial bootloader's packets, its answers' receiver and
 * the checks of a flash image (greybus/cc1352_bl.h).
 *
 * This file is compiled twice: into gb-hdlc.ko, and into the tools'
 * library through tools/lib/cc1352_bl_user.c.  Keep it that way: no
 * allocation, no logging, no locking.
 *
 * The bytes come from the bootloader (or, in gbsim, from the host) and
 * are untrusted: the receiver writes only inside rx->body whatever the
 * size byte says, and every byte sequence ends in a defined state.
 */
#ifdef __KERNEL__
#include <linux/export.h>
#include <linux/string.h>
#include <linux/types.h>
#include <greybus/cc1352_bl.h>
#else
#include "kcompat.h"
#include "../include/greybus/cc1352_bl.h"
#endif

/**
 * cc1352_bl_checksum() - a packet's checksum
 * @body: the command byte and its parameters (or an answer's bytes)
 * @len: their number
 *
 * Return: the sum of the bytes modulo 256.
 */
u8 cc1352_bl_checksum(const u8 *body, size_t len)
{
	u8 sum = 0;

	while (len--)
		sum += *body++;
	return sum;
}

/**
 * cc1352_bl_packet() - build a packet
 * @out: where
 * @room: bytes at @out
 * @body: the command byte and its parameters
 * @len: their number (1 .. CC1352_BL_PACKET_MAX - 2)
 *
 * Return: the packet's length, or 0 if @len is out of range or the
 * packet does not fit in @room (nothing is written then).
 */
size_t cc1352_bl_packet(u8 *out, size_t room, const u8 *body, size_t len)
{
	if (!len || len > CC1352_BL_PACKET_MAX - 2 || room < len + 2)
		return 0;
	out[0] = len + 2;
	out[1] = cc1352_bl_checksum(body, len);
	memmove(out + 2, body, len);
	return len + 2;
}

/* CRC-32 (IEEE 802.3, reflected 0xEDB88320) four bits at a time */
static const u32 cc1352_crc32_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

/**
 * cc1352_bl_crc32() - the CRC COMMAND_CRC32 reports
 * @data: the bytes
 * @len: their number
 *
 * Return: CRC-32 as zlib computes it (init and final XOR 0xFFFFFFFF).
 */
u32 cc1352_bl_crc32(const u8 *data, size_t len)
{
	u32 crc = 0xffffffff;

	while (len--) {
		crc ^= *data++;
		crc = (crc >> 4) ^ cc1352_crc32_nibble[crc & 0xf];
		crc = (crc >> 4) ^ cc1352_crc32_nibble[crc & 0xf];
	}
	return crc ^ 0xffffffff;
}

/**
 * cc1352_bl_rx_reset() - wait for something new
 * @rx: the receiver
 * @mode: an ACK/NACK or a packet
 */
void cc1352_bl_rx_reset(struct cc1352_bl_rx *rx, enum cc1352_bl_rx_mode mode)
{
	rx->mode = mode;
	rx->step = 0;
	rx->len = 0;
	rx->want = 0;
	rx->sum = 0;
}

static enum cc1352_bl_rx_result cc1352_bl_rx_ack(struct cc1352_bl_rx *rx,
						 u8 c)
{
	if (!rx->step) {
		if (c)
			return CC1352_BL_RX_JUNK;
		rx->step = 1;
		return CC1352_BL_RX_MORE;
	}
	switch (c) {
	case 0:
		return CC1352_BL_RX_MORE;
	case CC1352_BL_ACK:
		rx->step = 0;
		return CC1352_BL_RX_GOT_ACK;
	case CC1352_BL_NACK:
		rx->step = 0;
		return CC1352_BL_RX_GOT_NACK;
	default:
		rx->step = 0;
		return CC1352_BL_RX_JUNK;
	}
}

static enum cc1352_bl_rx_result cc1352_bl_rx_packet(struct cc1352_bl_rx *rx,
						    u8 c)
{
	switch (rx->step) {
	case 0:
		if (!c)
			return CC1352_BL_RX_MORE;	/* idle */
		if (c < 3)
			return CC1352_BL_RX_BAD_SIZE;
		rx->want = c - 2;
		rx->len = 0;
		rx->step = 1;
		return CC1352_BL_RX_MORE;
	case 1:
		rx->sum = c;
		rx->step = 2;
		return CC1352_BL_RX_MORE;
	default:
		/* want <= 253 = sizeof(body): the size byte is a u8 */
		if (rx->len < sizeof(rx->body))
			rx->body[rx->len] = c;
		rx->len++;
		if (rx->len < rx->want)
			return CC1352_BL_RX_MORE;
		rx->step = 0;
		if (cc1352_bl_checksum(rx->body, rx->len) != rx->sum)
			return CC1352_BL_RX_BAD_CHECKSUM;
		return CC1352_BL_RX_GOT_PACKET;
	}
}

/**
 * cc1352_bl_rx_feed() - take bytes until something is complete
 * @rx: the receiver
 * @data: bytes from the wire
 * @len: their number
 * @used: set to the bytes taken (at least one unless @len is 0)
 *
 * After a result other than CC1352_BL_RX_MORE the receiver waits for the
 * same kind of thing again (a packet's body stays in @rx->body until the
 * next call); the caller feeds the rest of @data again if it wants it.
 *
 * Return: what ended the call.
 */
enum cc1352_bl_rx_result cc1352_bl_rx_feed(struct cc1352_bl_rx *rx,
					   const u8 *data, size_t len,
					   size_t *used)
{
	enum cc1352_bl_rx_result r = CC1352_BL_RX_MORE;
	size_t i;

	for (i = 0; i < len && r == CC1352_BL_RX_MORE; i++) {
		if (rx->mode == CC1352_BL_RX_ACK)
			r = cc1352_bl_rx_ack(rx, data[i]);
		else
			r = cc1352_bl_rx_packet(rx, data[i]);
	}
	*used = i;
	return r;
}

static u32 cc1352_le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/**
 * cc1352_image_check() - is this a CC1352P7 flash image one may flash?
 * @image: the image, loaded at flash address 0
 * @len: its length
 *
 * Return: CC1352_IMAGE_OK, or what is wrong with it.
 */
enum cc1352_image_verdict cc1352_image_check(const u8 *image, size_t len)
{
	const u8 *ccfg = image + CC1352_CCFG_OFFSET;
	u32 sp, reset, bl;

	if (len > CC1352_FLASH_SIZE)
		return CC1352_IMAGE_TOO_LARGE;
	if (len < CC1352_FLASH_SIZE)
		return CC1352_IMAGE_TRUNCATED;

	sp = cc1352_le32(image);
	reset = cc1352_le32(image + 4);
	if (sp <= CC1352_SRAM_BASE || sp > CC1352_SRAM_BASE + CC1352_SRAM_SIZE ||
	    sp & 3 || !(reset & 1) || reset >= CC1352_FLASH_SIZE)
		return CC1352_IMAGE_BAD_VECTORS;

	if (cc1352_le32(ccfg + CC1352_CCFG_IMAGE_VALID))
		return CC1352_IMAGE_NOT_BOOTABLE;
	bl = cc1352_le32(ccfg + CC1352_CCFG_BL_CONFIG);
	if ((bl >> 24) != CC1352_CCFG_BL_ENABLED ||
	    (bl & 0xff) != CC1352_CCFG_BL_ENABLED)
		return CC1352_IMAGE_NO_BACKDOOR;
	return CC1352_IMAGE_OK;
}

/**
 * cc1352_image_verdict_str() - a verdict in words, for the log
 * @v: the verdict
 *
 * Return: a constant string.
 */
const char *cc1352_image_verdict_str(enum cc1352_image_verdict v)
{
	switch (v) {
	case CC1352_IMAGE_OK:
		return "a CC1352P7 image";
	case CC1352_IMAGE_TOO_LARGE:
		return "larger than the 720896-byte flash";
	case CC1352_IMAGE_TRUNCATED:
		return "truncated: an image covers the whole 720896-byte flash";
	case CC1352_IMAGE_BAD_VECTORS:
		return "not a CC1352P7 image: its vector table points outside SRAM/flash";
	case CC1352_IMAGE_NOT_BOOTABLE:
		return "not bootable: its CCFG does not mark the flash image valid";
	case CC1352_IMAGE_NO_BACKDOOR:
		return "refused: its CCFG disables the ROM bootloader or its backdoor";
	}
	return "unknown";
}
