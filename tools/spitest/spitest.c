// SPDX-License-Identifier: GPL-2.0
/*
 * spitest: one SPI message through a spidev node, for the guest cases
 * (Debian ships no spidev_test).
 *
 *   spitest [-s HZ] [-b BITS] [-m MODE] [-n] DEV HEX [HEX...]
 *   spitest -i DEV
 *
 * Each HEX argument is one transfer, written and read at once (full
 * duplex); "rN" instead reads N bytes without writing.  -n (no cs_change)
 * is the default; the bytes read by every transfer are printed as hex,
 * one line per transfer.  -s and -b apply to every transfer.  -i prints
 * what spidev holds for the device (from SPI_IOC_RD_MODE,
 * SPI_IOC_RD_BITS_PER_WORD and SPI_IOC_RD_MAX_SPEED_HZ) as
 * "mode=0xMM bits_per_word=N max_speed_hz=N".  Exit status 1 if an ioctl
 * fails (its error on stderr), 2 for bad usage.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/spi/spidev.h>

#include "gb_hex.h"

#define SPITEST_MAX_XFERS	16

static void usage(void)
{
	fprintf(stderr, "usage: spitest [-s HZ] [-b BITS] [-m MODE] DEV HEX|rN...\n"
		"       spitest -i DEV\n");
	exit(2);
}

/* -i: the device's settings as spidev holds them */
static int show_info(const char *dev)
{
	uint8_t m8, bpw;
	uint32_t hz;
	int fd;

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "spitest: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (ioctl(fd, SPI_IOC_RD_MODE, &m8) < 0 ||
	    ioctl(fd, SPI_IOC_RD_BITS_PER_WORD, &bpw) < 0 ||
	    ioctl(fd, SPI_IOC_RD_MAX_SPEED_HZ, &hz) < 0) {
		fprintf(stderr, "spitest: %s: reading settings: %s\n", dev,
			strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("mode=0x%02x bits_per_word=%u max_speed_hz=%u\n", m8, bpw, hz);
	return 0;
}

/* Bytes of HEX into a new buffer; NULL if it is not hex */
static uint8_t *parse_hex(const char *s, size_t *len)
{
	size_t max = strlen(s) / 2;
	uint8_t *buf;
	ssize_t n;

	buf = malloc(max + 1);
	if (!buf)
		return NULL;
	n = gb_hex_decode(s, NULL, buf, max);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	*len = (size_t)n;
	return buf;
}

int main(int argc, char **argv)
{
	struct spi_ioc_transfer xfer[SPITEST_MAX_XFERS];
	unsigned long speed = 0, bits = 0, mode = 0;
	bool set_mode = false, info = false;
	uint8_t *tx[SPITEST_MAX_XFERS], *rx[SPITEST_MAX_XFERS];
	size_t len[SPITEST_MAX_XFERS];
	int opt, fd, n, i, ret;
	uint8_t m8;
	char *end;
	size_t j;

	while ((opt = getopt(argc, argv, "s:b:m:ni")) != -1) {
		switch (opt) {
		case 'i':
			info = true;
			continue;
		case 's':
			speed = strtoul(optarg, &end, 0);
			break;
		case 'b':
			bits = strtoul(optarg, &end, 0);
			break;
		case 'm':
			mode = strtoul(optarg, &end, 0);
			set_mode = true;
			break;
		case 'n':
			continue;
		default:
			usage();
		}
		if (*end)
			usage();
	}
	if (info) {
		if (argc - optind != 1)
			usage();
		return show_info(argv[optind]);
	}
	n = argc - optind - 1;
	if (n < 1 || n > SPITEST_MAX_XFERS)
		usage();

	memset(xfer, 0, sizeof(xfer));
	for (i = 0; i < n; i++) {
		const char *a = argv[optind + 1 + i];

		if (a[0] == 'r') {
			len[i] = strtoul(a + 1, &end, 0);
			if (*end || !len[i])
				usage();
			tx[i] = NULL;
		} else {
			tx[i] = parse_hex(a, &len[i]);
			if (!tx[i])
				usage();
		}
		rx[i] = calloc(1, len[i]);
		if (!rx[i]) {
			perror("spitest: calloc");
			return 1;
		}
		xfer[i].tx_buf = (uintptr_t)tx[i];
		xfer[i].rx_buf = (uintptr_t)rx[i];
		xfer[i].len = (uint32_t)len[i];
		xfer[i].speed_hz = (uint32_t)speed;
		xfer[i].bits_per_word = (uint8_t)bits;
	}

	fd = open(argv[optind], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "spitest: %s: %s\n", argv[optind],
			strerror(errno));
		return 1;
	}
	if (set_mode) {
		m8 = (uint8_t)mode;
		if (ioctl(fd, SPI_IOC_WR_MODE, &m8) < 0) {
			fprintf(stderr, "spitest: SPI_IOC_WR_MODE: %s\n",
				strerror(errno));
			return 1;
		}
	}
	ret = ioctl(fd, SPI_IOC_MESSAGE(n), xfer);
	if (ret < 0) {
		fprintf(stderr, "spitest: SPI_IOC_MESSAGE: %s\n",
			strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < len[i]; j++)
			printf("%02x", rx[i][j]);
		printf("\n");
	}
	close(fd);
	return 0;
}
