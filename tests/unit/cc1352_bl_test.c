// SPDX-License-Identifier: GPL-2.0
/*
 * The CC1352 ROM bootloader protocol: the packets, CRC and image checks
 * gb-hdlc.ko runs (kernel/hosts/cc1352_bl.c), its bounded answer
 * receiver on good, bad, split and hostile input, and a whole upload, the
 * kernel's sequence of commands, against gbsim's bootloader
 * (tools/gbsim/cc1352-rom.c), with each of its faults.
 */
#include <stdint.h>
#include <stdlib.h>

#include "tap.h"
#include "../../tools/gbsim/cc1352-rom.c"

static void test_packet(void)
{
	static const uint8_t ping = CC1352_BL_CMD_PING;
	uint8_t body[300], out[300];
	size_t n;

	n = cc1352_bl_packet(out, sizeof(out), &ping, 1);
	CHECK(n == 3 && out[0] == 3 && out[1] == 0x20 && out[2] == 0x20,
	      "PING: %zu bytes", n);
	memset(body, 0xff, sizeof(body));
	CHECK(cc1352_bl_packet(out, sizeof(out), body, 253) == 255, "253 fit");
	CHECK(out[1] == (uint8_t)(253 * 0xff), "checksum %02x", out[1]);
	CHECK(!cc1352_bl_packet(out, sizeof(out), body, 254), "254 do not");
	CHECK(!cc1352_bl_packet(out, 10, body, 9), "no room");
	CHECK(!cc1352_bl_packet(out, sizeof(out), body, 0), "empty");
	CHECK(cc1352_bl_crc32((const uint8_t *)"123456789", 9) == 0xcbf43926,
	      "CRC-32 check value");
}

/* Feeds everything; the results, at most @max */
static size_t feed(struct cc1352_bl_rx *rx, const uint8_t *p, size_t len,
		   enum cc1352_bl_rx_result *res, size_t max)
{
	size_t n = 0, used;

	while (len) {
		enum cc1352_bl_rx_result r = cc1352_bl_rx_feed(rx, p, len, &used);

		CHECK(used >= 1 && used <= len, "used %zu of %zu", used, len);
		p += used;
		len -= used;
		if (r != CC1352_BL_RX_MORE && n < max)
			res[n++] = r;
	}
	return n;
}

static void test_rx(void)
{
	static const uint8_t acks[] = { 0, 0, 0, 0xcc, 0, 0x33, 0x12, 0, 0x44 };
	static const uint8_t pkts[] = { 0, 0, 3, 0x40, 0x40, 6, 0x0a, 1, 2, 3, 4,
					3, 0x41, 0x40, 2, 0 };
	enum cc1352_bl_rx_result res[8];
	struct cc1352_bl_rx rx;
	uint8_t big[600];
	size_t n, i;

	cc1352_bl_rx_reset(&rx, CC1352_BL_RX_ACK);
	n = feed(&rx, acks, sizeof(acks), res, 8);
	CHECK(n == 4 && res[0] == CC1352_BL_RX_GOT_ACK &&
	      res[1] == CC1352_BL_RX_GOT_NACK && res[2] == CC1352_BL_RX_JUNK &&
	      res[3] == CC1352_BL_RX_JUNK, "acks: %zu results", n);

	cc1352_bl_rx_reset(&rx, CC1352_BL_RX_PACKET);
	n = feed(&rx, pkts, 5, res, 8);
	CHECK(n == 1 && res[0] == CC1352_BL_RX_GOT_PACKET && rx.len == 1 &&
	      rx.body[0] == 0x40, "status packet");
	n = feed(&rx, pkts + 5, 6, res, 8);
	CHECK(n == 1 && res[0] == CC1352_BL_RX_GOT_PACKET && rx.len == 4 &&
	      rx.body[3] == 4, "CRC packet");
	n = feed(&rx, pkts + 11, 5, res, 8);
	CHECK(n == 2 && res[0] == CC1352_BL_RX_BAD_CHECKSUM &&
	      res[1] == CC1352_BL_RX_BAD_SIZE, "bad checksum, bad size");

	/* byte at a time */
	cc1352_bl_rx_reset(&rx, CC1352_BL_RX_PACKET);
	for (i = 0, n = 0; i < 11; i++)
		n += feed(&rx, pkts + i, 1, res + n, 8 - n);
	CHECK(n == 2 && res[1] == CC1352_BL_RX_GOT_PACKET && rx.len == 4,
	      "split: %zu", n);

	/* the largest size byte, then more: the body stays in bounds */
	memset(big, 0xff, sizeof(big));
	cc1352_bl_rx_reset(&rx, CC1352_BL_RX_PACKET);
	n = feed(&rx, big, sizeof(big), res, 8);
	CHECK(n == 2 && rx.len <= sizeof(rx.body), "0xff flood: %zu", n);
}

static uint8_t *image(const char *version)
{
	uint8_t *img = malloc(CC1352_FLASH_SIZE + 1);

	cc1352_rom_make_image(img, version);
	return img;
}

static void test_image(void)
{
	uint8_t *img = image("1.0");
	uint8_t *ccfg = img + CC1352_CCFG_OFFSET;

	CHECK(cc1352_image_check(img, CC1352_FLASH_SIZE) == CC1352_IMAGE_OK, "gbsim's image");
	CHECK(cc1352_image_check(img, CC1352_FLASH_SIZE + 1) == CC1352_IMAGE_TOO_LARGE, "too large");
	CHECK(cc1352_image_check(img, CC1352_FLASH_SIZE - 4096) == CC1352_IMAGE_TRUNCATED, "truncated");
	CHECK(cc1352_image_check(img, 0) == CC1352_IMAGE_TRUNCATED, "empty");
	img[3] = 0x30;	/* stack at 0x30xxxxxx */
	CHECK(cc1352_image_check(img, CC1352_FLASH_SIZE) == CC1352_IMAGE_BAD_VECTORS, "stack");
	img[3] = 0x20;
	img[4] = 0x00;	/* reset handler even */
	CHECK(cc1352_image_check(img, CC1352_FLASH_SIZE) == CC1352_IMAGE_BAD_VECTORS, "reset");
	img[4] = 0x01;
	ccfg[CC1352_CCFG_IMAGE_VALID] = 1;
	CHECK(cc1352_image_check(img, CC1352_FLASH_SIZE) == CC1352_IMAGE_NOT_BOOTABLE, "valid");
	ccfg[CC1352_CCFG_IMAGE_VALID] = 0;
	ccfg[CC1352_CCFG_BL_CONFIG] = 0;
	CHECK(cc1352_image_check(img, CC1352_FLASH_SIZE) == CC1352_IMAGE_NO_BACKDOOR, "backdoor");
	free(img);
}

/* ---- the kernel's sequence against gbsim's bootloader ---- */

struct wire {
	uint8_t buf[4096];
	size_t len;
};

static void wire_emit(void *ctx, const uint8_t *p, size_t len)
{
	struct wire *w = ctx;

	CHECK(w->len + len <= sizeof(w->buf), "wire overflow");
	if (w->len + len <= sizeof(w->buf)) {
		memcpy(w->buf + w->len, p, len);
		w->len += len;
	}
}

/* One command as the kernel sends it; the answer, or MORE if none */
static enum cc1352_bl_rx_result cmd(struct cc1352_rom *rom, struct wire *w,
				   const uint8_t *body, size_t len,
				   uint8_t *answer)
{
	static const uint8_t ack[] = { 0, CC1352_BL_ACK };
	enum cc1352_bl_rx_result r = CC1352_BL_RX_MORE;
	struct cc1352_bl_rx rx;
	uint8_t pkt[255];
	size_t n = cc1352_bl_packet(pkt, sizeof(pkt), body, len), i, used;

	w->len = 0;
	cc1352_rom_feed(rom, pkt, n);
	cc1352_bl_rx_reset(&rx, CC1352_BL_RX_ACK);
	for (i = 0; i < w->len; i += used) {
		r = cc1352_bl_rx_feed(&rx, w->buf + i, w->len - i, &used);
		if (r == CC1352_BL_RX_GOT_ACK && answer) {
			cc1352_bl_rx_reset(&rx, CC1352_BL_RX_PACKET);
			r = CC1352_BL_RX_MORE;
			continue;
		}
		if (r != CC1352_BL_RX_MORE)
			break;
	}
	if (r == CC1352_BL_RX_GOT_PACKET) {
		memcpy(answer, rx.body, rx.len);
		cc1352_rom_feed(rom, ack, sizeof(ack));
	}
	return r;
}

static uint8_t status(struct cc1352_rom *rom, struct wire *w)
{
	static const uint8_t get = CC1352_BL_CMD_GET_STATUS;
	uint8_t s = 0;

	if (cmd(rom, w, &get, 1, &s) != CC1352_BL_RX_GOT_PACKET)
		return 0;
	return s;
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* The whole upload; the first step that failed (0: none) */
static int upload(struct cc1352_rom *rom, struct wire *w, const uint8_t *img)
{
	static const uint8_t sync[] = { 0x55, 0x55 };
	uint8_t b[256], crc[4];
	bool download = true;
	uint32_t off, n;

	w->len = 0;
	cc1352_rom_feed(rom, sync, 2);
	if (w->len != 2 || w->buf[1] != CC1352_BL_ACK)
		return 1;
	b[0] = CC1352_BL_CMD_PING;
	if (cmd(rom, w, b, 1, NULL) != CC1352_BL_RX_GOT_ACK)
		return 2;
	b[0] = CC1352_BL_CMD_BANK_ERASE;
	if (cmd(rom, w, b, 1, NULL) != CC1352_BL_RX_GOT_ACK ||
	    status(rom, w) != CC1352_BL_STATUS_SUCCESS)
		return 3;
	for (off = 0; off < CC1352_FLASH_SIZE; off += n) {
		n = CC1352_FLASH_SIZE - off < 252 ? CC1352_FLASH_SIZE - off : 252;
		if (img[off] == 0xff && !memcmp(img + off, img + off + 1, n - 1)) {
			download = true;
			continue;
		}
		if (download) {
			b[0] = CC1352_BL_CMD_DOWNLOAD;
			be32(b + 1, off);
			be32(b + 5, CC1352_FLASH_SIZE - off);
			if (cmd(rom, w, b, 9, NULL) != CC1352_BL_RX_GOT_ACK ||
			    status(rom, w) != CC1352_BL_STATUS_SUCCESS)
				return 4;
			download = false;
		}
		b[0] = CC1352_BL_CMD_SEND_DATA;
		memcpy(b + 1, img + off, n);
		if (cmd(rom, w, b, 1 + n, NULL) != CC1352_BL_RX_GOT_ACK ||
		    status(rom, w) != CC1352_BL_STATUS_SUCCESS)
			return 5;
	}
	b[0] = CC1352_BL_CMD_CRC32;
	be32(b + 1, 0);
	be32(b + 5, CC1352_FLASH_SIZE);
	be32(b + 9, 0);
	if (cmd(rom, w, b, 13, crc) != CC1352_BL_RX_GOT_PACKET)
		return 6;
	if (cc1352_rom_be32(crc) != cc1352_bl_crc32(img, CC1352_FLASH_SIZE))
		return 7;
	b[0] = CC1352_BL_CMD_RESET;
	if (cmd(rom, w, b, 1, NULL) != CC1352_BL_RX_GOT_ACK)
		return 8;
	return 0;
}

static void test_upload(void)
{
	static const struct {
		const char *cmd, *fault;
		int step;
	} faults[] = {
		{ "ping", "nack", 2 },
		{ "ping", "silent", 2 },
		{ "bank_erase", "status", 3 },
		{ "send_data", "nack", 5 },
		{ "send_data", "silent", 5 },
		{ "send_data", "reset", 5 },
		{ "send_data", "status", 5 },
		{ "get_status", "garbage", 3 },
		{ "send_data", "corrupt", 7 },
		{ "crc32", "garbage", 6 },
		{ "reset", "nack", 8 },
	};
	struct cc1352_rom *rom = calloc(1, sizeof(*rom));
	uint8_t *img = image("2.1-test");
	struct wire w = { .len = 0 };
	char version[40];
	int step;

	rom->emit = wire_emit;
	rom->ctx = &w;
	cc1352_rom_init(rom);
	CHECK(!cc1352_rom_flash_valid(rom), "erased flash boots");

	for (size_t i = 0; i < ARRAY_SIZE(faults); i++) {
		enum cc1352_rom_fault f = CC1352_ROM_FAULT_NONE;
		uint8_t c = 0;

		cc1352_rom_enter(rom);
		CHECK(!cc1352_rom_cmd_parse(faults[i].cmd, &c) &&
		      !cc1352_rom_fault_parse(faults[i].fault, &f), "parse");
		rom->fault_cmd = c;
		rom->fault = f;
		step = upload(rom, &w, img);
		CHECK(step == faults[i].step, "%s %s: failed at step %d, not %d",
		      faults[i].cmd, faults[i].fault, step, faults[i].step);
	}

	/* after every failure a new entry recovers */
	cc1352_rom_enter(rom);
	step = upload(rom, &w, img);
	CHECK(!step, "clean upload failed at step %d", step);
	CHECK(rom->boot && !rom->active, "RESET boots");
	CHECK(!memcmp(rom->flash, img, CC1352_FLASH_SIZE), "flash == image");
	CHECK(cc1352_rom_flash_valid(rom), "the flash boots");
	cc1352_rom_version(rom, version, sizeof(version));
	CHECK(!strcmp(version, "2.1-test"), "version '%s'", version);
	CHECK(rom->data_bytes < CC1352_FLASH_SIZE / 8,
	      "erased runs skipped: %lu bytes sent", rom->data_bytes);
	free(img);
	free(rom);
}

int main(void)
{
	tap_run("cc1352: packets, checksum and CRC-32", test_packet);
	tap_run("cc1352: the answer receiver, bounded", test_rx);
	tap_run("cc1352: image checks", test_image);
	tap_run("cc1352: upload against gbsim's bootloader, each fault, recovery", test_upload);
	return tap_exit_status();
}
