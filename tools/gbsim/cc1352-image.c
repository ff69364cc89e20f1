// SPDX-License-Identifier: GPL-2.0
/*
 * gbsim cc1352-image VERSION: write to stdout a CC1352P7 flash image that
 * the kernel's firmware upload accepts and the cc1352 personality boots,
 * reporting VERSION and the image's CRC32 (docs/hdlc.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc1352-rom.h"

int gbsim_cc1352_image_main(int argc, char **argv);

int gbsim_cc1352_image_main(int argc, char **argv)
{
	uint8_t *img;
	size_t off = 0;
	ssize_t n;

	if (argc != 2 || !argv[1][0] ||
	    strlen(argv[1]) > CC1352_ROM_VERSION_MAX ||
	    strspn(argv[1], "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_+") !=
	    strlen(argv[1])) {
		fprintf(stderr, "usage: gbsim cc1352-image VERSION >FILE (VERSION: 1 to %d of [A-Za-z0-9.-_+])\n",
			CC1352_ROM_VERSION_MAX);
		return 2;
	}
	if (isatty(STDOUT_FILENO)) {
		fprintf(stderr, "gbsim cc1352-image: the image is binary: redirect it to a file\n");
		return 2;
	}
	img = malloc(CC1352_FLASH_SIZE);
	if (!img) {
		fprintf(stderr, "gbsim cc1352-image: out of memory\n");
		return 1;
	}
	cc1352_rom_make_image(img, argv[1]);
	while (off < CC1352_FLASH_SIZE) {
		n = write(STDOUT_FILENO, img + off, CC1352_FLASH_SIZE - off);
		if (n <= 0) {
			perror("gbsim cc1352-image: write");
			free(img);
			return 1;
		}
		off += (size_t)n;
	}
	fprintf(stderr, "cc1352 image %s: %d bytes, crc32 %08x\n", argv[1],
		CC1352_FLASH_SIZE, cc1352_bl_crc32(img, CC1352_FLASH_SIZE));
	free(img);
	return 0;
}
